"""Fixtures of the security tests: loopback DNS and web servers, a test CA, a company with domains."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import insert

from regintel.areas.security.names import normalise_host, website_host
from regintel.areas.security.tables import company_domains
from regintel.db import jobs as jobs_db
from regintel.domain.types import CompanyRecord
from regintel.jobs.runner import LEASE, run_one
from tests.builders import load_companies
from tests.security.servers import Authority, DnsServer, WebServer

ICO = "36000001"


@pytest.fixture
def dns_server() -> Iterator[DnsServer]:
    server = DnsServer()
    yield server
    server.close()


@pytest.fixture
def authority(tmp_path) -> Authority:
    return Authority(tmp_path)


@pytest.fixture
def web() -> Iterator[Callable[..., WebServer]]:
    servers: list[WebServer] = []

    def start(headers: dict[str, str], **kwargs: Any) -> WebServer:
        server = WebServer(headers, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


@pytest.fixture
def company(engine):
    load_companies(
        engine, CompanyRecord(country="SK", national_id=ICO, name="Bezpečná s.r.o.", legal_form="112")
    )
    return ICO


def add_domain(engine, value: str, kind: str = "website", country: str = "SK", national_id: str = ICO) -> str:
    # `.test` is special-use: email-validator refuses it in addresses, so the e-mail domain is taken as is
    # here (address syntax is tested in test_names.py).
    host = website_host(value) if kind == "website" else normalise_host(value.rpartition("@")[2])
    with engine.begin() as conn:
        conn.execute(
            insert(company_domains).values(
                country=country,
                national_id=national_id,
                host=host.host,
                registered_domain=host.registered_domain,
                kind=kind,
                value=value if kind == "website" else "@" + value.rpartition("@")[2],
                source="test_register",
                source_record="test",
                retrieved_at=datetime.now(UTC),
            )
        )
    return host.host


def job_settings(
    settings,
    dns_server: DnsServer,
    https: WebServer | None = None,
    http: WebServer | None = None,
    authority: Authority | None = None,
    **overrides: Any,
):
    """The worker's settings: the loopback resolver, private targets allowed, the test servers' ports."""
    values: dict[str, Any] = {
        "security_nameservers": [dns_server.address],
        "security_allow_private": True,
        "security_timeout_seconds": 2.0,
        "security_https_port": https.port if https else 9,
        "security_http_port": http.port if http else 9,
        "security_ca_file": str(authority.ca_file) if authority else None,
    }
    return settings.model_copy(update=values | overrides)


def drain(engine, settings) -> int:
    """Run the due `security.check` jobs the way the worker does (claim, then `run_one`); other kinds
    queued by loading companies are left alone."""
    ran = 0
    while True:
        with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
            claimed = jobs_db.claim(
                conn, "test-worker", 10, datetime.now(UTC), LEASE, kinds=["security.check"]
            )
        if not claimed:
            return ran
        for job in claimed:
            run_one(engine, settings, "test-worker", job)
        ran += len(claimed)
