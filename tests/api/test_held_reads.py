"""PostgreSQL reads run on connections the API keeps open in autocommit (api/held_reads.py): requests
reuse them instead of taking a pool connection each, answers that are errors keep them, a connection
left inside a transaction or a statement is not kept, and concurrent requests never hold more than the
gate lends."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import text

from regintel.api.held_reads import HeldReads
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.conftest import BACKEND
from tests.helpers import assert_envelope

pytestmark = pytest.mark.skipif(BACKEND != "postgresql", reason="held connections: PostgreSQL")

LEI = "097900BHF50000076475"
PATHS = [
    "/api/v1/companies/sk/31322832",
    f"/api/v1/companies/by-lei?lei={LEI}",
    "/api/v1/companies/autocomplete?q=slovn",
    "/api/v1/companies/search?q=slovnaft",
]


def _backend_pids(engine) -> set[int]:  # type: ignore[no-untyped-def]
    with engine.connect() as admin:
        return set(
            admin.execute(
                text(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                )
            ).scalars()
        )


@pytest.fixture
def slovnaft(engine) -> None:  # type: ignore[no-untyped-def]
    load_companies(
        engine, CompanyRecord(country="SK", national_id="31322832", name="SLOVNAFT, a.s.", lei=LEI)
    )


def test_sequential_reads_reuse_one_held_connection(client, auth, engine, slovnaft):
    app = client.app
    held: HeldReads = app.state.held_reads  # type: ignore[attr-defined]
    assert_envelope(client.get(PATHS[0], headers=auth))
    before = _backend_pids(engine)
    for path in PATHS * 10:
        answer = client.get(path, headers=auth)
        assert answer.status_code == 200, answer.text
    assert held.held(app.state.engine) == 1  # type: ignore[attr-defined]
    assert _backend_pids(engine) == before  # no connection was made for the 40 reads


def test_an_error_answer_keeps_the_connection(client, auth, engine, slovnaft):
    app = client.app
    held: HeldReads = app.state.held_reads  # type: ignore[attr-defined]
    assert_envelope(client.get(PATHS[0], headers=auth))
    before = _backend_pids(engine)
    missing = client.get("/api/v1/companies/sk/00000001", headers=auth)  # not in the database
    assert missing.status_code in (404, 422), missing.text
    assert client.get("/api/v1/companies/by-lei?lei=529900T8BM49AURSDO55", headers=auth).status_code == 404
    assert_envelope(client.get(PATHS[0], headers=auth))
    assert held.held(app.state.engine) == 1  # type: ignore[attr-defined]
    assert _backend_pids(engine) == before


def test_concurrent_reads_hold_no_more_than_the_gate_lends(app_factory, auth, engine, slovnaft):
    client = app_factory(db_concurrency=3)
    app = client.app

    def get(path: str) -> int:
        return client.get(path, headers=auth).status_code

    with ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(get, PATHS * 40))
    assert set(codes) == {200}
    held = app.state.held_reads.held(app.state.engine)  # type: ignore[attr-defined]
    assert 1 <= held <= 3


def test_a_connection_left_in_a_transaction_is_not_kept(engine):
    held = HeldReads()

    def opens_and_fails(conn):  # type: ignore[no-untyped-def]
        conn.exec_driver_sql("BEGIN")
        raise ValueError("failed inside a transaction")

    def pid(conn):  # type: ignore[no-untyped-def]
        return conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()

    def status(conn):  # type: ignore[no-untyped-def]
        return conn.connection.dbapi_connection.info.transaction_status.name

    first = held.run(engine, pid)
    assert held.run(engine, pid) == first  # kept and reused
    with pytest.raises(ValueError, match="inside a transaction"):
        held.run(engine, opens_and_fails)
    assert held.held(engine) == 0  # given back to the pool, which rolled it back, not kept
    assert held.run(engine, status) == "IDLE"
    held.drop()
    assert held.held(engine) == 0


def test_a_failed_statement_keeps_a_usable_connection(engine):
    held = HeldReads()

    def bad(conn):  # type: ignore[no-untyped-def]
        conn.exec_driver_sql("SELECT no_such_column FROM companies")

    def one(conn):  # type: ignore[no-untyped-def]
        return conn.exec_driver_sql("SELECT 1").scalar_one()

    held.run(engine, one)
    with pytest.raises(Exception, match="no_such_column"):
        held.run(engine, bad)
    assert held.run(engine, one) == 1  # autocommit: the failed statement left no aborted transaction
    held.drop()
