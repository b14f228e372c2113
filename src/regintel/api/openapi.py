"""The OpenAPI 3.1 document: FastAPI's generated one, completed with the error contract and tags.

The document is also the single source of the other descriptions (the `/public/endpoints` catalogue,
the HTML catalogue, the Postman collection), so they can never disagree with it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from pydantic.json_schema import models_json_schema
from starlette.routing import BaseRoute

from regintel import __version__
from regintel.api.deps import KEY_SECURITY, require_key
from regintel.api.envelope import Error
from regintel.api.openapi_inputs import constrain_inputs

_iter_route_contexts: Callable[[list[BaseRoute]], Iterator[Any]] | None
try:
    from fastapi.routing import iter_route_contexts as _iter_route_contexts
except ImportError:  # FastAPI before included routers became branches
    _iter_route_contexts = None

API_VERSION = "1.0.0"
METHODS = ("get", "post", "put", "patch", "delete")
KEY_SCHEMES = frozenset({"bearerAuth", "apiKeyQuery"})

# Descriptions of the endpoint groups (spec 4.1-4.8). A router may use a tag not listed here; it is
# then appended to the document without a description rather than silently dropped.
TAGS: list[dict[str, str]] = [
    {"name": "Account", "description": "The current API key, its plan, limits and usage."},
    {"name": "Companies", "description": "Company records by country and national identifier (spec 4.4)."},
    {
        "name": "Search",
        "description": "Finding companies and people by name, address or identifier: fuzzy "
        "search, autocomplete with highlights, addresses, people, resolve and match (spec 4.4, 4.5, 4.7).",
    },
    {
        "name": "Reconcile",
        "description": "OpenRefine Reconciliation Service API 0.2: manifest, query batches, "
        "suggest, preview and data extension (spec 4.5). Send the key as `?api_key=`.",
    },
    {
        "name": "Code lists",
        "description": "Reference tables (spec 2.6, 4.3): NACE, legal forms, regions, "
        "districts, municipalities, countries, bank codes. No key needed.",
    },
    {
        "name": "Monitoring",
        "description": "Per-company subscriptions to insolvency flips (Standard Webhooks, at "
        "least once), diff events with severities, and cases (spec 4.6, 6). See docs/monitoring.md.",
    },
    {
        "name": "Webhooks",
        "description": "Generic webhook subscriptions to company events, filtered by event type, "
        "country and company (spec 4.5).",
    },
    {"name": "Public", "description": "Operations without a key, limited per IP (spec 4.7)."},
    {
        "name": "Documentation",
        "description": "This description, the operation catalogue, a Postman "
        "collection, the interactive explorer and the quickstart.",
    },
]

_ERROR_REF = {"$ref": "#/components/schemas/Error"}
_REQUEST_ID = {"$ref": "#/components/headers/X-Request-ID"}
_QUOTA_HEADERS = ("X-Quota-Limit", "X-Quota-Remaining", "X-Quota-Reset")
_COMMON = {
    "409": "`AMBIGUOUS_IDENTIFIER` (an identifier held in several countries: add `country`; candidates in "
    "`details`) or `CONFLICT` (the resource is not in a state for this, e.g. a job not finished)",
    "404": "`NOT_FOUND`: no such resource (or no company with the identifier given)",
    "414": "`URI_TOO_LONG`: the path and query string are over 65,535 bytes, more than the server reads "
    "(api/http_protocol.py); a valid request always fits",
    "422": "Invalid input (`VALIDATION_ERROR`, with the offending fields; also for unknown query parameters)",
    "429": "`RATE_LIMITED` (per-key window or shared limiter) or `QUOTA_EXCEEDED`",
    "500": "`INTERNAL_ERROR`",
    "501": "`NOT_IMPLEMENTED`: the data source this answer needs is not imported yet (the message names it)",
    "503": "`OVERLOADED` (no database connection free in time: shed at once) or `UPSTREAM_UNAVAILABLE`; "
    "retry after `Retry-After` seconds",
}
_OAUTH_ERROR = {
    "description": "An OAuth 2.1 error (RFC 6749 section 5.2): `error` and `error_description`",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "required": ["error"],
                "properties": {"error": {"type": "string"}, "error_description": {"type": "string"}},
            }
        }
    },
}
# Bodies that are feeds answer conditional GETs (api/conditional.py).
_FEED_TYPES = ("application/atom+xml", "application/rss+xml", "text/csv")
_COUNTRY = re.compile(r"^(country|cc)$")
_HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "Request identifier, also in `meta.request_id`; quote it in reports.",
        "schema": {"type": "string"},
    },
    "X-Quota-Limit": {"description": "Requests in the current month or pass.", "schema": {"type": "integer"}},
    "X-Quota-Remaining": {
        "description": "Requests left in the month or pass.",
        "schema": {"type": "integer"},
    },
    "X-Quota-Reset": {
        "description": "Unix time (s) when the quota resets or the pass ends.",
        "schema": {"type": "integer"},
    },
    "Retry-After": {
        "description": "Seconds to wait (shared limiter and quotas only, spec 7).",
        "schema": {"type": "integer"},
    },
}


@dataclass(frozen=True)
class Operation:
    """One operation of the document, as listed by the catalogues."""

    method: str
    path: str
    tag: str
    auth: str
    summary: str
    description: str
    operation_id: str


def build_openapi(app: FastAPI, base_url: str, purposes: list[str] | None = None) -> dict[str, Any]:
    """The complete document for `app`, with `base_url` as its only server and `purposes` (the
    configured declared purposes) as the values of every `purpose` parameter."""
    doc = get_openapi(
        title="regintel API",
        version=API_VERSION,
        openapi_version="3.1.0",
        description=_DESCRIPTION,
        routes=app.routes,
        tags=TAGS,
        servers=[{"url": base_url}],
    )
    doc["info"]["x-implementation-version"] = __version__
    doc["info"]["license"] = {"name": "AGPL-3.0-or-later", "identifier": "AGPL-3.0-or-later"}
    doc["info"]["contact"] = {"name": "The operator of this regintel service", "url": f"{base_url}/"}
    components = doc.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    _, defs = models_json_schema([(Error, "validation")], ref_template="#/components/schemas/{model}")
    schemas.update(defs.get("$defs", {}))
    # FastAPI's own 422 body is replaced by `Error` everywhere (errors.py renders it that way).
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    _declare_key_security(app, doc)
    components["headers"] = copy.deepcopy(_HEADERS)
    if any(regex.match("/mcp") for regex, _, _ in getattr(app.state, "route_methods", ())):
        doc["paths"]["/mcp"] = _mcp_item()
    for path, _, op in iter_operations(doc):
        _complete_responses(op)
        _constrain_parameters(op, purposes or [])
        if path.startswith("/oauth/"):  # RFC 6749 section 5.2: OAuth errors are 400 with its own body
            op["responses"].setdefault("400", _OAUTH_ERROR)
        if path.startswith(
            ("/account", "/oauth/authorize")
        ):  # signed in by the session cookie (areas/accounts)
            op["responses"].setdefault("401", _error("`UNAUTHORIZED`: not signed in"))
    constrain_inputs(doc)
    _declare_used_tags(doc)
    _integral_bounds(doc)
    return doc


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _integral_bounds(node: Any) -> None:
    """Bounds written back as the integers they are. FastAPI's schema model types them as floats, so
    `lt=2**62` came out as `4.611686018427388e+18`, and a client comparing in floating point took
    4611686018427387998 for a valid id (schemathesis, issue 16)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _BOUNDS and isinstance(value, float) and value.is_integer():
                node[key] = int(value)
            else:
                _integral_bounds(value)
    elif isinstance(node, list):
        for item in node:
            _integral_bounds(item)


