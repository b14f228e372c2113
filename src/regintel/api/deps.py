"""Dependencies shared by the routers: settings, database connection, credentials and limits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import APIKeyQuery, HTTPBearer
from fastapi.security.base import SecurityBase
from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.api.db_gate import DbGate
from regintel.api.held_reads import HeldReads
from regintel.api.limiter import Limiter, Quota
from regintel.areas.people import service as people
from regintel.config import Settings
from regintel.db.counters import WouldWait
from regintel.db.keys import KeyCache, KeyRecord, hash_key
from regintel.errors import Unauthorized

T = TypeVar("T")

# The two ways to send a key (spec 5). They are called by `require_key` rather than declared as its
# sub-dependencies: FastAPI resolves every dependency through its generic machinery on each request,
# which for these two cost 12% of a keyed `/me` (by instruction count) to read one header and one
# parameter. api/openapi.py therefore declares them on each operation that depends on `require_key`,
# as FastAPI would have.
_bearer = HTTPBearer(
    auto_error=False, scheme_name="bearerAuth", description="API key sent as `Authorization: Bearer ri_…`"
)
_query_key = APIKeyQuery(
    name="api_key",
    auto_error=False,
    scheme_name="apiKeyQuery",
    description="API key sent as the `api_key` query parameter",
)
KEY_SECURITY: tuple[SecurityBase, ...] = (_bearer, _query_key)


# Dependencies are `async def` on purpose: FastAPI runs a sync dependency in the thread pool, and
# a request used to hop threads about 16 times (profiled), costing more than the work itself. What
# they do on the loop never waits on anything but an asyncio primitive: a connection is taken only
# with a permit of the `DbGate` (api/db_gate.py), and whatever can wait on a lock or the network
# (a key read on a cache miss, the counter file, Redis, a PostgreSQL connection) runs in a thread.


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


# Not a `yield` dependency: FastAPI wraps each of those in an async context manager with a shielded
# exit on an exit stack, which cost more than the lookup it served (about 8% of a keyed lookup's
# instructions). The connection is closed instead by RequestContext once the response starts.
async def open_conn(request: Request, engine: Engine | None = None) -> Connection:
    """A connection for the request, closed (and its permit given back) once the response starts;
    routers that write call `conn.commit()` themselves. On SQLite the checkout is a pool hand-out
    (the file is opened once per pooled connection); on PostgreSQL it may connect, so it runs in a
    thread. 503 `OVERLOADED` when no connection frees up within `db_wait_seconds`."""
    state = request.app.state
    gate: DbGate = state.db_gate
    engine = engine or state.engine
    await gate.acquire()
    try:
        conn: Connection = engine.connect() if state.db_inline else await run_in_threadpool(engine.connect)
    except BaseException:
        gate.release()
        raise
    request.scope["state"]["close_after"].append(conn)
    return conn


def read_engine(request: Request) -> Engine:
    """Where reads that need not see this request's own writes go: a PostgreSQL read replica in turn
    (`REGINTEL_DATABASE_REPLICA_URLS`), else the primary. Replicas may lag the primary by the
    replication delay; paths that read what a client just wrote (monitoring, webhooks, keys) use the
    primary."""
    state = request.app.state
    replicas: list[Engine] = state.replicas
    if not replicas:
        primary: Engine = state.engine
        return primary
    turn: int = (state.replica_turn + 1) % len(replicas)
    state.replica_turn = turn
    return replicas[turn]


async def run_read(request: Request, fn: Callable[..., T], *args: Any) -> T:
    """Run `fn(conn, *args)`, a few indexed reads, where it is cheapest without blocking the loop.

    SQLite: inline on the event loop, on one connection this process keeps for such reads alone. A
    read in WAL mode never waits for a lock (readers see the last commit; writers do not block them),
    and `fn` runs to its end without yielding, so one connection serves every request in turn with no
    pool checkout, no permit and no thread hop; its transaction ends after each call, so the next one
    sees the newest commit.
    PostgreSQL: in a thread, on a gated connection in autocommit (no BEGIN and ROLLBACK round trips)
    that is kept open for such reads (api/held_reads.py), so a read pays no pool checkout.
    """
    state = request.app.state
    if state.db_inline:
        conn: Connection | None = state.inline_conn
        if conn is None or conn.closed:
            conn = state.inline_conn = state.engine.connect()
        try:
            return fn(conn, *args)
        finally:
            conn.rollback()
    gate: DbGate = state.db_gate
    held: HeldReads = state.held_reads
    engine = read_engine(request)
    await gate.acquire()
    try:
        return await run_in_threadpool(held.run, engine, fn, *args)
    finally:
        gate.release()


async def get_conn(request: Request) -> Connection:
    return await open_conn(request)


async def get_read_conn(request: Request) -> Connection:
    return await open_conn(request, read_engine(request))


async def get_write_conn(request: Request) -> Connection:
    """A connection for a request that reads and then writes: on SQLite its transactions take the
    write lock at BEGIN, so a concurrent writer (worker, importer) cannot fail it half-way."""
    conn = await open_conn(request)
    conn.execution_options(sqlite_immediate=True)
    return conn


AppSettings = Annotated[Settings, Depends(get_settings)]
DbConn = Annotated[Connection, Depends(get_conn)]
# Read-only handlers: served by a read replica when there are any (see `read_engine`).
ReadConn = Annotated[Connection, Depends(get_read_conn)]
DbWriteConn = Annotated[Connection, Depends(get_write_conn)]


def public_base(request: Request) -> str:
    """The service's public address for links in answers (feed self links, manifests, exports):
    `REGINTEL_BASE_URL` when it is configured, else the address this request was sent to (the
    `Host` header; behind a trusted proxy, `X-Forwarded-Proto` and `X-Forwarded-Host` too). A link
    that named a fixed default address was dead for a service on any other host or port."""
    settings: Settings = request.app.state.settings
    if "base_url" in settings.model_fields_set:
        return settings.base_url.rstrip("/")
    headers = request.headers
    scheme, host = request.url.scheme, headers.get("host") or f"{request.url.hostname}:{request.url.port}"
    if settings.trust_forwarded_for:
        scheme = headers.get("x-forwarded-proto", scheme).split(",")[0].strip()
        host = headers.get("x-forwarded-host", host).split(",")[0].strip()
    return f"{scheme}://{host}"


def client_ip(request: Request) -> str:
    settings: Settings = request.app.state.settings
    if settings.trust_forwarded_for:
        forwarded = request.headers.get("x-forwarded-for")
        if forwarded:
            return forwarded.split(",")[0].strip()
    return request.client.host if request.client else "unknown"


def _limiter(request: Request) -> Limiter:
    limiter: Limiter = request.app.state.limiter
    return limiter


async def public_limit(request: Request) -> None:
    """Shared per-IP limiter for operations that need no key. Sent a key that resolves (from the key
    cache; read once per cache period otherwise) and is neither revoked nor expired, the call counts in
    the shared window with the key's allowance, max(shared, plan per minute), as keyed calls do; it
    consumes neither the plan window nor the quota. Any other key leaves the call anonymous (no 401: the
    operation needs none)."""
    limiter, ip = _limiter(request), client_ip(request)
    raw = (await _raw_key(request)).strip()
    key = await _known_key(request, raw) if raw else None
    if key is not None and not key.is_active(datetime.now(UTC)):
        key = None
    try:
        if key is None:
            limiter.check_anonymous(ip, wait=False)
        else:
            limiter.check_public_keyed(key, ip, wait=False)
    except WouldWait:
        if key is None:
            await run_in_threadpool(limiter.check_anonymous, ip)
        else:
            await run_in_threadpool(limiter.check_public_keyed, key, ip)


async def _raw_key(request: Request) -> str:
    """The key sent by `Authorization: Bearer` or `?api_key=` (set aside by routing.StrictRoute), as sent;
    empty when none."""
    bearer = await _bearer(request)
    raw = (
        bearer.credentials
        if bearer is not None
        else (request.scope["state"].get("api_key") or await _query_key(request))
    )
    return raw or ""


async def _known_key(request: Request, raw: str) -> KeyRecord | None:
    """The key record of `raw` from the key cache, else read (`_load_key`); None when unknown."""
    known, key = request.app.state.key_cache.peek(raw)
    return key if known else await _load_key(request, raw)


async def _load_key(request: Request, raw: str) -> KeyRecord | None:
    """A key the cache does not hold, read in a thread; concurrent requests with the same key wait for
    that one read. It takes no `DbGate` permit: the request may hold one already (a connection
    dependency declared before the key), and when the cache entry of a busy key expired, every
    request holding a permit waited for a second one until all were shed (found under 64 clients).
    The read uses the pool's spare connections, and distinct unknown keys are bounded by the threads."""
    state = request.app.state
    pending: dict[str, asyncio.Future[KeyRecord | None]] = state.key_loads
    cache: KeyCache = state.key_cache
    digest = hash_key(raw)
    running = pending.get(digest)
    if running is not None and running.get_loop() is asyncio.get_running_loop():
        return await asyncio.shield(running)
    future: asyncio.Future[KeyRecord | None] = asyncio.get_running_loop().create_future()
    pending[digest] = future

    def load() -> KeyRecord | None:
        with state.engine.connect() as conn:
            return cache.load(raw, conn)

    try:
        key = await run_in_threadpool(load)
    except BaseException as exc:
        future.set_exception(exc)
        future.exception()  # read, so an exception nobody waited for is not logged as lost
        raise
    else:
        future.set_result(key)
        return key
    finally:
        del pending[digest]


