"""sk_registeruz: real imports of RÚZ API JSON (units, statements, reports; JSON lines) into a real
database."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import func, select

from regintel.db.schema import companies, company_changes, financial_statements, identifiers
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sk_registeruz"
UOL = FIXTURES / "uctovna-jednotka__id-1689373.json"
BULK = FIXTURES / "bulk_sample.jsonl"
ROOT = Path(__file__).parent.parent.parent
FIGURES = ("revenue", "profit", "total_assets", "equity", "liabilities")


def run(engine, settings, path):
    return run_import(engine, get_source("sk_registeruz"), str(path), settings.data_dir)


def company(conn, ico):
    return conn.execute(select(companies).where(companies.c.national_id == ico)).mappings().one()


def statements(conn):
    rows = conn.execute(select(financial_statements).order_by(financial_statements.c.year)).mappings().all()
    return {r["year"]: r for r in rows}


def test_accounting_units(engine, settings):
    for path in (UOL, FIXTURES / "uctovna-jednotka__id-442175.json"):
        _, stats, _ = run(engine, settings, path)
        assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    with engine.connect() as conn:
        uol, ministry = company(conn, "50826042"), company(conn, "30845572")
        ids = {(r.type, r.value) for r in conn.execute(select(identifiers))}
    assert (uol["name"], uol["legal_form"], uol["status"], uol["founded_on"]) == (
        "UOL SK s.r.o.",
        "112",
        "active",
        date(2017, 4, 12),
    )
    assert (uol["street"], uol["postal_code"], uol["city"]) == (
        "Karpatské námestie 10A",
        "83106",
        "Bratislava - mestská časť Rača",
    )
    assert (uol["region_code"], uol["district_code"], uol["municipality_code"]) == ("1", "103", "529354")
    assert (uol["nace_primary"], uol["nace_codes"], uol["size_class"], uol["tax_id"]) == (
        "69200",
        ["69200"],
        None,
        None,
    )
    assert (ministry["legal_form"], ministry["size_class"], ministry["nace_primary"]) == (
        "321",
        "10000-19999",
        "84220",
    )
    assert {("ruz_id", "1689373"), ("ico", "50826042"), ("ruz_id", "442175"), ("ico", "30845572")} <= ids


def test_bulk_file(engine, settings):
    _, stats, rejects = run(engine, settings, BULK)
    assert (stats.read, stats.inserted, stats.updated, stats.skipped, stats.rejected) == (10, 4, 2, 4, 0)
    assert stats.skip_reasons == {
        "consolidated statement": 2,
        "report without public figures": 1,
        "annual report (výročná správa): no figures of its own": 1,
    }
    with engine.connect() as conn:
        held = statements(conn)
        owner = company(conn, "50826042")["id"]
    assert set(held) == {2018, 2019} and {r["company_id"] for r in held.values()} == {owner}
    micro, pod = held[2018], held[2019]
    assert [micro[f] for f in FIGURES] == [Decimal(v) for v in ("218450", "25420", "84215", "46880", "37335")]
    assert [pod[f] for f in FIGURES] == [
        Decimal(v) for v in ("812300", "71760", "450900", "118640", "332260")
    ]
    assert (micro["currency"], micro["period_from"], micro["period_to"], micro["statement_type"]) == (
        "EUR",
        "2018-01",
        "2018-12",
        "ordinary",
    )
    assert (micro["source_record_id"], pod["source_record_id"], micro["employees"]) == (
        "2417702",
        "2869310",
        None,
    )


def test_bulk_twice_is_unchanged(engine, settings):
    run(engine, settings, BULK)
    with engine.connect() as conn:
        logged = conn.execute(select(func.count()).select_from(company_changes)).scalar()
    _, stats, _ = run(engine, settings, BULK)
    assert (stats.inserted, stats.updated, stats.unchanged, stats.skipped, stats.changes) == (0, 0, 6, 4, 0)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(company_changes)).scalar() == logged


def test_statements_and_reports_in_later_files(engine, settings):
    """Units first; then a header naming its unit only by RÚZ id; then the report alone."""
    run(engine, settings, UOL)
    _, header, _ = run(engine, settings, FIXTURES / "uctovna-zavierka_sample.json")
    assert (header.inserted, header.rejected) == (1, 0)
    _, report, _ = run(engine, settings, FIXTURES / "uctovny-vykaz_sample.json")
    assert (report.updated, report.rejected) == (1, 0)
    with engine.connect() as conn:
        row = statements(conn)[2018]
    assert (row["statement_type"], row["period_from"], row["revenue"], row["profit"]) == (
        "ordinary",
        "2018-01",
        Decimal("218450"),
        Decimal("25420"),
    )


def test_statement_before_its_company_is_rejected(engine, settings):
    _, stats, rejects = run(engine, settings, FIXTURES / "uctovna-zavierka_sample.json")
    assert (stats.read, stats.inserted, stats.rejected) == (1, 0, 1)
    assert stats.reasons == {"statement of a company that is not in the database": 1}
    assert json.loads(rejects.read_text(encoding="utf-8"))["record"] == "SK:ruz_id:1689373"


def changed_bulk(tmp_path):
    lines = [json.loads(line) for line in BULK.read_text(encoding="utf-8").splitlines()]
    lines[0].update(dic="2120489436", nazovUJ="UOL Slovakia s.r.o.")
    micro = next(v for v in lines if v.get("id") == 3186551)
    micro["obsah"]["tabulky"][2]["data"][0] = "219000"  # Výkaz ziskov a strát r. 01, current period
    path = tmp_path / "changed.jsonl"
    path.write_text("".join(json.dumps(v, ensure_ascii=False) + "\n" for v in lines), encoding="utf-8")
    return path


def last_run_changes(conn):
    run_id = conn.execute(select(func.max(company_changes.c.run_id))).scalar()
    rows = conn.execute(
        select(company_changes.c.field, company_changes.c.old_value, company_changes.c.new_value).where(
            company_changes.c.run_id == run_id
        )
    ).all()
    return {r.field: (r.old_value, r.new_value) for r in rows}


def test_changes_are_detected(engine, settings, tmp_path):
    run(engine, settings, BULK)
    _, stats, _ = run(engine, settings, changed_bulk(tmp_path))
    assert (stats.updated, stats.unchanged, stats.changes) == (2, 4, 3)
    with engine.connect() as conn:
        assert last_run_changes(conn) == {
            "name": ("UOL SK s.r.o.", "UOL Slovakia s.r.o."),
            "tax_id": (None, "2120489436"),
            "financials.2018.revenue": ("218450.00", "219000"),
        }


def test_register_of_record_keeps_its_values(engine, settings, tmp_path):
    """RÚZ only fills what RPO, the register of record, left empty for a company both describe."""
    entity = {
        "id": 4412087,
        "identifiers": [{"value": "50826042", "validFrom": "2017-04-12"}],
        "fullNames": [{"value": "UOL SK s.r.o.", "validFrom": "2017-04-12"}],
        "addresses": [
            {
                "street": "Karpatské námestie",
                "buildingNumber": "10A",
                "postalCodes": ["83106"],
                "municipality": {"value": "Bratislava"},
                "validFrom": "2017-04-12",
            }
        ],
    }
    rpo = tmp_path / "rpo.json"
    rpo.write_text(json.dumps(entity, ensure_ascii=False), encoding="utf-8")
    run_import(engine, get_source("sk_rpo"), str(rpo), settings.data_dir)
    run(engine, settings, changed_bulk(tmp_path))
    with engine.connect() as conn:
        uol = company(conn, "50826042")
    assert (uol["name"], uol["city"], uol["tax_id"], uol["nace_primary"]) == (
        "UOL SK s.r.o.",
        "Bratislava",
        "2120489436",
        "69200",
    )


def test_malformed_rows_are_rejected(engine, settings):
    _, stats, rejects = run(engine, settings, FIXTURES / "bulk_corrupted.jsonl")
    assert (stats.read, stats.inserted, stats.rejected) == (10, 3, 7)
    assert set(stats.reasons) == {
        "malformed JSON on line 2",
        "invalid identifier",
        "DIČ left out",
        "strana aktiv r. 1 is not a number",
        "obdobieDo is not a YYYY-MM period",
        "report of a statement that is not in this file, without a title page (ico, obdobieDo) to place it",
        "obsah.tabulky is not a list of tables",
    }
    reasons = [json.loads(line)["reason"] for line in rejects.read_text(encoding="utf-8").splitlines()]
    assert "DIČ left out: '12345' is not a valid DIČ (8 to 10 digits)" in reasons
    with engine.connect() as conn:
        row = company(conn, "44444443")
        assert conn.execute(select(func.count()).select_from(financial_statements)).scalar() == 1
    assert (row["name"], row["name_norm"]) == (
        "Ťažobná spoločnosť Šťavnica, s. r. o.",
        "tazobna spolocnost stavnica",
    )
    assert (row["postal_code"], row["city"], row["tax_id"], row["size_class"]) == (
        "96901",
        "Banská Štiavnica",
        None,
        "5-9",
    )


@pytest.mark.parametrize(
    "content",
    [
        b"ico;nazov\n50826042;UOL\n",
        (FIXTURES / "kraje.json").read_bytes(),
        b'{"id":[1689373],"pocetZostavajucichId":0}',
        b'{"results": [{"identifiers": []}]}',
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    path = tmp_path / "input.json"
    path.write_bytes(content)
    with pytest.raises(SourceAbort):
        run(engine, settings, path)


def test_generated_file_imports(engine, settings, tmp_path):
    path = tmp_path / "ruz.jsonl.gz"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gen_sk_registeruz.py"), str(path), "--count", "500"],
        check=True,
    )
    _, stats, _ = run(engine, settings, path)
    assert (stats.read, stats.rejected) == (500, 0)
    with engine.connect() as conn:
        units = conn.execute(select(func.count()).select_from(companies)).scalar()
        filed = conn.execute(
            select(func.count())
            .select_from(financial_statements)
            .where(financial_statements.c.total_assets.is_not(None))
        ).scalar()
    assert units > 50 and filed > 100 and stats.inserted == units + filed
