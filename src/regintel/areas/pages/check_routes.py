"""Public API routes of the public face (spec 4.7): the company check (JSON, view counter, badges, social
images), the most viewed, the rankings and the comparison. docs/pages.md."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import Connection

from regintel.api.deps import PublicLimit, ReadConn
from regintel.api.envelope import Envelope, ok
from regintel.api.result_cache import get_result_cache
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.errors import NotFound, ValidationFailed
from regintel.render.tabular import to_csv

from . import html, i18n, renders, service
from .i18n import N_
from .route_common import (
    HOUR,
    MINUTE,
    QUARTER,
    SVG,
    Country,
    Currency,
    Ico,
    Lang,
    RankingKey,
    badge_svg,
    cached_body,
    lang_args,
    upper_country,
    view_counter,
)
from .schemas import (
    Check,
    Comparison,
    RankedCompany,
    Ranking,
    RankingIndexEntry,
    ViewStats,
)

public_router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)

# -- public check ------------------------------------------------------------------------------------------


@public_router.get(
    "/check/{ico}.json",
    response_model=Envelope[Check],
    summary="Compliance check data",
    description="Register status, insolvency, credit grade, NIS2 scope, screening hits and the "
    "latest statement of one company, without a key. Values another part of the service has "
    "not computed are null (credit grade) or say so (security: not assessed). Counts as a view "
    "of the company. Cached 1 h.",
)
def check_json(request: Request, ico: Ico, conn: ReadConn, country: Country = None) -> Response:
    row = companies_svc.resolve_ico(conn, ico, country)
    data = service.check(conn, row)
    view_counter(request).add(row["id"])
    return ok(request, data, headers={"Cache-Control": HOUR})


@public_router.get(
    "/check/{ico}/stats",
    response_model=Envelope[ViewStats],
    summary="View counter",
    description="How often the company's public check page and data were viewed. Views are "
    "counted in memory and written in batches (every 200 views or 10 s), so the figure "
    "includes those not yet written (`pending`). Cached 1 min.",
)
def check_stats(request: Request, ico: Ico, conn: ReadConn, country: Country = None) -> Response:
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(
        request, service.view_stats(conn, row, view_counter(request)), headers={"Cache-Control": MINUTE}
    )


def _svg_route(kind: str, summary: str, description: str) -> None:
    def handler(request: Request, ico: Ico, conn: ReadConn, country: Country = None) -> Response:
        row = companies_svc.resolve_ico(conn, ico, country)
        body = service.og_svg(conn, row) if kind == "og" else badge_svg(conn, row, kind)
        return cached_body(request, body.encode(), SVG, HOUR)

    handler.__name__ = f"check_{kind.replace('-', '_')}_svg"
    public_router.add_api_route(
        f"/check/{{ico}}/{kind}.svg",
        handler,
        methods=["GET"],
        summary=summary,
        description=description + " Cached 1 h, with an ETag.",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {}}}},
    )


_svg_route(
    "badge",
    "Status badge",
    "Register status: `active`, `dissolved`, … or the insolvency state "
    "(`bankruptcy`, `restructuring`, `liquidation`).",
)
_svg_route(
    "credit-badge",
    "Credit grade badge",
    "A+, A, B, C, D, E, F from the credit model, or `not rated` when the model withholds a grade.",
)
_svg_route(
    "nis2-badge",
    "NIS2 badge",
    "ESSENTIAL, IMPORTANT, IN SCOPE, OUT OF SCOPE, or NOT DETERMINED when the facts leave the category open.",
)
_svg_route(
    "security-badge",
    "Security badge",
    "The stored passive-check score of the company's published domains "
    "(`NN/100`), or `not assessed` when none is stored. A badge never queues a check.",
)
_svg_route("og", "Social preview image (SVG)", "The 1200x630 social image.")


@public_router.get(
    "/check/{ico}/og.png",
    summary="Social preview image (PNG)",
    response_class=Response,
    responses={200: {"content": {"image/png": {}}}},
    description="The 1200x630 social image, rendered from `og.svg` by resvg with DejaVu Sans "
    "(Latin with Slovak, Polish and other diacritics, Greek, Cyrillic). Cached 1 h, with an ETag.",
)
def check_png(request: Request, ico: Ico, conn: ReadConn, country: Country = None) -> Response:
    row = companies_svc.resolve_ico(conn, ico, country)
    source = service.og_svg(conn, row)
    etag = '"' + hashlib.sha256(source.encode()).hexdigest()[:32] + '"'
    headers = {"Cache-Control": HOUR, "ETag": etag}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    png = renders.og_png(conn, request.app.state.engine, source)
    return Response(png, media_type="image/png", headers=headers)


# -- most viewed, rankings, compare ------------------------------------------------------------------------


@public_router.get(
    "/most-viewed",
    response_model=Envelope[list[RankedCompany]],
    summary="Most viewed companies",
    description="Companies whose public check page was viewed most (written view counts). At most "
    "100; `country` filters. Cached 15 min.",
)
def most_viewed(
    request: Request, conn: ReadConn, country: Country = None, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> Response:
    items = service.most_viewed(conn, upper_country(country), limit)
    return ok(request, items, total=len(items), headers={"Cache-Control": QUARTER})


@public_router.get(
    "/rankings.json",
    response_model=Envelope[list[RankingIndexEntry]],
    summary="Rankings index",
    description="The ranking keys, with their JSON and CSV addresses. Cached 15 min.",
)
def rankings_index(request: Request) -> Response:
    items = [
        {
            "key": k,
            "description": d,
            "json_url": f"/api/v1/public/rankings/{k}.json",
            "csv_url": f"/api/v1/public/rankings/{k}.csv",
            "available": True,
        }
        for k, d in service.RANKINGS.items()
    ]
    return ok(request, items, headers={"Cache-Control": QUARTER})


@public_router.get(
    "/rankings/{key}.json",
    response_model=Envelope[Ranking],
    summary="Ranking",
    description="One ranking, best first: `largest` (revenue of the latest statement, in one "
    "currency), `public-contracts` (public-contract value as supplier, per currency, from totals "
    "precomputed by the job `pages.contract-totals`; `as_of` says when), `shell-addresses`, "
    "`most-viewed`. `limit` at most 100. Cached 15 min.",
)
def ranking_json(
    request: Request,
    key: RankingKey,
    conn: ReadConn,
    country: Country = None,
    currency: Currency = "EUR",
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
) -> Response:
    items = service.ranking(
        conn, key, upper_country(country), currency.upper(), limit, get_result_cache(request)
    )
    return ok(
        request,
        {
            "key": key,
            "description": service.RANKINGS[key],
            "as_of": service.ranking_as_of(conn, key),
            "items": items,
        },
        total=len(items),
        headers={"Cache-Control": QUARTER},
    )


@public_router.get(
    "/rankings/{key}.csv",
    summary="Ranking (CSV)",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}}},
    description="The top 100 of a ranking as CSV (formula-injection safe). Cached 15 min.",
)
def ranking_csv(
    request: Request, key: RankingKey, conn: ReadConn, country: Country = None, currency: Currency = "EUR"
) -> Response:
    cache = get_result_cache(request)
    items = service.ranking(conn, key, upper_country(country), currency.upper(), 100, cache)
    columns = [k for k in (items[0] if items else {"rank": 0}) if k not in ("sample",)]
    rows = [{k: ("; ".join(v) if isinstance(v, list) else v) for k, v in i.items()} for i in items]
    body = to_csv(rows, columns, preamble=[f"# regintel ranking {key}: {service.RANKINGS.get(key, '')}"])
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={
            "Cache-Control": QUARTER,
            "Content-Disposition": f'attachment; filename="ranking-{key}.csv"',
        },
    )


CompaniesParam = Annotated[
    str | None,
    Query(
        max_length=300,
        description="Two to five companies, comma-separated, "
        "each `country:identifier` (or an identifier alone: SK first)",
    ),
]


def _compare_rows(conn: Connection, spec: str) -> list[Mapping[str, Any]]:
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if not 2 <= len(parts) <= 5:
        raise ValidationFailed("Compare two to five companies", details={"companies": len(parts)})
    rows = []
    for part in parts:
        cc, _, ico = part.rpartition(":")
        if cc and not re.fullmatch("[A-Za-z]{2}", cc):
            raise ValidationFailed("A company is `country:identifier`", details={"company": part})
        rows.append(companies_svc.resolve_ico(conn, ico, cc or None))
    return rows


def _comparison(conn: Connection, spec: str | None) -> list[dict[str, Any]]:
    if not spec:
        raise ValidationFailed("Give `companies`: two to five, comma-separated `country:identifier`")
    return service.compare(conn, _compare_rows(conn, spec))


# (label, value of a company's check data); `tr` is the page's gettext, for the values that are words
COMPARE_ROWS: list[tuple[str, Callable[[dict[str, Any], Callable[[str], str]], Any]]] = [
    (N_("Country"), lambda c, tr: c["country"]),
    (N_("Identifier"), lambda c, tr: c["national_id"]),
    (N_("Status"), lambda c, tr: c["status"]),
    (N_("Insolvency"), lambda c, tr: c["insolvency"]["state"]),
    (N_("Legal form"), lambda c, tr: c["legal_form"] or "—"),
    (N_("City"), lambda c, tr: c["city"] or "—"),
    (N_("Founded"), lambda c, tr: c["founded_on"] or "—"),
    (N_("NACE"), lambda c, tr: c["nace_primary"] or "—"),
    (N_("Credit grade"), lambda c, tr: c["credit_grade"] or tr("not rated")),
    (N_("NIS2"), lambda c, tr: c["nis2"]["badge"]),
    (N_("Screening hits"), lambda c, tr: c["sanctions"]["hits"]),
    (
        N_("Revenue"),
        lambda c, tr: (
            f"{html.money(c['financials']['revenue'])} {c['financials']['currency']} "
            f"({c['financials']['year']})"
            if c["financials"]
            else "—"
        ),
    ),
    (N_("Employees"), lambda c, tr: (c["financials"] or {}).get("employees") or "—"),
]


def _compare_page(
    request: Request, conn: Connection, companies: str | None, lang: str | None
) -> HTMLResponse:
    language = lang_args(request, lang, "en")
    items, error = [], None
    if companies:
        try:
            items = _comparison(conn, companies)
        except (ValidationFailed, NotFound) as exc:
            error = exc.message
    json_url = str(
        request.url.replace(path=request.url.path.removesuffix("/") + ".json").remove_query_params("lang")
    )
    return html.page(
        "compare.html",
        title=i18n.gettext(language["lang"], "Compare companies"),
        query=companies,
        items=items,
        error=error,
        rows=COMPARE_ROWS,
        tr=i18n.translations(language["lang"]).gettext,
        json_url=json_url,
        status_code=200 if not error else 422,
        **language,
    )


@public_router.get(
    "/compare",
    response_class=HTMLResponse,
    summary="Company comparison (page)",
    description="Two to five companies side by side (HTML; the same data as `compare.json`; `lang`: sk "
    "or en, else the browser's Accept-Language, else English).",
)
def compare_page(
    request: Request, conn: ReadConn, companies: CompaniesParam = None, lang: Lang = None
) -> HTMLResponse:
    return _compare_page(request, conn, companies, lang)


@public_router.get(
    "/compare-companies",
    response_class=HTMLResponse,
    summary="Company comparison (page)",
    description="The same as `/compare`.",
)
def compare_companies_page(
    request: Request, conn: ReadConn, companies: CompaniesParam = None, lang: Lang = None
) -> HTMLResponse:
    return _compare_page(request, conn, companies, lang)


@public_router.get(
    "/compare.json",
    response_model=Envelope[Comparison],
    summary="Company comparison",
    description="Two to five companies side by side: each company's check data. Cached 1 h.",
)
def compare_json(request: Request, conn: ReadConn, companies: CompaniesParam = None) -> Response:
    return ok(request, {"companies": _comparison(conn, companies)}, headers={"Cache-Control": HOUR})


@public_router.get(
    "/compare-companies.json",
    response_model=Envelope[Comparison],
    summary="Company comparison",
    description="The same as `/compare.json`.",
)
def compare_companies_json(request: Request, conn: ReadConn, companies: CompaniesParam = None) -> Response:
    return ok(request, {"companies": _comparison(conn, companies)}, headers={"Cache-Control": HOUR})
