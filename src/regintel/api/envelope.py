"""The response envelope of spec 2.1: `{"data": …, "meta": {duration_ms, cached, request_id, …}}`."""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any, Generic, TypeVar

import orjson
from fastapi import Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")


class Meta(BaseModel):
    model_config = ConfigDict(extra="allow")

    duration_ms: int = Field(description="Processing time in milliseconds")
    cached: bool = Field(description="True when the response comes from a cache")
    request_id: str = Field(description="Request identifier for tracing (also in `X-Request-ID`)")


class Envelope(BaseModel, Generic[T]):
    data: T
    meta: Meta


class ErrorDetail(BaseModel):
    code: str = Field(description="Machine-readable error code, e.g. `VALIDATION_ERROR`")
    message: str = Field(description="Human-readable explanation")
    details: Any = Field(default=None, description="Offending fields, candidates or limits")


class ErrorMeta(BaseModel):
    request_id: str


class Error(BaseModel):
    """The body of every error response (DESIGN.md section 3)."""

    error: ErrorDetail
    meta: ErrorMeta


def _default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"Cannot serialise {type(value).__name__}")


_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value, default=_default, option=_OPTIONS)
    except TypeError as exc:
        # orjson writes integers of 64 bits at most; an answer that echoes a client's input (a bulk entry
        # is any JSON value) may hold a longer one, and was a 500 (schemathesis, issue 16).
        if "64-bit" not in str(exc):
            raise
        return orjson.dumps(_long_integers(value), default=_default, option=_OPTIONS)


def _long_integers(value: Any) -> Any:
    """`value` with every integer orjson cannot write given as its exact digits (`orjson.Fragment`)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if -(2**63) <= value < 2**64 else orjson.Fragment(str(value).encode())
    if isinstance(value, dict):
        return {k: _long_integers(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_long_integers(v) for v in value]
    return value


def request_id(request: Request) -> str:
    return str(request.scope.get("state", {}).get("request_id", ""))


def duration_ms(request: Request) -> int:
    started = request.scope.get("state", {}).get("started")
    return int((time.perf_counter() - started) * 1000) if started else 0


def ok(
    request: Request,
    data: Any,
    *,
    cached: bool = False,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
    **meta: Any,
) -> Response:
    """Wrap `data` in the envelope; extra keyword arguments become `meta` fields (total, page, …)."""
    body = {
        "data": data,
        "meta": {
            "duration_ms": duration_ms(request),
            "cached": cached,
            "request_id": request_id(request),
            **meta,
        },
    }
    return Response(dumps(body), status_code=status_code, headers=headers, media_type="application/json")


def error_response(
    request_id_: str,
    status: int,
    code: str,
    message: str,
    details: Any = None,
    headers: dict[str, str] | None = None,
) -> Response:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    return Response(
        dumps({"error": error, "meta": {"request_id": request_id_}}),
        status_code=status,
        headers=headers,
        media_type="application/json",
    )
