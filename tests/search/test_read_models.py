"""The search area's read models are the contract (issue 14): the advanced-search page, the
reconciliation manifest, the query batch answer, the data extension answer and the property proposal
validate, as served, against the type their route declares; a body that gains or loses a key does not;
and the OpenAPI document names those types."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from regintel.areas.search import schemas
from regintel.areas.search.advanced_routes import AdvancedSearchPage
from regintel.areas.search.reconcile_props import PROPERTIES
from tests.api import companies_fixture

ADVANCED = "/api/v1/companies/advanced-search"
RECONCILE = "/api/v1/reconcile"


@pytest.fixture
def loaded(engine):
    companies_fixture.load(engine)


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _check(model: Any, body: bytes | str) -> Any:
    """The body validated as JSON against the model (dates and times as the document writes them)."""
    adapter = _ADAPTERS.get(model) or _ADAPTERS.setdefault(model, TypeAdapter(model))
    return adapter.validate_json(body)


def _bodies(client, api_key) -> dict[str, tuple[Any, Any]]:
    """Served bodies by name, each with its model (parsed JSON)."""
    key = {"api_key": api_key}
    auth = {"Authorization": f"Bearer {api_key}"}
    batch = {
        "q0": {"query": "Slovnaft", "type": "company", "limit": 3},
        "q1": {"query": "nothing like any name", "properties": [{"pid": "country", "v": "SK"}]},
        "q2": {"properties": [{"pid": "national_id", "v": "31322832"}]},
    }
    extend = {"ids": ["SK:31322832", "SK:00000000"], "properties": [{"id": p} for p in PROPERTIES]}
    answers = {
        "advanced": (AdvancedSearchPage, client.get(ADVANCED, params={"per_page": 100}, headers=auth)),
        "advanced by revenue": (
            AdvancedSearchPage,
            client.get(ADVANCED, params={"sort": "revenue", "direction": "asc"}, headers=auth),
        ),
        "manifest": (schemas.Manifest, client.get(RECONCILE, params=key)),
        "batch": (schemas.ReconcileBatch, client.post(RECONCILE, params=key, json={"queries": batch})),
        "extend": (schemas.ExtendAnswer, client.get(RECONCILE, params=key | {"extend": json.dumps(extend)})),
        "proposal": (schemas.PropertyProposal, client.get(f"{RECONCILE}/properties", params=key)),
        "proposal with limit": (
            schemas.PropertyProposal,
            client.get(f"{RECONCILE}/properties", params=key | {"limit": 3}),
        ),
    }
    for name, (_, resp) in answers.items():
        assert resp.status_code == 200, (name, resp.text)
    return {name: (model, resp.json()) for name, (model, resp) in answers.items()}


def test_served_bodies_validate_against_their_read_model(client, api_key, loaded):
    bodies = _bodies(client, api_key)
    for model, body in bodies.values():
        _check(model, json.dumps(body))
    # What the bodies hold, so that the validation above has something to check.
    page = bodies["advanced"][1]
    assert len(page["data"]) == len(companies_fixture.ALL) and page["meta"]["total_exact"] is True
    figures = [h["latestFinancials"] for h in page["data"]]
    assert None in figures and any(f and f["revenue"] is not None for f in figures)
    assert bodies["advanced by revenue"][1]["meta"]["sort"] == "revenue"
    batch = bodies["batch"][1]
    assert batch["q0"]["result"][0]["id"] == "SK:31322832" and batch["q1"]["result"] == []
    assert {f["id"] for f in batch["q0"]["result"][0]["features"]} >= {"name_similarity", "identifier"}
    rows = bodies["extend"][1]["rows"]
    assert rows["SK:31322832"]["founded_on"] == [{"date": "1992-04-24T00:00:00Z"}]
    assert rows["SK:31322832"]["name"] == [{"str": "SLOVNAFT, a.s."}]
    assert all(v == [] for v in rows["SK:00000000"].values())
    assert "limit" not in bodies["proposal"][1] and bodies["proposal with limit"][1]["limit"] == 3


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every object in a body (the top first)."""
    found = [path] if isinstance(value, dict) else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    for k, v in items:
        found += _paths(v, (*path, k))
    return found


def _at(body: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        body = body[part]
    return body


def _open(kind: str, path: tuple[Any, ...]) -> bool:
    """An object keyed by the client's own names (query ids, entity ids, property ids): any key may be
    there and none must."""
    return (kind, path) == ("batch", ()) or (kind == "extend" and path[:1] == ("rows",) and len(path) <= 2)


def test_a_body_that_gains_or_loses_a_key_is_refused(client, api_key, loaded):
    """Every object of every body: an unknown key is refused, and so is each key taken away (those the
    protocol leaves optional, as the proposal's `limit`, excepted)."""
    checked = 0
    for name, (model, body) in _bodies(client, api_key).items():
        kind = name.split(" ")[0]
        for path in _paths(body):
            gained = json.loads(json.dumps(body))
            _at(gained, path)["undocumented"] = 1
            with pytest.raises(ValidationError):
                _check(model, json.dumps(gained))
            if _open(kind, path):
                continue
            for key in list(_at(body, path)):
                if (kind, key) == ("proposal", "limit"):
                    continue
                lost = json.loads(json.dumps(body))
                del _at(lost, path)[key]
                with pytest.raises(ValidationError, match=key):
                    _check(model, json.dumps(lost))
                checked += 1
    assert checked > 100


def test_the_document_declares_the_read_models(client):
    doc = client.get("/api/v1/public/openapi.json").json()
    parts = doc["components"]["schemas"]

    def ok_schema(path: str, method: str = "get") -> Any:
        return doc["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"]

    assert ok_schema(ADVANCED)["$ref"].endswith("/AdvancedSearchPage")
    for name in ("AdvancedSearchPage", "AdvancedSearchMeta", "AdvancedSearchHit", "HitFinancials"):
        assert parts[name]["additionalProperties"] is False, name
    assert "latestFinancials" in parts["AdvancedSearchHit"]["properties"]
    for method in ("get", "post"):
        refs = {s.get("$ref", "").rsplit("/", 1)[-1] for s in ok_schema(RECONCILE, method)["anyOf"]}
        assert {"Manifest", "ExtendAnswer"} <= refs
        batch = next(s for s in ok_schema(RECONCILE, method)["anyOf"] if "$ref" not in s)
        assert batch["additionalProperties"]["$ref"].endswith("/ReconResults")
    assert ok_schema(f"{RECONCILE}/properties")["$ref"].endswith("/PropertyProposal")
    for name in ("Manifest", "ReconResults", "ReconCandidate", "ExtendAnswer", "PropertyProposal"):
        assert parts[name]["additionalProperties"] is False, name
