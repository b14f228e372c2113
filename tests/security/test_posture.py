"""`/companies/{ico}/security` and `/security/cyber-score` through HTTP: each finding proven against a
loopback host set up to show it (DNS on 127.0.0.1, TLS servers with certificates made by `cryptography`)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from regintel.db.schema import jobs
from tests.helpers import assert_envelope, assert_error
from tests.security.conftest import ICO, add_domain, drain, job_settings
from tests.security.servers import well_configured

GOOD_HEADERS = {
    "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Server": "nginx",
}
PAGE = (
    '<html><head><meta name="generator" content="WordPress 6.4.2">'
    '<script src="/wp-includes/js/jquery/jquery.min.js"></script></head><body>Ahoj</body></html>'
)


def get(client, auth, path="security", ico=ICO, **params):
    return client.get(f"/api/v1/companies/{ico}/{path}", params=params, headers=auth)


def https_site(web, authority, host, headers=GOOD_HEADERS, body=PAGE, **cert_kwargs):
    https = web(headers, body=body, cert=authority.leaf([host], **cert_kwargs))
    http = web({"Location": f"https://{host}/"}, status=301)
    return https, http


def checked(client, auth, engine, settings, **kwargs):
    first = assert_envelope(get(client, auth))
    assert first["status"] == "pending"
    assert drain(engine, job_settings(settings, **kwargs)) >= 1
    return assert_envelope(get(client, auth))


def ids(view):
    return sorted(f["id"] for f in view["findings"])


def test_a_well_configured_domain_scores_100(
    client, auth, engine, settings, company, dns_server, authority, web
):
    host = add_domain(engine, "https://www.bezpecna.test/")
    well_configured(dns_server, "bezpecna.test", host)
    https, http = https_site(web, authority, host)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert view["status"] == "done"
    assert ids(view) == ["server_version_disclosed"] or ids(view) == []
    assert view["score"] == 100 and view["band"] == "good"
    assert view["domains"][0]["domain"] == "www.bezpecna.test"
    assert view["domains"][0]["checked_at"].endswith("Z")
    score = assert_envelope(get(client, auth, "security/cyber-score"))
    assert score["score"] == 100 and score["points_lost"] == {"mail": 0, "dns": 0, "tls": 0, "http": 0}
    assert score["weakest_domain"] == "www.bezpecna.test"


def test_expired_certificate(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "www.stara.test")
    well_configured(dns_server, "stara.test", host)
    https, http = https_site(web, authority, host, days_left=-3)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == ["tls_cert_expired"]
    assert view["findings"][0]["severity"] == "critical" and view["score"] == 60
    assert view["findings"][0]["domain"] == "www.stara.test"


def test_certificate_expiring_soon(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "www.skoro.test")
    well_configured(dns_server, "skoro.test", host)
    https, http = https_site(web, authority, host, days_left=5)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == ["tls_cert_expiring"]


def test_self_signed_certificate_is_untrusted(
    client, auth, engine, settings, company, dns_server, authority, web
):
    host = add_domain(engine, "www.vlastny.test")
    well_configured(dns_server, "vlastny.test", host)
    https, http = https_site(web, authority, host, self_signed=True)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == ["tls_cert_untrusted"]


def test_certificate_for_another_name(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "www.iny.test")
    well_configured(dns_server, "iny.test", host)
    https = web(GOOD_HEADERS, body=PAGE, cert=authority.leaf(["shop.iny.test"]))
    http = web({"Location": f"https://{host}/"}, status=301)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == ["tls_cert_name_mismatch"]


def test_tls_1_0_only(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "www.stary-tls.test")
    well_configured(dns_server, "stary-tls.test", host)
    https = web(GOOD_HEADERS, body=PAGE, cert=authority.leaf([host]), versions=("TLSv1", "TLSv1"))
    http = web({"Location": f"https://{host}/"}, status=301)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    # TLS 1.0 only: the legacy protocol and no modern one (the verified handshake fails too, since the
    # default client context refuses TLS 1.0: the certificate is not judged untrusted for that).
    assert ids(view) == ["tls_legacy_protocol", "tls_modern_missing"]
    assert view["score"] == 100 - 10 - 20


def test_missing_hsts_headers_and_no_redirect(
    client, auth, engine, settings, company, dns_server, authority, web
):
    host = add_domain(engine, "www.holy.test")
    well_configured(dns_server, "holy.test", host)
    https = web(
        {"Server": "Apache/2.4.57 (Debian)", "X-Powered-By": "PHP/8.2.7"},
        body="<html></html>",
        cert=authority.leaf([host]),
    )
    http = web({}, body="plain", status=200)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == [
        "csp_missing",
        "frame_protection_missing",
        "hsts_missing",
        "http_not_redirected",
        "server_version_disclosed",
        "xcto_missing",
    ]
    assert view["score"] == 100 - 10 - 10 - 4 - 4 - 4


def test_short_hsts(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "www.kratke.test")
    well_configured(dns_server, "kratke.test", host)
    https, http = https_site(
        web, authority, host, headers=GOOD_HEADERS | {"Strict-Transport-Security": "max-age=300"}
    )
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == ["hsts_short"]


def test_no_https_at_all(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "www.bez-tls.test")
    well_configured(dns_server, "bez-tls.test", host)
    http = web({}, body="plain")
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=None, http=http, authority=authority
    )
    assert ids(view) == ["http_not_redirected", "https_unavailable"]


def test_mail_and_dns_records_missing(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "info@posta.test", kind="email")
    dns_server.add("posta.test", "A", "127.0.0.1")
    dns_server.add("posta.test", "TXT", '"v=spf1 +all"')
    https, http = https_site(web, authority, host)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == ["caa_missing", "dmarc_missing", "dnssec_missing", "mx_missing", "spf_allows_all"]
    spf = next(f for f in view["findings"] if f["id"] == "spf_allows_all")
    assert spf["evidence"] == "v=spf1 +all" and spf["category"] == "mail"


@pytest.mark.parametrize(
    "spf, dmarc, expected",
    [
        ('"v=spf1 mx ?all"', '"v=DMARC1; p=none"', ["dmarc_policy_none", "spf_neutral"]),
        ('"v=spf1 mx"', '"v=DMARC1; p=quarantine"', ["spf_no_all"]),
        ('"v=spf1 -all"', '"v=DMARC1; p=reject"', []),
    ],
)
def test_spf_and_dmarc_policies(
    client, auth, engine, settings, company, dns_server, authority, web, spf, dmarc, expected
):
    host = add_domain(engine, "info@politika.test", kind="email")
    dns_server.add("politika.test", "MX", "10 mx.politika.test.")
    dns_server.add("politika.test", "TXT", spf)
    dns_server.add("_dmarc.politika.test", "TXT", dmarc)
    dns_server.add("politika.test", "CAA", '0 issue "letsencrypt.org"')
    dns_server.add("politika.test", "A", "127.0.0.1")
    https, http = https_site(web, authority, host)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == sorted(expected + ["dnssec_missing"])


def test_two_spf_records(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "www.dve.test")
    well_configured(dns_server, "dve.test", host)
    dns_server.add("dve.test", "TXT", '"v=spf1 a -all"')
    https, http = https_site(web, authority, host)
    view = checked(
        client, auth, engine, settings, dns_server=dns_server, https=https, http=http, authority=authority
    )
    assert ids(view) == ["spf_multiple"]


def test_private_addresses_are_refused_in_production(
    client, auth, engine, settings, company, dns_server, web, authority
):
    host = add_domain(engine, "www.vnutorna.test")
    well_configured(dns_server, "vnutorna.test", host, address="10.1.2.3")
    https, http = https_site(web, authority, host)
    view = checked(
        client,
        auth,
        engine,
        settings,
        dns_server=dns_server,
        https=https,
        http=http,
        authority=authority,
        security_allow_private=False,
    )
    domain = view["domains"][0]
    assert domain["status"] == "refused" and domain["score"] is None
    assert "private" in domain["error"] and "10.1.2.3" in domain["error"]
    assert view["status"] == "done" and view["score"] is None


def test_loopback_is_refused_without_the_test_switch(
    client, auth, engine, settings, company, dns_server, web, authority
):
    host = add_domain(engine, "www.loop.test")
    well_configured(dns_server, "loop.test", host)
    https, http = https_site(web, authority, host)
    view = checked(
        client,
        auth,
        engine,
        settings,
        dns_server=dns_server,
        https=https,
        http=http,
        authority=authority,
        security_allow_private=False,
    )
    assert view["domains"][0]["status"] == "refused" and "loopback" in view["domains"][0]["error"]


def test_unresolvable_host(client, auth, engine, settings, company, dns_server, authority):
    add_domain(engine, "www.nikde.test")
    dns_server.add("nikde.test", "MX", "10 mx.nikde.test.")
    view = checked(client, auth, engine, settings, dns_server=dns_server, authority=authority)
    assert "host_unresolvable" in ids(view)


def test_dns_silence_fails_the_check_and_retries(client, auth, engine, settings, company, dns_server):
    add_domain(engine, "www.ticho.test")
    assert assert_envelope(get(client, auth))["status"] == "pending"
    silent = job_settings(
        settings, dns_server, security_nameservers=["127.0.0.1:9"], security_timeout_seconds=0.3
    )
    assert drain(engine, silent) == 1
    view = assert_envelope(get(client, auth))
    assert view["domains"][0]["status"] == "failed" and "no DNS answer" in view["domains"][0]["error"]
    with engine.connect() as conn:
        row = conn.execute(
            select(jobs.c.status, jobs.c.attempts).where(jobs.c.kind == "security.check")
        ).one()
    assert row.status == "queued" and row.attempts == 1  # tried again later


def test_pending_queues_one_job_and_serves_the_stored_result(
    client, auth, engine, settings, company, dns_server, authority, web
):
    host = add_domain(engine, "www.fronta.test")
    well_configured(dns_server, "fronta.test", host)
    first = assert_envelope(get(client, auth))
    assert first["status"] == "pending" and first["queued"] == ["www.fronta.test"] and first["score"] is None
    assert first["domains"][0]["status"] == "pending" and first["domains"][0]["recheck_queued"] is True
    again = assert_envelope(get(client, auth, "security/cyber-score"))
    assert again["status"] == "pending" and again["score"] is None
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).where(jobs.c.kind == "security.check")).scalar_one() == 1
    https, http = https_site(web, authority, host)
    drain(engine, job_settings(settings, dns_server, https, http, authority))
    done = assert_envelope(get(client, auth))
    assert done["status"] == "done" and done["queued"] == [] and done["domains"][0]["recheck_queued"] is False
    stale = app_client_with_max_age(client, auth)
    assert stale["domains"][0]["recheck_queued"] is True and stale["score"] == done["score"]


def app_client_with_max_age(client, auth):
    """A stored check older than the maximum age is served and queued again."""
    app = client.app
    app.state.settings = app.state.settings.model_copy(update={"security_max_age_hours": 1e-9})
    return assert_envelope(client.get(f"/api/v1/companies/{ICO}/security", headers=auth))


def test_company_without_domains(client, auth, company):
    view = assert_envelope(get(client, auth))
    assert view["status"] == "no_domains" and view["score"] is None and view["domains"] == []
    score = assert_envelope(get(client, auth, "security/cyber-score"))
    assert score["status"] == "no_domains" and score["points_lost"] is None


def test_shared_mail_domains_are_not_checked(client, auth, engine, company):
    add_domain(engine, "firma@gmail.com", kind="email")
    view = assert_envelope(get(client, auth))
    assert view["status"] == "no_domains" and view["skipped_domains"] == ["gmail.com"]


def test_edges(client, auth, company):
    assert_error(get(client, auth, ico="99999999"), 404, "NOT_FOUND")
    assert_error(get(client, auth, ico="abc"), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, bogus="1"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"/api/v1/companies/{ICO}/security"), 401, "UNAUTHORIZED")
