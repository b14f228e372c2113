"""Builders: put records into the test database through the real loader."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceInfo
from regintel.ingest.loader import Loader
from regintel.ingest.runner import sync_catalogue

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


def load_companies(engine: Engine, *records: CompanyRecord, source: SourceInfo = TEST_SOURCE) -> Any:
    sync_catalogue(engine, [source])
    loader = Loader(engine, source)
    for record in records:
        loader.add(record)
    loader.flush()
    return loader.stats


def make_company(engine: Engine, **fields: Any) -> CompanyRecord:
    base: dict[str, Any] = {"country": "SK", "national_id": "31322832", "name": "SLOVNAFT, a.s."}
    record = CompanyRecord(**(base | fields))
    load_companies(engine, record)
    return record
