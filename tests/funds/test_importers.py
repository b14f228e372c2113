"""The funds importers on the fixtures written from the publishers' documentation: what they store and
link, that a re-import writes nothing, that a changed record is rewritten, and that a malformed file is
refused whole with its reason in the reject file."""

from __future__ import annotations

import gzip
import json

import pytest
from sqlalchemy import select

from regintel.areas.funds.tables import cordis_participants, cordis_projects, fund_awards
from regintel.db.schema import data_sources, import_runs
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from tests.funds.common import (
    FILES,
    FIXTURES,
    KOHESIO,
    SOURCES,
    count,
    import_all,
    import_source,
    load_fund_companies,
)
from tests.helpers import assert_envelope

TABLES = (fund_awards, cordis_projects, cordis_participants)


def _snapshot(engine):
    with engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(select(t)).all()), key=repr) for t in TABLES}


def _links(engine, source):
    with engine.connect() as conn:
        return sorted(
            conn.execute(
                select(
                    fund_awards.c.beneficiary_name, fund_awards.c.match_method, fund_awards.c.match_score
                ).where(fund_awards.c.source == source)
            ).all(),
            key=repr,
        )


@pytest.fixture
def companies(engine):
    load_fund_companies(engine)


@pytest.mark.parametrize(
    "source, counts",
    [
        ("eu_kohesio", [(5, 3, 0, 2)]),
        ("eu_fts", [(4, 3, 1, 0)]),
        ("eu_cordis", [(3, 2, 0, 1), (6, 5, 0, 1)]),
        ("cz_dotinfo", [(4, 3, 0, 1)]),
        ("eu_state_aid_tam", [(5, 4, 0, 1)]),
    ],
)
def test_each_source_reads_inserts_skips_and_rejects(engine, settings, companies, source, counts):
    stats = import_source(engine, settings.data_dir, source)
    assert [(s.read, s.inserted, s.skipped, s.rejected) for s in stats] == counts


def test_rejected_rows_are_written_with_their_reasons(engine, settings, companies):
    import_source(engine, settings.data_dir, "eu_kohesio")
    lines = [
        json.loads(line)
        for path in (settings.data_dir / "rejects").glob("eu_kohesio-*.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    assert sorted(r["reason"] for r in lines) == [
        "'12x' is not an amount",
        "row without a project id or a beneficiary",
    ]
    assert all(r["record"]["Beneficiary"] for r in lines)


def test_beneficiaries_are_linked_by_identifier_vat_or_name(engine, settings, companies):
    import_all(engine, settings.data_dir)
    assert _links(engine, "eu_kohesio") == [
        ("Alza.cz a.s.", "name", 1.0),
        ("Obec Horná Dolná", None, None),
        ("SLOVNAFT, a.s.", "name", 1.0),
    ]
    assert _links(engine, "eu_fts") == [
        ("Fraunhofer-Gesellschaft zur Förderung der angewandten Forschung e.V.", None, None),
        ("SLOVNAFT, a.s.", "vat", 1.0),
        ("Univerzita Karlova", "vat", 1.0),
    ]
    # DotInfo's IČO is authoritative: Alza's name with an IČO no company holds stays unlinked
    assert _links(engine, "cz_dotinfo") == [
        ("Alza.cz a.s.", "identifier", 1.0),
        ("Alza.cz a.s.", None, None),
        ("ČEZ, a. s.", "identifier", 1.0),
    ]
    assert _links(engine, "eu_state_aid_tam") == [
        ("Neznámá firma s.r.o.", None, None),
        ("SLOVNAFT, a.s.", "identifier", 1.0),
        ("SLOVNAFT, a.s.", "vat", 1.0),
        ("ČEZ, a. s.", "identifier", 1.0),
    ]
    with engine.connect() as conn:
        methods = conn.execute(select(cordis_participants.c.match_method)).scalars().all()
    assert methods == ["vat"] * 5


def test_amounts_dates_and_currencies_are_read_as_published(engine, settings, companies):
    import_all(engine, settings.data_dir)
    with engine.connect() as conn:
        subsidy = (
            conn.execute(select(fund_awards).where(fund_awards.c.record_key == "MPO-2024-000123"))
            .mappings()
            .one()
        )
        project = (
            conn.execute(select(cordis_projects).where(cordis_projects.c.project_id == "958001"))
            .mappings()
            .one()
        )
        aid = (
            conn.execute(select(fund_awards).where(fund_awards.c.record_key == "SK-2022-0042"))
            .mappings()
            .one()
        )
    assert (
        float(subsidy["amount"]),
        subsidy["currency"],
        subsidy["granted_on"].isoformat(),
        subsidy["year"],
    ) == (1250000.5, "CZK", "2024-03-15", 2024)
    assert (float(project["total_cost"]), float(project["ec_max_contribution"]), project["framework"]) == (
        2500000.5,
        2100000.25,
        "H2020",
    )
    assert (
        float(aid["amount"]),
        float(aid["aid_element"]),
        aid["currency"],
        aid["measure"],
        aid["measure_type"],
        aid["granted_on"].isoformat(),
    ) == (3000000.0, 410000.0, "EUR", "SA.46789", "GBER", "2022-09-01")
    assert aid["link"] == "https://competition-cases.ec.europa.eu/cases/SA.46789"


def test_reimport_writes_nothing(engine, settings, companies):
    import_all(engine, settings.data_dir)
    before = _snapshot(engine)
    again = import_all(engine, settings.data_dir)
    assert sum(s.inserted + s.updated for runs in again.values() for s in runs) == 0
    assert sum(s.unchanged for runs in again.values() for s in runs) == 3 + 3 + 2 + 5 + 3 + 4
    assert _snapshot(engine) == before


def test_a_changed_record_is_rewritten(engine, settings, companies, tmp_path):
    import_source(engine, settings.data_dir, "cz_dotinfo")
    changed = tmp_path / "dotinfo.csv"
    changed.write_text(
        FILES["cz_dotinfo"][0].read_text(encoding="utf-8").replace("1 250 000,50", "1 260 000,00"),
        encoding="utf-8",
    )
    stats = run_import(engine, SOURCES["cz_dotinfo"], str(changed), settings.data_dir)[1]
    assert (stats.inserted, stats.updated, stats.unchanged) == (0, 1, 2)
    with engine.connect() as conn:
        row = conn.execute(
            select(fund_awards.c.amount, fund_awards.c.company_id, fund_awards.c.import_run_id).where(
                fund_awards.c.record_key == "MPO-2024-000123"
            )
        ).one()
        last_run = conn.execute(select(import_runs.c.id).order_by(import_runs.c.id.desc())).scalars().first()
    assert float(row.amount) == 1260000.0 and row.company_id is not None and row.import_run_id == last_run


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"", "the file is empty"),
        (b"id,name\n1,x\n", "not a Kohesio project export file: the header lacks Project ID"),
        ("Projekt;Příjemce\n1;Ž\n".encode(), "the header lacks"),
    ],
)
def test_a_malformed_file_is_refused_whole(engine, settings, tmp_path, content, reason):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    with pytest.raises(SourceAbort, match=reason):
        run_import(engine, KOHESIO, str(bad), settings.data_dir)
    assert count(engine, fund_awards) == 0
    rejects = list((settings.data_dir / "rejects").glob("eu_kohesio-*.jsonl"))
    assert len(rejects) == 1 and json.loads(rejects[0].read_text())["reason"].startswith("aborted:")
    with engine.connect() as conn:
        assert conn.execute(select(import_runs.c.status)).scalar_one() == "failed"


