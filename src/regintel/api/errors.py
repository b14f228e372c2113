"""Exception handlers: every error renders as the one `Error` body with a code (DESIGN.md section 3)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from regintel.api.envelope import error_response, request_id
from regintel.errors import RegintelError

_HTTP_CODES = {
    400: "BAD_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED", 406: "NOT_ACCEPTABLE", 409: "CONFLICT", 413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE", 422: "VALIDATION_ERROR", 429: "RATE_LIMITED",
}


def _field_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    out = []
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        where = loc[0] if loc else "request"
        out.append({"field": ".".join(loc[1:]) or where, "in": where, "message": err.get("msg", ""),
                    "type": err.get("type", "")})
    return out


async def _regintel(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RegintelError)
    return error_response(request_id(request), exc.status, exc.code, exc.message, exc.details, exc.headers)


async def _validation(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    details = _field_errors(exc)
    fields = ", ".join(sorted({d["field"] for d in details}))
    return error_response(request_id(request), 422, "VALIDATION_ERROR", f"Invalid input: {fields}", details)


async def _http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "ERROR")
    message = "No such resource" if exc.status_code == 404 else str(exc.detail)
    return error_response(request_id(request), exc.status_code, code, message,
                          headers=dict(exc.headers or {}))


def install(app: FastAPI) -> None:
    app.add_exception_handler(RegintelError, _regintel)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
