"""The search index is kept by jobs, not requests (issue 14): a loader batch queues `search.index` in its
transaction, the job catches the index up, and requests only read it. Through HTTP on tantivy and the
database's own backend (SQLite FTS5 or pg_trgm); across processes with real servers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from regintel.api import search_index
from regintel.cli import app as cli_app
from regintel.db.jobs import SEARCH_INDEX
from regintel.db.schema import jobs
from regintel.domain.types import CompanyRecord
from regintel.jobs.runner import run_due
from regintel.search import get_backend
from tests.api.test_search import COMPANIES, names
from tests.builders import load_companies
from tests.helpers import assert_envelope

ORANGE = CompanyRecord(country="SK", national_id="35697270", name="Orange Slovensko, a.s.")
ARES = Path(__file__).parents[1] / "fixtures" / "cz_ares" / "ekonomicke-subjekty_26168685.json"
IDLE = 3600.0  # the app's own job thread looks this seldom: the test runs the job itself


@pytest.fixture(params=["tantivy", "native"])
def backend_name(request: Any, engine: Any) -> str:
    if request.param == "tantivy":
        return "tantivy"
    return "sqlite_fts" if engine.dialect.name == "sqlite" else "pg_trgm"


def _search_jobs(engine: Any) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(select(jobs).where(jobs.c.kind == SEARCH_INDEX).order_by(jobs.c.id))
        return [dict(r._mapping) for r in rows]


def _found(client: Any, auth: dict[str, str], q: str) -> tuple[list[str], list[str]]:
    found = names(assert_envelope(client.get("/api/v1/companies/search", params={"q": q}, headers=auth)))
    typed = names(
        assert_envelope(client.get("/api/v1/companies/autocomplete", params={"q": q[:-2]}, headers=auth))
    )
    return found, typed


def test_requests_only_read_and_the_job_brings_new_companies(
    app_factory: Any, auth: dict[str, str], engine: Any, settings: Any, backend_name: str
) -> None:
    load_companies(engine, *COMPANIES)
    client = app_factory(search_backend=backend_name, search_refresh_seconds=IDLE)
    app_settings = settings.model_copy(update={"search_backend": backend_name})
    backend = get_backend(engine, app_settings)
    run_due(engine, app_settings, "test", kinds=[SEARCH_INDEX])  # the jobs of the first load
    with engine.connect() as conn:
        before = backend.status(conn)

    load_companies(engine, ORANGE, finish_index=False)  # an import after the server started
    queued = [j for j in _search_jobs(engine) if j["status"] == "queued"]
    assert len(queued) == 1  # queued in the batch's transaction, once however many batches
    for _ in range(3):
        found, typed = _found(client, auth, "orange slovensko")
        if backend_name != "pg_trgm":  # pg_trgm is PostgreSQL's own index, current with every write
            assert found == [] and typed == []
    with engine.connect() as conn:  # the requests indexed nothing (pg_trgm counts the table's rows)
        assert backend.status(conn) == before or backend_name == "pg_trgm"
    assert [j["status"] for j in _search_jobs(engine) if j["id"] == queued[0]["id"]] == ["queued"]

    assert run_due(engine, app_settings, "test", kinds=[SEARCH_INDEX]) == 1
    assert _found(client, auth, "orange slovensko") == (
        ["Orange Slovensko, a.s."],
        ["Orange Slovensko, a.s."],
    )

    load_companies(
        engine,
        CompanyRecord(country="SK", national_id="35697270", name="Orange Slovakia, a.s."),
        finish_index=False,
    )
    assert run_due(engine, app_settings, "test", kinds=[SEARCH_INDEX]) == 1
    found, typed = _found(client, auth, "orange slovakia")
    assert found[0] == typed[0] == "Orange Slovakia, a.s."
    done = _search_jobs(engine)[-1]
    assert done["status"] == "done" and done["result"]["backend"] == backend_name


def test_a_lone_serve_runs_the_job_itself(
    app_factory: Any, auth: dict[str, str], engine: Any, backend_name: str
) -> None:
    """Without a `regintel worker`, the serve process's own job thread catches the index up."""
    client = app_factory(search_backend=backend_name, search_refresh_seconds=0.05)
    load_companies(engine, *COMPANIES, ORANGE, finish_index=False)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = _search_jobs(engine)[-1]
        if job["status"] == "done":
            break
        time.sleep(0.05)
    assert job["status"] == "done" and str(job["worker_id"]).startswith("serve:")
    assert _found(client, auth, "orange slovensko") == (
        ["Orange Slovensko, a.s."],
        ["Orange Slovensko, a.s."],
    )


