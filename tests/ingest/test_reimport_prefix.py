"""Every register format re-imports an older prefix of its data as unchanged, as the import benchmark
does (bench/bench_import.py: a file of N records, then the file of the first M on top): nothing is
inserted, updated or rewritten, and no change-log row, monitoring event or outbox row is written,
even with every company monitored, watched and covered by a webhook."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from regintel.db.keys import create_key
from regintel.db.schema import (
    companies,
    company_changes,
    deliveries,
    email_outbox,
    insolvency_events,
    monitoring_events,
    subscriptions,
    watches,
)
from regintel.domain.monitoring import EVENT_TYPES, INSOLVENCY_CHANGED
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source
from tests.ingest.import_helpers import count

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from bench_import import FORMATS, generate  # noqa: E402

WRITTEN = (company_changes, monitoring_events, deliveries, email_outbox, insolvency_events)


def watch_everything(engine: Engine) -> None:
    """A webhook on every event of every company, a monitoring subscription and a confirmed e-mail
    watch on each company: any change a re-import logged would queue events and outbox rows."""
    now = datetime.now(UTC)
    with engine.begin() as conn:
        key, _ = create_key(conn, "watcher", "business")
        sub = {
            "api_key_id": key.id,
            "url": "http://127.0.0.1:9/hook",
            "secret": "whsec_test",
            "created_at": now,
            "updated_at": now,
        }
        ids = list(conn.execute(select(companies.c.id)).scalars())
        conn.execute(
            subscriptions.insert(),
            [sub | {"kind": "webhook", "company_id": None, "event_types": list(EVENT_TYPES)}]
            + [
                sub | {"kind": "monitoring", "company_id": i, "event_types": [INSOLVENCY_CHANGED]}
                for i in ids
            ],
        )
        conn.execute(
            watches.insert(),
            [
                {
                    "email": f"w{i}@example.org",
                    "company_id": i,
                    "status": "confirmed",
                    "created_at": now,
                    "confirmed_at": now,
                }
                for i in ids
            ],
        )


def state(engine: Engine) -> tuple[object, ...]:
    """Row counts of what a change writes, and the companies and notices as stored."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                companies.c.id,
                companies.c.updated_at,
                companies.c.in_bankruptcy,
                companies.c.in_restructuring,
                companies.c.in_liquidation,
            ).order_by(companies.c.id)
        ).all()
        notices = conn.execute(
            select(insolvency_events.c.id, insolvency_events.c.updated_at).order_by(insolvency_events.c.id)
        ).all()
    return tuple(count(engine, t) for t in WRITTEN), rows, notices


def run(engine: Engine, settings, source: str, path: Path) -> LoadStats:  # type: ignore[no-untyped-def]
    """`regintel import SOURCE PATH` in batches of 50 (notices of one company span several)."""
    return run_import(engine, get_source(source), str(path), settings.data_dir, batch_size=50)[1]


@pytest.mark.parametrize("source", sorted(FORMATS))
def test_reimporting_a_prefix_changes_nothing(engine, settings, tmp_path, source):
    full, prefix = generate(source, 400, tmp_path), generate(source, 150, tmp_path)
    first = run(engine, settings, source, full)
    assert first.inserted > 0 and first.rejected == 0
    watch_everything(engine)
    before = state(engine)
    again = run(engine, settings, source, prefix)
    assert (again.inserted, again.updated, again.changes, again.rejected) == (0, 0, 0, 0)
    assert again.unchanged > 0
    assert state(engine) == before
