"""Norwegian annual accounts (Regnskapsregisteret) into the statements the scores read, through HTTP.
The fixture is written from the API's documented layout (tests/fixtures/no_brreg_regnskap/README.md)."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from regintel.db.schema import companies, financial_statements
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources.no_brreg_regnskap import SOURCE
from tests.builders import load_companies
from tests.helpers import assert_envelope

FIXTURE = Path(__file__).parent.parent / "fixtures" / "no_brreg_regnskap" / "regnskap.json"
EQUINOR, OTHER = "923609016", "918035443"


@pytest.fixture
def no_companies(engine):
    load_companies(
        engine,
        CompanyRecord(country="NO", national_id=EQUINOR, name="EQUINOR ASA", founded_on=date(1972, 9, 18)),
        CompanyRecord(country="NO", national_id=OTHER, name="Annen AS", founded_on=date(2016, 1, 4)),
    )


def stored(engine):
    """The statements, `company_id` replaced by the company's national id."""
    fs = financial_statements
    with engine.connect() as conn:
        rows = conn.execute(
            select(fs, companies.c.national_id.label("nid"))
            .join(companies, companies.c.id == fs.c.company_id)
            .order_by(fs.c.id)
        ).mappings()
        return [dict(r) | {"company_id": r["nid"]} for r in rows]


def test_import_statements_idempotently(engine, settings, no_companies):
    _, stats, rejects = run_import(engine, SOURCE, str(FIXTURE), settings.data_dir)
    assert (stats.read, stats.skipped, stats.rejected) == (6, 1, 2)
    assert rejects is not None and "invalid organisasjonsnummer" in rejects.read_text(encoding="utf-8")
    rows = stored(engine)
    assert sorted((r["company_id"], r["year"], r["currency"], r["source"]) for r in rows) == [
        (OTHER, 2024, "NOK", "no_brreg_regnskap"),
        (EQUINOR, 2023, "NOK", "no_brreg_regnskap"),
        (EQUINOR, 2024, "NOK", "no_brreg_regnskap"),
    ]
    other = next(r for r in rows if r["company_id"] == OTHER)
    assert other["revenue"] is None and float(other["profit"]) == -135734000.0
    assert (
        float(next(r for r in rows if r["year"] == 2024 and r["company_id"] == EQUINOR)["revenue"])
        == 7254000000.0
    )
    _, again, _ = run_import(engine, SOURCE, str(FIXTURE), settings.data_dir)
    assert again.inserted == 0 and again.updated == 0 and stored(engine) == rows


def test_history_and_score_read_the_norwegian_statements(client, auth, engine, settings, no_companies):
    run_import(engine, SOURCE, str(FIXTURE), settings.data_dir)
    h = assert_envelope(
        client.get(f"/api/v1/companies/{EQUINOR}/financial-history", headers=auth, params={"country": "no"})
    )
    latest = h["years"][0]
    assert (
        latest["year"] == 2024 and latest["currency"] == "NOK" and latest["lines"]["revenue"] == 7254000000.0
    )
    assert latest["lines_eur"] is not None
    c = assert_envelope(
        client.get(f"/api/v1/companies/{EQUINOR}/credit-score", headers=auth, params={"country": "no"})
    )
    assert c["grade"] is not None and c["statement"]["source"] == "no_brreg_regnskap"
    factors = {f["code"]: f for f in c["factors"]}
    # Current ratio 3,100 / 2,100 M NOK: the 1.5 band's lower neighbour (1.0-1.5 earns 0.6 of 10 points).
    assert (
        factors["liquidity"]["value"] == pytest.approx(1.4762, abs=1e-4)
        and factors["liquidity"]["points"] == 6.0
    )
    assert "current_assets" not in c["missing_inputs"]
    lines = latest["lines"]
    assert (
        lines["current_assets"],
        lines["current_liabilities"],
        lines["retained_earnings"],
        lines["ebit"],
    ) == (3100000000.0, 2100000000.0, 2950000000.0, 1034000000.0)
    # Z'' = 6.56 (1,000 / 10,915) + 3.26 (2,950 / 10,915) + 6.72 (1,034 / 10,915) + 1.05 (4,109 / 6,806)
    assert latest["ratios"]["altman_z2"] == pytest.approx(2.7526, abs=1e-3)
    assert h["years"][1]["ratios"]["altman_z2"] is None and h["years"][1]["lines"]["ebit"] is None


def test_not_json_is_refused(engine, settings, no_companies, tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("<html>", encoding="utf-8")
    with pytest.raises(SourceAbort):
        run_import(engine, SOURCE, str(bad), settings.data_dir)
    assert stored(engine) == []
    assert list(SOURCE.parse(io.BytesIO(b'[{"foo": 1}]'), "x"))[0].reason.startswith(
        "not a Regnskapsregisteret"
    )
