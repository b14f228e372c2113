"""Builders: put records into the test database through the real loader."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from regintel.config import Settings
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceInfo
from regintel.ingest.loader import Loader
from regintel.ingest.runner import sync_catalogue
from regintel.jobs.search_index import finish
from regintel.search import refresh_index

TEST_SOURCE = SourceInfo(
    id="test_register",
    name="Test register",
    publisher="regintel tests",
    country="SK",
    category="register",
    formats="records",
    licence="CC0 1.0",
    attribution="Test data",
    url="https://example.invalid/test",
    cadence="on-demand",
)


def load_companies(
    engine: Engine, *records: CompanyRecord, source: SourceInfo = TEST_SOURCE, finish_index: bool = True
) -> Any:
    """Load as `regintel import` does; `finish_index=False` leaves the search index to its queued job."""
    sync_catalogue(engine, [source])
    loader = Loader(engine, source)
    for record in records:
        loader.add(record)
    loader.flush()
    if finish_index:
        _finish_search_index(engine)
    return loader.stats


# The test's settings (conftest's `settings` fixture and `app_factory` put them here for the test's
# length): with them `load_companies` leaves the search index current and its `search.index` jobs
# finished, as the end of `regintel import` does (jobs.search_index.finish); requests only read it.
SETTINGS: list[Settings] = []


def _finish_search_index(engine: Engine) -> None:
    mine = [s for s in SETTINGS if make_url(s.database_url).database == engine.url.database]
    for settings in mine[1:]:  # apps on another backend than the test's own
        refresh_index(engine, settings)
    if mine:
        finish(engine, mine[0])


def make_company(engine: Engine, **fields: Any) -> CompanyRecord:
    base: dict[str, Any] = {"country": "SK", "national_id": "31322832", "name": "SLOVNAFT, a.s."}
    record = CompanyRecord(**(base | fields))
    load_companies(engine, record)
    return record
