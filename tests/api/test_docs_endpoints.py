"""Documentation endpoints (spec 4.5, 4.7, 9): OpenAPI, catalogue, Postman, Swagger UI, HTML docs."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from fastapi import APIRouter, FastAPI
from openapi_spec_validator import validate

from regintel.api.deps import PublicLimit
from regintel.api.openapi import iter_operations, undocumented_operations
from regintel.render.postman import LATER, RUNNABLE, UNAVAILABLE
from tests.helpers import assert_envelope, assert_error

POSTMAN_SCHEMA = Path(__file__).parent.parent / "fixtures" / "schemas" / "postman-collection-v2.1.0.json"
KEY_SCHEMES = [{"bearerAuth": []}, {"apiKeyQuery": []}]


def _openapi(client) -> dict:
    resp = client.get("/api/v1/public/openapi.json")
    assert resp.status_code == 200
    return resp.json()


def test_openapi_document(client):
    resp = client.get("/api/v1/public/openapi.json")
    assert resp.status_code == 200
    assert resp.headers["content-type"] == "application/json"
    assert resp.headers["cache-control"] == "public, max-age=1800"
    doc = resp.json()
    validate(doc)
    assert doc["openapi"] == "3.1.0"
    assert doc["info"]["version"] == "1.0.0"
    assert doc["servers"] == [{"url": "http://testserver"}]
    schemes = doc["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schemes["bearerAuth"]["description"],
    }
    assert (schemes["apiKeyQuery"]["type"], schemes["apiKeyQuery"]["in"], schemes["apiKeyQuery"]["name"]) == (
        "apiKey",
        "query",
        "api_key",
    )
    assert "Error" in doc["components"]["schemas"]


def test_every_operation_is_complete(client):
    doc = _openapi(client)
    declared = {t["name"] for t in doc["tags"]}
    for path, method, op in iter_operations(doc):
        where = f"{method.upper()} {path}"
        assert op.get("summary") and op.get("description"), where
        assert op.get("tags") and set(op["tags"]) <= declared, where
        for status in ("404", "422", "429", "500", "503"):
            schema = op["responses"][status]["content"]["application/json"]["schema"]
            # `/readyz` answers its checks with 503, as its own model says.
            own = (path, status) == ("/readyz", "503") and schema == {
                "$ref": "#/components/schemas/Readiness"
            }
            assert own or schema == {"$ref": "#/components/schemas/Error"}, where
        if "requestBody" in op and path != "/mcp":  # the MCP SDK's 400 is a bare text (declared so)
            assert op["responses"]["400"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Error"
            }, where
        assert "Retry-After" in op["responses"]["503"]["headers"], where
        if op.get("security"):
            # `{}` first: the key is optional (the reconciliation manifest is public, its queries are not).
            assert op["security"] in (KEY_SCHEMES, [{}, *KEY_SCHEMES]), where
            assert "401" in op["responses"], where


def test_auth_per_operation(client):
    doc = _openapi(client)
    ops = {(m.upper(), p): op for p, m, op in iter_operations(doc)}
    assert ops[("GET", "/api/v1/me")]["security"] == KEY_SCHEMES
    for path in [
        "/api/v1/docs",
        "/api/v1/docs/quickstart",
        "/api/v1/public/openapi.json",
        "/api/v1/public/postman.json",
        "/api/v1/public/endpoints",
        "/api/v1/public/swagger",
        "/api/v1/public/status",
    ]:
        assert "security" not in ops[("GET", path)], path
        assert ops[("GET", path)]["tags"] in (["Documentation"], ["Public"])


def test_all_routes_documented(client):
    assert undocumented_operations(client.app) == []


def test_undocumented_route_is_reported():
    app = FastAPI()

    @app.get("/bare")
    def bare() -> dict:
        return {}

    @app.get("/summary-only", summary="Has a summary")
    def summary_only() -> dict:
        return {}

    @app.get("/complete", summary="Complete")
    def complete() -> dict:
        """Described by its docstring."""
        return {}

    assert undocumented_operations(app) == [
        "GET /bare: no summary or description",
        "GET /summary-only: no description",
    ]


def test_openapi_needs_no_key_and_is_strict(client):
    assert client.get("/api/v1/public/openapi.json").status_code == 200
    assert_error(client.get("/api/v1/public/openapi.json?format=yaml"), 422, "VALIDATION_ERROR")


def test_endpoints_catalogue(client):
    resp = client.get("/api/v1/public/endpoints")
    rows = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=1800"
    assert resp.json()["meta"]["total"] == len(rows)
    doc = _openapi(client)
    expected = {
        (m.upper(), p, "key" if op.get("security") else "public", op["tags"][0], op["summary"])
        for p, m, op in iter_operations(doc)
    }
    assert {(r["method"], r["path"], r["auth"], r["tag"], r["summary"]) for r in rows} == expected
    assert len(rows) == len(expected)
    assert {
        "method": "GET",
        "path": "/api/v1/docs",
        "tag": "Documentation",
        "auth": "public",
        "summary": "HTML API catalogue",
    } in rows


def test_endpoints_filters(client):
    public = assert_envelope(client.get("/api/v1/public/endpoints", params={"auth": "public"}))
    assert public and all(r["auth"] == "public" for r in public)
    docs = assert_envelope(client.get("/api/v1/public/endpoints", params={"tag": "Documentation"}))
    assert {r["path"] for r in docs} >= {"/api/v1/docs", "/api/v1/public/swagger"}
    assert assert_envelope(client.get("/api/v1/public/endpoints", params={"tag": "No such"})) == []
    assert_error(client.get("/api/v1/public/endpoints", params={"auth": "maybe"}), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/public/endpoints", params={"group": "x"}), 422, "VALIDATION_ERROR")


def test_endpoints_catalogue_cached_after_first_call(client):
    first = client.get("/api/v1/public/endpoints").json()["meta"]["cached"]
    second = client.get("/api/v1/public/endpoints").json()["meta"]["cached"]
    assert (first, second) == (False, True)


def test_postman_collection_validates(client):
    resp = client.get("/api/v1/public/postman.json")
    assert resp.status_code == 200
    assert resp.headers["cache-control"] == "public, max-age=1800"
    collection = resp.json()
    schema = json.loads(POSTMAN_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator(schema).validate(collection)
    assert (
        collection["info"]["schema"] == "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
    )
    assert collection["auth"] == {
        "type": "bearer",
        "bearer": [{"key": "token", "value": "{{apiKey}}", "type": "string"}],
    }
    variables = {v["key"]: v["value"] for v in collection["variable"]}
    assert variables["baseUrl"] == "http://testserver" and variables["apiKey"] == ""


def _openapi_path(segments: list[str]) -> str:
    """Postman `:var` and `{{var}}` back to OpenAPI `{var}`."""
    return "/" + "/".join(
        re.sub(r"^:(.+)$", r"{\1}", s).replace("{{", "{").replace("}}", "}") for s in segments
    )


def test_postman_mirrors_openapi(client):
    doc = _openapi(client)
    collection = client.get("/api/v1/public/postman.json").json()
    # With data to fill the variables, the tag folders sit in a runnable folder and in a folder of the rest.
    tops = [f["name"] for f in collection["item"]]
    nested = tops[:2] == [RUNNABLE, LATER] and tops[2:] in ([], [UNAVAILABLE])
    tag_folders = [f for top in collection["item"] for f in top["item"]] if nested else collection["item"]
    tags = [t["name"] for t in doc["tags"]]
    assert {f["name"] for f in tag_folders} <= set(tags) and (nested or tops == tags)
    requests = {}
    for folder in tag_folders:
        for item in folder["item"]:
            req = item["request"]
            requests[(req["method"], _openapi_path(req["url"]["path"]))] = (folder["name"], req)
    ops = list(iter_operations(doc))
    assert len(requests) == len(ops)
    for path, method, op in ops:
        folder, req = requests[(method.upper(), path)]
        assert folder == op["tags"][0]
        assert req["url"]["host"] == ["{{baseUrl}}"]
        if op.get("security"):
            assert "auth" not in req  # inherits the collection's bearer {{apiKey}}
        else:
            assert req["auth"] == {"type": "noauth"}
    _, endpoints = requests[("GET", "/api/v1/public/endpoints")]
    assert {q["key"]: q["disabled"] for q in endpoints["url"]["query"]} == {"tag": True, "auth": True}


def test_postman_rejects_what_the_schema_forbids():
    """The copied schema really checks (a broken collection fails), so the test above means something."""
    schema = json.loads(POSTMAN_SCHEMA.read_text(encoding="utf-8"))
    broken = {"info": {"name": "x", "schema": "s"}, "item": [{"request": {"auth": {"type": "magic"}}}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft7Validator(schema).validate(broken)


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.inline_scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v for k, v in attrs if k in ("src", "href") and v}
        self.refs += found.values()
        if tag == "script" and "src" not in found:
            self.inline_scripts += 1


def test_swagger_page_uses_only_local_assets(client):
    resp = client.get("/api/v1/public/swagger")
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/html")
    assert resp.headers["cache-control"] == "public, max-age=1800"
    parser = _Refs()
    parser.feed(resp.text)
    assert parser.inline_scripts == 0
    assert parser.refs and all(r.startswith("/api/v1/public/swagger-assets/") for r in parser.refs)
    assert 'data-openapi-url="/api/v1/public/openapi.json"' in resp.text
    assert not re.search(r"https?://", resp.text)
    csp = resp.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self';" in csp
    assert {u for u in re.findall(r"https?://[^\s;]+", csp)} <= {"http://testserver"}
    for ref in parser.refs:
        asset = client.get(ref)
        assert asset.status_code == 200, ref
        assert asset.headers["cache-control"] == "public, max-age=86400"


@pytest.mark.parametrize(
    "name, media_type",
    [
        ("swagger-ui-bundle.js", "text/javascript"),
        ("swagger-init.js", "text/javascript"),
        ("swagger-ui.css", "text/css"),
        ("favicon.png", "image/png"),
    ],
)
def test_swagger_assets(client, name, media_type):
    resp = client.get(f"/api/v1/public/swagger-assets/{name}")
    assert resp.status_code == 200
    assert resp.headers["content-type"].split(";")[0] == media_type
    assert len(resp.content) > 100


def test_swagger_bundle_renders_openapi_31(client):
    """Swagger UI before 5.0 refuses `openapi: 3.1.0` documents; the served bundle must be 5.x."""
    bundle = client.get("/api/v1/public/swagger-assets/swagger-ui-bundle.js").text
    init = client.get("/api/v1/public/swagger-assets/swagger-init.js").text
    assert "OpenAPI31" in bundle or "isOAS31" in bundle
    assert "data-openapi-url" in init and "validatorUrl: null" in init


@pytest.mark.parametrize("name", ["index.html", "..%2F..%2Fconfig.py", "redoc.standalone.js", "x"])
def test_swagger_assets_are_a_fixed_list(client, name):
    assert_error(client.get(f"/api/v1/public/swagger-assets/{name}"), 404, "NOT_FOUND")


@pytest.mark.parametrize("path", ["/api/v1/docs", "/api/v1/docs/quickstart"])
def test_html_docs_are_public(client, path):
    # A newcomer reads the catalogue before having a key (issue 16).
    resp = client.get(path)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")


def test_docs_catalogue(client, auth):
    resp = client.get("/api/v1/docs", headers=auth)
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/html")
    doc = _openapi(client)
    for tag in doc["tags"]:
        assert f'<h2 id="{tag["name"].replace(" ", "-").lower()}">{tag["name"]}</h2>' in resp.text
    for path, _, _op in iter_operations(doc):
        assert f"<code>{path}</code>" in resp.text
    assert resp.text.count('class="auth key"') >= 3


def test_docs_catalogue_escapes_descriptions(app_factory, auth):
    client = app_factory()
    hostile = APIRouter(tags=["<b>Tag</b>"])

    @hostile.get(
        "/api/v1/public/hostile",
        dependencies=[PublicLimit],
        summary="<script>alert(1)</script>",
        description="a & b <img src=x onerror=alert(2)>",
    )
    def hostile_route() -> dict:
        return {}

    client.app.include_router(hostile)
    text = client.get("/api/v1/docs", headers=auth).text
    assert "<script>" not in text and "<img" not in text and "<b>Tag" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "a &amp; b &lt;img src=x onerror=alert(2)&gt;" in text


def test_quickstart(client, auth, api_key):
    resp = client.get("/api/v1/docs/quickstart", headers=auth)
    assert resp.status_code == 200
    text = resp.text
    assert api_key not in text  # the page shows a placeholder, never the caller's key
    for snippet in [
        'curl -H "Authorization: Bearer ri_YOUR_KEY" "http://testserver/api/v1/me"',
        'httpx.Client(base_url="http://testserver"',
        'await fetch("http://testserver/api/v1/me"',
        'curl_init("http://testserver/api/v1/me")',
        "regintel keys create",
        "/api/v1/companies/sk/31322832",
        "/api/v1/code-lists/nace/62.01",
        "/api/v1/code-lists/nace?q=software&amp;limit=5",
    ]:
        assert snippet in text, snippet
    for language in ["curl", "Python (httpx)", "JavaScript (fetch)", "PHP (curl)"]:
        assert text.count(f"<h3>{language}</h3>") == 5


def test_quickstart_escapes_base_url(app_factory, auth):
    client = app_factory(base_url='https://x.example/"><script>alert(1)</script>')
    text = client.get("/api/v1/docs/quickstart", headers=auth).text
    assert "<script>" not in text
    assert "&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in text
