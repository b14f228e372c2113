"""Exception handlers: every error renders as the one `Error` body with a code (DESIGN.md section 3)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from regintel.api.envelope import error_response, request_id
from regintel.errors import RegintelError

log = logging.getLogger("regintel.api")

_HTTP_CODES = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    406: "NOT_ACCEPTABLE",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "VALIDATION_ERROR",
    429: "RATE_LIMITED",
}


def _field_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    out = []
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        where = loc[0] if loc else "request"
        out.append(
            {
                "field": ".".join(loc[1:]) or where,
                "in": where,
                "message": err.get("msg", ""),
                "type": err.get("type", ""),
            }
        )
    return out


async def _regintel(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RegintelError)
    return error_response(request_id(request), exc.status, exc.code, exc.message, exc.details, exc.headers)


async def _validation(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    details = _field_errors(exc)
    fields = ", ".join(sorted({d["field"] for d in details}))
    return error_response(request_id(request), 422, "VALIDATION_ERROR", f"Invalid input: {fields}", details)


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette's 405 names only the first such route's:
    a path with GET and POST routes answered `Allow: GET`)."""
    path = request.scope["path"]
    matches = [
        (methods, literal) for regex, methods, literal in request.app.state.route_methods if regex.match(path)
    ]
    # A literal path (`/companies/bulk`) is its own resource, as OpenAPI reads paths, even where a
    # templated one (`/companies/{ico}`) would also match it.
    if any(literal for _, literal in matches):
        matches = [m for m in matches if m[1]]
    methods: set[str] = set().union(*(m for m, _ in matches)) if matches else set()
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods | {"OPTIONS"}) if methods else []


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 405:
        allow = ", ".join(allowed_methods(request))
        if request.method == "OPTIONS":  # not a CORS preflight (that is answered before routing)
            return Response(status_code=204, headers={"Allow": allow})
        return error_response(
            request_id(request),
            405,
            "METHOD_NOT_ALLOWED",
            f"{request.method} is not served here; this path serves {allow}",
            headers={"Allow": allow},
        )
    code = _HTTP_CODES.get(exc.status_code, "ERROR")
    message = "No such resource" if exc.status_code == 404 else str(exc.detail)
    return error_response(
        request_id(request), exc.status_code, code, message, headers=dict(exc.headers or {})
    )


async def _pool_timeout(request: Request, exc: Exception) -> Response:
    # A checkout outside the gate (a stream, a background read) found the pool empty for its timeout.
    return error_response(
        request_id(request),
        503,
        "OVERLOADED",
        "No database connection came free in time; try again shortly",
        headers={"Retry-After": "1"},
    )


_BUSY = ("locked", "busy", "statement timeout", "canceling statement")
_AWAY = (
    "could not connect",
    "connection refused",
    "server closed the connection",
    "connection is closed",
    "terminating connection",
    "unable to open database file",
    "the database system is",
)


async def _operational(request: Request, exc: Exception) -> Response:
    """The database refused the work for a while (SQLite lock wait spent, PostgreSQL statement timeout)
    or is away (a server restarting): 503 with `Retry-After`, never a 500 for load. Anything else (a
    missing column, a failed constraint) is a defect and answers 500."""
    assert isinstance(exc, OperationalError)
    text = str(exc.orig).lower()
    if any(word in text for word in _BUSY):
        return error_response(
            request_id(request),
            503,
            "OVERLOADED",
            "The database is busy; try again shortly",
            headers={"Retry-After": "1"},
        )
    if exc.connection_invalidated or any(word in text for word in _AWAY):
        log.error("database unavailable: %s", exc.orig, extra={"request_id": request_id(request)})
        return error_response(
            request_id(request),
            503,
            "UPSTREAM_UNAVAILABLE",
            "The database is not reachable; try again shortly",
            headers={"Retry-After": "5"},
        )
    log.exception("database error", exc_info=exc, extra={"request_id": request_id(request)})
    return error_response(request_id(request), 500, "INTERNAL_ERROR", "Internal error; quote the request id")


def install(app: FastAPI) -> None:
    app.add_exception_handler(PoolTimeout, _pool_timeout)
    app.add_exception_handler(OperationalError, _operational)
    app.add_exception_handler(RegintelError, _regintel)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
