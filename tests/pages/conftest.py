"""Companies for the pages tests: the shared realistic set, a hostile name and an identifier in two
countries."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from datetime import date

import httpx
import pytest

from regintel.domain.types import CompanyRecord
from tests.api.companies_fixture import load
from tests.builders import load_companies

HOSTILE = '<script>alert("x")</script> & Ελληνικά «Тест» Łódź Žilina'
HOSTILE_ID = "12345679"


@pytest.fixture
def companies(engine):
    load(engine)
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=HOSTILE_ID,
            name=HOSTILE,
            legal_form="112",
            founded_on=date(2015, 1, 1),
            city="Košice </title>",
            status="active",
        ),
        CompanyRecord(country="CZ", national_id="35757442", name="Stavby Brno s.r.o.", city="Brno"),
    )


def store_check(
    engine,
    country: str,
    national_id: str,
    host: str,
    score: int | None,
    findings: list[dict] | None = None,
    signals: list[tuple[str, str, str | None]] = (),
) -> None:
    """A passive check as the security area's worker stores it (`security.queries.save_check`), for a domain
    the company published (the real checks against loopback servers are tested in tests/security)."""
    from datetime import UTC, datetime

    from sqlalchemy import insert

    from regintel.areas.security import queries as security_queries
    from regintel.areas.security.tables import company_domains

    registered = ".".join(host.split(".")[-2:])
    with engine.begin() as conn:
        conn.execute(
            insert(company_domains).values(
                country=country,
                national_id=national_id,
                host=host,
                registered_domain=registered,
                kind="website",
                value=f"https://{host}/",
                source="test_register",
                source_record="test",
                retrieved_at=datetime.now(UTC),
            )
        )
        security_queries.save_check(
            conn,
            {
                "host": host,
                "status": "done" if score is not None else "refused",
                "score": score,
                "findings": findings or [],
                "facts": {},
                "error": None,
                "checked_at": datetime.now(UTC),
                "duration_ms": 5,
            },
            [
                {"host": host, "kind": kind, "name": name, "category": category, "evidence": "test"}
                for kind, name, category in signals
            ],
        )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(settings, companies, tmp_path):
    port = _free_port()
    env = os.environ | {
        "REGINTEL_DATABASE_URL": settings.database_url,
        "REGINTEL_DATA_DIR": str(tmp_path / "d"),
        "REGINTEL_RATE_LIMIT_STORAGE": "memory",
        "REGINTEL_LOG_LEVEL": "WARNING",
    }
    env.pop("REGINTEL_BASE_URL", None)
    log = tmp_path / "uvicorn.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "regintel.api.asgi:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-access-log",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )  # a file: an unread pipe would block a chatty server
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # a shared 2-core machine can take a minute to import the app
        while True:
            try:
                if httpx.get(f"{base}/livez", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"uvicorn did not start: {log.read_text(errors='replace')[-4000:]}")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)
