"""The OpenAPI 3.1 document: FastAPI's generated one, completed with the error contract and tags."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic.json_schema import models_json_schema

from regintel import __version__
from regintel.api.envelope import Error

API_VERSION = "1.0.0"

TAGS: list[dict[str, str]] = [
    {"name": "Account", "description": "The current API key, its plan, limits and usage."},
    {"name": "Code lists", "description": "Reference tables (spec 2.6, 4.3): NACE, legal forms, regions, "
     "districts, municipalities, countries, bank codes. No key needed."},
    {"name": "Companies", "description": "Company records by country and national identifier (spec 4.4)."},
    {"name": "Documentation", "description": "This description, the operation catalogue, a Postman "
     "collection and the interactive explorer."},
    {"name": "Public", "description": "Operations without a key, limited per IP (spec 4.7)."},
]

_ERROR_REF = {"$ref": "#/components/schemas/Error"}
_COMMON = {
    "422": "Invalid input (`VALIDATION_ERROR`, with the offending fields)",
    "429": "`RATE_LIMITED` (per-key window or shared limiter) or `QUOTA_EXCEEDED`",
    "500": "`INTERNAL_ERROR`",
}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ERROR_REF}}}


def build_openapi(app: FastAPI, base_url: str) -> dict[str, Any]:
    doc = get_openapi(title="regintel API", version=API_VERSION, openapi_version="3.1.0",
                      description=_DESCRIPTION, routes=app.routes, tags=TAGS,
                      servers=[{"url": base_url}])
    doc["info"]["x-implementation-version"] = __version__
    doc["info"]["license"] = {"name": "AGPL-3.0-or-later", "identifier": "AGPL-3.0-or-later"}
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    _, defs = models_json_schema([(Error, "validation")], ref_template="#/components/schemas/{model}")
    schemas.update(defs.get("$defs", {}))
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    for ops in doc.get("paths", {}).values():
        for op in ops.values():
            responses = op.setdefault("responses", {})
            keyed = bool(op.get("security"))
            for status, text in _COMMON.items():
                responses[status] = _error(text)
            if keyed:
                responses["401"] = _error("`UNAUTHORIZED`: missing, unknown, expired or revoked key")
    return doc


_DESCRIPTION = """\
A REST API over regintel's own database of European legal entities, built from open registers.

* **Envelope**: every JSON 200 response is `{"data": …, "meta": {"duration_ms", "cached", "request_id"}}`;
  lists add `meta.total`/`meta.page`/`meta.per_page` or `meta.next_cursor`.
* **Errors**: `{"error": {"code", "message", "details"}, "meta": {"request_id"}}` with the codes
  `UNAUTHORIZED`, `FORBIDDEN`, `NOT_FOUND`, `VALIDATION_ERROR`, `AMBIGUOUS_IDENTIFIER`, `RATE_LIMITED`,
  `QUOTA_EXCEEDED`, `INTERNAL_ERROR`. Every response carries `X-Request-ID`.
* **Keys**: `Authorization: Bearer ri_…` or `?api_key=ri_…`.
* **Strict inputs**: an unknown query parameter answers 422 naming it.
"""