def _mcp_item() -> dict[str, Any]:
    """`/mcp`, served by the MCP SDK's Streamable HTTP transport (areas/mcp) rather than a FastAPI
    route, described here so that the document lists every operation the server has."""
    keys: list[dict[str, list[str]]] = [{"bearerAuth": []}, {"apiKeyQuery": []}]
    body = {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "description": "A JSON-RPC 2.0 message of the Model Context Protocol",
                    "required": ["jsonrpc", "method"],
                    "properties": {
                        "jsonrpc": {"const": "2.0"},
                        "id": {},
                        "method": {"type": "string"},
                        "params": {"type": ["object", "null"]},
                    },
                },
                "example": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            }
        },
    }
    answers = {
        "200": {
            "description": "The JSON-RPC answer (`application/json`)",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        "202": {"description": "A notification or response was accepted (no body)"},
        "400": {
            "description": "Not a valid MCP message (a short text from the MCP SDK, sent without a "
            "`Content-Type`)"
        },
        "401": _error("`UNAUTHORIZED`: missing, unknown, expired or revoked key (`WWW-Authenticate`)"),
        "403": {"description": "A browser `Origin` other than this service's"},
        "406": {"description": "`Accept` must allow `application/json` and `text/event-stream`"},
        "429": _error("`RATE_LIMITED` or `QUOTA_EXCEEDED`: tool calls count like keyed calls"),
    }
    post = {
        "tags": ["Agent"],
        "summary": "MCP tool server",
        "operationId": "mcp_post",
        "description": "The Model Context Protocol server (Streamable HTTP transport, stateless, JSON "
        "answers) with 13 tools over this API: see docs/mcp.md. Authenticate with the API key; "
        "each message counts like a keyed call. `/mcp/v1` serves the same.",
        "security": keys,
        "requestBody": body,
        "responses": answers,
    }
    # GET (a server-to-client stream) and DELETE (a session end) answer 405 with `Allow: POST`: not offered,
    # hence not in the document, as for any method a path does not serve.
    return {"post": post}


# No parameter takes C0 controls or DEL (api/routing.py refuses them with 422): said in the schema, so
# that a schema-valid value is never refused.
_NO_CONTROLS = "^[^\\u0000-\\u001f\\u007f]*$"


# A boolean query parameter takes what pydantic reads as one, in any case: `true`/`false` as OpenAPI writes
# them, and `1`/`0`, `yes`/`no`, `on`/`off`, `t`/`f`, `y`/`n` (the filters' descriptions use `1`/`0`, and
# people type them into URLs). Said in the schema beside `boolean`, so the document and the server take the
# same values (issue 16); any other value is a 422.
_BOOL_WORDS = ("true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n")
_BOOL_TEXT = {
    "type": "string",
    "pattern": "^("
    + "|".join("".join(f"[{c.upper()}{c}]" if c.isalpha() else c for c in w) for w in _BOOL_WORDS)
    + ")$",
    "description": "also `1`/`0`, `yes`/`no`, `on`/`off`, `t`/`f`, `y`/`n`, in any case",
}


def _boolean_spellings(param: dict[str, Any]) -> None:
    schema = param.get("schema", {})
    if param.get("in") != "query":
        return
    if schema.get("type") == "boolean":
        rest = {k: v for k, v in schema.items() if k != "type"}
        schema.clear()
        schema.update(rest, anyOf=[{"type": "boolean"}, dict(_BOOL_TEXT)])
    elif any(part.get("type") == "boolean" for part in schema.get("anyOf", [])):
        schema["anyOf"].insert(1, dict(_BOOL_TEXT))


def _constrain_parameters(op: dict[str, Any], purposes: list[str]) -> None:
    for param in op.get("parameters", []):
        _boolean_spellings(param)
        schema = param.get("schema", {})
        if param.get("name") == "purpose" and purposes:
            for part in [schema, *schema.get("anyOf", [])]:
                if part.get("type") == "string":
                    part["enum"] = sorted(purposes)
            continue
        for part in [schema, *schema.get("anyOf", [])]:
            items = part.get("items", {}) if part.get("type") == "array" else {}  # `?nuts3=a&nuts3=b`
            for string in (part, items):
                if string.get("type") == "string" and "pattern" not in string and "enum" not in string:
                    string["pattern"] = _NO_CONTROLS


def _declare_key_security(app: FastAPI, doc: dict[str, Any]) -> None:
    """Either key scheme on every operation that depends on `require_key`, which reads the key itself
    instead of through security sub-dependencies that FastAPI would have found (deps.py says why)."""
    schemes = doc["components"].setdefault("securitySchemes", {})
    for scheme in KEY_SECURITY:
        schemes[scheme.scheme_name] = scheme.model.model_dump(mode="json", by_alias=True, exclude_none=True)
    for route in iter_api_routes(app):
        if route.include_in_schema and _depends_on(route.dependant, require_key):
            for method in route.methods:
                op = doc["paths"][route.path_format][method.lower()]
                op["security"] = [{scheme.scheme_name: []} for scheme in KEY_SECURITY]


def _depends_on(dependant: Dependant, call: Callable[..., Any]) -> bool:
    return any(sub.call is call or _depends_on(sub, call) for sub in dependant.dependencies)


def _complete_responses(op: dict[str, Any]) -> None:
    responses = op.setdefault("responses", {})
    keyed = is_keyed(op)
    for status, text in _COMMON.items():
        if not _own_answer(responses.get(status)):
            responses[status] = _error(text)
    if keyed:
        responses["401"] = _error("`UNAUTHORIZED`: missing, unknown, expired or revoked key")
    if (
        "requestBody" in op and "400" not in responses
    ):  # /mcp declares its own (the SDK's, without a body type)
        responses["400"] = _error(
            "`BAD_REQUEST`: the body cannot be read as the declared content type "
            "(e.g. JSON that does not parse)"
        )
    retry = {"Retry-After": {"$ref": "#/components/headers/Retry-After"}}
    responses["429"].setdefault("headers", {}).update(retry)
    responses["503"].setdefault("headers", {}).update(retry)
    if "text/html" in responses.get("200", {}).get("content", {}):
        # Pages answer people: their errors are pages too (areas/pages), and JSON for API clients.
        for status, response in responses.items():
            if status[0] in "45" and "content" in response:
                response["content"].setdefault("text/html", {"schema": {"type": "string"}})
    ok_content = responses.get("200", {}).get("content", {})
    if any(t in ok_content for t in _FEED_TYPES):
        responses["304"] = {
            "description": "Not modified: the `If-None-Match` or `If-Modified-Since` of the "
            "request still holds (no body)"
        }
    for param in op.get("parameters", []):
        # Routing and `parse_country` take exactly two letters in any case: say so, so that a schema-valid
        # value is never refused (the path convertor `{country:cc}` declared no constraint at all).
        schema = param.get("schema", {})
        if _COUNTRY.match(param.get("name", "")) and _is_string(schema):
            _two_letters(schema)
    for response in responses.values():
        headers = response.setdefault("headers", {})
        headers.setdefault("X-Request-ID", _REQUEST_ID)
        if keyed:
            for name in _QUOTA_HEADERS:
                headers.setdefault(name, {"$ref": f"#/components/headers/{name}"})


def _own_answer(response: dict[str, Any] | None) -> bool:
    """A route that declares its own body for a status (`/readyz`'s 503 says which check failed) keeps
    it; FastAPI's generic 422 body is always replaced by `Error`."""
    if not response or "content" not in response:
        return False
    return "HTTPValidationError" not in str(response["content"])


def _is_string(schema: dict[str, Any]) -> bool:
    return schema.get("type") == "string" or any(s.get("type") == "string" for s in schema.get("anyOf", []))


def _two_letters(schema: dict[str, Any]) -> None:
    for part in [schema, *schema.get("anyOf", [])]:
        if part.get("type") == "string":
            part.update(pattern="^[A-Za-z]{2}$", minLength=2, maxLength=2)


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "headers": {"X-Request-ID": _REQUEST_ID},
        "content": {"application/json": {"schema": _ERROR_REF}},
    }


