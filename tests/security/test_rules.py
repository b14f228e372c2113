"""Pure parts: host normalisation, the fingerprint rules, SPF/DMARC judging, scores."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from regintel.areas.security import signals
from regintel.areas.security.dnschecks import DnsFacts, judge
from regintel.areas.security.findings import CATALOGUE, WEIGHTS, band, company_score, score
from regintel.areas.security.names import NotAHost, email_host, normalise_host, website_host
from regintel.areas.security.tlschecks import TlsFacts
from regintel.areas.security.tlschecks import judge as judge_tls


@pytest.mark.parametrize(
    "raw, host, registered",
    [
        ("www.liespraet.be", "www.liespraet.be", "liespraet.be"),
        ("http://WWW.Example.co.uk/kontakt?x=1", "www.example.co.uk", "example.co.uk"),
        ("https://Čaj.sk:8443", "xn--aj-dma.sk", "xn--aj-dma.sk"),
        ("shop.example.com.", "shop.example.com", "example.com"),
    ],
)
def test_website_hosts(raw, host, registered):
    assert website_host(raw) == type(website_host(raw))(host, registered)


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "co.uk",
        "1.2.3.4",
        "http://[::1]/",
        "ftp://x.sk",
        "x..sk",
        "http://user:pw@x.sk",
        "a" * 300 + ".sk",
    ],
)
def test_not_hosts(raw):
    with pytest.raises(NotAHost):
        website_host(raw)


def test_email_domains():
    assert email_host("Info@Firma.SK").host == "firma.sk"
    assert email_host("jan@čaj.sk").host == "xn--aj-dma.sk"
    for bad in ("no-at-sign", "a@b", "@firma.sk", "a@localhost"):
        with pytest.raises(NotAHost):
            email_host(bad)
    with pytest.raises(NotAHost):
        normalise_host("com")


def test_fingerprint_rules_load_and_match():
    assert len(signals.rules().technologies) >= 25
    markers = signals.page_markers(
        '<html><head><meta name="Generator" content="Drupal 10 (https://drupal.org)">'
        '<script src="https://www.googletagmanager.com/gtm.js?id=G"></script></head></html>'
    )
    found = {s.name for s in signals.technologies({"server": "cloudflare", "cf-ray": "x"}, [], markers)}
    assert found == {"Drupal", "Google Tag Manager", "Cloudflare"}
    assert signals.page_markers("") == {"meta": {}, "scripts": []}
    assert signals.page_markers("plain text, no markup") == {"meta": {}, "scripts": []}
    assert [s.name for s in signals.mail_provider(["firma-sk.mail.protection.outlook.com"])] == [
        "Microsoft 365"
    ]
    assert signals.mail_provider(["mx.firma.sk"]) == []
    assert signals.cert_issuer({"C": "US", "O": "Let's Encrypt", "CN": "R3"})[0].name == "Let's Encrypt"
    assert signals.is_shared_domain("gmail.com") and not signals.is_shared_domain("firma.sk")


def _ids(findings):
    return sorted(f.id for f in findings)


def test_dns_judging_ignores_unanswered_queries():
    facts = DnsFacts(errors={"TXT x.sk": "Timeout", "MX x.sk": "Timeout"})
    assert _ids(judge(facts, "x.sk", "x.sk")) == ["caa_missing", "dmarc_missing", "dnssec_missing"]


def test_dnssec_without_ds():
    facts = DnsFacts(
        mx=["mx.x.sk"], spf=["v=spf1 -all"], dmarc=["v=DMARC1; p=reject"], dnskey=True, caa=["0 issue x"]
    )
    assert _ids(judge(facts, "x.sk", "x.sk")) == ["dnssec_no_ds"]


def test_tls_judging_dates():
    now = datetime(2026, 11, 25, tzinfo=UTC)
    facts = TlsFacts(
        reachable=True,
        protocols={"TLSv1.2": True},
        names=["*.x.sk"],
        trusted=True,
        not_before=now + timedelta(days=1),
        not_after=now + timedelta(days=300),
    )
    assert _ids(judge_tls(facts, "www.x.sk", now)) == ["tls_cert_not_yet_valid"]
    assert _ids(judge_tls(facts, "a.b.x.sk", now)) == ["tls_cert_name_mismatch", "tls_cert_not_yet_valid"]


def test_scores():
    assert {severity for severity, _, _ in CATALOGUE.values()} <= set(WEIGHTS)
    assert score([]) == 100
    assert score([{"severity": "critical"}] * 3) == 0
    assert company_score([90, 40, 70]) == 40 and company_score([]) is None
    assert [band(v) for v in (100, 80, 79, 60, 59, 40, 39, None)] == [
        "good",
        "good",
        "fair",
        "fair",
        "weak",
        "weak",
        "poor",
        None,
    ]