def test_cordis_file_of_another_kind_is_refused(engine, settings):
    with pytest.raises(SourceAbort, match="neither a CORDIS project.csv nor an organization.csv"):
        run_import(engine, SOURCES["eu_cordis"], str(FILES["eu_kohesio"][0]), settings.data_dir)


def test_a_file_cut_short_leaves_nothing_half_written(engine, settings, tmp_path):
    """3,000 rows are three batches: the first two are written inside the transaction before the cut."""
    header = (FIXTURES / "kohesio_projects.csv").read_text(encoding="utf-8").splitlines()[0]
    rows = [
        f"Q9{i:06d},Projekt {i},Firma {i} s.r.o.,Czechia,1000.00,500.00,2021-01-01,2021-12-31,ERDF,"
        f"Programme,2014CZ16RFOP001,"
        for i in range(3_000)
    ]
    packed = gzip.compress(("\n".join([header, *rows]) + "\n").encode())
    cut = tmp_path / "cut.csv.gz"
    cut.write_bytes(packed[: len(packed) * 3 // 4])
    with pytest.raises(SourceAbort, match="unreadable input"):
        run_import(engine, KOHESIO, str(cut), settings.data_dir)
    assert count(engine, fund_awards) == 0


def test_the_sources_are_in_the_catalogue(engine, settings, client, companies):
    import_all(engine, settings.data_dir)
    with engine.connect() as conn:
        rows = {r.id: r for r in conn.execute(select(data_sources).where(data_sources.c.id.in_(list(FILES))))}
    assert {k: rows[k].row_count for k in FILES} == {
        "eu_kohesio": 3,
        "eu_fts": 3,
        "eu_cordis": 7,
        "cz_dotinfo": 3,
        "eu_state_aid_tam": 4,
    }
    listed = {d["id"]: d for d in assert_envelope(client.get("/api/v1/public/data-sources"))}
    for source in FILES:
        entry = listed[source]
        assert entry["licence"] and entry["attribution"] and entry["url"].startswith("https://")
        assert entry["last_import_at"] and entry["category"] == "public_money"
    assert "CC-BY-4.0" in listed["eu_cordis"]["licence"]


def test_a_reimport_links_records_to_companies_imported_since(engine, settings):
    """By register or VAT number only: records linkable by name alone wait for a change (docs/funds.md)."""
    import_source(engine, settings.data_dir, "cz_dotinfo")
    import_source(engine, settings.data_dir, "eu_kohesio")
    assert _links(engine, "cz_dotinfo") == [
        ("Alza.cz a.s.", None, None),
        ("Alza.cz a.s.", None, None),
        ("ČEZ, a. s.", None, None),
    ]
    load_fund_companies(engine)
    stats = import_source(engine, settings.data_dir, "cz_dotinfo")[0]
    assert (stats.inserted, stats.updated, stats.unchanged) == (0, 2, 1)
    assert _links(engine, "cz_dotinfo") == [
        ("Alza.cz a.s.", "identifier", 1.0),
        ("Alza.cz a.s.", None, None),
        ("ČEZ, a. s.", "identifier", 1.0),
    ]
    kohesio = import_source(engine, settings.data_dir, "eu_kohesio")[0]
    assert (kohesio.updated, kohesio.unchanged) == (0, 3)
    assert {m for _, m, _ in _links(engine, "eu_kohesio")} == {None}
