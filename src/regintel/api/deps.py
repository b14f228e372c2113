"""Dependencies shared by the routers: settings, database connection, credentials and limits."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyQuery, HTTPBearer
from fastapi.security.base import SecurityBase
from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.config import Settings
from regintel.db.keys import KeyRecord
from regintel.errors import Unauthorized
from regintel.services.limiter import Limiter, Quota

# The two ways to send a key (spec 5). They are called by `require_key` rather than declared as its
# sub-dependencies: FastAPI resolves every dependency through its generic machinery on each request,
# which for these two cost 12% of a keyed `/me` (by instruction count) to read one header and one
# parameter. api/openapi.py therefore declares them on each operation that depends on `require_key`,
# as FastAPI would have.
_bearer = HTTPBearer(auto_error=False, scheme_name="bearerAuth",
                     description="API key sent as `Authorization: Bearer ri_…`")
_query_key = APIKeyQuery(name="api_key", auto_error=False, scheme_name="apiKeyQuery",
                         description="API key sent as the `api_key` query parameter")
KEY_SECURITY: tuple[SecurityBase, ...] = (_bearer, _query_key)


# Dependencies are `async def` on purpose: FastAPI runs a sync dependency in the thread pool, and
# a request used to hop threads about 16 times (profiled), costing more than the work itself.
# What they do inline is cheap: a pool checkout, an indexed key lookup, counter increments.


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings  # type: ignore[no-any-return]


async def get_engine(request: Request) -> Engine:
    return request.app.state.engine  # type: ignore[no-any-return]


# Not a `yield` dependency: FastAPI wraps each of those in an async context manager with a shielded
# exit on an exit stack, which cost more than the lookup it served (about 8% of a keyed lookup's
# instructions). The connection is closed instead by RequestContext once the response is sent, when
# the `yield` would have closed it.
def open_conn(request: Request) -> Connection:
    """A connection for the request, closed once the response is sent; routers that write call
    `conn.commit()` themselves. Hot routes call this directly rather than through `DbConn`."""
    conn: Connection = request.app.state.engine.connect()
    request.scope["state"]["close_after"].append(conn)
    return conn


async def get_conn(request: Request) -> Connection:
    return open_conn(request)


async def get_write_conn(request: Request) -> Connection:
    """A connection for a request that reads and then writes: on SQLite its transactions take the
    write lock at BEGIN, so a concurrent writer (worker, importer) cannot fail it half-way."""
    conn = open_conn(request)
    conn.execution_options(sqlite_immediate=True)
    return conn


AppSettings = Annotated[Settings, Depends(get_settings)]
DbConn = Annotated[Connection, Depends(get_conn)]
DbWriteConn = Annotated[Connection, Depends(get_write_conn)]


def client_ip(request: Request) -> str:
    settings: Settings = request.app.state.settings
    if settings.trust_forwarded_for:
        forwarded = request.headers.get("x-forwarded-for")
        if forwarded:
            return forwarded.split(",")[0].strip()
    return request.client.host if request.client else "unknown"


def _limiter(request: Request) -> Limiter:
    return request.app.state.limiter  # type: ignore[no-any-return]


async def public_limit(request: Request) -> None:
    """Shared per-IP limiter for operations that need no key."""
    _limiter(request).check_anonymous(client_ip(request))


class Caller:
    """The authenticated key of a request and where it stands against its quota."""

    def __init__(self, key: KeyRecord, quota: Quota | None):
        self.key = key
        self.quota = quota


async def require_key(request: Request) -> Caller:
    """Authenticate by `Authorization: Bearer` or `?api_key=`, then apply limits and quotas."""
    bearer = await _bearer(request)
    raw = bearer.credentials if bearer is not None else await _query_key(request)
    if not raw:
        raise Unauthorized("An API key is required: send `Authorization: Bearer <key>` or `?api_key=<key>`")
    key = request.app.state.key_cache.get(raw.strip(), request.app.state.engine)
    now = datetime.now(UTC)
    if key is None:
        raise Unauthorized("Unknown API key")
    if key.revoked_at is not None:
        raise Unauthorized("This API key has been revoked")
    if key.expires_at is not None and key.expires_at <= now:
        raise Unauthorized("This API key has expired")
    quota = _limiter(request).check_key(key, client_ip(request))
    if quota is not None:
        request.scope["state"]["extra_headers"].update(quota.headers())
    return Caller(key, quota)


ApiKey = Annotated[Caller, Depends(require_key)]
PublicLimit = Depends(public_limit)
