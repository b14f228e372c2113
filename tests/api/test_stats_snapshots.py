"""Statistics snapshots: unfiltered aggregates with default parameters are answered from what was
precomputed for the current data version, without aggregating; a data change makes them stale; the
CLI (`stats refresh`, `import`, `synth`) writes them; the answers equal the live computation."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import delete, event, insert, select, update
from typer.testing import CliRunner

from regintel.areas.stats.breakdown import DIMENSIONS
from regintel.areas.stats.snapshots import AGGREGATES, refresh
from regintel.cli import app
from regintel.db.schema import import_runs, stats_snapshots
from regintel.domain.types import CompanyRecord
from tests.api import companies_fixture as fx
from tests.builders import load_companies
from tests.helpers import assert_envelope

ARES = Path(__file__).parents[1] / "fixtures" / "cz_ares" / "ekonomicke-subjekty_26168685.json"
DEFAULTS = [
    "/api/v1/companies/stats",
    "/api/v1/companies/stats/freshness",
    "/api/v1/companies/stats/shell-addresses",
    "/api/v1/public/stats",
    "/api/v1/public/shell-addresses",
    *(f"/api/v1/companies/stats/breakdown?by={by}" for by in DIMENSIONS),
]


@pytest.fixture
def data(engine):
    fx.load(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(import_runs).values(
                source="test_register",
                status="succeeded",
                location="fixture",
                started_at=datetime(2026, 1, 1, tzinfo=UTC),
                finished_at=datetime(2026, 1, 1, 0, 5, tzinfo=UTC),
                stats={"read": 10},
            )
        )


@pytest.fixture
def cli(settings, monkeypatch):
    monkeypatch.setenv("REGINTEL_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("REGINTEL_DATA_DIR", str(settings.data_dir))

    def invoke(*args: str) -> str:
        result = CliRunner().invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return result.output

    return invoke


def answers(client, auth, paths=DEFAULTS) -> dict[str, tuple[object, bool]]:
    """Each path's data and whether it was served from a cache or snapshot."""
    out = {}
    for path in paths:
        resp = client.get(path, headers=auth)
        out[path] = (assert_envelope(resp), resp.json()["meta"]["cached"])
    return out


def statements_of(client) -> list[str]:
    """The statements requests run; the app's search-index thread, which reads the companies' newest
    change (its watermark) whenever it looks for work, is left out: it made these counts flaky."""
    statements: list[str] = []

    def listener(*args: object) -> None:
        if threading.current_thread().name != "search-index-jobs":
            statements.append(str(args[2]))

    event.listen(client.app.state.engine, "before_cursor_execute", listener)
    return statements


def aggregating(statements: list[str]) -> list[str]:
    """Statements that aggregate or read company data (the data version reads two index ends)."""
    return [
        s
        for s in statements
        if "GROUP BY" in s.upper()
        or "count(" in s.lower()
        or any(
            f"FROM {table}" in s
            for table in (
                "companies",
                "company_sources",
                "latest_financials",
                "data_sources",
                "lei_records",
                "code_list_items",
            )
        )
    ]


def test_answers_come_from_the_snapshot_without_aggregating(client, auth, data, engine, app_factory, cli):
    live = answers(client, auth)
    assert not any(cached for _, cached in live.values())
    with engine.begin() as conn:  # those live answers stored snapshots; start over from the CLI
        conn.execute(delete(stats_snapshots))
    # every aggregate, the paths above and those without a path of their own (the pages' region counts)
    assert f"statistics snapshots: {len(AGGREGATES)} computed" in cli("stats", "refresh")
    fresh = app_factory()  # a new API process: nothing in its own cache
    statements = statements_of(fresh)
    served = answers(fresh, auth)
    assert all(cached for _, cached in served.values())
    assert {path: value for path, (value, _) in served.items()} == {
        path: value for path, (value, _) in live.items()
    }
    assert aggregating(statements) == []


def test_filtered_and_other_parameters_are_computed_live(client, auth, data, app_factory):
    refresh(client.app.state.engine)
    fresh = app_factory()
    statements = statements_of(fresh)
    resp = fresh.get("/api/v1/companies/stats/breakdown?by=country&country=sk", headers=auth)
    assert resp.json()["meta"]["cached"] is False and {i["key"] for i in assert_envelope(resp)} == {"SK"}
    resp = fresh.get("/api/v1/public/shell-addresses?min_companies=2", headers=auth)
    assert resp.json()["meta"]["cached"] is False and assert_envelope(resp)[0]["companies"] == 3
    assert aggregating(statements) != []


def test_a_data_change_makes_the_snapshot_stale(client, auth, data, engine, app_factory):
    refresh(engine)
    assert client.get("/api/v1/companies/stats", headers=auth).json()["meta"]["cached"] is True
    load_companies(
        engine,
        CompanyRecord(
            country="SK", national_id="36631124", name="Nord Consulting s.r.o.", in_bankruptcy=True
        ),
    )
    resp = client.get("/api/v1/companies/stats", headers=auth)
    assert resp.json()["meta"]["cached"] is False
    assert assert_envelope(resp)["totals"]["inBankruptcy"] == 2
    fresh = app_factory()  # the request stored what it computed: the next process reads it
    statements = statements_of(fresh)
    resp = fresh.get("/api/v1/companies/stats", headers=auth)
    assert resp.json()["meta"]["cached"] is True and assert_envelope(resp)["totals"]["inBankruptcy"] == 2
    assert aggregating(statements) == []
    assert refresh(engine) == [k for k in AGGREGATES if k != "overview"]


def test_a_snapshot_taken_during_a_run_is_stale_once_it_ends(client, auth, data, engine):
    """Bulk writers (synth) log no changes: the run's end is what tells the data moved."""
    with engine.begin() as conn:
        run = conn.execute(
            insert(import_runs)
            .values(source="test_register", status="running", location="x", started_at=datetime.now(UTC))
            .returning(import_runs.c.id)
        )
        run_id = run.scalar_one()
    refresh(engine)
    assert client.get("/api/v1/public/stats").json()["meta"]["cached"] is True
    with engine.begin() as conn:
        conn.execute(
            update(import_runs)
            .where(import_runs.c.id == run_id)
            .values(status="succeeded", finished_at=datetime.now(UTC))
        )
    assert client.get("/api/v1/public/stats").json()["meta"]["cached"] is False


def test_synth_leaves_current_snapshots(cli, engine, app_factory, auth):
    output = cli("synth", "--entities", "30", "--seed", "5", "--workers", "0", "--no-search")
    assert f"statistics snapshots: {len(AGGREGATES)} computed (" in output
    fresh = app_factory()
    statements = statements_of(fresh)
    resp = fresh.get("/api/v1/companies/stats", headers=auth)
    assert resp.json()["meta"]["cached"] is True and assert_envelope(resp)["totals"]["total"] == 30
    resp = fresh.get("/api/v1/public/stats")
    assert resp.json()["meta"]["cached"] is True and assert_envelope(resp)["entities"] == 30
    assert aggregating(statements) == []


def test_import_leaves_current_snapshots(cli, engine, app_factory, auth):
    assert "statistics snapshots:" in cli("import", "cz_ares", str(ARES))
    with engine.connect() as conn:
        assert "breakdown:country:100" in set(conn.execute(select(stats_snapshots.c.key)).scalars())
    resp = app_factory().get("/api/v1/companies/stats/breakdown?by=country", headers=auth)
    assert resp.json()["meta"]["cached"] is True and assert_envelope(resp)[0]["key"] == "CZ"
