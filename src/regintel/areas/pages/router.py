"""Routes of the public face (spec 4.7, the root-level pages after it, and the widget of 4.5). Thin: parse,
call the service, render (docs/pages.md)."""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

import anyio
import orjson
from fastapi import APIRouter, Body, Depends, FastAPI, Path, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse
from sqlalchemy import Connection

from regintel.api.deps import ApiKey, PublicLimit, ReadConn, public_base, public_limit, require_key
from regintel.api.envelope import Envelope, ok
from regintel.api.result_cache import get_result_cache
from regintel.api.routing import StrictRoute
from regintel.config import Settings
from regintel.errors import NotFound, ValidationFailed
from regintel.render.tabular import to_csv
from regintel.services import companies as companies_svc

from . import html, i18n, landing_routes, queries, regions, renders, service, technologies, texts, widget
from .i18n import N_
from .schemas import (
    Check,
    Comparison,
    Coverage,
    RankedCompany,
    Ranking,
    RankingIndexEntry,
    ViewStats,
    WidgetData,
    WidgetToken,
    WidgetTokenRequest,
)

public_router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)
pages_router = APIRouter(tags=["Pages"], dependencies=[PublicLimit], route_class=StrictRoute)


@asynccontextmanager
async def _pages_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """At start-up the templates are compiled and one company's check is built, so that no first request
    pays for compiling them. Views still pending when the
    process stops are written then, not dropped: and no timer of a stopped app writes into a database that
    has moved on (tests share one PostgreSQL database)."""
    if app.state.settings.warm_start:
        html.compile_templates()
        await anyio.to_thread.run_sync(service.warm_queries, app.state.engine)
    yield
    counter: service.ViewCounter | None = getattr(app.state, "page_view_counter", None)
    if counter is not None:
        await anyio.to_thread.run_sync(counter.flush)


widget_router = APIRouter(
    prefix="/api/v1", tags=["Widget"], route_class=StrictRoute, lifespan=_pages_lifespan
)
ROUTERS = [public_router, landing_routes.router, widget_router, pages_router]

HOUR = "public, max-age=3600"  # spec 8: check JSON and images, 1 h
QUARTER = "public, max-age=900"  # spec 8: rankings JSON (and stats), 15 min
MINUTE = "public, max-age=60"
SVG = "image/svg+xml; charset=utf-8"
Ico = Annotated[str, Path(min_length=1, max_length=40, description="National identifier")]
Country = Annotated[
    str | None,
    Query(
        min_length=2,
        max_length=2,
        pattern="^[A-Za-z]{2}$",
        description="ISO 3166-1 alpha-2, any case (default: SK first)",
    ),
]
Lang = Annotated[
    i18n.Lang | None,
    Query(description="Page language, `sk` or `en`; without it the browser's Accept-Language decides"),
]
BADGES = {
    "badge": N_("Register status"),
    "credit-badge": N_("Credit grade"),
    "nis2-badge": N_("NIS2 scope"),
    "security-badge": N_("Security posture"),
}


def _lang(request: Request, asked: str | None, default: i18n.Lang) -> dict[str, Any]:
    """The language arguments of `html.page` for a page whose path does not fix its language."""
    lang, by_header = i18n.choose(request, asked, default)
    return {"lang": lang, "by_header": by_header, "alternate": i18n.alternates(request, public_base(request))}


def _counter(request: Request) -> service.ViewCounter:
    state = request.app.state
    counter = getattr(state, "page_view_counter", None)
    if counter is None:
        counter = state.page_view_counter = service.ViewCounter(state.engine)
    return counter


def _cache(request: Request) -> dict[str, Any]:
    state = request.app.state
    if not hasattr(state, "pages_cache"):
        state.pages_cache = {}
    # mypy, ignored below: app.state is untyped; pages_cache is the dict set just above
    return state.pages_cache  # type: ignore[no-any-return]


def _cached(request: Request, body: bytes, media_type: str, cache: str) -> Response:
    """A body with a strong ETag; 304 when the client already holds it."""
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"Cache-Control": cache, "ETag": etag}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def _badge(conn: Connection, row: Mapping[str, Any], kind: str) -> str:
    if kind == "badge":
        return service.status_badge(row)
    if kind == "credit-badge":
        return service.credit_badge(conn, row)
    if kind == "nis2-badge":
        return service.nis2_badge(conn, row)
    return service.security_badge(conn, row)


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
    _counter(request).add(row["id"])
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
    return ok(request, service.view_stats(conn, row, _counter(request)), headers={"Cache-Control": MINUTE})


