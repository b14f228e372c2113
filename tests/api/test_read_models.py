"""The companies area's read models are the contract: every served body validates against the type its
route declares, with unknown keys refused, and the OpenAPI document names that type (issue 14)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from regintel.api.envelope import Envelope
from regintel.areas.companies import schemas
from tests.api import companies_fixture
from tests.api.companies_fixture import LEI_SLOVNAFT
from tests.helpers import assert_envelope


@pytest.fixture
def loaded(engine):
    companies_fixture.load(engine)


def _valid(model: Any, body: dict[str, Any]) -> None:
    TypeAdapter(Envelope[model]).validate_python(body)  # type: ignore[valid-type]


CASES = [
    ("/api/v1/companies/sk/31322832", schemas.Company),
    ("/api/v1/companies/31322832?country=sk", schemas.Company),
    ("/api/v1/companies/lookup?id=00177041&country=cz", schemas.Company),
    ("/api/v1/companies/by-identifier?type=ico&value=31322832", list[schemas.MatchedCompany]),
    ("/api/v1/companies/by-identifier?type=vat&value=SK2020372640", list[schemas.MatchedCompany]),
    (f"/api/v1/companies/by-lei?lei={LEI_SLOVNAFT}", schemas.LeiRecord),
    ("/api/v1/companies/31322832/history?country=sk", list[schemas.Change]),
]


@pytest.mark.parametrize(("path", "model"), CASES)
def test_served_bodies_validate_against_their_read_model(client, auth, loaded, path, model):
    resp = client.get(path, headers=auth)
    data = assert_envelope(resp)
    assert data, path  # an empty answer would validate against anything
    _valid(model, resp.json())


def test_the_full_record_carries_its_sections(client, auth, loaded):
    data = assert_envelope(client.get("/api/v1/companies/sk/31322832", headers=auth))
    assert data["latestFinancials"]["year"] == 2023
    assert data["nace"] == {"primary": "19200", "codes": ["19200", "46710"]}
    assert data["sources"] and {"id", "licence", "retrievedAt"} <= set(data["sources"][0])


def test_every_bulk_status_validates(client, auth, loaded):
    resp = client.post(
        "/api/v1/companies/bulk",
        headers=auth,
        json={"identifiers": ["31322832", "12345678", "x", {"country": "cz", "id": "00177041"}, 7]},
    )
    data = assert_envelope(resp)
    assert {a["status"] for a in data} >= {"found", "invalid"}
    _valid(list[schemas.BulkAnswer], resp.json())


def test_a_record_with_a_key_the_model_lacks_is_refused(client, auth, loaded):
    body = client.get("/api/v1/companies/sk/31322832", headers=auth).json()
    body["data"]["undocumented"] = 1
    with pytest.raises(ValidationError):
        _valid(schemas.Company, body)
    del body["data"]["undocumented"]
    del body["data"]["lei"]
    with pytest.raises(ValidationError):
        _valid(schemas.Company, body)


def test_the_document_declares_the_read_models(client):
    doc = client.get("/api/v1/public/openapi.json").json()
    parts = doc["components"]["schemas"]
    company = parts["Company"]
    assert company["additionalProperties"] is False
    assert {"legalForm", "address", "nace", "identifiers", "latestFinancials", "sources"} <= set(
        company["properties"]
    )
    ok = doc["paths"]["/api/v1/companies/by-lei"]["get"]["responses"]["200"]
    ref = ok["content"]["application/json"]["schema"]["$ref"]
    envelope = parts[ref.rsplit("/", 1)[1]]
    assert envelope["properties"]["data"]["$ref"].endswith("/LeiRecord")