class Caller:
    """The authenticated key of a request and where it stands against its quota."""

    def __init__(self, key: KeyRecord, quota: Quota | None):
        self.key = key
        self.quota = quota


def _challenge(request: Request, sent: bool) -> dict[str, str]:
    """RFC 6750 section 3: a 401 names the scheme; RFC 9728 section 5.1: and the API's protected-resource
    document, where OAuth clients find the authorization server (`/mcp` sends its own: areas/mcp/http.py)."""
    metadata = f"{public_base(request)}/.well-known/oauth-protected-resource"
    error = ', error="invalid_token"' if sent else ""
    return {"WWW-Authenticate": f'Bearer realm="regintel", resource_metadata="{metadata}"{error}'}


async def require_key(request: Request) -> Caller:
    """Authenticate by `Authorization: Bearer` or `?api_key=`, then apply limits and quotas."""
    raw = await _raw_key(request)
    if not raw:
        raise Unauthorized(
            "An API key is required: send `Authorization: Bearer <key>` or `?api_key=<key>`",
            headers=_challenge(request, False),
        )
    key = await _known_key(request, raw.strip())
    now = datetime.now(UTC)
    if key is None:
        raise Unauthorized("Unknown API key", headers=_challenge(request, True))
    if key.revoked_at is not None:
        raise Unauthorized("This API key has been revoked", headers=_challenge(request, True))
    if key.expires_at is not None and key.expires_at <= now:
        raise Unauthorized("This API key has expired", headers=_challenge(request, True))
    limiter, ip = _limiter(request), client_ip(request)
    try:
        # Counted on the loop when that cannot wait (the counter file's lock free, not Redis): a thread
        # hop cost more CPU than the counting itself (docs/performance.md, session 13).
        quota = limiter.check_key(key, ip, wait=False)
    except WouldWait:
        quota = await run_in_threadpool(limiter.check_key, key, ip)
    if quota is not None:
        request.scope["state"]["extra_headers"].update(quota.headers())
    people.REQUEST_KEY.set((request.app.state.engine, key.id))  # for the natural-persons addendum
    return Caller(key, quota)


ApiKey = Annotated[Caller, Depends(require_key)]
PublicLimit = Depends(public_limit)
