"""Shared by the search benchmarks: a database filled with the deterministic corpus, an app and a key."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import func, select  # noqa: E402

from regintel.config import Settings  # noqa: E402
from regintel.db.engine import make_engine  # noqa: E402
from regintel.db.keys import create_key  # noqa: E402
from regintel.db.migrate import upgrade  # noqa: E402
from regintel.db.schema import companies  # noqa: E402
from regintel.ingest.base import SourceInfo  # noqa: E402
from regintel.ingest.loader import Loader  # noqa: E402
from regintel.ingest.runner import sync_catalogue  # noqa: E402
from tests.search.corpus import companies as corpus  # noqa: E402

SOURCE = SourceInfo(
    id="bench_corpus",
    name="Search benchmark corpus",
    publisher="regintel bench",
    country=None,
    category="synthetic",
    formats="records",
    licence="CC0 1.0",
    attribution="synthetic",
    url="https://example.invalid/bench",
    cadence="on-demand",
)


def fill(database_url: str, n: int, seed: int = 42, batch: int = 5_000) -> dict[str, Any]:
    """Load the first `n` corpus companies unless the database already holds them; returns timings."""
    engine = make_engine(database_url, pool=False)
    upgrade(engine)
    with engine.connect() as conn:
        have = int(conn.execute(select(func.count()).select_from(companies)).scalar_one())
    if have >= n:
        return {"loaded": 0, "present": have, "seconds": 0.0}
    sync_catalogue(engine, [SOURCE])
    loader = Loader(engine, SOURCE, batch_size=batch)
    started = time.perf_counter()
    for i, record in enumerate(corpus(n, seed)):
        if i >= have:
            loader.add(record)
        if i and i % 100_000 == 0:
            print(f"  loaded {i:,} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    loader.flush()
    return {"loaded": n - have, "present": n, "seconds": round(time.perf_counter() - started, 1)}


def settings_for(database_url: str, data_dir: Path, backend: str) -> Settings:
    return Settings(
        database_url=database_url,
        data_dir=data_dir,
        rate_limit_storage="memory",
        search_backend=backend,
        search_refresh_seconds=3600,  # type: ignore[arg-type]
        plans={"bench": {"title": "bench", "rate_per_minute": 10_000_000, "monthly_quota": 1_000_000_000}},
        default_plan="bench",
    )


def make_key(database_url: str) -> str:
    engine = make_engine(database_url, pool=False)
    with engine.begin() as conn:
        _, raw = create_key(conn, "bench", "bench")
    return raw


def bulk_fill(database_url: str, n: int, seed: int = 42, batch: int = 20_000) -> dict[str, Any]:
    """Insert the first `n` corpus companies straight into `companies` (no change log, no
    provenance): the quick way to a large benchmark database. Skips rows already present."""
    from datetime import UTC, datetime

    from regintel.domain.names import normalise_address, normalise_name

    engine = make_engine(database_url, pool=False)
    upgrade(engine)
    with engine.connect() as conn:
        have = int(conn.execute(select(func.count()).select_from(companies)).scalar_one())
    if have >= n:
        return {"loaded": 0, "present": have, "seconds": 0.0}
    now = datetime(2026, 1, 1, tzinfo=UTC)
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for i, r in enumerate(corpus(n, seed)):
        if i < have:
            continue
        rows.append(
            {
                "country": r.country,
                "national_id": r.national_id,
                "name": r.name,
                "name_norm": normalise_name(r.name or ""),
                "status": r.status,
                "street": r.street,
                "city": r.city,
                "postal_code": r.postal_code,
                "address_text": r.address_text,
                "address_norm": normalise_address(r.address_text or ""),
                "vat_id": r.vat_id,
                "lei": r.lei,
                "source": SOURCE.id,
                "created_at": now,
                "updated_at": now,
            }
        )
        if len(rows) >= batch:
            _insert(engine, rows)
            rows = []
            if (i + 1) % 200_000 == 0:
                print(f"  inserted {i + 1:,} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    _insert(engine, rows)
    return {"loaded": n - have, "present": n, "seconds": round(time.perf_counter() - started, 1)}


def _insert(engine: Any, rows: list[dict[str, Any]]) -> None:
    if rows:
        with engine.begin() as conn:
            conn.execute(companies.insert(), rows)
