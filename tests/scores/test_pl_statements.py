"""Polish e-sprawozdania (KRS financial statements, MF structures 2018-07-09) into the statements the scores
read, through HTTP. The fixture is written from the schema with invented figures
(tests/fixtures/pl_ksf/README.md)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from regintel.db.schema import financial_statements
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources.pl_ksf import SOURCE
from tests.builders import load_companies
from tests.helpers import assert_envelope

FIXTURE = Path(__file__).parent.parent / "fixtures" / "pl_ksf" / "sprawozdanie_0000654321_2024.xml"
KRS = "0000654321"


@pytest.fixture
def pl_company(engine):
    load_companies(
        engine,
        CompanyRecord(
            country="PL", national_id=KRS, name="WISŁA MEBLE SP. Z O.O.", founded_on=date(2016, 11, 3)
        ),
    )


def stored(engine):
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(select(financial_statements)).mappings()]


def test_statement_is_read_once_and_scored(client, auth, engine, settings, pl_company):
    _, stats, _ = run_import(engine, SOURCE, str(FIXTURE), settings.data_dir)
    assert (stats.read, stats.rejected) == (1, 0)
    rows = stored(engine)
    _, again, _ = run_import(engine, SOURCE, str(FIXTURE), settings.data_dir)
    assert (again.inserted, again.updated, again.changes) == (0, 0, 0) and stored(engine) == rows
    h = assert_envelope(
        client.get(f"/api/v1/companies/{KRS}/financial-history", headers=auth, params={"country": "pl"})
    )
    [year] = h["years"]  # KwotaB, the year before, is not a statement of its own
    assert (year["year"], year["currency"], year["source"]) == (2024, "PLN", "pl_ksf")
    lines = year["lines"]
    assert [lines[k] for k in ("revenue", "profit", "total_assets", "equity", "liabilities")] == [
        9800000.0,
        340000.0,
        5400000.0,
        2250000.0,
        3150000.0,
    ]
    # retained earnings = Pasywa_A_V (previous years) + Pasywa_A_VI (the year's net profit)
    assert [lines[k] for k in ("current_assets", "current_liabilities", "retained_earnings", "ebit")] == [
        3300000.0,
        2200000.0,
        1340000.0,
        470000.0,
    ]
    assert year["eur_rate"] is not None and year["ratios"]["altman_z2"] is not None
    c = assert_envelope(
        client.get(f"/api/v1/companies/{KRS}/credit-score", headers=auth, params={"country": "pl"})
    )
    assert c["grade"] is not None and c["statement"]["source"] == "pl_ksf"
    liquidity = next(f for f in c["factors"] if f["code"] == "liquidity")
    assert liquidity["value"] == pytest.approx(1.5) and liquidity["points"] == 8.5
    listed = {d["id"]: d for d in assert_envelope(client.get("/api/v1/public/data-sources"))}
    assert listed["pl_ksf"]["category"] == "financials" and listed["pl_ksf"]["last_import_at"]


def test_thousands_are_scaled_and_a_statement_without_krs_is_rejected(engine, settings, pl_company, tmp_path):
    text = FIXTURE.read_text(encoding="utf-8")
    thousands = tmp_path / "t.xml"
    thousands.write_text(
        text.replace("JednostkaInnaWZlotych", "JednostkaInnaWTysiacach").replace(
            "<dtsf:KwotaA>5400000.00</dtsf:KwotaA>", "<dtsf:KwotaA>5400.00</dtsf:KwotaA>"
        ),
        encoding="utf-8",
    )
    [rec] = list(SOURCE.parse(thousands.open("rb"), "t.xml"))
    assert rec.financials[0].total_assets == 5400000 and rec.financials[0].equity == 2250000000
    no_krs = tmp_path / "n.xml"
    no_krs.write_text(text.replace("<P_1E>0000654321</P_1E>", ""), encoding="utf-8")
    _, stats, rejects = run_import(engine, SOURCE, str(no_krs), settings.data_dir)
    assert stats.rejected == 1 and rejects is not None
    assert "no KRS number (P_1E)" in rejects.read_text(encoding="utf-8")
    assert stored(engine) == []


def test_what_is_not_a_statement_is_refused_whole(engine, settings, pl_company, tmp_path):
    for name, body in (("a.xml", "<JednostkaInna><oops"), ("b.xml", "<Faktura/>")):
        bad = tmp_path / name
        bad.write_text(body, encoding="utf-8")
        with pytest.raises(SourceAbort):
            run_import(engine, SOURCE, str(bad), settings.data_dir)
    assert stored(engine) == []
