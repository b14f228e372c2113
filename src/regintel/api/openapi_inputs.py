"""What the server checks on inputs, said in the OpenAPI document, so that a request the document calls
valid is not refused for a reason the document could have stated (issue 16: schemathesis's
"schema-valid request rejected").

Path identifiers get their shape; request bodies get the formats their handlers enforce (two-letter
countries, e-mail addresses, http(s) URLs and origins, IBAN and LEI shapes, the webhook event types).
What JSON Schema cannot say (check digits, one-of rules across fields, opaque cursors) is said in the
operations' descriptions and answered 422 `VALIDATION_ERROR`; docs/api.md lists it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pycountry

from regintel.areas.regulatory.service import SOURCES as REGULATORY_SOURCES
from regintel.areas.regulatory.tags import TAGS as REGULATORY_TAGS
from regintel.db.company_filters import NIS2_SCOPES
from regintel.domain.monitoring import EVENT_TYPES

# Register numbers of every market: letters, digits and the separators registers print (`CHE-123.456.789`,
# `SC 123456`, `123/2020`); the check digits are the server's to verify.
ID_PATTERN = "^[0-9A-Za-z][0-9A-Za-z ./-]{0,39}$"
# 1-65535 without leading zeros, as areas/pages/widget.py takes a port.
_PORT = "([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])"
_ID_PARAMS = frozenset({"ico", "national_id"})

_STRING_RULES: dict[str, dict[str, Any]] = {
    "country": {"pattern": "^[A-Za-z]{2}$", "minLength": 2, "maxLength": 2},
    "email": {"format": "email", "maxLength": 254},
    "url": {"format": "uri", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$", "maxLength": 2048},
    "iban": {"pattern": "^ *[A-Za-z]{2} *[0-9]{2}[A-Za-z0-9 ]{11,40}$"},
    "lei": {"pattern": "^[0-9A-Za-z]{18}[0-9]{2}$"},
    "ico": {"pattern": ID_PATTERN, "minLength": 1, "maxLength": 40},
    "national_id": {"pattern": ID_PATTERN, "minLength": 1, "maxLength": 40},
}
_ITEM_RULES: dict[str, dict[str, Any]] = {
    "origins": {"pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9.-]+(:" + _PORT + ")?/?$"},
    "event_types": {"enum": list(EVENT_TYPES)},
}


# An ISO date from year 1000 (date.fromisoformat refuses year 0) with days every month has, optionally a
# time and a zone: a subset of what the regulatory feed's `since` reads, so no schema-valid value is refused.
_ISO_SINCE = (
    "^[1-9][0-9]{3}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])"
    "(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$"
)
_COUNTRIES = sorted(c.alpha_2 for c in pycountry.countries)
# Query and path parameters whose values the server checks against a list or a format: (path, name) → rule.
_QUERY_RULES: list[tuple[re.Pattern[str], str, dict[str, Any]]] = [
    (re.compile(r"^/api/v1/public/regulatory-feed"), "source", {"enum": list(REGULATORY_SOURCES)}),
    (re.compile(r"^/api/v1/public/regulatory-feed"), "tag", {"enum": list(REGULATORY_TAGS)}),
    (re.compile(r"^/api/v1/public/bank-code/"), "code", {"pattern": "^[A-Za-z0-9]{1,16}$"}),
    (re.compile(r"^/api/v1/public/regulatory-feed"), "since", {"pattern": _ISO_SINCE}),
    (
        re.compile(r"^/api/v1/code-lists/bank-codes$"),
        "country",
        {"enum": _COUNTRIES + [c.lower() for c in _COUNTRIES]},
    ),
    (re.compile(r""), "nis2_scope", {"enum": list(NIS2_SCOPES)}),
]


def constrain_inputs(doc: dict[str, Any]) -> None:
    """Add the rules above to the path identifiers of every operation and to every schema a request
    body reaches (response schemas are left as they are)."""
    for path, item in doc.get("paths", {}).items():
        for op in item.values():
            if not isinstance(op, dict):
                continue
            for param in op.get("parameters", []):
                if param.get("in") == "path" and param.get("name") in _ID_PARAMS:
                    for part in _strings(param.get("schema", {})):
                        part.update(pattern=ID_PATTERN, minLength=1, maxLength=40)
                for where, name, rule in _QUERY_RULES:
                    if (
                        param.get("in") in ("query", "path")
                        and param.get("name") == name
                        and where.search(path)
                    ):
                        for part in _strings(param.get("schema", {})):
                            part.pop("pattern", None)
                            part.pop("minLength", None)
                            part.pop("maxLength", None)
                            part.update(rule)
    schemas = doc.get("components", {}).get("schemas", {})
    for name in _request_schemas(doc, schemas):
        for prop, schema in schemas[name].get("properties", {}).items():
            if prop in _STRING_RULES:
                for part in _strings(schema):
                    part.pop("pattern", None)  # the generic no-control-character pattern
                    part.update(_STRING_RULES[prop])
            if prop in _ITEM_RULES:
                for part in _arrays(schema):
                    items = part.setdefault("items", {})
                    if items.get("type") == "string":
                        items.pop("pattern", None)
                        items.update(_ITEM_RULES[prop])


def _strings(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for part in [schema, *schema.get("anyOf", [])]:
        if part.get("type") == "string":
            yield part


def _arrays(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for part in [schema, *schema.get("anyOf", [])]:
        if part.get("type") == "array":
            yield part


def _request_schemas(doc: dict[str, Any], schemas: dict[str, Any]) -> set[str]:
    """Names of the component schemas that request bodies reference, directly or through others."""
    seen: set[str] = set()
    todo = [
        ref
        for item in doc.get("paths", {}).values()
        for op in item.values()
        if isinstance(op, dict)
        for ref in _refs(op.get("requestBody", {}))
    ]
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo.extend(_refs(schemas[name]))
    return seen


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            yield ref.rsplit("/", 1)[1]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)
