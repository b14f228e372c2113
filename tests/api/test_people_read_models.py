"""The people area's read models are the contract: every served body of `/companies/person/{key}` and
`/people/search` validates against the type its route declares, with and without the personal fields,
unknown keys refused, and the OpenAPI document names those types (issue 14)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from regintel.api.envelope import Envelope
from regintel.areas.people import schemas
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope

PERSON = PersonRecord("Mária Kováčová", birth_date="1981-02", nationality="SK", country_of_residence="AT")
COMPANIES = [
    CompanyRecord(
        country="SK",
        national_id="35757442",
        name="Kováč Holding s.r.o.",
        city="Košice",
        roles=[
            RoleRecord(role="director", holder_name=PERSON.name, person=PERSON, title="konateľ"),
            RoleRecord(
                role="shareholder",
                holder_name=PERSON.name,
                person=PERSON,
                share_pct=60.0,
                voting_pct=60.0,
                since=date(2015, 3, 1),
                until=date(2024, 6, 30),
            ),
        ],
    ),
    CompanyRecord(
        country="SK",
        national_id="36631124",
        name="Kováčová Dizajn s.r.o.",
        city="Prešov",
        roles=[RoleRecord(role="director", holder_name=PERSON.name, person=PERSON)],
    ),
]


@pytest.fixture
def loaded(engine):
    load_companies(engine, *COMPANIES)


def _valid(model: Any, body: dict[str, Any]) -> None:
    TypeAdapter(Envelope[model]).validate_python(body)  # type: ignore[valid-type]


def _key(client, auth) -> str:
    items = assert_envelope(client.get("/api/v1/people/search?q=kovacova maria", headers=auth))
    return str(items[0]["key"])


@pytest.mark.parametrize("purpose", [None, "kyc"])
def test_served_bodies_validate_against_their_read_model(client, auth, loaded, purpose):
    params = {"purpose": purpose} if purpose else {}
    resp = client.get("/api/v1/people/search", params={"q": "kovacova maria", **params}, headers=auth)
    items = assert_envelope(resp)
    assert items and len(items[0]["roles"]) == 3
    _valid(list[schemas.PersonHit], resp.json())
    assert ("birthDate" in items[0]) is bool(purpose)

    resp = client.get(f"/api/v1/companies/person/{items[0]['key']}", params=params, headers=auth)
    data = assert_envelope(resp)
    assert data["companyCount"] == 2 and len(data["roles"]) == 3
    _valid(schemas.PersonCompanies, resp.json())
    if purpose:
        assert data["person"]["countryOfResidence"] == "AT" and data["person"]["birthDate"] == "1981-02"
    else:
        assert set(data["person"]) == {"key", "name"}
    share = next(r for r in data["roles"] if r["role"] == "shareholder")
    assert (share["sharePct"], share["since"], share["until"]) == (60.0, "2015-03-01", "2024-06-30")
    assert share["company"] == {
        "country": "SK",
        "nationalId": "35757442",
        "name": "Kováč Holding s.r.o.",
        "status": "active",
        "inBankruptcy": False,
    }


def test_a_body_with_a_key_the_model_lacks_is_refused(client, auth, loaded):
    body = client.get(f"/api/v1/companies/person/{_key(client, auth)}", headers=auth).json()
    body["data"]["roles"][0]["company"]["undocumented"] = 1
    with pytest.raises(ValidationError):
        _valid(schemas.PersonCompanies, body)
    del body["data"]["roles"][0]["company"]["undocumented"]
    del body["data"]["companyCount"]
    with pytest.raises(ValidationError):
        _valid(schemas.PersonCompanies, body)
    hits = client.get("/api/v1/people/search?q=kovacova", headers=auth).json()
    hits["data"][0]["age"] = 45
    with pytest.raises(ValidationError):
        _valid(list[schemas.PersonHit], hits)


def test_the_document_declares_the_read_models(client):
    doc = client.get("/api/v1/public/openapi.json").json()
    parts = doc["components"]["schemas"]
    for name in ("Person", "PersonRole", "RoleCompany", "PersonCompanies", "PersonHit"):
        assert parts[name]["additionalProperties"] is False, name
    assert set(parts["PersonHit"]["required"]) == {"key", "name", "score", "highlight", "roles"}
    assert "birthDate" in parts["PersonHit"]["properties"]
    ok = "200"
    person = doc["paths"]["/api/v1/companies/person/{key}"]["get"]["responses"][ok]
    search = doc["paths"]["/api/v1/people/search"]["get"]["responses"][ok]
    assert person["content"]["application/json"]["schema"]["$ref"].endswith("Envelope_PersonCompanies_")
    assert search["content"]["application/json"]["schema"]["$ref"].endswith("Envelope_list_PersonHit__")
