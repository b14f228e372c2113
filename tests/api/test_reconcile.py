"""Reconciliation Service API 0.2 (`/api/v1/reconcile`): the manifest, responses checked against the
specification's JSON Schemas, and the specification's valid/invalid examples through request parsing."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import uvicorn
from jsonschema import Draft7Validator
from jsonschema_specifications import REGISTRY as METASCHEMAS
from referencing import Resource
from referencing.jsonschema import DRAFT7

from regintel.api.app import create_app
from tests.api.test_search import COMPANIES
from tests.builders import load_companies
from tests.helpers import assert_error

SCHEMAS = Path(__file__).resolve().parent.parent / "fixtures" / "schemas" / "reconcile"
_docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((SCHEMAS / "0.2").glob("*.json"))]
REGISTRY = METASCHEMAS.with_resources(
    (d["$id"].rstrip("#"), Resource.from_contents(d, default_specification=DRAFT7)) for d in _docs
)
BY_NAME = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (SCHEMAS / "0.2").glob("*.json")}


def validate(name: str, instance: object) -> None:
    Draft7Validator(BY_NAME[name], registry=REGISTRY).validate(instance)


def examples(kind: str, validity: str) -> list[Path]:
    return sorted((SCHEMAS / "0.2-examples" / kind / validity).glob("*.json"))


@pytest.fixture
def data(engine):
    load_companies(engine, *COMPANIES)


@pytest.fixture
def key(api_key):
    return {"api_key": api_key}


def test_schemas_reject_the_specifications_invalid_examples():
    for path in examples("manifest", "invalid") + examples("reconciliation-result-batch", "invalid"):
        name = "manifest" if "manifest" in str(path) else "reconciliation-result-batch"
        assert not Draft7Validator(BY_NAME[name], registry=REGISTRY).is_valid(json.loads(path.read_text()))
    for path in examples("manifest", "valid"):
        validate("manifest", json.loads(path.read_text()))


def test_manifest_and_the_urls_it_names(client, data, key):
    resp = client.get("/api/v1/reconcile", params=key)
    assert resp.status_code == 200 and "data" not in resp.json()
    manifest = resp.json()
    validate("manifest", manifest)
    assert manifest["versions"] == ["0.2"] and manifest["defaultTypes"][0]["id"] == "company"
    preview = manifest["preview"]["url"].replace("{{id}}", "SK:31322832")
    page = client.get(preview.removeprefix("http://testserver"))
    assert (
        page.status_code == 200
        and "SLOVNAFT, a.s." in page.text
        and page.headers["content-type"].startswith("text/html")
    )
    assert manifest["view"]["url"].replace("{{id}}", "SK:31322832") == preview
    for kind, schema in (
        ("entity", "suggest-entities-response"),
        ("property", "suggest-properties-response"),
        ("type", "suggest-types-response"),
    ):
        svc = manifest["suggest"][kind]
        path = urlsplit(svc["service_url"] + svc["service_path"])
        resp = client.get(f"{path.path}?{path.query}&prefix=slovn")
        assert resp.status_code == 200, resp.text
        validate(schema, resp.json())
    entities = client.get("/api/v1/reconcile/suggest/entity", params=key | {"prefix": "slovn"}).json()[
        "result"
    ]
    assert entities[0]["id"] == "SK:31322832"
    prop = manifest["extend"]["propose_properties"]
    path = urlsplit(prop["service_url"] + prop["service_path"])
    proposal = client.get(f"{path.path}?{path.query}&type=company&limit=5").json()
    validate("data-extension-property-proposal", proposal)
    assert len(proposal["properties"]) == 5


def test_manifest_without_key_in_url_names_no_key(client, auth):
    manifest = client.get("/api/v1/reconcile", headers=auth).json()
    assert "?api_key=" not in json.dumps(manifest)
    # The manifest is public so that a client can learn how to authenticate; queries need the key.
    public = client.get("/api/v1/reconcile", headers={"Origin": "https://openrefine.example"})
    assert public.status_code == 200 and public.json()["authentication"]["name"] == "api_key"
    assert public.headers["access-control-allow-origin"] == "*"
    refused = client.get(
        "/api/v1/reconcile",
        params={"queries": json.dumps({"q0": {"query": "x"}})},
        headers={"Origin": "https://openrefine.example"},
    )
    assert_error(refused, 401, "UNAUTHORIZED")
    assert refused.headers["access-control-allow-origin"] == "*"  # CORS on 401 too (spec 0.2)


def test_manifest_links_follow_the_address_the_service_is_reached_at(app_factory):
    # No configured base address: the links name the host and port the request went to.
    client = app_factory(base_url="http://127.0.0.1:8000")
    client.app.state.settings = client.app.state.settings.model_copy()
    object.__setattr__(client.app.state.settings, "__pydantic_fields_set__", set())
    manifest = client.get("http://api.example.org:8123/api/v1/reconcile").json()
    assert manifest["preview"]["url"].startswith("http://api.example.org:8123/api/v1/reconcile/preview")
    assert manifest["suggest"]["entity"]["service_url"] == "http://api.example.org:8123"


def test_queries_get_post_form_and_json(client, data, key):
    batch = {
        "q0": {"query": "Slovnaft a.s.", "type": "company", "limit": 3},
        "q1": {"query": "zilinska teplarenska", "properties": [{"pid": "country", "v": "sk"}]},
        "q2": {"query": "tatra bnka", "properties": [{"pid": "city", "v": "Bratislava"}]},
        "q3": {"properties": [{"pid": "national_id", "v": "31 322 832"}]},
        "q4": {"query": "cez", "properties": [{"pid": "country", "v": "SK"}]},
    }
    answers = [
        client.get("/api/v1/reconcile", params=key | {"queries": json.dumps(batch)}),
        client.post("/api/v1/reconcile", params=key, data={"queries": json.dumps(batch)}),
        client.post("/api/v1/reconcile", params=key, json={"queries": batch}),
        client.post("/api/v1/reconcile", params=key, json=batch),
    ]
    for resp in answers:
        assert resp.status_code == 200, resp.text
        validate("reconciliation-result-batch", resp.json())
        assert resp.json() == answers[0].json()
    out = answers[0].json()
    top = {q: (r["result"][0]["id"] if r["result"] else None) for q, r in out.items()}
    assert top == {
        "q0": "SK:31322832",
        "q1": "SK:36403008",
        "q2": "SK:00151653",
        "q3": "SK:31322832",
        "q4": None,
    }
    first = out["q0"]["result"][0]
    assert (
        first["match"] is True
        and first["score"] >= 90
        and first["type"] == [{"id": "company", "name": "Company"}]
    )
    assert {f["id"] for f in first["features"]} >= {"name_similarity", "identifier"}
    assert len(out["q0"]["result"]) <= 3


def test_type_constraints(client, data, key):
    batch = {
        "strict": {"query": "slovnaft", "type": "person"},
        "should": {"query": "slovnaft", "type": "person", "type_strict": "should"},
        "all": {"query": "slovnaft", "type": ["company", "person"], "type_strict": "all"},
        "any": {"query": "slovnaft", "type": ["company", "person"], "type_strict": "any"},
    }
    out = client.post("/api/v1/reconcile", params=key, data={"queries": json.dumps(batch)}).json()
    assert {q: bool(r["result"]) for q, r in out.items()} == {
        "strict": False,
        "should": True,
        "all": False,
        "any": True,
    }


@pytest.mark.parametrize("path", examples("reconciliation-query-batch", "valid"), ids=lambda p: p.stem)
def test_spec_valid_query_examples_are_accepted(client, data, key, path):
    resp = client.post("/api/v1/reconcile", params=key, data={"queries": path.read_text()})
    assert resp.status_code == 200, resp.text
    validate("reconciliation-result-batch", resp.json())
    assert set(resp.json()) == set(json.loads(path.read_text()))


@pytest.mark.parametrize("path", examples("reconciliation-query-batch", "invalid"), ids=lambda p: p.stem)
def test_spec_invalid_query_examples_are_refused(client, data, key, path):
    assert_error(
        client.post("/api/v1/reconcile", params=key, data={"queries": path.read_text()}),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.get("/api/v1/reconcile", params=key | {"queries": path.read_text()}), 422, "VALIDATION_ERROR"
    )


@pytest.mark.parametrize("path", examples("data-extension-query", "valid"), ids=lambda p: p.stem)
def test_spec_extension_examples_are_accepted(client, data, key, path):
    resp = client.post("/api/v1/reconcile", params=key, data={"extend": path.read_text()})
    assert resp.status_code == 200, resp.text
    validate("data-extension-response", resp.json())


def test_extend_values(client, data, key):
    query = {
        "ids": ["SK:31322832", "SK:00000000", "nonsense"],
        "properties": [
            {"id": p}
            for p in (
                "name",
                "country",
                "national_id",
                "legal_form",
                "status",
                "address",
                "nace",
                "lei",
                "vat",
                "inBankruptcy",
                "founded_on",
            )
        ],
    }
    resp = client.get("/api/v1/reconcile", params=key | {"extend": json.dumps(query)})
    out = resp.json()
    validate("data-extension-response", out)
    row = out["rows"]["SK:31322832"]
    assert row["name"] == [{"str": "SLOVNAFT, a.s."}] and row["vat"] == [{"str": "SK2020244699"}]
    assert row["address"] == [{"str": "Vlčie hrdlo 1, 82412 Bratislava"}]
    assert row["inBankruptcy"] == [{"str": "false"}] and row["nace"] == []
    assert out["rows"]["nonsense"]["name"] == []
    assert [m["id"] for m in out["meta"]] == [p["id"] for p in query["properties"]]


def test_bad_requests(client, data, key):
    post = client.post
    assert_error(
        post("/api/v1/reconcile", params=key, data={"queries": "{not json"}), 422, "VALIDATION_ERROR"
    )
    assert_error(post("/api/v1/reconcile", params=key, data={"queries": "[]"}), 422, "VALIDATION_ERROR")
    assert_error(
        post("/api/v1/reconcile", params=key, data={"queries": '{"q0": "x"}'}), 422, "VALIDATION_ERROR"
    )
    assert_error(post("/api/v1/reconcile", params=key, data={"query": "{}"}), 422, "VALIDATION_ERROR")
    assert_error(
        post("/api/v1/reconcile", params=key, data={"queries": "{}", "extend": "{}"}), 422, "VALIDATION_ERROR"
    )
    assert_error(post("/api/v1/reconcile", params=key, content=b""), 422, "VALIDATION_ERROR")
    big = {f"q{i}": {"query": "x"} for i in range(201)}
    assert_error(
        post("/api/v1/reconcile", params=key, data={"queries": json.dumps(big)}), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.get("/api/v1/reconcile", params=key | {"extend": '{"ids": "x"}'}), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get("/api/v1/reconcile", params=key | {"colour": "red"}), 422, "VALIDATION_ERROR")
    assert_error(
        client.get("/api/v1/reconcile/preview", params=key | {"id": "SK:00000000"}), 404, "NOT_FOUND"
    )
    assert_error(client.post("/api/v1/reconcile", data={"queries": "{}"}), 401, "UNAUTHORIZED")
    weird = {
        "q0": {
            "query": "' OR 1=1; -- ñ 中文 <script>",
            "limit": 1e9,
            "properties": [{"pid": "country", "v": "zz9"}],
        }
    }
    resp = post("/api/v1/reconcile", params=key, data={"queries": json.dumps(weird)})
    assert resp.status_code == 200 and resp.json() == {"q0": {"result": []}}


@pytest.fixture
def served(settings) -> Iterator[str]:
    """The app behind uvicorn on 127.0.0.1: the URL limit is the HTTP server's, not the app's."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(10)


