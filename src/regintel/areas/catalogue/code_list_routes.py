"""`/api/v1/code-lists`: the reference tables of spec 2.6 and 4.3. No key; limited per IP."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from regintel.api.deps import PublicLimit, ReadConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.catalogue import code_lists as service

router = APIRouter(
    prefix="/api/v1/code-lists", tags=["Code lists"], dependencies=[PublicLimit], route_class=StrictRoute
)

# Code lists change only when regintel is upgraded, so shared caches may keep them for an hour.
CACHE_HEADERS = {"Cache-Control": "public, max-age=3600"}

Limit = Annotated[int, Query(ge=1, le=10_000, description="Most items to return (1-10000)")]
Search = Annotated[
    str | None,
    Query(
        max_length=200,
        description="Substring of the code, `name_sk` or "
        "`name_en`, ignoring case and diacritics (`zilina` finds `Žilina`)",
    ),
]
ListName = Annotated[str, Path(alias="listName", description="List name, e.g. `nace` or `regions`")]


class CodeListOut(BaseModel):
    name: str = Field(description="Name used in paths: `nace`, `legal-forms`, `regions`, …")
    title: str
    description: str
    hierarchical: bool = Field(description="True when items form a tree inside the list")
    parent_list: str | None = Field(description="The list that `parent` codes of its items belong to")
    item_count: int
    source: str = Field(description="Publisher and edition the list was built from")
    licence: str
    version: str | None = Field(description="Data version; changes whenever the list's content may change")


class CodeListItemOut(BaseModel):
    code: str
    name_sk: str = Field(description="Slovak name, or the original name when there is none")
    name_en: str = Field(description="English name, or the original name when there is none")
    name_sk_fallback: bool = Field(description="True when `name_sk` is not Slovak but the original name")
    name_en_fallback: bool = Field(description="True when `name_en` is not English but the original name")
    parent: str | None = Field(description="Parent code (see the list's `parent_list`)")
    level: int | None = Field(description="Depth in the hierarchy where the list has levels (NACE, NUTS)")
    extra: dict[str, Any] | None = Field(description="List-specific fields: scheme, country, BIC, …")


ItemsEnvelope = Envelope[list[CodeListItemOut]]


def _items(request: Request, items: list[Any], total: int, limit: int) -> Response:
    return ok(request, [asdict(i) for i in items], total=total, limit=limit, headers=CACHE_HEADERS)


@router.get(
    "",
    response_model=Envelope[list[CodeListOut]],
    summary="List the code lists",
    description="The 7 code lists (NACE, legal forms, regions, districts, municipalities, countries, "
    "bank codes) with their source, licence, size and data version.",
)
def code_lists_index(request: Request, conn: ReadConn) -> Response:
    lists = service.list_code_lists(conn)
    return ok(request, [asdict(i) for i in lists], total=len(lists), headers=CACHE_HEADERS)


@router.get(
    "/bank-codes",
    response_model=ItemsEnvelope,
    summary="Bank codes",
    description="National bank codes coded `SK:0900`, with the bank's name and BIC in `extra`. "
    "`country` (ISO 3166-1 alpha-2, any case) keeps one country; an unknown country is a 422.",
)
def bank_codes(
    request: Request,
    conn: ReadConn,
    country: Annotated[str | None, Query(description="ISO 3166-1 alpha-2, e.g. `sk`")] = None,
    q: Search = None,
    limit: Limit = 5000,
) -> Response:
    parent = service.parse_country(country) if country is not None else None
    items, total = service.list_items(conn, "bank-codes", parent=parent, q=q, limit=limit)
    return _items(request, items, total, limit)


@router.get(
    "/countries",
    response_model=ItemsEnvelope,
    summary="Countries",
    description="ISO 3166-1 countries by alpha-2 code with English and Slovak names; alpha-3, "
    "numeric and official names in `extra`.",
)
def countries(request: Request, conn: ReadConn, q: Search = None, limit: Limit = 5000) -> Response:
    items, total = service.list_items(conn, "countries", parent=None, q=q, limit=limit)
    return _items(request, items, total, limit)


@router.get(
    "/{listName}",
    response_model=ItemsEnvelope,
    summary="Items of a code list",
    description="Items in code order. `parent` keeps the children of one code (a NACE division's "
    "groups, a kraj's districts), `q` matches a substring of the code or either name ignoring case "
    "and diacritics. `meta.total` counts all matches; at most `limit` are returned.",
)
def code_list_items(
    request: Request,
    conn: ReadConn,
    list_name: ListName,
    parent: Annotated[str | None, Query(description="Parent code, e.g. `62` or `5`")] = None,
    q: Search = None,
    limit: Limit = 5000,
) -> Response:
    items, total = service.list_items(conn, list_name, parent=parent, q=q, limit=limit)
    return _items(request, items, total, limit)


@router.get(
    "/{listName}/{code}",
    response_model=Envelope[CodeListItemOut],
    summary="One code",
    description="One item of a list by its code, in any case (`sk:0900`). 404 when the list or "
    "the code does not exist.",
)
def code_list_item(
    request: Request,
    conn: ReadConn,
    list_name: ListName,
    code: Annotated[str, Path(description="Item code, e.g. `62.01`, `SK:112`, `517402`")],
) -> Response:
    return ok(request, asdict(service.get_item(conn, list_name, code)), headers=CACHE_HEADERS)
