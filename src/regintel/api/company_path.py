"""The company a `/companies/{ico}` route names: `{ico}` and the optional `?country=`, resolved once by
a dependency instead of in every handler (`areas.companies.service.resolve_ico`: 422 malformed, 404 unknown,
409 ambiguous without a country)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request
from starlette.concurrency import run_in_threadpool

from regintel.api.deps import DbConn
from regintel.areas.companies.service import resolve_ico

Ico = Annotated[str, Path(min_length=1, max_length=40, description="National identifier")]
CountryQuery = Annotated[
    str | None,
    Query(
        min_length=2,
        max_length=2,
        description="ISO 3166-1 alpha-2, any case. Without it the identifier is looked up wherever it is "
        "well-formed, SK first; several matches answer 409 AMBIGUOUS_IDENTIFIER.",
    ),
]


async def company_row(
    request: Request, ico: Ico, conn: DbConn, country: CountryQuery = None
) -> Mapping[str, Any]:
    # On SQLite a couple of indexed reads cost less than the thread hop (see deps.run_read); the
    # request's connection is not yet in use by the handler, which runs after its dependencies.
    if request.app.state.db_inline:
        return resolve_ico(conn, ico, country)
    return await run_in_threadpool(resolve_ico, conn, ico, country)


CompanyRow = Annotated[Mapping[str, Any], Depends(company_row)]