def test_a_big_backlog_at_start_is_queued_not_built_by_a_request(
    app_factory: Any, auth: dict[str, str], engine: Any, settings: Any, monkeypatch: Any
) -> None:
    """A missing index over more rows than the start-up limit is left to the job: the API starts at once
    and answers from what exists (nothing) until the job ran."""
    monkeypatch.setattr(search_index, "STARTUP_LIMIT", 0)
    load_companies(engine, *COMPANIES, finish_index=False)
    with engine.begin() as conn:  # as if no job had been queued (an index folder deleted, a restore)
        conn.execute(jobs.delete())
    client = app_factory(search_refresh_seconds=IDLE)
    assert assert_envelope(client.get("/api/v1/companies/search?q=tatra banka", headers=auth)) == []
    assert [j["status"] for j in _search_jobs(engine)] == ["queued"]
    assert run_due(engine, settings, "test", kinds=[SEARCH_INDEX]) == 1
    items = assert_envelope(client.get("/api/v1/companies/search?q=tatra banka", headers=auth))
    assert names(items)[0] == "Tatra banka, a.s."


def test_import_finishes_its_own_job(
    engine: Any, settings: Any, monkeypatch: Any, client: Any, auth: dict[str, str]
) -> None:
    """`regintel import` leaves no `search.index` job behind: a lone `serve` sees its rows at once."""
    monkeypatch.setenv("REGINTEL_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("REGINTEL_DATA_DIR", str(settings.data_dir))
    result = CliRunner().invoke(cli_app, ["import", "cz_ares", str(ARES)])
    assert result.exit_code == 0, result.output
    assert _search_jobs(engine) and {j["status"] for j in _search_jobs(engine)} == {"done"}
    assert _found(client, auth, "seznam cz")[0] == ["Seznam.cz, a.s."]


@pytest.mark.slow
def test_every_api_process_sees_the_new_generation(
    settings: Any, engine: Any, tmp_path: Path, api_key: str
) -> None:
    """Two serve processes on one database and data folder: a job run by a third process (a worker),
    then a rebuild that moves `CURRENT`, are seen by both (tantivy readers reload and reopen)."""
    from tests.api.test_serving import Server

    load_companies(engine, *COMPANIES)
    servers = [Server(settings, settings.data_dir, 1, REGINTEL_SEARCH_REFRESH_SECONDS="3600") for _ in (1, 2)]
    try:
        headers = {"Authorization": f"Bearer {api_key}"}

        def seen(q: str) -> list[list[str]]:
            return [
                names(
                    httpx.get(f"{s.base}/api/v1/companies/search", params={"q": q}, headers=headers).json()[
                        "data"
                    ]
                )[:1]
                for s in servers
            ]

        assert seen("tatra banka") == [["Tatra banka, a.s."]] * 2
        load_companies(engine, ORANGE, finish_index=False)
        assert run_due(engine, settings, "worker", kinds=[SEARCH_INDEX]) == 1
        assert seen("orange slovensko") == [["Orange Slovensko, a.s."]] * 2
        generation = (get_backend(engine, settings).root / "CURRENT").read_text()
        load_companies(
            engine,
            CompanyRecord(country="SK", national_id="35697270", name="Orange Slovakia, a.s."),
            finish_index=False,
        )
        result = CliRunner().invoke(cli_app, ["search", "rebuild"], env=_env(settings))
        assert result.exit_code == 0, result.output
        assert (get_backend(engine, settings).root / "CURRENT").read_text() != generation
        assert seen("orange slovakia") == [["Orange Slovakia, a.s."]] * 2
    finally:
        for server in servers:
            server.stop()


def _env(settings: Any) -> dict[str, str]:
    return {"REGINTEL_DATABASE_URL": settings.database_url, "REGINTEL_DATA_DIR": str(settings.data_dir)}
