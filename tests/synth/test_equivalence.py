"""The bulk path writes what the per-record Loader writes for the same entities."""

from __future__ import annotations

from sqlalchemy import Engine, text

from regintel.ingest.loader import Loader
from regintel.synth.build import INFO, build
from regintel.synth.generator import Params, generate
from regintel.synth.pools import all_pools
from tests.synth.records import to_records
from tests.synth.snapshot import snapshot

TABLES = (
    "ownerships",
    "roles",
    "financial_statements",
    "latest_financials",
    "identifiers",
    "company_sources",
    "company_changes",
    "people",
    "companies",
)


def _empty(engine: Engine) -> None:
    with engine.begin() as conn:
        for table in TABLES:
            conn.execute(text(f"DELETE FROM {table}"))


def test_bulk_path_equals_loader(engine: Engine) -> None:
    build(engine, 250, seed=11, workers=0)
    bulk = snapshot(engine)
    _empty(engine)
    chunk = generate(Params(11, 0, 250), all_pools(), range(1))
    loader = Loader(engine, INFO, batch_size=100_000)
    for record in to_records(chunk):
        loader.add(record)
    loader.flush()
    assert loader.stats.rejected == 0
    loaded = snapshot(engine)
    assert set(bulk) == set(loaded)
    for table in bulk:
        assert len(bulk[table]) == len(loaded[table]), table
        assert bulk[table] == loaded[table], table