def _svg_route(kind: str, summary: str, description: str) -> None:
    def handler(request: Request, ico: Ico, conn: ReadConn, country: Country = None) -> Response:
        row = companies_svc.resolve_ico(conn, ico, country)
        body = service.og_svg(conn, row) if kind == "og" else _badge(conn, row, kind)
        return _cached(request, body.encode(), SVG, HOUR)

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


def _country(value: str | None) -> str | None:
    return value.upper() if value else None


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
    items = service.most_viewed(conn, _country(country), limit)
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


RankingKey = Annotated[
    str, Path(max_length=40, description="`largest`, `public-contracts`, `shell-addresses`, `most-viewed`")
]
Currency = Annotated[
    str,
    Query(
        pattern="^[A-Za-z]{3}$",
        description="`largest`, `public-contracts`: rank "
        "values in this currency (ISO 4217; default EUR; nothing is converted)",
    ),
]


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
    items = service.ranking(conn, key, _country(country), currency.upper(), limit)
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
    key: RankingKey, conn: ReadConn, country: Country = None, currency: Currency = "EUR"
) -> Response:
    items = service.ranking(conn, key, _country(country), currency.upper(), 100)
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
    language = _lang(request, lang, "en")
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


# -- root-level pages --------------------------------------------------------------------------------------


def _cc(cc: str) -> str:
    if not re.fullmatch("[A-Za-z]{2}", cc):
        raise ValidationFailed("A country is two letters (ISO 3166-1 alpha-2)", details={"country": cc})
    return cc.upper()


@pages_router.get(
    "/",
    response_class=HTMLResponse,
    summary="Landing page",
    description="What regintel is, live counts, links to the documentation and how to get a key "
    "(`lang`: sk or en; without it the browser's Accept-Language decides, else English).",
)
def landing(request: Request, conn: ReadConn, lang: Lang = None) -> HTMLResponse:
    language = _lang(request, lang, "en")
    return html.page(
        "landing.html",
        title=i18n.gettext(language["lang"], "Open European company register intelligence"),
        coverage=service.coverage(conn, _cache(request)),
        canonical=f"{public_base(request)}/?lang={language['lang']}",
        **language,
    )


@pages_router.get(
    "/firma/{cc}/{ico}",
    response_class=HTMLResponse,
    summary="Company page",
    description="A company's public page: register record, badges, social image and schema.org "
    "Organization data. Counts as a view.",
)
def company_page(
    request: Request, cc: Annotated[str, Path(max_length=8)], ico: Ico, conn: ReadConn, lang: Lang = None
) -> HTMLResponse:
    row = companies_svc.resolve_ico(conn, ico, _cc(cc))
    language = _lang(request, lang, "sk" if row["country"] in ("SK", "CZ") else "en")
    tr = i18n.translations(language["lang"])
    data = service.check(conn, row)
    counter = _counter(request)
    counter.add(row["id"])
    views = service.view_stats(conn, row, counter)["views"]
    base = public_base(request)
    canonical = f"{base}/firma/{row['country'].lower()}/{row['national_id']}"
    ld: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": row["name"],
        "url": canonical,
        "identifier": {"@type": "PropertyValue", "propertyID": "national_id", "value": row["national_id"]},
    }
    if row["lei"]:
        ld["leiCode"] = row["lei"]
    if row["vat_id"]:
        ld["vatID"] = row["vat_id"]
    if row["founded_on"]:
        ld["foundingDate"] = row["founded_on"].isoformat()
    if row["dissolved_on"]:
        ld["dissolutionDate"] = row["dissolved_on"].isoformat()
    if row["city"] or row["street"]:
        ld["address"] = {
            "@type": "PostalAddress",
            "streetAddress": row["street"],
            "addressLocality": row["city"],
            "postalCode": row["postal_code"],
            "addressCountry": row["country"],
        }
    description = tr.gettext(
        "%(name)s (%(country)s %(id)s): register status %(status)s, credit grade %(grade)s, NIS2 %(nis2)s."
    ) % {
        "name": row["name"],
        "country": row["country"],
        "id": row["national_id"],
        "status": data["status"],
        "grade": data["credit_grade"] or tr.gettext("not rated"),
        "nis2": data["nis2"]["badge"],
    }
    return html.page(
        "company.html",
        title=row["name"],
        c=data,
        description=description,
        canonical=f"{canonical}?lang={language['lang']}",
        base=base,
        views=views,
        api=f"/api/v1/public/check/{row['national_id']}",
        q=f"?country={row['country'].lower()}",
        jsonld=html.json_ld(ld),
        cache=HOUR,
        **language,
    )


