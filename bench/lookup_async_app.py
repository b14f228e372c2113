"""The regintel app plus two twins of the exact lookup, for bench_lookup.py's sync/async comparison
(STYLE.md: measure whether the microsecond query should run inline on the event loop).

`/bench/lookup-def` is a plain `def` handler: FastAPI runs it in the thread pool (the dependencies are
`async def`, see api/deps.py). `/bench/lookup-async` is the same handler as `async def`, so the whole
request runs on the event loop, the database reads included. Both do exactly what the
`/api/v1/companies/lookup` route does with `id` and `country`.

Served like regintel (`uvicorn --app-dir bench lookup_async_app:app`, settings from the environment).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from sqlalchemy.engine import Connection

from regintel.api.app import create_app
from regintel.api.deps import ApiKey, DbConn
from regintel.api.envelope import ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as svc
from regintel.config import load_settings

app = create_app(load_settings())
router = APIRouter(route_class=StrictRoute)  # strict query parameters, as every regintel router


def _lookup(request: Request, conn: Connection, id: str, country: str | None) -> Response:
    row = svc.resolve_ico(conn, id, country)
    record = svc.company_record(conn, row)
    return ok(request, record, data_as_of=svc.data_as_of(record))


@router.get("/bench/lookup-async")
async def lookup_async(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    id: Annotated[str, Query(max_length=40)],
    country: Annotated[str | None, Query(max_length=2)] = None,
) -> Response:
    return _lookup(request, conn, id, country)


@router.get("/bench/lookup-def")
def lookup_def(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    id: Annotated[str, Query(max_length=40)],
    country: Annotated[str | None, Query(max_length=2)] = None,
) -> Response:
    return _lookup(request, conn, id, country)


app.router.routes[:0] = router.routes
