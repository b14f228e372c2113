"""Routes of the legal-records area: Slovak court decisions (spec 4.5) and a company's antitrust cases,
integrated permits, Czech collection-of-laws entries and locations (spec 4.4); the public statistics
feeds `amo-cases` and `ipkz-companies` (spec 4.7). Thin: parse, call a service, wrap."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api import stats_feeds
from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, DbConn
from regintel.api.envelope import Envelope, ok
from regintel.api.paths import IsoDate
from regintel.api.routing import StrictRoute
from regintel.errors import ValidationFailed

from . import service
from .schemas import AntitrustCase, Decision, DecisionSummary, Environmental, Location, SbirkaEntry

justice_router = APIRouter(prefix="/api/v1/justice", tags=["Justice"], route_class=StrictRoute)
company_router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)

MAX_WINDOW = 10_000
Page = Annotated[int, Query(ge=1, le=10_000, description="Page number, from 1 (page × per_page ≤ 10,000)")]
PerPage = Annotated[int, Query(ge=1, le=100, description="Results per page, 1-100")]
_SOURCES = (
    "Imported copy of the publisher's open data, refreshed by `regintel import {source}` or the "
    "`legal_records.import` job (docs/legal-records.md)."
)


def _check(page: int, per_page: int, date_from: date | None, date_to: date | None) -> None:
    if page * per_page > MAX_WINDOW:
        raise ValidationFailed(
            "page × per_page is at most 10,000; narrow the filters",
            details=[{"field": "page", "in": "query", "message": "beyond the last page served"}],
        )
    if date_from and date_to and date_from > date_to:
        raise ValidationFailed(
            "date_from is after date_to",
            details=[{"field": "date_from", "in": "query", "message": "must be on or before date_to"}],
        )


@justice_router.get(
    "/decisions",
    response_model=Envelope[list[DecisionSummary]],
    summary="Slovak court decisions",
    description="Decisions of Slovak courts, newest first, from an imported copy of the Ministry of "
    "Justice's open data (the spec's proxy; " + _SOURCES.format(source="sk_court_decisions") + ") "
    "Filters combine: `ico` (a party's Slovak IČO, or the company linked to a named party), `court` "
    "(the publisher's court id, or part of its name, diacritics and case ignored), `date_from`/"
    "`date_to` (date given), `q` (words in the court, file reference, ECLI, field of law and the "
    "parties' names). Paginated: `meta.total`, `meta.page`, `meta.per_page`.",
)
def decisions(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    ico: Annotated[
        str | None, Query(min_length=1, max_length=20, description="Slovak IČO of a party")
    ] = None,
    court: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    date_from: Annotated[IsoDate | None, Query(description="Given on or after (ISO 8601 date)")] = None,
    date_to: Annotated[IsoDate | None, Query(description="Given on or before (ISO 8601 date)")] = None,
    q: Annotated[str | None, Query(min_length=1, max_length=200, description="Words to find")] = None,
    page: Page = 1,
    per_page: PerPage = 20,
) -> Response:
    _check(page, per_page, date_from, date_to)
    f = service.decision_filters(conn, ico, court, date_from, date_to, q)
    total, items = service.search_decisions(conn, f, page, per_page)
    return ok(request, items, total=total, page=page, per_page=per_page)


@justice_router.get(
    "/decision/{guid}",
    response_model=Envelope[Decision],
    summary="Court decision detail",
    description="One decision by its `guid`: court, judge, file reference and number, ECLI, date, "
    "form and nature, field of law, the regulations it cites, the legal persons it names (each with "
    "the company it is linked to, how, and the score), the document link and the source.",
)
def decision(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    guid: Annotated[str, Path(min_length=1, max_length=64, description="The decision's guid")],
) -> Response:
    return ok(request, service.decision_detail(conn, guid))


@company_router.get(
    "/{ico}/amo-cases",
    response_model=Envelope[list[AntitrustCase]],
    summary="Antitrust decisions",
    description="Decisions of the Slovak Antimonopoly Office (PMÚ) naming the company: `kind` "
    "`cartel`, `merger`, `abuse`, `state_aid` or `other`, the verdict, the fine with its currency, "
    "the dates given and final, and the later rulings (the Office's Council, courts). A party is "
    "linked by IČO, else by name and address at a resolver score of at least 0.9 (`match`). Newest "
    "first, at most 1,000. " + _SOURCES.format(source="sk_pmu"),
)
def amo_cases(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    items = service.amo_cases(conn, row)
    return ok(request, items, total=len(items), country=row["country"], national_id=row["national_id"])


@company_router.get(
    "/{ico}/environmental",
    response_model=Envelope[Environmental],
    summary="Integrated environmental permits",
    description="Installations the company operates under a Slovak integrated permit (IPKZ): "
    "activity category, address, coordinates when the register gives them, the permits and their "
    "changes, the Environmental Inspectorate's control counts, and links; `totals` sums them. "
    + _SOURCES.format(source="sk_ipkz"),
)
def environmental(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    data = service.environmental(conn, row)
    return ok(
        request,
        data,
        total=data["totals"]["installations"],
        country=row["country"],
        national_id=row["national_id"],
    )


@company_router.get(
    "/{ico}/cz-sbirka",
    response_model=Envelope[list[SbirkaEntry]],
    summary="Czech collection of laws entries",
    description="Acts of the Czech collection of laws (e-Sbírka) whose text names the company with "
    "its IČO (government decrees naming operators, concessions, …): citation, type, title, dates, "
    "the name as the act writes it and the words around it. Linked by IČO only. Newest first. "
    + _SOURCES.format(source="cz_esbirka"),
)
def cz_sbirka(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    items = service.cz_sbirka(conn, row)
    return ok(request, items, total=len(items), country=row["country"], national_id=row["national_id"])


@company_router.get(
    "/{ico}/locations",
    response_model=Envelope[list[Location]],
    summary="Points of operation",
    description="Where the company operates: its registered address, the IPKZ installations it runs "
    "(with the register's WGS 84 coordinates) and the addresses antitrust decisions give for it, "
    "each with its source and how it was matched (`identifier`, or `name` with the score). "
    "Coordinates only where a source gives them: nothing is geocoded.",
)
def locations(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    items = service.locations(conn, row)
    return ok(request, items, total=len(items), country=row["country"], national_id=row["national_id"])


stats_feeds.register(
    stats_feeds.StatsFeed(
        name="amo-cases",
        title="Antitrust decisions",
        description="The newest decisions of the Slovak Antimonopoly Office: kind, dates, fine with its "
        "currency and the first company linked to a party.",
        columns=service.AMO_COLUMNS,
        rows=service.amo_feed,
        # ASCII: the attribution is also sent as the X-Attribution header.
        attribution="regintel, from the Antimonopoly Office of the Slovak Republic (antimon.gov.sk)",
    )
)
stats_feeds.register(
    stats_feeds.StatsFeed(
        name="ipkz-companies",
        title="Companies with integrated environmental permits",
        description="Companies operating installations under a Slovak integrated permit (IPKZ), most "
        "installations first, with the Environmental Inspectorate's control counts.",
        columns=service.IPKZ_COLUMNS,
        rows=service.ipkz_feed,
        attribution="regintel, from the IPKZ register of the Slovak Ministry of Environment "
        "(enviroportal.sk)",
    )
)

ROUTERS = [justice_router, company_router]