def _declare_used_tags(doc: dict[str, Any]) -> None:
    declared = {t["name"] for t in doc.get("tags", [])}
    used = {tag for _, _, op in iter_operations(doc) for tag in op.get("tags", [])}
    doc["tags"] = [t for t in doc.get("tags", []) if t["name"] in used]
    doc["tags"] += [{"name": name} for name in sorted(used - declared)]


def iter_operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(path, method, operation) for every operation of the document, in document order."""
    for path, item in doc.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def is_keyed(op: dict[str, Any]) -> bool:
    """True when the operation requires a key (it declares a security requirement)."""
    return any(req for req in op.get("security", []))


def list_operations(doc: dict[str, Any]) -> list[Operation]:
    """The catalogue of operations, ordered by tag (as declared), then path and method."""
    order = {t["name"]: i for i, t in enumerate(doc.get("tags", []))}
    ops = [
        Operation(
            method=method.upper(),
            path=path,
            tag=(op.get("tags") or ["Other"])[0],
            auth="key" if is_keyed(op) else "public",
            summary=op.get("summary", ""),
            description=op.get("description", ""),
            operation_id=op.get("operationId", ""),
        )
        for path, method, op in iter_operations(doc)
    ]
    return sorted(
        ops, key=lambda o: (order.get(o.tag, len(order)), o.tag, o.path, METHODS.index(o.method.lower()))
    )


def iter_api_routes(app: FastAPI) -> Iterator[Any]:
    """Every API route of the app, with its effective (prefixed) path.

    Recent FastAPI keeps each included router as one branch in `app.routes`; `iter_route_contexts`
    flattens the branches. Older FastAPI copied the routes into `app.routes` directly.
    """
    if _iter_route_contexts is None:
        yield from (route for route in app.routes if isinstance(route, APIRoute))
        return
    for context in _iter_route_contexts(app.routes):
        if isinstance(context.original_route, APIRoute):
            yield context


def undocumented_operations(app: FastAPI) -> list[str]:
    """Operations without an explicit summary or description (FastAPI would invent a summary)."""
    missing = []
    for route in iter_api_routes(app):
        if route.include_in_schema:
            lacks = [
                name
                for name, value in (("summary", route.summary), ("description", route.description))
                if not value
            ]
            if lacks:
                missing.append(
                    f"{','.join(sorted(route.methods))} {route.path_format}: no {' or '.join(lacks)}"
                )
    return missing


_DESCRIPTION = """\
A REST API over regintel's own database of European legal entities, built from open registers.

* **Envelope**: every JSON 200 response is `{"data": …, "meta": {"duration_ms", "cached", "request_id"}}`;
  lists add `meta.total`/`meta.page`/`meta.per_page` or `meta.next_cursor`.
* **Errors**: `{"error": {"code", "message", "details"}, "meta": {"request_id"}}` with the codes
  `UNAUTHORIZED`, `FORBIDDEN`, `NOT_FOUND`, `VALIDATION_ERROR`, `AMBIGUOUS_IDENTIFIER`, `RATE_LIMITED`,
  `QUOTA_EXCEEDED`, `INTERNAL_ERROR`. Every response carries `X-Request-ID`.
* **Keys**: `Authorization: Bearer ri_…` or `?api_key=ri_…` on the operations that declare security;
  the others need no key and are limited per IP.
* **Strict inputs**: an unknown query parameter answers 422 naming it.
* **Other descriptions**: `/api/v1/public/postman.json` (Postman 2.1), `/api/v1/public/endpoints`
  (JSON catalogue), `/api/v1/public/swagger` (interactive), `/api/v1/docs` (HTML, with a key).
"""