@pages_router.get(
    "/firmy/{country}",
    response_class=HTMLResponse,
    summary="Companies of a country",
    description="A directory of a country's companies, 100 a page, keyset-paged by `after`.",
)
def directory(
    request: Request,
    country: Annotated[str, Path(max_length=8)],
    conn: ReadConn,
    after: Annotated[int, Query(ge=0, le=2**62)] = 0,
    lang: Lang = None,
) -> HTMLResponse:
    cc = _cc(country)
    language = _lang(request, lang, "sk")
    tr = i18n.translations(language["lang"])
    rows = [
        dict(r) | {"url": f"/firma/{cc.lower()}/{r['national_id']}?lang={language['lang']}"}
        for r in queries.companies_page(conn, cc, after, 100)
    ]
    next_url = (
        f"/firmy/{cc.lower()}?after={rows[-1]['id']}&lang={language['lang']}" if len(rows) == 100 else None
    )
    title = tr.gettext("Companies in %(country)s") % {"country": cc}
    return html.page(
        "table.html",
        title=title,
        heading=title,
        intro=tr.gettext("Every legal entity of the country's registers, in the order they were imported."),
        rows=rows,
        next_url=next_url,
        empty=tr.gettext("No companies of this country are loaded."),
        columns=[
            {"label": N_("Name"), "key": "name", "link": "url"},
            {"label": N_("Identifier"), "key": "national_id"},
            {"label": N_("City"), "key": "city"},
            {"label": N_("Legal form"), "key": "legal_form_name"},
            {"label": N_("Status"), "key": "status"},
        ],
        **language,
    )


@pages_router.get(
    "/najvacsie-firmy",
    response_class=HTMLResponse,
    summary="Largest companies",
    description="The 100 largest companies by revenue of their latest statement, in one currency.",
)
def largest_page(
    request: Request, conn: ReadConn, country: Country = None, currency: Currency = "EUR", lang: Lang = None
) -> HTMLResponse:
    return _ranking_page(request, conn, "largest", country, currency, lang)


@pages_router.get(
    "/rebricky/{key}",
    response_class=HTMLResponse,
    summary="Ranking page",
    description="A ranking as a page: `largest`, `public-contracts`, `shell-addresses`, `most-viewed`.",
)
def ranking_page(
    request: Request,
    key: RankingKey,
    conn: ReadConn,
    country: Country = None,
    currency: Currency = "EUR",
    lang: Lang = None,
) -> HTMLResponse:
    return _ranking_page(request, conn, key, country, currency, lang)


RANKING_COLUMNS = {
    "public-contracts": [
        {"label": N_("#"), "key": "rank", "num": True},
        {"label": N_("Company"), "key": "name", "link": "url"},
        {"label": N_("Country"), "key": "country"},
        {"label": N_("Contracts"), "key": "contracts", "num": True},
        {"label": N_("Total value"), "key": "total", "num": True},
        {"label": N_("Currency"), "key": "currency"},
    ],
    "largest": [
        {"label": N_("#"), "key": "rank", "num": True},
        {"label": N_("Company"), "key": "name", "link": "url"},
        {"label": N_("Country"), "key": "country"},
        {"label": N_("Year"), "key": "year"},
        {"label": N_("Revenue"), "key": "revenue", "num": True},
        {"label": N_("Currency"), "key": "currency"},
        {"label": N_("Employees"), "key": "employees", "num": True},
    ],
    "most-viewed": [
        {"label": N_("#"), "key": "rank", "num": True},
        {"label": N_("Company"), "key": "name", "link": "url"},
        {"label": N_("Country"), "key": "country"},
        {"label": N_("City"), "key": "city"},
        {"label": N_("Views"), "key": "views", "num": True},
    ],
    "shell-addresses": [
        {"label": N_("#"), "key": "rank", "num": True},
        {"label": N_("Address"), "key": "address"},
        {"label": N_("Country"), "key": "country"},
        {"label": N_("Companies"), "key": "companies", "num": True},
        {"label": N_("Examples"), "key": "examples"},
    ],
}


