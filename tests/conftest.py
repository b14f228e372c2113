"""Test fixtures: a real database (SQLite, or PostgreSQL when REGINTEL_TEST_POSTGRES_URL is set),
migrated once per session and emptied before each test, and an app client over it."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import settings as hypothesis_settings
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from regintel.api.app import create_app
from regintel.areas import load_tables
from regintel.config import Settings
from regintel.db.engine import make_engine, normalise_url
from regintel.db.keys import create_key
from regintel.db.migrate import upgrade
from regintel.db.schema import metadata
from regintel.ingest.seed import seed_reference_data
from tests import builders

# Thousands of apps start in the suite; the start-up warm work (about 1 s of CPU each) is tested on its own
# in tests/pages/test_first_render.py. Set before any Settings is made, so subprocess servers inherit it.
os.environ.setdefault("REGINTEL_WARM_START", "false")
# Hypothesis fails an example that takes over 200 ms: a timed test, which failed on a busy CI machine
# (tests/nis2 property tests at a load of 3), not on the code. Properties are checked without a clock.
hypothesis_settings.register_profile("regintel", deadline=None)
hypothesis_settings.load_profile("regintel")
PG_URL = os.environ.get("REGINTEL_TEST_POSTGRES_URL")
BACKEND = "postgresql" if PG_URL else "sqlite"
REFERENCE_TABLES = frozenset({"code_lists", "code_list_items"})
load_tables()  # the areas' tables join `metadata`, so every test starts with them empty


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On PostgreSQL, only the tests that reach the database run: those on the database fixtures and those
    marked `postgres`. The rest (pure domain code, parsers, validators, servers on their own SQLite file)
    would repeat the SQLite pass's answer at the cost of half the CI's time."""
    if not PG_URL:
        return
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        reaches = "template_url" in getattr(item, "fixturenames", ()) or item.get_closest_marker("postgres")
        (keep if reaches else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_report_header() -> str:
    return f"regintel database backend: {BACKEND}" + (
        "" if PG_URL else " (PostgreSQL tests skip: set REGINTEL_TEST_POSTGRES_URL to run them)"
    )


@pytest.fixture(scope="session")
def template_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database: a template SQLite file, or a throwaway PostgreSQL database."""
    if not PG_URL:
        path = tmp_path_factory.mktemp("template") / "template.db"
        engine = make_engine(f"sqlite:///{path}", pool=False)
        upgrade(engine)
        seed_reference_data(engine)
        engine.dispose()
        yield str(path)
        return
    server = make_url(normalise_url(PG_URL))
    name = f"regintel_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = server.set(database=name).render_as_string(hide_password=False)
    engine = make_engine(url, pool=False)
    upgrade(engine)
    seed_reference_data(engine)
    engine.dispose()
    yield url
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def database_url(template_url: str, tmp_path: Path) -> str:
    """An empty, migrated database for one test."""
    if not PG_URL:
        target = tmp_path / "regintel.db"
        shutil.copyfile(template_url, target)
        return f"sqlite:///{target}"
    engine = make_engine(template_url, pool=False)
    # Reference data seeded into the template stays; everything else starts empty. Only the tables a
    # test wrote are truncated, and only the sequences it advanced restarted: truncating all ~90 tables
    # took most of the time of a typical PostgreSQL test.
    names = [t.name for t in metadata.sorted_tables if t.name not in REFERENCE_TABLES]
    probe = " UNION ALL ".join(f"SELECT '{n}' WHERE EXISTS (SELECT 1 FROM \"{n}\")" for n in names)
    with engine.begin() as conn:
        written = conn.execute(text(probe)).scalars().all()
        if written:
            conn.execute(text(f"TRUNCATE {', '.join(chr(34) + n + chr(34) for n in written)} CASCADE"))
        advanced = (
            conn.execute(
                text(
                    "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) "
                    "FROM pg_sequences WHERE last_value IS NOT NULL"
                )
            )
            .scalars()
            .all()
        )
        for sequence in advanced:
            conn.execute(text(f"ALTER SEQUENCE {sequence} RESTART"))
    engine.dispose()
    return template_url


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Iterator[Settings]:
    made = Settings(
        database_url=database_url,
        data_dir=tmp_path / "data",
        rate_limit_storage="sqlite",
        base_url="http://testserver",
        allow_private_webhooks=True,
    )
    builders.SETTINGS.append(made)  # load_companies finishes the search index as `regintel import` does
    yield made
    builders.SETTINGS.remove(made)


@pytest.fixture
def engine(settings: Settings) -> Iterator[Engine]:
    engine = make_engine(settings.database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def app_factory(settings: Settings) -> Iterator[object]:
    """Build a client with overridden settings: `make_client(rate_window_seconds=2)`."""
    clients: list[TestClient] = []

    made: list[Settings] = []

    def make_client(**overrides: object) -> TestClient:
        app_settings = settings.model_copy(update=overrides)
        if overrides.get("search_backend") not in (None, settings.search_backend):
            made.append(app_settings)  # load_companies finishes this app's index too
            builders.SETTINGS.append(app_settings)
        client = TestClient(create_app(app_settings))
        clients.append(client.__enter__())
        return client

    yield make_client
    for client in clients:
        client.__exit__(None, None, None)
    for app_settings in made:
        builders.SETTINGS.remove(app_settings)


@pytest.fixture
def client(app_factory: object) -> TestClient:
    return app_factory()  # type: ignore[operator]


@pytest.fixture
def make_key(engine: Engine, settings: Settings):  # type: ignore[no-untyped-def]
    """Create an API key on the test database; returns the raw key."""

    def make(plan: str = "free", name: str = "test", **kwargs: object) -> str:
        kwargs.setdefault("duration_days", settings.plan(plan).duration_days)
        with engine.begin() as conn:
            _, raw = create_key(conn, name, plan, **kwargs)  # type: ignore[arg-type]
        return raw

    return make


@pytest.fixture
def api_key(make_key) -> str:  # type: ignore[no-untyped-def]
    return make_key("business")


@pytest.fixture
def auth(api_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"}


@pytest.fixture
def lei_company():  # type: ignore[no-untyped-def]
    """The company of the LEI record tests (České aerolinie a.s., CZ 45795908, LEI 529900T8BM49AURSDO55,
    one 2024 statement), founded on the day a test gives: its age is a factor of the credit grade."""
    from regintel.domain.types import CompanyRecord
    from tests.compliance.test_api import CSA, fin

    def build(founded_on: date) -> CompanyRecord:
        return CompanyRecord(
            country="CZ",
            national_id=CSA,
            name="České aerolinie a.s.",
            lei="529900T8BM49AURSDO55",
            founded_on=founded_on,
            financials=(fin(2024, 9_000_000, 700_000),),
        )

    return build
