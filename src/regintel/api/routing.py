"""The route class of every router: strict query parameters, checked before any dependency runs."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable
from typing import Any

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
                reject_unknown(request.query_params.keys(), allowed)
            return await handler(request)

        return strict_handler


def reject_unknown(names: Iterable[str], allowed: frozenset[str]) -> None:
    """Raise `ValidationFailed` listing every name outside `allowed`."""
    unknown = sorted(set(names) - allowed)
    if unknown:
        raise ValidationFailed(
            f"Unknown query parameter(s): {', '.join(unknown)}",
            details=[{"field": name, "in": "query", "message": "unknown parameter",
                      "allowed": sorted(allowed - ALWAYS_ALLOWED)} for name in unknown])


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