def test_the_longest_get_the_document_allows_reaches_the_app(client, served, api_key):
    """Issue 16: `queries` was declared up to 500,000 characters, and uvicorn answered a URL of 64 KiB
    with a bare, undeclared 400; every value the document allows now fits in a URL, worst case
    (characters of 4 UTF-8 bytes, percent-encoded) for both parameters at once."""
    params = {
        p["name"]: p["schema"]
        for p in client.get("/api/v1/public/openapi.json").json()["paths"]["/api/v1/reconcile"]["get"][
            "parameters"
        ]
    }
    longest = {name: _strings(params[name])[0]["maxLength"] for name in ("queries", "extend")}
    with httpx.Client(base_url=served, timeout=60) as web:
        for text in ("a", "\U0001f600"):
            resp = web.get(
                "/api/v1/reconcile", params={"queries": text * longest["queries"], "api_key": api_key}
            )
            assert_error(resp, 422, "VALIDATION_ERROR")  # not JSON: the app's answer, declared
        both = {name: "\U0001f600" * n for name, n in longest.items()}
        assert_error(
            web.get("/api/v1/reconcile", params=both | {"api_key": api_key}), 422, "VALIDATION_ERROR"
        )
        too_long = {"queries": "a" * (longest["queries"] + 1), "api_key": api_key}
        assert_error(web.get("/api/v1/reconcile", params=too_long), 422, "VALIDATION_ERROR")


def _strings(schema):
    return [p for p in [schema, *schema.get("anyOf", [])] if p.get("type") == "string"]
