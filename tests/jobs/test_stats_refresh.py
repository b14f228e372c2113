"""The worker keeps the statistics snapshots current: after the data moved and held still, never while
an import run is in progress, and as a loop beside the deliveries."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

from sqlalchemy import insert, select, update

from regintel.areas.stats.snapshots import AGGREGATES
from regintel.db.schema import import_runs, stats_snapshots
from regintel.domain.types import CompanyRecord
from regintel.jobs.stats_refresh import StatsRefresher
from tests.builders import load_companies
from tests.helpers import assert_envelope

ALL = list(AGGREGATES)


def nord(**fields: object) -> CompanyRecord:
    return CompanyRecord(country="SK", national_id="36631124", name="Nord Consulting s.r.o.", **fields)  # type: ignore[arg-type]


def test_refreshes_once_the_data_holds_still(engine, client, auth):
    load_companies(engine, nord())
    refresher = StatsRefresher(engine)
    assert refresher.poll() == []  # first look: the data may still be moving
    assert refresher.poll() == ALL
    assert refresher.poll() == []
    assert client.get("/api/v1/companies/stats", headers=auth).json()["meta"]["cached"] is True
    load_companies(engine, nord(in_bankruptcy=True))
    assert refresher.poll() == []
    assert refresher.poll() == ALL
    resp = client.get("/api/v1/companies/stats", headers=auth)
    assert resp.json()["meta"]["cached"] is True and assert_envelope(resp)["totals"]["inBankruptcy"] == 1


def test_waits_for_a_running_import(engine):
    load_companies(engine, nord())
    with engine.begin() as conn:
        run_id = conn.execute(
            insert(import_runs)
            .values(source="test_register", status="running", location="x", started_at=datetime.now(UTC))
            .returning(import_runs.c.id)
        ).scalar_one()
    refresher = StatsRefresher(engine)
    assert refresher.poll() == [] and refresher.poll() == []
    with engine.begin() as conn:
        conn.execute(
            update(import_runs)
            .where(import_runs.c.id == run_id)
            .values(status="succeeded", finished_at=datetime.now(UTC))
        )
    assert refresher.poll() == [] and refresher.poll() == ALL


def test_the_worker_loop_refreshes(engine, make_worker):
    load_companies(engine, nord())
    worker = make_worker(stats_poll_seconds=0.05)

    def stored() -> set[str]:
        with engine.connect() as conn:
            return set(conn.execute(select(stats_snapshots.c.key)).scalars())

    async def main() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(worker.run(stop))
        deadline = time.monotonic() + 20
        while stored() != set(ALL) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        stop.set()
        await task

    asyncio.run(main())
    assert stored() == set(ALL)
