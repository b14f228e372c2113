"""Conditional GETs for feeds (RFC 9110 13): feed readers poll, so every feed answers with an `ETag`
(a hash of the body) and a `Last-Modified` (its newest entry), and a request whose `If-None-Match` or
`If-Modified-Since` still holds gets 304 Not Modified without a body."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime

from fastapi import Request
from fastapi.responses import Response


def feed_response(
    request: Request,
    body: bytes,
    media_type: str,
    updated: datetime | None,
    headers: dict[str, str] | None = None,
) -> Response:
    etag = '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'
    out = dict(headers or {}) | {"ETag": etag}
    if updated is not None:
        out["Last-Modified"] = http_date(updated)
    if _fresh(request, etag, updated):
        return Response(status_code=304, headers=out)
    return Response(body, media_type=media_type, headers=out)


def not_modified(request: Request, updated: datetime | None) -> bool:
    """True when `If-Modified-Since` is at or after `updated` (for answers without a stable body, such
    as the JSON envelope with its request id)."""
    return _fresh(request, None, updated)


def http_date(value: datetime) -> str:
    value = value if value.tzinfo else value.replace(tzinfo=UTC)
    return format_datetime(value.astimezone(UTC).replace(microsecond=0), usegmt=True)


def _fresh(request: Request, etag: str | None, updated: datetime | None) -> bool:
    match = request.headers.get("if-none-match")
    if match is not None:  # If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2)
        tags = {t.strip().removeprefix("W/") for t in match.split(",")}
        return etag is not None and ("*" in tags or etag in tags)
    since = request.headers.get("if-modified-since")
    if since is None or updated is None:
        return False
    try:
        when = parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False  # an unreadable date is ignored, as the RFC asks
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    updated = updated if updated.tzinfo else updated.replace(tzinfo=UTC)
    return updated.replace(microsecond=0) <= when
