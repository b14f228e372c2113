"""Boolean query parameters (issue 16): the document says what the server takes, `true`/`false` and the
spellings pydantic reads as booleans (`1`/`0`, `yes`/`no`, `on`/`off`, `t`/`f`, `y`/`n`, any case); any other
value is a 422."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from regintel.api.openapi import iter_operations

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("REGINTEL_TEST_POSTGRES_URL")),
    reason="the document and the parameter parsing do not depend on the backend: SQLite only",
)


def _boolean_params(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, param["name"], param["schema"])
        for path, method, op in iter_operations(doc)
        if method == "get"
        for param in op.get("parameters", [])
        if param["in"] == "query"
        and any(
            part.get("type") == "boolean" for part in [param["schema"], *param["schema"].get("anyOf", [])]
        )
    ]


def test_every_boolean_query_parameter_declares_the_spellings(in_process: tuple[Any, str]) -> None:
    app, _ = in_process
    with TestClient(app) as client:
        doc = client.get("/api/v1/public/openapi.json").json()
    params = _boolean_params(doc)
    assert len(params) > 10
    for path, name, schema in params:
        texts = [part for part in schema.get("anyOf", []) if part.get("type") == "string"]
        assert texts, f"{path} {name}"
        pattern = re.compile(texts[0]["pattern"])
        assert all(pattern.match(v) for v in ("1", "0", "Yes", "OFF", "true")), f"{path} {name}"
        assert not any(pattern.match(v) for v in ("2", "", "maybe", " true")), f"{path} {name}"


@pytest.mark.parametrize(
    ("value", "status"), [("true", 200), ("0", 200), ("Yes", 200), ("off", 200), ("2", 422), ("maybe", 422)]
)
def test_the_server_takes_what_the_document_says(
    in_process: tuple[Any, str], value: str, status: int
) -> None:
    app, key = in_process
    with TestClient(app) as client:
        answer = client.get(
            "/api/v1/companies/advanced-search",
            params={"has_lei": value, "country": "sk"},
            headers={"Authorization": f"Bearer {key}"},
        )
        pattern = client.get("/api/v1/public/openapi.json").json()
    assert answer.status_code == status, answer.text[:300]
    declared = next(
        part["pattern"]
        for path, name, schema in _boolean_params(pattern)
        if path == "/api/v1/companies/advanced-search" and name == "has_lei"
        for part in schema["anyOf"]
        if part.get("type") == "string"
    )
    assert bool(re.match(declared, value)) == (status == 200)
