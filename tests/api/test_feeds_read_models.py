"""The insolvency statistics' and the liveness probe's read models are the contract: served bodies validate
against the type their route declares, unknown and missing keys refused, and the OpenAPI document names
that type (issue 14; areas/feeds/schemas.py, api/routers/health.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from regintel.api.envelope import Envelope
from regintel.api.routers.health import Liveness
from regintel.areas.feeds.schemas import BankruptStats
from regintel.domain.types import CompanyRecord
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_obchodny_vestnik import SOURCE as GAZETTE
from tests.api import test_insolvency_feeds as feeds
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.ingest.gazette_export import FIXTURES

STATS = "/api/v1/public/stats/bankrupt"
ADAPTER: TypeAdapter[Any] = TypeAdapter(Envelope[BankruptStats])


@pytest.fixture
def gazette(engine, settings):
    """The insolvency feeds' data (tests/api/test_insolvency_feeds.py): the gazette sample and a Czech
    company flagged by its register."""
    run_import(engine, GAZETTE, str(FIXTURES / "export_sample.xml"), settings.data_dir)
    company = CompanyRecord(country="CZ", national_id=feeds.CZ_ICO, name="Seznam.cz, a.s.")
    load_companies(engine, company, source=feeds.CZ_REGISTER)
    load_companies(engine, replace(company, in_bankruptcy=True), source=feeds.CZ_REGISTER)


@pytest.mark.parametrize(
    "params",
    [
        {"months": 120},
        {"months": 120, "scope": "bankruptcy"},
        {"months": 120, "scope": "restructuring", "country": "sk"},
        {"months": 120, "country": "cz", "limit": 1},
    ],
)
def test_served_stats_validate_against_their_read_model(client, gazette, params):
    resp = client.get(STATS, params=params)
    data = assert_envelope(resp)
    assert data["by_month"] and data["latest"], params  # an empty list would validate against anything
    assert data["current"] or params.get("scope") == "restructuring"  # no company is in restructuring now
    ADAPTER.validate_python(resp.json())


def test_stats_with_a_key_the_model_lacks_or_without_one_it_has_are_refused(client, gazette):
    body = client.get(STATS, params={"months": 120}).json()
    ADAPTER.validate_python(body)
    for part in (body["data"], body["data"]["by_month"][0], body["data"]["latest"][0]):
        part["undocumented"] = 1
        with pytest.raises(ValidationError):
            ADAPTER.validate_python(body)
        del part["undocumented"]
    del body["data"]["latest"][0]["company_url"]
    with pytest.raises(ValidationError):
        ADAPTER.validate_python(body)


def test_livez_validates_against_liveness(client):
    Liveness.model_validate_json(client.get("/livez").content, strict=True)
    with pytest.raises(ValidationError):
        Liveness.model_validate({"live": "ok", "extra": 1})


def _data_schema(doc: dict[str, Any], path: str) -> dict[str, Any]:
    parts = doc["components"]["schemas"]
    schema = doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    return parts[schema["$ref"].rsplit("/", 1)[1]]


def test_the_document_declares_the_read_models(client):
    doc = client.get("/api/v1/public/openapi.json").json()
    parts = doc["components"]["schemas"]
    envelope = _data_schema(doc, STATS)
    assert envelope["properties"]["data"]["$ref"].endswith("/BankruptStats")
    stats = parts["BankruptStats"]
    assert stats["additionalProperties"] is False
    assert set(stats["required"]) == set(BankruptStats.__annotations__)
    month = parts["BankruptMonth"]
    assert month["additionalProperties"] is False and set(month["required"]) == {"country", "month"}
    assert parts["InsolvencyItem"]["additionalProperties"] is False
    live = _data_schema(doc, "/livez")
    assert live["additionalProperties"] is False and live["required"] == ["live"]
