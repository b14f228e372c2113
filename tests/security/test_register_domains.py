"""Websites from the Norwegian (Brønnøysund `hjemmeside`) and Finnish (PRH `website`) registers into
`company_domains` (`regintel import no_brreg_domains` / `fi_prh_domains`), on the real API samples in
tests/fixtures/no_brreg and tests/fixtures/fi_prh (licences in their README), then `/domains` and
`/security` through HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from regintel.areas.security.tables import company_domains
from regintel.db.schema import data_sources, jobs
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source
from tests.helpers import assert_envelope
from tests.security.conftest import drain, job_settings
from tests.security.servers import well_configured
from tests.security.test_posture import https_site

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EQUINOR = FIXTURES / "no_brreg" / "enhetsregisteret_api_enheter_923609016.json"
SEARCH_PAGE = FIXTURES / "no_brreg" / "enheter-search-page2-response.json"
SUB_UNITS = FIXTURES / "no_brreg" / "underenheter-search-response.json"
NOKIA = FIXTURES / "fi_prh" / "ytj_v3_companies_businessId_0112038-9.json"


def run(engine, tmp_path, source, location):
    return run_import(engine, get_source(source), str(location), tmp_path / "data")


def domains(client, auth, ico, country):
    return assert_envelope(
        client.get(f"/api/v1/companies/{ico}/domains", params={"country": country}, headers=auth)
    )


def count(engine):
    with engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(company_domains)).scalar_one()


def test_brreg_hjemmeside_of_equinor_with_source_and_licence(client, auth, engine, tmp_path):
    run(engine, tmp_path, "no_brreg", EQUINOR)
    run_id, stats, rejects = run(engine, tmp_path, "no_brreg_domains", EQUINOR)
    assert rejects is None and (stats.read, stats.inserted) == (1, 1)
    [site] = domains(client, auth, "923609016", "no")
    assert (site["domain"], site["registered_domain"], site["kinds"], site["shared_domain"]) == (
        "www.equinor.com",
        "equinor.com",
        ["website"],
        False,
    )
    src = site["sources"][0]
    assert (src["source"], src["value"], src["record"], src["import_run"]) == (
        "no_brreg_domains",
        "www.equinor.com",
        "923609016 hjemmeside",
        run_id,
    )
    assert src["licence"].startswith("Norsk lisens for offentlige data") and src["retrieved_at"].endswith("Z")
    _, again, _ = run(engine, tmp_path, "no_brreg_domains", EQUINOR)
    assert (again.inserted, again.updated, again.unchanged, again.changes) == (0, 0, 1, 0)
    with engine.connect() as conn:
        assert (
            conn.execute(
                select(data_sources.c.row_count).where(data_sources.c.id == "no_brreg_domains")
            ).scalar_one()
            == 1
        )


def test_brreg_search_page_platform_site_is_listed_as_shared(client, auth, engine, tmp_path):
    run(engine, tmp_path, "no_brreg", SEARCH_PAGE)
    _, stats, _ = run(engine, tmp_path, "no_brreg_domains", SEARCH_PAGE)
    assert stats.inserted == 1 and stats.skip_reasons.get("no website published", 0) == stats.read - 1
    [site] = domains(client, auth, "988879134", "no")
    assert site["domain"] == "www.sesam.filmklubb.blogspot.com" and site["shared_domain"] is True
    # a platform site (blogspot.com, a private public suffix) is never checked
    view = assert_envelope(
        client.get("/api/v1/companies/988879134/security", params={"country": "no"}, headers=auth)
    )
    assert view["status"] == "no_domains" and view["skipped_domains"] == ["www.sesam.filmklubb.blogspot.com"]


def test_brreg_sub_units_are_skipped(engine, tmp_path):
    _, stats, _ = run(engine, tmp_path, "no_brreg_domains", SUB_UNITS)
    assert (
        stats.inserted == 0
        and stats.skip_reasons["underenhet (a sub-unit, not a legal entity)"] == stats.read
    )


def test_prh_website_of_nokia(client, auth, engine, tmp_path):
    run(engine, tmp_path, "fi_prh", NOKIA)
    _, stats, rejects = run(engine, tmp_path, "fi_prh_domains", NOKIA)
    assert rejects is None and stats.inserted == 1
    [site] = domains(client, auth, "0112038-9", "fi")
    assert (site["domain"], site["registered_domain"]) == ("www.nokia.com", "nokia.com")
    src = site["sources"][0]
    assert (src["source"], src["record"]) == ("fi_prh_domains", "0112038-9 website")
    assert src["licence"] == "CC BY 4.0"


def test_a_website_the_register_no_longer_lists_is_removed(engine, tmp_path):
    run(engine, tmp_path, "no_brreg_domains", EQUINOR)
    changed = json.loads(EQUINOR.read_text(encoding="utf-8"))
    del changed["hjemmeside"]
    later = tmp_path / "equinor-later.json"
    later.write_text(json.dumps(changed), encoding="utf-8")
    _, stats, _ = run(engine, tmp_path, "no_brreg_domains", later)
    assert stats.changes == 1 and count(engine) == 0


def test_prh_ended_website_and_bad_values_are_not_stored(engine, tmp_path):
    nokia = json.loads(NOKIA.read_text(encoding="utf-8"))
    ended = json.loads(json.dumps(nokia))
    ended["companies"][0]["website"]["endDate"] = "2024-01-01"
    path = tmp_path / "ended.json"
    path.write_text(json.dumps(ended), encoding="utf-8")
    _, stats, _ = run(engine, tmp_path, "fi_prh_domains", path)
    assert stats.inserted == 0 and count(engine) == 0
    for bad in ("http://10.0.0.1/", "not a host", "https://co.uk/"):
        nokia["companies"][0]["website"]["url"] = bad
        path.write_text(json.dumps(nokia), encoding="utf-8")
        _, stats, rejects = run(engine, tmp_path, "fi_prh_domains", path)
        assert stats.rejected == 1 and rejects is not None and count(engine) == 0, bad
        assert bad in rejects.read_text(encoding="utf-8")


@pytest.mark.parametrize("source, wrong", [("no_brreg_domains", NOKIA), ("fi_prh_domains", EQUINOR)])
def test_the_other_registers_file_or_no_json_writes_nothing(engine, tmp_path, source, wrong):
    with pytest.raises(SourceAbort):
        run(engine, tmp_path, source, wrong)
    garbage = tmp_path / "x.json"
    garbage.write_bytes(b"\xff\xfe not json")
    with pytest.raises(SourceAbort):
        run(engine, tmp_path, source, garbage)
    assert count(engine) == 0


def test_posture_of_a_norwegian_company_queues_its_register_website(client, auth, engine, tmp_path):
    run(engine, tmp_path, "no_brreg", EQUINOR)
    run(engine, tmp_path, "no_brreg_domains", EQUINOR)
    view = assert_envelope(
        client.get("/api/v1/companies/923609016/security", params={"country": "no"}, headers=auth)
    )
    assert (view["status"], view["queued"]) == ("pending", ["www.equinor.com"])
    with engine.connect() as conn:  # queued, never run here: outside hosts are not contacted by tests
        assert conn.execute(select(jobs.c.payload).where(jobs.c.kind == "security.check")).scalar_one() == {
            "host": "www.equinor.com"
        }


def test_posture_of_a_finnish_company_checked_on_loopback(
    client, auth, engine, settings, tmp_path, dns_server, authority, web
):
    # the real sample with its website pointed at a test host (.test is reserved, served on 127.0.0.1)
    nokia = json.loads(NOKIA.read_text(encoding="utf-8"))
    nokia["companies"][0]["website"]["url"] = "www.nokia-testi.test"
    path = tmp_path / "nokia.json"
    path.write_text(json.dumps(nokia), encoding="utf-8")
    run(engine, tmp_path, "fi_prh", path)
    run(engine, tmp_path, "fi_prh_domains", path)
    host = "www.nokia-testi.test"
    well_configured(dns_server, "nokia-testi.test", host)
    https, http = https_site(web, authority, host)
    url, params = "/api/v1/companies/0112038-9/security", {"country": "fi"}
    assert assert_envelope(client.get(url, params=params, headers=auth))["status"] == "pending"
    assert (
        drain(
            engine, job_settings(settings, dns_server=dns_server, https=https, http=http, authority=authority)
        )
        == 1
    )
    view = assert_envelope(client.get(url, params=params, headers=auth))
    assert view["status"] == "done" and view["score"] >= 90 and view["domains"][0]["domain"] == host
