"""The ASGI application factory."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from fastapi import APIRouter, FastAPI
from starlette.routing import Route

from regintel.api import errors
from regintel.api.db_gate import DbGate
from regintel.api.held_reads import HeldReads
from regintel.api.limiter import Limiter
from regintel.api.middleware import CorsForOrigins, RequestContext
from regintel.api.openapi import API_VERSION, build_openapi
from regintel.api.routers import ROUTERS
from regintel.api.search_index import SearchJobs, open_search
from regintel.areas.accounts.billing import declare_plans
from regintel.config import Settings
from regintel.db.engine import make_engine
from regintel.db.keys import KeyCache

# Response headers a browser script may read.
EXPOSED_HEADERS = [
    "X-Request-ID",
    "X-Quota-Limit",
    "X-Quota-Remaining",
    "X-Quota-Reset",
    "Retry-After",
    "X-Total-Count",
    "ETag",
    "Last-Modified",
    "Link",
    "Content-Disposition",
]


def build_routes(router: APIRouter) -> None:
    """Build every included router's route contexts now. FastAPI (0.16x) builds them (dependency analysis,
    pydantic adapters) when a request first walks a router: about 1 s of CPU for this app's 330 routes,
    paid by the first request of each process, whatever its path (measured in docs/pages.md, "First
    renders"). A FastAPI that builds routes when they are included has no such methods: nothing to do."""
    stack = [r for r in router.routes if hasattr(r, "effective_candidates")]
    while stack:
        branch: Any = stack.pop()
        stack.extend(c for c in branch.effective_candidates() if hasattr(c, "effective_candidates"))
        branch.effective_low_priority_routes()


def create_app(settings: Settings) -> FastAPI:
    """Build the app; the engine and the limiter live on `app.state` for the app's lifetime."""
    # No ping on checkout: on PostgreSQL it was a round trip and about 95 µs of CPU on every request (a
    # twentieth of a record lookup). A connection the server dropped (a restart) fails its first statement
    # instead; SQLAlchemy then retires the whole pool, `run_read` asks again once on a fresh connection,
    # and anything else answers 503 `UPSTREAM_UNAVAILABLE` (docs/architecture.md, "Serving").
    # The held read connections (api/held_reads.py, at most `db_concurrency`, PostgreSQL only) stay checked
    # out of the pool, so the overflow has room for them beside the gated requests' own.
    pool_args: dict[str, Any] = {
        "statement_timeout_ms": settings.query_timeout_ms,
        "pool_size": settings.db_concurrency + 4,
        "max_overflow": settings.db_concurrency + 16,
        "pre_ping": False,
    }
    engine = make_engine(settings.database_url, **pool_args)
    replicas = [make_engine(url, **pool_args) for url in settings.database_replica_urls]
    held_reads = HeldReads()
    gate = DbGate(settings.db_concurrency, settings.db_wait_seconds)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Few threads: with anyio's default of 40 runnable threads contending for the GIL, the event
        # loop waited up to a switch interval (5 ms) per hand-over and throughput fell with concurrency.
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        if settings.warm_start:
            build_routes(app.router)
        # The lifespan owns the search backend: requests only read it; this thread runs the index's
        # jobs (api/search_index.py). Started in a thread: a small first catch-up reads the database.
        backend = await anyio.to_thread.run_sync(open_search, app.state)
        search_jobs = SearchJobs(engine, settings, backend)
        search_jobs.start()
        # Start-up leaves some 360,000 tracked objects (modules, routes, models) that live as long as the
        # process: frozen, the collector never walks them again. A full collection over them took about
        # 180 ms of CPU inside whichever request tipped it (docs/pages.md, "First renders").
        gc.collect()
        gc.freeze()
        yield
        await anyio.to_thread.run_sync(search_jobs.stop)
        if app.state.inline_conn is not None:
            app.state.inline_conn.close()
        held_reads.drop()
        engine.dispose()
        for replica in replicas:
            replica.dispose()

    app = FastAPI(
        title="regintel API",
        version=API_VERSION,
        lifespan=lifespan,
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        # FastAPI's native OpenTelemetry asks the three global providers on every request whether any is
        # configured; regintel exports Prometheus metrics and JSON logs instead (docs/deployment.md), and
        # the asking was 1-2% of an exact lookup's CPU.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.db_gate = gate
    app.state.replicas = replicas
    app.state.replica_turn = 0
    app.state.held_reads = held_reads
    # SQLite hands out pooled connections without I/O, so requests take them on the loop; a PostgreSQL
    # checkout may connect and ping, so it runs in a thread (api/deps.py).
    app.state.db_inline = engine.dialect.name == "sqlite"
    app.state.inline_conn = None  # deps.run_read's SQLite connection, opened on first use
    app.state.limiter = Limiter(settings)
    app.state.key_cache = KeyCache(ttl=settings.key_cache_seconds)
    app.state.key_loads = {}
    errors.install(app)
    for router in ROUTERS:
        app.include_router(router)
    # (path pattern, methods, literal path?) of every route, for the `Allow` header of 405 and OPTIONS
    # answers.
    app.state.route_methods = [
        (route.path_regex, set(route.methods), "{" not in route.path)
        for router in ROUTERS
        for route in router.routes
        if isinstance(route, Route) and route.methods
    ]
    app.add_middleware(
        RequestContext,
        gate=gate,
        close_in_thread=not app.state.db_inline,
        max_inflight=settings.max_inflight_requests,
    )
    # Outermost, so that every answer carries the CORS headers, errors and 401s included (browser clients
    # and the reconciliation spec 0.2 need them). Keys travel in a header or the query, never in cookies.
    # Only requests that send `Origin` pass through Starlette's CORSMiddleware (api/middleware.py).
    app.add_middleware(
        CorsForOrigins,
        allow_origins=settings.cors_allow_origins,
        allow_methods=["*"],
        allow_headers=["*"],
        expose_headers=EXPOSED_HEADERS,
        max_age=600,
    )

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app, settings.base_url, settings.allowed_purposes)
            declare_plans(app.openapi_schema, settings)  # the deployment's plans (areas/accounts/billing.py)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app