def _ranking_page(
    request: Request, conn: Connection, key: str, country: str | None, currency: str, lang: str | None
) -> HTMLResponse:
    items = service.ranking(conn, key, _country(country), currency.upper(), 100)
    language = _lang(request, lang, "sk")
    tr = i18n.translations(language["lang"])
    for item in items:
        if item.get("url"):
            item["url"] = f"{item['url']}?lang={language['lang']}"
        if "sample" in item:
            item["examples"] = ", ".join(n for n in item["sample"] if n)
    filters = [{"label": N_("Country"), "name": "country", "value": country, "max": 2}]
    if key in ("largest", "public-contracts"):
        filters.append({"label": N_("Currency"), "name": "currency", "value": currency.upper(), "max": 3})
    filters.append({"label": "lang", "name": "lang", "value": language["lang"], "hidden": True})
    intro, empty = tr.gettext(service.RANKINGS[key]) + ".", tr.gettext("Nothing to rank yet.")
    if key == "public-contracts":
        as_of = service.ranking_as_of(conn, key)
        computed = tr.gettext("Totals computed %(time)s UTC.")
        intro += " " + computed % {"time": f"{as_of:%Y-%m-%d %H:%M}"} if as_of else ""
        empty = tr.gettext(
            "No contract totals are computed: no imported contract with a value in this currency is linked "
            "to "
            "a company, or the job pages.contract-totals has not run yet."
        )
    return html.page(
        "table.html",
        title=tr.gettext(service.TITLES[key]),
        heading=tr.gettext(service.TITLES[key]),
        intro=intro,
        rows=items,
        columns=RANKING_COLUMNS[key],
        filters=filters,
        cache=QUARTER,
        empty=empty,
        links=[
            {"href": f"/api/v1/public/rankings/{key}.json", "label": "JSON"},
            {"href": f"/api/v1/public/rankings/{key}.csv", "label": "CSV"},
        ],
        **language,
    )


@pages_router.get(
    "/coverage.json",
    response_model=Envelope[Coverage],
    summary="Coverage",
    description="Which countries and sources are loaded, with entity counts. Cached 30 min.",
)
def coverage_json(request: Request, conn: ReadConn) -> Response:
    return ok(request, service.coverage(conn, _cache(request)), headers={"Cache-Control": html.PAGE_CACHE})


@pages_router.get(
    "/coverage",
    response_class=HTMLResponse,
    summary="Coverage (page)",
    description="Countries and sources with counts, as a page.",
)
def coverage_page(request: Request, conn: ReadConn, lang: Lang = None) -> HTMLResponse:
    cov = service.coverage(conn, _cache(request))
    language = _lang(request, lang, "en")
    tr = i18n.translations(language["lang"])
    rows = [
        dict(c) | {"url": f"/firmy/{c['country'].lower()}?lang={language['lang']}"} for c in cov["countries"]
    ]
    intro = tr.ngettext(
        "%(entities)s legal entities from %(sources)s source.",
        "%(entities)s legal entities from %(sources)s sources.",
        len(cov["sources"]),
    )
    return html.page(
        "table.html",
        title=tr.gettext("Coverage"),
        heading=tr.gettext("Coverage"),
        intro=intro % {"entities": html.money(cov["entities"]), "sources": len(cov["sources"])},
        rows=rows,
        empty=tr.gettext("No data is loaded yet."),
        columns=[
            {"label": N_("Country"), "key": "country", "link": "url"},
            {"label": N_("Entities"), "key": "entities", "num": True},
            {"label": N_("Active"), "key": "active", "num": True},
        ],
        links=[
            {"href": "/coverage.json", "label": "JSON"},
            {"href": "/api/v1/public/data-sources", "label": N_("Data sources and licences")},
        ],
        **language,
    )


XML = "application/xml; charset=utf-8"


@pages_router.get(
    "/sitemap-firma.xml",
    response_class=Response,
    summary="Sitemap index",
    responses={200: {"content": {"application/xml": {}}}},
    description="The sitemap index: the hot sitemap and one sitemap per 50,000 company ids.",
)
def sitemap_index(request: Request, conn: ReadConn) -> Response:
    body = "".join(service.sitemap_index(public_base(request), service.sitemap_pages(conn)))
    return Response(body, media_type=XML, headers={"Cache-Control": HOUR})


@pages_router.get(
    "/sitemap-firma-hot.xml",
    response_class=Response,
    summary="Recently updated companies",
    responses={200: {"content": {"application/xml": {}}}},
    description="The 1,000 most recently updated company pages.",
)
def sitemap_hot(request: Request, conn: ReadConn) -> Response:
    rows = [
        (r["id"], r["country"].lower(), r["national_id"], r["updated_at"])
        for r in queries.recently_updated(conn, 1000)
    ]
    body = "".join(service.sitemap_urls(public_base(request), rows))
    return Response(body, media_type=XML, headers={"Cache-Control": QUARTER})


