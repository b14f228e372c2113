"""`/brand-signals` and `/brand-signals/{domain}` through HTTP: technologies from the open rule file,
mail provider from MX, certificate issuer, filters, paging, edges."""

from __future__ import annotations

from tests.helpers import assert_envelope, assert_error
from tests.security.conftest import add_domain, drain, job_settings
from tests.security.servers import well_configured
from tests.security.test_posture import GOOD_HEADERS, PAGE


def _site(web, authority, host, headers, body):
    https = web(headers, body=body, cert=authority.leaf([host]))
    http = web({"Location": f"https://{host}/"}, status=301)
    return https, http


def test_signals_of_a_checked_domain(client, auth, engine, settings, company, dns_server, authority, web):
    host = add_domain(engine, "www.znacka.test")
    well_configured(dns_server, "znacka.test", host)
    https, http = _site(web, authority, host, GOOD_HEADERS | {"Set-Cookie": "PHPSESSID=1; Secure"}, PAGE)
    pending = assert_envelope(client.get(f"/api/v1/brand-signals/{host}", headers=auth))
    assert (
        pending["status"] == "pending" and pending["recheck_queued"] is True and pending["technologies"] == []
    )
    drain(engine, job_settings(settings, dns_server, https, http, authority))
    data = assert_envelope(client.get("/api/v1/brand-signals/WWW.Znacka.test.", headers=auth))
    names = {t["name"]: t for t in data["technologies"]}
    assert set(names) == {"WordPress", "Nginx", "PHP", "jQuery"}
    assert names["WordPress"]["evidence"] == "meta generator: WordPress 6.4.2 (version 6.4.2)"
    assert names["WordPress"]["category"] == "CMS"
    assert names["PHP"]["evidence"] == "cookie phpsessid"
    assert data["mail_provider"] == {"name": "Google Workspace", "evidence": "MX aspmx.l.google.com"}
    assert data["cert_issuer"]["name"] == "Regintel Test CA"
    assert data["status"] == "done" and data["score"] == 100 and data["recheck_queued"] is False
    assert data["companies"] == [{"country": "SK", "national_id": "36000001", "name": "Bezpečná s.r.o."}]


def test_list_filters_and_paging(client, auth, engine, settings, company, dns_server, authority, web):
    sites = {
        "www.prvy.test": GOOD_HEADERS,
        "www.druhy.test": {"Server": "Microsoft-IIS/10.0", "X-Powered-By": "ASP.NET"},
    }
    servers = {}
    for host in sites:
        add_domain(engine, host)
        well_configured(dns_server, host.split(".", 1)[1], host)
    for host, headers in sites.items():
        assert_envelope(client.get(f"/api/v1/brand-signals/{host}", headers=auth))
        servers[host] = _site(
            web, authority, host, headers, PAGE if host == "www.prvy.test" else "<html></html>"
        )
        drain(engine, job_settings(settings, dns_server, *servers[host], authority))
    everything = client.get("/api/v1/brand-signals", headers=auth)
    data = assert_envelope(everything)
    assert [d["domain"] for d in data] == ["www.druhy.test", "www.prvy.test"]
    assert everything.json()["meta"]["total"] == 2
    by_tech = assert_envelope(client.get("/api/v1/brand-signals?technology=microsoft%20iis", headers=auth))
    assert [d["domain"] for d in by_tech] == ["www.druhy.test"]
    assert [
        d["domain"] for d in assert_envelope(client.get("/api/v1/brand-signals?category=CMS", headers=auth))
    ] == ["www.prvy.test"]
    google = assert_envelope(
        client.get("/api/v1/brand-signals?mail_provider=Google%20Workspace", headers=auth)
    )
    assert len(google) == 2
    issuer = assert_envelope(
        client.get("/api/v1/brand-signals?cert_issuer=Regintel%20Test%20CA&domain=prvy.test", headers=auth)
    )
    assert [d["domain"] for d in issuer] == ["www.prvy.test"]
    weak = assert_envelope(client.get("/api/v1/brand-signals?max_score=99", headers=auth))
    assert [d["domain"] for d in weak] == ["www.druhy.test"]
    page2 = client.get("/api/v1/brand-signals?per_page=1&page=2", headers=auth)
    assert [d["domain"] for d in assert_envelope(page2)] == ["www.prvy.test"]
    assert page2.json()["meta"] | {"total": 2, "page": 2, "per_page": 1} == page2.json()["meta"]
    assert assert_envelope(client.get("/api/v1/brand-signals?technology=Drupal", headers=auth)) == []


def test_edges(client, auth, engine, company):
    add_domain(engine, "www.známa.test")
    add_domain(engine, "firma@gmail.com", kind="email")
    assert_error(client.get("/api/v1/brand-signals/gmail.com", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get("/api/v1/brand-signals/www.neznama.test", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get("/api/v1/brand-signals/not a domain", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/brand-signals/127.0.0.1", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/brand-signals/co.uk", headers=auth), 422, "VALIDATION_ERROR")
    unicode = assert_envelope(client.get("/api/v1/brand-signals/www.ZNÁMA.test", headers=auth))
    assert unicode["domain"] == "www.xn--znma-6na.test" and unicode["status"] == "pending"
    assert_error(client.get("/api/v1/brand-signals?per_page=0", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(
        client.get("/api/v1/brand-signals?page=200&per_page=100", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get("/api/v1/brand-signals?colour=red", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/brand-signals?domain=..", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/brand-signals"), 401, "UNAUTHORIZED")
    assert assert_envelope(client.get("/api/v1/brand-signals", headers=auth)) == []
