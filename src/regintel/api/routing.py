"""The route class of every router: strict query parameters, checked before any dependency runs."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine, Iterable
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import BaseModel

from regintel.errors import ValidationFailed

ALWAYS_ALLOWED = frozenset({"api_key"})


class StrictRoute(APIRoute):
    """An `APIRoute` that refuses query parameters it does not declare (DESIGN.md section 3: a misspelt
    parameter must never silently widen a result), with 422 `VALIDATION_ERROR` naming them.

    The names a route declares are collected once, when FastAPI builds the route's handler. The check
    used to be an app-wide dependency, and FastAPI's generic dependency resolution around it cost more
    than the check itself (6% of a keyed `/me`'s instructions). It runs before FastAPI reads the body
    and resolves the dependencies, so, as before, an unknown parameter is reported ahead of a missing
    key or an invalid declared parameter.
    """

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        allowed = frozenset(query_names(self.dependant)) | ALWAYS_ALLOWED

        async def strict_handler(request: Request) -> Response:
            if request.scope["query_string"]:
                params = request.query_params
                reject_unknown(params.keys(), allowed)
                # The key is a credential, not a parameter: a garbled one is an unknown key (401), and a
                # valid `Authorization` header wins over it (the security scheme gives it no schema).
                reject_control_characters(
                    [(k, v) for k, v in params.multi_items() if k != "api_key"], "query"
                )
                if "api_key" in params:
                    _set_aside_key(request)
            if _CONTROL.search(request.scope["path"]):
                reject_control_characters([("path", request.scope["path"])], "path")
            if request.method in _BODY_METHODS:
                request = JsonNumbersRequest(request.scope, request.receive)
            return await handler(request)

        return strict_handler


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
# Integers that a float carries exactly; beyond this a number stays the float JSON parsing made of it.
_EXACT_INTEGERS = 2**53


def json_number(text: str) -> int | float:
    """A JSON number with a fraction or exponent, as JSON Schema reads it: `18.0` and `1e1` are integers.

    The body models are strict (`false` is not 0, `"5"` is not 5), and pydantic's strict `int` refuses
    every float, so a schema-valid `"limit": 18.0` was refused (schemathesis, issue 16). Integral values
    become `int` here, once, for every route; strict `float` fields take an `int` as it is."""
    value = float(text)
    if value.is_integer() and abs(value) < _EXACT_INTEGERS:
        return int(value)
    return value


class JsonNumbersRequest(Request):
    """The request of a route with a body: its JSON is parsed with `json_number` for non-integer literals
    (FastAPI reads a JSON body through `Request.json`, the documented place to change how it is read)."""

    async def json(self) -> Any:
        if not hasattr(self, "_numbers_json"):
            self._numbers_json = json.loads(await self.body(), parse_float=json_number)
        return self._numbers_json


# C0 controls and DEL have no place in any parameter, and XML (feeds), CSV and HTML writers refuse or
# mangle them: a `field=n%1A` filter reached the Atom writer and answered 500 (issue 16).
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def reject_control_characters(items: Iterable[tuple[str, str]], where: str) -> None:
    bad = sorted({name for name, value in items if _CONTROL.search(value) or _CONTROL.search(name)})
    if bad:
        raise ValidationFailed(
            f"Control characters are not allowed in: {', '.join(bad)}",
            details=[
                {
                    "field": name,
                    "in": where,
                    "message": "contains a control character (U+0000-U+001F, U+007F)",
                }
                for name in bad
            ],
        )


def _set_aside_key(request: Request) -> None:
    """Take `api_key` out of the query the route sees (deps.require_key reads it from the request state),
    so that routes whose parameters are one strict model (advanced search, statistics) accept keys sent
    in the query like every other route."""
    params = request.query_params
    request.scope["state"]["api_key"] = params["api_key"]
    rest = [(k, v) for k, v in params.multi_items() if k != "api_key"]
    request.scope["query_string"] = urlencode(rest).encode("latin-1")
    request.__dict__.pop("_query_params", None)


def reject_unknown(names: Iterable[str], allowed: frozenset[str]) -> None:
    """Raise `ValidationFailed` listing every name outside `allowed`."""
    unknown = sorted(set(names) - allowed)
    if unknown:
        raise ValidationFailed(
            f"Unknown query parameter(s): {', '.join(unknown)}",
            details=[
                {
                    "field": name,
                    "in": "query",
                    "message": "unknown parameter",
                    "allowed": sorted(allowed - ALWAYS_ALLOWED),
                }
                for name in unknown
            ],
        )


def query_names(dependant: Dependant) -> set[str]:
    """Every query parameter a route declares, through its sub-dependencies and parameter models."""
    names: set[str] = set()
    for field in dependant.query_params:
        model = field.field_info.annotation
        if isinstance(model, type) and issubclass(model, BaseModel):
            names.update(f.alias or n for n, f in model.model_fields.items())
        else:
            names.add(field.alias)
    for sub in dependant.dependencies:
        names |= query_names(sub)
    return names