@pages_router.get(
    "/sitemap-firma-{n}.xml",
    response_class=Response,
    summary="Company sitemap page",
    responses={200: {"content": {"application/xml": {}}}},
    description="Company pages with ids in the page's 50,000 range. Made once per data version (streamed "
    "from the database the first time) and then served as stored, gzip-compressed when the client accepts "
    "it. Cached 1 h.",
)
def sitemap_page(request: Request, n: Annotated[int, Path(ge=1, le=10**6)], conn: ReadConn) -> Response:
    if n > service.sitemap_pages(conn):
        raise NotFound(f"There is no sitemap page {n}")
    base, version = public_base(request), renders.current_version(conn)
    headers = {"Cache-Control": HOUR, "Vary": "Accept-Encoding"}
    stored = renders.stored_sitemap(conn, n, base, version)
    if stored is not None:
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            return Response(stored, media_type=XML, headers=headers | {"Content-Encoding": "gzip"})
        return Response(gzip.decompress(stored), media_type=XML, headers=headers)
    low = (n - 1) * service.SITEMAP_URLS + 1
    rows = queries.sitemap_rows(conn, low, low + service.SITEMAP_URLS)  # read now: the connection closes
    chunks = service.sitemap_urls(base, rows)
    body = renders.keep_sitemap(request.app.state.engine, n, base, version, chunks)
    return StreamingResponse(body, media_type=XML, headers=headers)


@pages_router.get(
    "/badge/{cc}/{ico}.svg",
    response_class=Response,
    summary="Company badge",
    responses={200: {"content": {"image/svg+xml": {}}}},
    description="The register-status badge of a company by country and identifier. Cached 1 h.",
)
def root_badge(
    request: Request, cc: Annotated[str, Path(max_length=8)], ico: Ico, conn: ReadConn
) -> Response:
    row = companies_svc.resolve_ico(conn, ico, _cc(cc))
    return _cached(request, service.status_badge(row).encode(), SVG, HOUR)


@pages_router.get(
    "/badge-generator",
    response_class=HTMLResponse,
    summary="Badge generator",
    description="Pick a company; get the badges and the HTML and Markdown to embed them.",
)
def badge_generator(
    request: Request,
    conn: ReadConn,
    cc: Annotated[str | None, Query(pattern="^[A-Za-z]{2}$")] = None,
    ico: Annotated[str | None, Query(max_length=40)] = None,
    lang: Lang = None,
) -> HTMLResponse:
    language = _lang(request, lang, "en")
    company, badges, error, page_url = None, [], None, None
    if ico:
        try:
            company = companies_svc.resolve_ico(conn, ico, _cc(cc) if cc else None)
        except (NotFound, ValidationFailed) as exc:
            error = exc.message
    if company is not None:
        q = f"?country={company['country'].lower()}"
        page_url = f"/firma/{company['country'].lower()}/{company['national_id']}?lang={language['lang']}"
        badges = [
            {"label": label, "url": f"/api/v1/public/check/{company['national_id']}/{kind}.svg{q}"}
            for kind, label in BADGES.items()
        ]
    return html.page(
        "badge_generator.html",
        title=i18n.gettext(language["lang"], "Badge generator"),
        cc=cc,
        ico=ico,
        company=company,
        badges=badges,
        error=error,
        page=page_url,
        base=public_base(request),
        status_code=404 if error and company is None else 200,
        **language,
    )


def _region_counts(request: Request, conn: Connection) -> list[dict[str, Any]]:
    return regions.counts(conn, get_result_cache(request))


@pages_router.get(
    "/maps/{name}.geojson",
    summary="Region map (GeoJSON)",
    response_class=Response,
    responses={200: {"content": {"application/geo+json": {}}}},
    description="NUTS regions with company counts (`companies`, `active`) as a GeoJSON "
    "FeatureCollection (RFC 7946, WGS 84): `nuts3` (Slovakia and Czechia), `nuts3-sk`, `nuts3-cz`, "
    "`nuts3-fr`, `nuts3-ro`, `nuts3-ch`, `nuts3-bg`, `nuts3-lt` (NUTS 3) and `nuts2-at`, `nuts2-be`, "
    "`nuts2-dk` (NUTS 2, the sums of their NUTS 3 counts). Geometry: Natural Earth admin-1 units (public "
    "domain), which are exactly those countries' NUTS regions; other countries have no bundled geometry "
    "(404). Cached 1 h, with an ETag.",
)
def map_geojson(request: Request, name: Annotated[str, Path(max_length=40)], conn: ReadConn) -> Response:
    doc = regions.feature_collection(name, _region_counts(request, conn))
    return _cached(request, orjson.dumps(doc), "application/geo+json", HOUR)


