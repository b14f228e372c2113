"""The search index after a withholding (areas/accounts/jobs.py, `SearchBackend.sync`), on tantivy (the
default) and the database's own backend: the withholding queues a sync of the ids whose rows went, the worker
runs it, and the index then holds no document of them (not only answers that omit them because the rows are
gone); the lift queues one that indexes them again, under whatever ids they came back with. A sole trader's
own register person (the owner of the business, holding nothing else) goes with the entry: person search
served them, with no roles, after the company was withheld."""

from __future__ import annotations

import json

import pytest

from regintel.domain.types import PersonRecord
from regintel.ingest.sections import person_key
from regintel.jobs.runner import run_due
from regintel.search import Filters, QueryWords, get_backend
from tests.areas_accounts.test_privacy_persons import _file_request, cli  # noqa: F401 (fixture)
from tests.areas_accounts.test_privacy_traders import ESET, TRADER
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.reports_area.test_reports_privacy import COMPANY, JANA

OWNER = TRADER.roles[0].person
assert isinstance(OWNER, PersonRecord)


@pytest.fixture(params=["tantivy", "native"])
def backend_name(request, engine) -> str:
    if request.param == "tantivy":
        return "tantivy"
    return "sqlite_fts" if engine.dialect.name == "sqlite" else "pg_trgm"


def _indexed(engine, settings, name: str, collection: str, words: tuple[str, ...]) -> list[int]:
    backend = get_backend(engine, settings, name)
    with engine.connect() as conn:
        return backend.candidates(conn, collection, QueryWords(words, prefix=True), Filters(), 10)  # type: ignore[arg-type]


def _worker(engine, settings, backend_name: str) -> None:
    """The worker, configured like the API (same backend)."""
    run_due(engine, settings.model_copy(update={"search_backend": backend_name}), "test-worker")


def _names(resp) -> list[str]:
    return [i["name"] for i in assert_envelope(resp)]


def test_a_withheld_sole_trader_leaves_the_index(app_factory, auth, engine, settings, cli, backend_name):  # noqa: F811
    client = app_factory(search_backend=backend_name, search_refresh_seconds=0)
    load_companies(engine, TRADER, ESET)
    assert OWNER.name in client.get("/api/v1/people/search?q=jan%20horvath", headers=auth).text
    assert _names(client.get("/api/v1/companies/search?q=hortex", headers=auth)) == [TRADER.name]
    assert _indexed(engine, settings, backend_name, "companies", ("hortex",)) or backend_name == "pg_trgm"

    request_id = _file_request(client, engine, kind="erase")
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold-company", f"SK:{TRADER.national_id}")
    _worker(engine, settings, backend_name)
    assert _indexed(engine, settings, backend_name, "companies", ("hortex",)) == []
    assert _names(client.get("/api/v1/companies/search?q=hortex", headers=auth)) == []
    assert TRADER.name not in client.get("/api/v1/companies/autocomplete?q=horte", headers=auth).text
    assert _names(client.get("/api/v1/companies/search?q=eset", headers=auth)) == [ESET.name]
    assert OWNER.name not in client.get("/api/v1/people/search?q=jan%20horvath", headers=auth).text

    assert json.loads(cli("lift", f"c:SK:{TRADER.national_id}"))["rows"] >= 3
    _worker(engine, settings, backend_name)
    assert _indexed(engine, settings, backend_name, "companies", ("hortex",)) or backend_name == "pg_trgm"
    assert _names(client.get("/api/v1/companies/search?q=hortex", headers=auth)) == [TRADER.name]
    assert TRADER.name in client.get("/api/v1/companies/autocomplete?q=horte", headers=auth).text
    assert OWNER.name in client.get("/api/v1/people/search?q=jan%20horvath", headers=auth).text


def test_a_withheld_person_leaves_the_index(app_factory, auth, engine, settings, cli, backend_name):  # noqa: F811
    client = app_factory(search_backend=backend_name, search_refresh_seconds=0)
    load_companies(engine, COMPANY)
    people = "/api/v1/people/search?q=jana%20testova"
    assert JANA.name in client.get(people, headers=auth).text
    words = ("jana", "testova")

    request_id = _file_request(client, engine, kind="erase")
    key = person_key(JANA.name, JANA.birth_date, JANA.nationality)
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold", f"p:{key}")
    _worker(engine, settings, backend_name)
    assert _indexed(engine, settings, backend_name, "people", words) == []
    assert JANA.name not in client.get(people, headers=auth).text

    cli("lift", f"p:{key}")
    _worker(engine, settings, backend_name)
    assert _indexed(engine, settings, backend_name, "people", words) or backend_name == "pg_trgm"
    assert JANA.name in client.get(people, headers=auth).text
