"""The statistics read models are the contract: every served body validates against the type its route
declares, unknown keys refused, and the OpenAPI document names that type (issue 14)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from regintel.api.envelope import Envelope
from regintel.areas.stats import schemas
from tests.api.test_stats import data  # noqa: F401  (the fixture: companies and an import run)
from tests.helpers import assert_envelope

KEYED = [
    ("/api/v1/companies/stats", schemas.Overview),
    ("/api/v1/companies/stats/freshness", schemas.Freshness),
    ("/api/v1/companies/stats/shell-addresses?min_companies=2", list[schemas.ShellAddress]),
    ("/api/v1/companies/stats/shell-addresses?min_companies=2&country=sk", list[schemas.ShellAddress]),
    *(
        (f"/api/v1/companies/stats/breakdown?by={by}", list[schemas.BreakdownGroup])
        for by in ("country", "status", "nace", "region", "size", "source", "shell_density", "lei_status")
    ),
    ("/api/v1/companies/stats/breakdown?by=country&country=sk", list[schemas.BreakdownGroup]),
]
PUBLIC = [
    ("/api/v1/public/stats", schemas.PublicStats),
    ("/api/v1/public/shell-addresses?min_companies=2", list[schemas.PublicShellAddress]),
]


def _valid(model: Any, body: dict[str, Any]) -> None:
    TypeAdapter(Envelope[model]).validate_python(body)  # type: ignore[valid-type]


@pytest.mark.parametrize(("path", "model"), KEYED + PUBLIC)
def test_served_bodies_validate_against_their_read_model(client, auth, data, path, model):  # noqa: F811
    for _ in range(2):  # computed, then from the snapshot or the cache (meta.cached)
        resp = client.get(path, headers=auth)
        assert assert_envelope(resp), path  # an empty answer would validate against anything
        _valid(model, resp.json())


def test_a_key_the_model_does_not_declare_is_refused(client, auth, data):  # noqa: F811
    body = client.get("/api/v1/public/stats", headers=auth).json()
    body["data"]["countries"][0]["extra"] = 1
    with pytest.raises(ValidationError):
        _valid(schemas.PublicStats, body)
    body = client.get("/api/v1/companies/stats/shell-addresses?min_companies=2", headers=auth).json()
    assert body["data"] and body["data"][0]["sample"]
    with pytest.raises(ValidationError):  # the keyed form's figures are not the public form's
        _valid(list[schemas.PublicShellAddress], body)


def test_the_document_names_the_read_models(client):
    paths = client.get("/api/v1/public/openapi.json").json()["paths"]
    for path, model in KEYED[:3] + PUBLIC:
        bare = path.split("?")[0]
        ref = paths[bare]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        name = getattr(model, "__name__", None) or model.__args__[0].__name__
        assert name in ref, (bare, ref)
    assert "BreakdownGroup" in str(paths["/api/v1/companies/stats/breakdown"]["get"]["responses"]["200"])
