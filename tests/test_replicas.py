"""PostgreSQL read replicas (`REGINTEL_DATABASE_REPLICA_URLS`), against a real primary and a streaming
replica that this test starts in a temporary folder (initdb, pg_basebackup -R, pg_ctl), each on its
own port. With the replica's replay paused, what the API answers tells where it read: read-only paths
see the replica's older state, paths that read what a client just wrote see the primary's."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from regintel.api.app import create_app
from regintel.config import Settings
from regintel.db.engine import make_engine
from regintel.db.keys import create_key
from regintel.db.migrate import upgrade
from regintel.ingest.seed import seed_reference_data
from tests.api.companies_fixture import RECORDS
from tests.builders import load_companies

pytestmark = [pytest.mark.slow, pytest.mark.postgres]  # a replica cluster of its own
BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def _usable() -> str | None:
    if not os.environ.get("REGINTEL_TEST_POSTGRES_URL"):
        return "PostgreSQL tests are off (REGINTEL_TEST_POSTGRES_URL)"
    if not BIN or os.geteuid() != 0:
        return "needs the PostgreSQL server binaries and root (to run them as the postgres user)"
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return "no postgres user"
    return None


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(*cmd: str) -> None:
    subprocess.run(["runuser", "-u", "postgres", "--", *cmd], check=True, capture_output=True)


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[str, str]]:
    reason = _usable()
    if reason:
        pytest.skip(reason)
    # Not under pytest's temporary folder: that one is private to root, and the servers run as postgres.
    root = Path(tempfile.mkdtemp(prefix="regintel-replication-"))
    shutil.chown(root, "postgres")
    os.chmod(root, 0o755)
    primary, replica = root / "primary", root / "replica"
    bin_ = Path(BIN[-1])
    p_port, r_port = _port(), _port()
    _as_postgres(str(bin_ / "initdb"), "-D", str(primary), "-A", "trust", "-U", "postgres")
    with open(primary / "postgresql.conf", "a") as conf:
        conf.write(
            f"port = {p_port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{root}'\n"
            "wal_level = replica\nmax_wal_senders = 4\nfsync = off\n"
        )
    with open(primary / "pg_hba.conf", "a") as hba:
        hba.write("host replication all 127.0.0.1/32 trust\n")
    started: list[Path] = []
    try:
        _as_postgres(str(bin_ / "pg_ctl"), "-D", str(primary), "-w", "-l", str(root / "primary.log"), "start")
        started.append(primary)
        _as_postgres(
            str(bin_ / "pg_basebackup"),
            "-h",
            "127.0.0.1",
            "-p",
            str(p_port),
            "-U",
            "postgres",
            "-D",
            str(replica),
            "-R",
            "-X",
            "stream",
        )
        _as_postgres(
            str(bin_ / "pg_ctl"),
            "-D",
            str(replica),
            "-w",
            "-l",
            str(root / "replica.log"),
            "-o",
            f"-p {r_port}",
            "start",
        )
        started.append(replica)
        yield (
            f"postgresql+psycopg://postgres@127.0.0.1:{p_port}/postgres",
            f"postgresql+psycopg://postgres@127.0.0.1:{r_port}/postgres",
        )
    finally:
        for folder in reversed(started):
            _as_postgres(str(bin_ / "pg_ctl"), "-D", str(folder), "-m", "immediate", "stop")
        shutil.rmtree(root, ignore_errors=True)


def _caught_up(primary_url: str, replica_url: str) -> None:
    with create_engine(primary_url).connect() as conn:
        lsn = conn.execute(text("SELECT pg_current_wal_lsn()")).scalar()
    replica = create_engine(replica_url, isolation_level="AUTOCOMMIT")
    deadline = time.time() + 30
    with replica.connect() as conn:
        while time.time() < deadline:
            if conn.execute(
                text("SELECT pg_last_wal_replay_lsn() >= CAST(:lsn AS pg_lsn)"), {"lsn": lsn}
            ).scalar():
                return
            time.sleep(0.1)
    raise AssertionError("the replica did not catch up")


def test_reads_go_to_the_replica_and_writes_to_the_primary(cluster: tuple[str, str], tmp_path: Path) -> None:
    primary_url, replica_url = cluster
    engine = make_engine(primary_url, pool=False)
    upgrade(engine)
    seed_reference_data(engine)
    load_companies(engine, *RECORDS)
    with engine.begin() as conn:
        _, key = create_key(conn, "replica", "business")
    _caught_up(primary_url, replica_url)
    replica_admin = create_engine(replica_url, isolation_level="AUTOCOMMIT")
    with replica_admin.connect() as conn:
        conn.execute(text("SELECT pg_wal_replay_pause()"))
    with engine.begin() as conn:  # the replica does not see this until replay resumes
        conn.execute(text("UPDATE companies SET name = 'SLOVNAFT RENAMED' WHERE national_id = '31322832'"))
    settings = Settings(
        database_url=primary_url,
        database_replica_urls=[replica_url],
        data_dir=tmp_path / "data",
        rate_limit_storage="memory",
        base_url="http://testserver",
        allow_private_webhooks=True,
    )
    auth = {"Authorization": f"Bearer {key}"}
    with TestClient(create_app(settings)) as client:
        for path in (
            "/api/v1/companies/sk/31322832",
            "/api/v1/companies/lookup?id=31322832&country=sk",
            "/api/v1/companies/31322832",
        ):
            assert client.get(path, headers=auth).json()["data"]["name"] == "SLOVNAFT, a.s.", path
        # A subscription written now is read back at once: monitoring reads the primary.
        created = client.post(
            "/api/v1/monitoring/subscriptions",
            headers=auth,
            json={"country": "SK", "ico": "31322832", "webhook_url": "http://127.0.0.1:9/hook"},
        )
        assert created.status_code == 201, created.text
        sub_id = created.json()["data"]["id"]
        assert client.get(f"/api/v1/monitoring/subscriptions/{sub_id}", headers=auth).status_code == 200
        with replica_admin.connect() as conn:
            conn.execute(text("SELECT pg_wal_replay_resume()"))
        _caught_up(primary_url, replica_url)
        assert (
            client.get("/api/v1/companies/sk/31322832", headers=auth).json()["data"]["name"]
            == "SLOVNAFT RENAMED"
        )
    engine.dispose()