@pages_router.get(
    "/heatmap",
    response_class=HTMLResponse,
    summary="Company heat map",
    description="Companies per NUTS region as a map drawn on the server (inline SVG, no script) with the "
    "same figures as a table: Slovakia and Czechia by default; `country` one of the other mapped markets "
    "(FR, RO, CH, BG, LT by NUTS 3, AT, BE, DK by NUTS 2). For a country without a bundled map the page says "
    "so and shows its NUTS 3 counts as a table. `lang`: sk or en.",
)
def heatmap(request: Request, conn: ReadConn, country: Country = None, lang: Lang = None) -> HTMLResponse:
    language = _lang(request, lang, "sk")
    code, tr = language["lang"], i18n.translations(language["lang"])
    t, cc = texts.HEATMAP[code], _country(country)
    items = _region_counts(request, conn)
    drawn = (
        regions.svg_regions(items, (cc,) if cc else ("SK", "CZ"))
        if cc is None or cc in regions.LEVELS
        else None
    )
    place = {"country": i18n.country_name(cc, code), "level": regions.LEVELS.get(cc, 3)} if cc else {}
    intro = t["intro"] if cc is None else tr.gettext(HEATMAP_INTRO) % place
    return html.page(
        "heatmap.html",
        title=t["heading"] + (f" · {place['country']}" if cc else ""),
        heading=t["heading"] + (f": {place['country']}" if cc else ""),
        intro=intro,
        map=drawn,
        maps=_map_links(cc, code),
        not_drawn=", ".join(f"{r['name']} ({r['code']})" for r in drawn["regions"] if not r["d"])
        if drawn
        else "",
        no_map=tr.gettext(NO_MAP) % place if drawn is None else None,
        rows=sorted((r for r in items if r["country"] == cc), key=lambda r: r["nuts_id"]),
        attribution=regions.ATTRIBUTION,
        t=t,
        **language,
    )


HEATMAP_INTRO = N_(
    "Legal entities per NUTS %(level)s region of %(country)s, by the registered address. A darker colour "
    "means more companies."
)
NO_MAP = N_(
    "There is no region map of %(country)s: its bundled admin-1 boundaries are not its NUTS regions one to "
    "one, so they cannot be drawn as such. Its companies per NUTS 3 region are in the table."
)


def _map_links(current: str | None, lang: str) -> list[dict[str, Any]]:
    """The heat map's other maps: Slovakia and Czechia together, then each mapped market."""
    links = [{"label": "SK + CZ", "href": f"/heatmap?lang={lang}", "current": current is None}]
    for cc in sorted(c for c in regions.LEVELS if c not in ("SK", "CZ")):
        links.append(
            {"label": cc, "href": f"/heatmap?country={cc.lower()}&lang={lang}", "current": cc == current}
        )
    return links


@pages_router.get(
    "/firmy-kraj",
    response_class=HTMLResponse,
    summary="Companies by region",
    description="Companies and active companies per NUTS 3 region (every country whose records carry "
    "a NUTS 3 code), with the region names of NUTS 2021; `country` filters, `lang` sk or en.",
)
def by_region(request: Request, conn: ReadConn, country: Country = None, lang: Lang = None) -> HTMLResponse:
    language = _lang(request, lang, "sk")
    t = texts.REGIONS[language["lang"]]
    cc = _country(country)
    rows = [
        dict(r)
        | {
            "url": f"/heatmap?country={r['country'].lower()}&lang={language['lang']}"
            if r["country"] in regions.LEVELS
            else None
        }
        for r in _region_counts(request, conn)
        if cc is None or r["country"] == cc
    ]
    rows.sort(key=lambda r: (-r["companies"], r["nuts_id"]))
    return html.page(
        "table.html",
        title=t["heading"],
        heading=t["heading"],
        intro=t["intro"],
        rows=rows,
        empty=t["empty"],
        **language,
        filters=[
            {"label": t["country"], "name": "country", "value": country, "max": 2},
            {"label": "lang", "name": "lang", "value": language["lang"], "hidden": True},
        ],
        columns=[
            {"label": "NUTS 3", "key": "nuts_id"},
            {"label": t["region"], "key": "name", "link": "url"},
            {"label": t["country"], "key": "country"},
            {"label": t["companies"], "key": "companies", "num": True},
            {"label": t["active"], "key": "active", "num": True},
        ],
        links=[{"href": "/heatmap", "label": t["map"]}, {"href": "/maps/nuts3.geojson", "label": "GeoJSON"}],
    )


