"""`/companies/{ico}/domains` and the KBO contact import (`regintel import be_kbo_contacts`): provenance,
idempotent re-import, update-set semantics, rejects, a malformed file writing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from regintel.areas.security.tables import company_domains
from regintel.db.schema import data_sources, import_runs
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "security" / "kbo_contacts"
SVD, GERA = "0628983929", "0741731086"
HEADER = '"EntityNumber","EntityContact","ContactType","Value"\n'


def run(engine, tmp_path, location):
    return run_import(engine, get_source("be_kbo_contacts"), str(location), tmp_path / "data")


def count(engine):
    with engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(company_domains)).scalar_one()


@pytest.fixture
def belgian(engine):
    load_companies(
        engine,
        CompanyRecord(country="BE", national_id=SVD, name="SVD Solutions"),
        CompanyRecord(country="BE", national_id=GERA, name="GERA International"),
    )


def test_real_update_set_gives_each_company_its_domains_with_source(client, auth, engine, tmp_path, belgian):
    run_id, stats, rejects = run(engine, tmp_path, FIXTURE)
    assert rejects is None and stats.rejected == 0
    assert stats.inserted == 18 and stats.skip_reasons["contact type TEL (not a domain)"] == 3
    resp = client.get(f"/api/v1/companies/{SVD}/domains", params={"country": "be"}, headers=auth)
    data = assert_envelope(resp)
    assert [d["domain"] for d in data] == ["www.svd-solutions.be", "svd-solutions.be"]
    web, mail = data
    assert web["kinds"] == ["website"] and web["registered_domain"] == "svd-solutions.be"
    assert mail["kinds"] == ["email"] and mail["sources"][0]["value"] == "@svd-solutions.be"  # no local part
    src = web["sources"][0]
    assert src["source"] == "be_kbo_contacts" and src["licence"].startswith("KBO Open Data licence")
    assert (
        src["published_on"] == "2025-10-11"
        and src["import_run"] == run_id
        and src["retrieved_at"].endswith("Z")
    )
    assert src["record"] == "0628.983.929 WEB"
    assert resp.json()["meta"]["total"] == 2


def test_second_import_writes_nothing(engine, tmp_path):
    run(engine, tmp_path, FIXTURE)
    _, stats, _ = run(engine, tmp_path, FIXTURE)
    assert (stats.inserted, stats.updated, stats.changes, stats.unchanged) == (0, 0, 0, 18)
    with engine.connect() as conn:
        runs = conn.execute(
            select(import_runs.c.status).where(import_runs.c.source == "be_kbo_contacts")
        ).all()
        source = conn.execute(
            select(data_sources.c.row_count, data_sources.c.licence).where(
                data_sources.c.id == "be_kbo_contacts"
            )
        ).one()
    assert [r.status for r in runs] == ["succeeded", "succeeded"] and source.row_count == 18


def test_shared_and_platform_domains_are_flagged(client, auth, engine, tmp_path, belgian):
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "contact_insert.csv").write_text(
        HEADER + f'"{SVD}","ENT","EMAIL","svd.solutions@gmail.com"\n"{SVD}","ENT","WEB",'
        '"https://www.facebook.com/svd"\n',
        encoding="utf-8",
    )
    run(engine, tmp_path, folder)
    data = assert_envelope(client.get(f"/api/v1/companies/{SVD}/domains?country=BE", headers=auth))
    assert {(d["domain"], d["shared_domain"]) for d in data} == {
        ("gmail.com", True),
        ("www.facebook.com", True),
    }


def test_update_set_replaces_an_enterprise_domains(engine, tmp_path):
    run(engine, tmp_path, FIXTURE)
    folder = tmp_path / "next"
    folder.mkdir()
    (folder / "contact_delete.csv").write_text(f'"EntityNumber"\n"{GERA[:4]}.{GERA[4:7]}.{GERA[7:]}"\n')
    (folder / "contact_insert.csv").write_text(
        HEADER + f'"{GERA}","ENT","WEB","https://www.Čaj-gera.be/kontakt"\n', encoding="utf-8"
    )
    _, stats, _ = run(engine, tmp_path, folder)
    with engine.connect() as conn:
        hosts = conn.execute(
            select(company_domains.c.host).where(company_domains.c.national_id == GERA)
        ).scalars()
        assert list(hosts) == ["www.xn--aj-gera-i6a.be"]
    assert (
        stats.inserted == 1
        and stats.skip_reasons["domains removed (the enterprise no longer lists them)"] == 7
    )
    assert count(engine) == 18 - 7 + 1


def test_bad_rows_are_rejected_with_reasons(engine, tmp_path):
    path = tmp_path / "contact_insert.csv"
    path.write_text(
        HEADER + f'"{SVD}","ENT","WEB","www.ok.be"\n"0000.000.001","ENT","WEB","x.be"\n'
        f'"{SVD}","ENT","EMAIL","not an address"\n"{SVD}","ENT","WEB","192.168.1.1"\n"{SVD}","ENT"\n',
        encoding="utf-8",
    )
    _, stats, rejects = run(engine, tmp_path, path)
    assert stats.inserted == 1 and stats.rejected == 4
    reasons = [json.loads(line)["reason"] for line in rejects.read_text().splitlines()]
    assert any("invalid enterprise number" in r for r in reasons)
    assert any("not an e-mail address" in r for r in reasons)
    assert any("IP address" in r for r in reasons)


@pytest.mark.parametrize("content", ["", '"Foo","Bar"\n"1","2"\n', "\x00\x01garbage"])
def test_malformed_file_writes_nothing(engine, tmp_path, content):
    run(engine, tmp_path, FIXTURE)
    path = tmp_path / "contact.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, tmp_path, path)
    assert count(engine) == 18
    with engine.connect() as conn:
        last = conn.execute(
            select(import_runs.c.status).order_by(import_runs.c.id.desc()).limit(1)
        ).scalar_one()
    assert last == "failed"


def test_missing_folder_or_files(engine, tmp_path):
    with pytest.raises(SourceAbort):
        run(engine, tmp_path, tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceAbort):
        run(engine, tmp_path, tmp_path / "empty")


def test_domains_edges(client, auth, engine, belgian):
    assert assert_envelope(client.get(f"/api/v1/companies/{SVD}/domains?country=be", headers=auth)) == []
    assert_error(
        client.get("/api/v1/companies/0234567873/domains?country=be", headers=auth), 404, "NOT_FOUND"
    )
    assert_error(
        client.get(f"/api/v1/companies/{SVD}/domains?country=be&x=1", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get(f"/api/v1/companies/{SVD}/domains?country=be"), 401, "UNAUTHORIZED")
