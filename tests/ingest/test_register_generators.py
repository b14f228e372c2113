"""The benchmark generators of cz_ares, gb_companies_house, fr_sirene and no_brreg write files their
importers read in full: 500 records each, all loaded, none rejected."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from regintel.db.schema import companies
from tests.ingest.import_helpers import run

BENCH = Path(__file__).parent.parent.parent / "bench"


@pytest.mark.parametrize(
    "source, out",
    [
        ("cz_ares", "ares.jsonl.gz"),
        ("gb_companies_house", "BasicCompanyData-2024-11-01.csv"),
        ("fr_sirene", "StockUniteLegale.csv.gz"),
        ("no_brreg", "enheter_alle.json.gz"),
    ],
)
def test_generated_file_imports(engine, settings, tmp_path, source, out):
    path = tmp_path / out
    subprocess.run(
        [
            sys.executable,
            str(BENCH / f"gen_{source}.py"),
            "--count",
            "500",
            "--seed",
            "7",
            "--out",
            str(path),
        ],
        check=True,
    )
    stats = run(engine, settings, source, path, batch_size=200)
    assert (stats.read, stats.inserted, stats.rejected) == (500, 500, 0)
    with engine.connect() as conn:
        statuses = dict(
            conn.execute(select(companies.c.status, func.count()).group_by(companies.c.status)).all()
        )
    assert statuses["active"] > 250
    again = tmp_path / ("again-" + out)
    subprocess.run(
        [
            sys.executable,
            str(BENCH / f"gen_{source}.py"),
            "--count",
            "500",
            "--seed",
            "7",
            "--out",
            str(again),
        ],
        check=True,
    )
    assert run(engine, settings, source, again, batch_size=200).unchanged == 500  # same seed, same file