def _technologies_page(request: Request, conn: Connection, lang: str) -> HTMLResponse:
    t = texts.TECHNOLOGIES[lang]
    data = technologies.usage(conn, _cache(request))
    rows = [r for r in data["technologies"] + data["mail_providers"] if r["domains"]]
    intro = t["intro"].format(checked=html.money(data["checked_domains"]), version=data["rules_version"])
    return html.page(
        "table.html",
        lang=lang,
        title=t["heading"],
        heading=t["heading"],
        intro=intro,
        rows=rows,
        empty=t["empty"] if data["checked_domains"] else t["none_checked"],
        cache=QUARTER,
        alternate=[
            {"lang": "sk", "href": f"{public_base(request)}/technologie"},
            {"lang": "en", "href": f"{public_base(request)}/technologies"},
        ],
        columns=[
            {"label": t["name"], "key": "name"},
            {"label": t["category"], "key": "category"},
            {"label": t["domains"], "key": "domains", "num": True},
        ],
    )


@pages_router.get(
    "/technologie",
    response_class=HTMLResponse,
    summary="Technologies (sk)",
    description="Technológie na webových stránkach a e-mailoch firiem: how many checked company "
    "domains show each technology and mail provider of the fingerprint rules (security area, "
    "stored passive checks). Cached 15 min.",
)
def technologie(request: Request, conn: ReadConn) -> HTMLResponse:
    return _technologies_page(request, conn, "sk")


@pages_router.get(
    "/technologies",
    response_class=HTMLResponse,
    summary="Technologies",
    description="The same as `/technologie`, in English.",
)
def technologies_en(request: Request, conn: ReadConn) -> HTMLResponse:
    return _technologies_page(request, conn, "en")


CSP_MAX_BYTES = 16_384
CSP_KEEP = 1000


@pages_router.post(
    "/csp-report",
    status_code=204,
    response_class=Response,
    summary="CSP violation report",
    description="Browsers post Content-Security-Policy violation reports here (`report-uri`; "
    "`application/csp-report` or `application/reports+json`). At most 16 KB a report; the "
    "newest 1,000 are kept; the shared per-IP limit applies.",
)
async def csp_report(request: Request) -> Response:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > CSP_MAX_BYTES:
            raise ValidationFailed("A CSP report is at most 16 KB")
    try:
        data = orjson.loads(body) if body else None
    except orjson.JSONDecodeError as exc:
        raise ValidationFailed("A CSP report is JSON") from exc
    report = (
        data[0].get("body")
        if isinstance(data, list) and data and isinstance(data[0], dict)
        else (data.get("csp-report") if isinstance(data, dict) else None)
    )
    if not isinstance(report, dict):
        raise ValidationFailed("Expected a `csp-report` object or a Reporting API list")

    def text(*names: str) -> str | None:
        value = next((report[n] for n in names if isinstance(report.get(n), str)), None)
        return value[:2000] if value else None

    row = {
        "received_at": datetime.now(UTC),
        "document_uri": text("document-uri", "documentURL"),
        "violated_directive": text("violated-directive", "effectiveDirective"),
        "blocked_uri": text("blocked-uri", "blockedURL"),
        "body": data,
        "size": len(body),
    }

    def store() -> None:
        with request.app.state.engine.begin() as conn:
            queries.store_csp_report(conn, row, CSP_KEEP)

    from starlette.concurrency import run_in_threadpool

    await run_in_threadpool(store)
    return Response(status_code=204)


@pages_router.get(
    "/dashboard",
    response_class=HTMLResponse,
    summary="Key dashboard",
    description="The usage of the key given as `api_key` (or a Bearer header). The key is never "
    "written into the page. `lang`: sk or en, else the browser's Accept-Language, else English.",
)
def dashboard(request: Request, caller: ApiKey, lang: Lang = None) -> HTMLResponse:
    settings: Settings = request.app.state.settings
    key, quota = caller.key, caller.quota
    plan = settings.plan(key.plan)
    usage = (
        None
        if quota is None
        else {
            "period": "pass" if plan.budget else "month",
            "used": min(quota.used, quota.limit),
            "limit": quota.limit,
            "remaining": quota.remaining,
            "resets_at": datetime.fromtimestamp(quota.reset_at, UTC).date(),
        }
    )
    me = {
        "name": key.name,
        "plan_title": plan.title,
        "prefix": key.prefix,
        "rate": plan.rate_per_minute,
        "window": settings.rate_window_seconds,
        "usage": usage,
        "created_at": key.created_at.date(),
        "expires_at": key.expires_at.date() if key.expires_at else None,
    }
    # No hreflang alternates or language switch: their addresses would repeat the page's own query, which
    # holds the key (the key is never written into the page).
    code, by_header = i18n.choose(request, lang, "en")
    return html.page(
        "dashboard.html",
        title=i18n.gettext(code, "Dashboard"),
        me=me,
        cache="private, no-store",
        lang=code,
        by_header=by_header,
    )


# -- widget ------------------------------------------------------------------------------------------------

