"""Companies House accounts (iXBRL, read with ixbrlparse) into the statements the scores read, through HTTP.
The fixtures are written from the documented iXBRL layout of FRS 102 and FRS 105 accounts with invented
figures (tests/fixtures/gb_ch_accounts/README.md)."""

from __future__ import annotations

import zipfile
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from regintel.db.schema import companies, financial_statements
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources.gb_ch_accounts import SOURCE
from tests.builders import load_companies
from tests.helpers import assert_envelope

FIXTURES = Path(__file__).parent.parent / "fixtures" / "gb_ch_accounts"
SMALL = FIXTURES / "Prod223_3112_09446231_20241231.html"  # FRS 102, full profit and loss account
MICRO = FIXTURES / "Prod223_3112_SC612345_20250331.html"  # FRS 105, balance sheet only, net liabilities
JOINERY, BANDS = "09446231", "SC612345"


@pytest.fixture
def gb_companies(engine):
    load_companies(
        engine,
        CompanyRecord(
            country="GB",
            national_id=JOINERY,
            name="HARBOURSIDE JOINERY LIMITED",
            founded_on=date(2015, 2, 17),
        ),
        CompanyRecord(
            country="GB", national_id=BANDS, name="LOCH ARD CEILIDH BANDS LTD", founded_on=date(2018, 10, 1)
        ),
    )


def bulk(tmp_path, *members: tuple[str, bytes]) -> Path:
    """A zip laid out as the Accounts Data Product's daily file."""
    path = tmp_path / "Accounts_Bulk_Data-2025-04-02.zip"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members:
            z.writestr(name, data)
    return path


def stored(engine):
    fs = financial_statements
    with engine.connect() as conn:
        rows = conn.execute(
            select(fs, companies.c.national_id.label("nid"))
            .join(companies, companies.c.id == fs.c.company_id)
            .order_by(fs.c.id)
        ).mappings()
        return [dict(r) | {"company_id": r["nid"]} for r in rows]


def test_the_bulk_zip_imports_once_and_rejects_the_malformed(engine, settings, gb_companies, tmp_path):
    broken = SMALL.read_bytes().replace(b">3,450,000<", b">three million<", 1)
    path = bulk(
        tmp_path,
        (SMALL.name, SMALL.read_bytes()),
        (MICRO.name, MICRO.read_bytes()),
        ("Prod223_3112_09446231_20231231.html", broken),
        ("Prod223_3112_00000001_20241231.html", b"<html><body>no facts</body></html>"),
        ("readme.txt", b"not a document"),
    )
    _, stats, rejects = run_import(engine, SOURCE, str(path), settings.data_dir)
    assert (stats.read, stats.skipped, stats.rejected) == (5, 1, 2)
    text = rejects.read_text(encoding="utf-8") if rejects else ""
    assert "Prod223_3112_09446231_20231231.html: not a readable iXBRL document" in text
    assert "Prod223_3112_00000001_20241231.html: no balance sheet" in text
    rows = stored(engine)
    assert sorted((r["company_id"], r["year"], r["currency"], r["source"]) for r in rows) == [
        (JOINERY, 2024, "GBP", "gb_ch_accounts"),
        (BANDS, 2025, "GBP", "gb_ch_accounts"),
    ]
    micro = next(r for r in rows if r["company_id"] == BANDS)
    # 5,200 + 18,400 of assets, equity signed negative, current liabilities from net current liabilities
    assert [float(micro[k]) for k in ("total_assets", "equity", "liabilities", "current_liabilities")] == [
        23600.0,
        -16300.0,
        39900.0,
        39900.0,
    ]
    assert micro["revenue"] is None and micro["profit"] is None and micro["employees"] == 3
    _, again, _ = run_import(engine, SOURCE, str(path), settings.data_dir)
    assert (again.inserted, again.updated, again.changes) == (0, 0, 0) and stored(engine) == rows


def test_history_and_credit_score_read_the_accounts(client, auth, engine, settings, gb_companies):
    run_import(engine, SOURCE, str(SMALL), settings.data_dir)
    h = assert_envelope(
        client.get(f"/api/v1/companies/{JOINERY}/financial-history", headers=auth, params={"country": "gb"})
    )
    [year] = h["years"]  # the comparatives of 2023 in the same document are not a statement of their own
    lines = year["lines"]
    assert (year["year"], year["currency"], year["period_end"]) == (2024, "GBP", "2024-12-31")
    assert (lines["revenue"], lines["profit"], lines["total_assets"], lines["equity"]) == (
        3450000.0,
        212900.0,
        1699800.0,
        800000.0,
    )
    assert (
        lines["current_assets"],
        lines["current_liabilities"],
        lines["retained_earnings"],
        lines["ebit"],
    ) == (
        1287300.0,
        603100.0,
        799000.0,
        281400.0,
    )
    assert year["lines_eur"] is not None and year["eur_rate"] is not None
    # Z'' = 6.56 (684,200 / 1,699,800) + 3.26 (799,000 / 1,699,800) + 6.72 (281,400 / 1,699,800)
    #       + 1.05 (800,000 / 899,800)
    assert year["ratios"]["altman_z2"] == pytest.approx(6.2187, abs=1e-3)
    c = assert_envelope(
        client.get(f"/api/v1/companies/{JOINERY}/credit-score", headers=auth, params={"country": "gb"})
    )
    assert c["grade"] is not None and c["statement"]["source"] == "gb_ch_accounts"
    factors = {f["code"]: f for f in c["factors"]}
    assert factors["liquidity"]["value"] == pytest.approx(2.1345, abs=1e-4)
    assert factors["liquidity"]["points"] == 10.0
    listed = {d["id"]: d for d in assert_envelope(client.get("/api/v1/public/data-sources"))}
    entry = listed["gb_ch_accounts"]
    assert "Open Government Licence v3.0" in entry["licence"] and entry["category"] == "financials"
    assert entry["last_import_at"]


def test_what_is_not_accounts_is_refused_whole(engine, settings, gb_companies, tmp_path):
    bad = tmp_path / "accounts.pdf"
    bad.write_bytes(b"%PDF-1.7 binary")
    with pytest.raises(SourceAbort):
        run_import(engine, SOURCE, str(bad), settings.data_dir)
    empty = bulk(tmp_path, ("notes.txt", b"x"))
    with pytest.raises(SourceAbort):
        run_import(engine, SOURCE, str(empty), settings.data_dir)
    assert stored(engine) == []