# spec 4.5: keyed (bearer or query)
KEY_SECURITY: dict[str, list[dict[str, list[str]]]] = {"security": [{"bearerAuth": []}, {"apiKeyQuery": []}]}


async def widget_credential(request: Request) -> dict[str, Any] | None:
    """The widget routes are keyed (spec 4.5), and a widget token stands in for the key: sent as
    `?api_key=<token>` (or `Authorization: Bearer <token>`) it authenticates the widget without putting the
    key into a page. Returns the token's claims, or None when a real API key was given (server-side use,
    no origin check). 401 without either."""
    header = request.headers.get("authorization", "")
    raw = (
        header[7:].strip()
        if header[:7].lower() == "bearer "
        else (request.scope["state"].get("api_key") or request.query_params.get("api_key"))
    )
    if raw and widget.is_token(raw.strip()):
        await public_limit(request)  # the shared per-IP limiter, as for keyless calls
        return widget.claims_of(request.app.state.settings.secret_key, raw.strip())
    await require_key(request)
    return None


WidgetAuth = Annotated[dict[str, Any] | None, Depends(widget_credential)]


@widget_router.post(
    "/widget-token",
    response_model=Envelope[WidgetToken],
    status_code=201,
    summary="Create a widget token",
    description="A signed token for the embeddable widget, bound to this key and to the origins "
    "given (`scheme://host[:port]`), valid `ttl_seconds` (default one day, at most seven). "
    "Nothing is stored; the token is checked by its signature.",
)
def widget_token(request: Request, caller: ApiKey, body: Annotated[WidgetTokenRequest, Body()]) -> Response:
    settings: Settings = request.app.state.settings
    origins = sorted({widget.normalise_origin(o) for o in body.origins})
    token = widget.issue(settings.secret_key, caller.key.id, origins, body.ttl_seconds)
    expires = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=body.ttl_seconds)
    return ok(
        request,
        {"token": token, "origins": origins, "expires_at": expires},
        status_code=201,
        headers={"Cache-Control": "no-store"},
    )


@widget_router.get(
    "/widget.js",
    response_class=Response,
    summary="Widget script",
    openapi_extra=KEY_SECURITY,
    responses={200: {"content": {"text/javascript": {}}}},
    description="The embeddable widget: no dependencies, no cookies, renders into a Shadow DOM. "
    "Load it with the widget token as the key (`widget.js?api_key=<token>`, see "
    '`/widget-token`) and mount with `<div data-regintel-widget data-country="sk" '
    'data-ico="…" data-token="<token>">`. Cached 1 h.',
)
def widget_js(request: Request, _auth: WidgetAuth) -> Response:
    # mypy, ignored below: html.ENV is built with a loader
    script = html.ENV.loader.get_source(html.ENV, "widget.js")[0]  # type: ignore[union-attr]
    body = script.replace("__BASE__", orjson.dumps(public_base(request)).decode()).encode()
    return _cached(request, body, "text/javascript; charset=utf-8", HOUR)


@widget_router.get(
    "/widget/data/{type}/{country}/{ico}.json",
    response_model=Envelope[WidgetData],
    openapi_extra=KEY_SECURITY,
    summary="Widget data",
    description="What the widget shows (`type`: `check` or `badges`). With a widget token as the "
    "key (`?api_key=<token>`), only for a browser on an origin the token was issued for: 401 for "
    "a bad or expired token, 403 for another origin or none. With an API key: as is.",
)
def widget_data(
    request: Request,
    auth: WidgetAuth,
    type: Annotated[Literal["check", "badges"], Path()],  # noqa: A002
    country: Annotated[str, Path(max_length=8)],
    ico: Ico,
    conn: ReadConn,
) -> Response:
    origin = request.headers.get("origin")
    if auth is not None:
        widget.check_origin(auth, origin)
    row = companies_svc.resolve_ico(conn, ico, _cc(country))
    data = service.check(conn, row)
    _counter(request).add(row["id"])
    out = {
        "type": type,
        "country": row["country"],
        "national_id": row["national_id"],
        "name": row["name"],
        "status": row["status"],
        "insolvency": data["insolvency"]["state"],
        "credit_grade": data["credit_grade"],
        "nis2": data["nis2"]["badge"],
        "sanctions_hits": data["sanctions"]["hits"],
        "url": f"/firma/{row['country'].lower()}/{row['national_id']}",
    }
    headers = {"Cache-Control": "private, max-age=300"}
    if auth is not None and origin:
        headers["Access-Control-Allow-Origin"] = widget.normalise_origin(origin)
    return ok(request, out, headers=headers)
