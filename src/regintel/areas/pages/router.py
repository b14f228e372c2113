"""Routes of the public face (spec 4.7, the root-level pages after it, and the widget of 4.5). Thin: parse,
call the service, render (docs/pages.md)."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse
from sqlalchemy import Connection

from regintel.api.deps import ApiKey, PublicLimit, ReadConn, public_base
from regintel.api.envelope import Envelope, ok
from regintel.api.result_cache import get_result_cache
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.config import Settings
from regintel.db.engine import begin_write
from regintel.errors import NotFound, ValidationFailed

from . import html, i18n, landing_routes, queries, regions, renders, service, technologies, texts
from .check_routes import public_router
from .i18n import N_
from .route_common import (
    BADGES,
    HOUR,
    QUARTER,
    SVG,
    Country,
    Currency,
    Ico,
    Lang,
    RankingKey,
    cached_body,
    country_code,
    lang_args,
    pages_cache,
    upper_country,
    view_counter,
)
from .schemas import (
    Coverage,
)
from .widget_routes import widget_router

pages_router = APIRouter(tags=["Pages"], dependencies=[PublicLimit], route_class=StrictRoute)
ROUTERS = [public_router, landing_routes.router, widget_router, pages_router]

# -- root-level pages --------------------------------------------------------------------------------------


@pages_router.get(
    "/",
    response_class=HTMLResponse,
    summary="Landing page",
    description="What regintel is, live counts, links to the documentation and how to get a key "
    "(`lang`: sk or en; without it the browser's Accept-Language decides, else English).",
)
def landing(request: Request, conn: ReadConn, lang: Lang = None) -> HTMLResponse:
    language = lang_args(request, lang, "en")
    return html.page(
        "landing.html",
        title=i18n.gettext(language["lang"], "Open European company register intelligence"),
        coverage=service.coverage(conn, pages_cache(request)),
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
    row = companies_svc.resolve_ico(conn, ico, country_code(cc))
    language = lang_args(request, lang, "sk" if row["country"] in ("SK", "CZ") else "en")
    tr = i18n.translations(language["lang"])
    data = service.check(conn, row)
    counter = view_counter(request)
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
    cc = country_code(country)
    language = lang_args(request, lang, "sk")
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
    cache = get_result_cache(request)
    items = service.ranking(conn, key, upper_country(country), currency.upper(), 100, cache)
    language = lang_args(request, lang, "sk")
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
    return ok(
        request, service.coverage(conn, pages_cache(request)), headers={"Cache-Control": html.PAGE_CACHE}
    )


@pages_router.get(
    "/coverage",
    response_class=HTMLResponse,
    summary="Coverage (page)",
    description="Countries and sources with counts, as a page.",
)
def coverage_page(request: Request, conn: ReadConn, lang: Lang = None) -> HTMLResponse:
    cov = service.coverage(conn, pages_cache(request))
    language = lang_args(request, lang, "en")
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
    description="The sitemap index: the hot sitemap and one sitemap per range of 50,000 company ids that "
    "holds a company. 404 while no company is loaded (the sitemaps.org schema allows no empty index).",
)
def sitemap_index(request: Request, conn: ReadConn) -> Response:
    pages = service.sitemap_pages(conn)
    if not pages:
        raise NotFound("There is no sitemap: no company is loaded")
    body = "".join(service.sitemap_index(public_base(request), pages))
    return Response(body, media_type=XML, headers={"Cache-Control": HOUR})


@pages_router.get(
    "/sitemap-firma-hot.xml",
    response_class=Response,
    summary="Recently updated companies",
    responses={200: {"content": {"application/xml": {}}}},
    description="The 1,000 most recently updated company pages. 404 while no company is loaded.",
)
def sitemap_hot(request: Request, conn: ReadConn) -> Response:
    rows = [
        (r["id"], r["country"].lower(), r["national_id"], r["updated_at"])
        for r in queries.recently_updated(conn, 1000)
    ]
    if not rows:  # a <urlset> needs a <url> (sitemaps.org schema)
        raise NotFound("There is no sitemap: no company is loaded")
    body = "".join(service.sitemap_urls(public_base(request), rows))
    return Response(body, media_type=XML, headers={"Cache-Control": QUARTER})


@pages_router.get(
    "/sitemap-firma-{n}.xml",
    response_class=Response,
    summary="Company sitemap page",
    responses={200: {"content": {"application/xml": {}}}},
    description="Company pages with ids in the page's 50,000 range. Made once per data version (streamed "
    "from the database the first time) and then served as stored, gzip-compressed when the client accepts "
    "it. Cached 1 h. 404 for a range that holds no company (past the last id, or emptied), which the index "
    "does not list.",
)
def sitemap_page(request: Request, n: Annotated[int, Path(ge=1, le=10**6)], conn: ReadConn) -> Response:
    base, version = public_base(request), renders.current_version(conn)
    headers = {"Cache-Control": HOUR, "Vary": "Accept-Encoding"}
    stored = renders.stored_sitemap(conn, n, base, version)  # only pages with a URL are stored
    if stored is not None:
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            return Response(stored, media_type=XML, headers=headers | {"Content-Encoding": "gzip"})
        return Response(gzip.decompress(stored), media_type=XML, headers=headers)
    low = (n - 1) * service.SITEMAP_URLS + 1
    rows = queries.sitemap_rows(conn, low, low + service.SITEMAP_URLS)  # read now: the connection closes
    if not rows:  # a <urlset> needs a <url> (sitemaps.org schema): no page rather than an invalid one
        raise NotFound(f"There is no sitemap page {n}")
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
    row = companies_svc.resolve_ico(conn, ico, country_code(cc))
    return cached_body(request, service.status_badge(row).encode(), SVG, HOUR)


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
    language = lang_args(request, lang, "en")
    company, badges, error, page_url = None, [], None, None
    if ico:
        try:
            company = companies_svc.resolve_ico(conn, ico, country_code(cc) if cc else None)
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
    return cached_body(request, orjson.dumps(doc), "application/geo+json", HOUR)


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
    language = lang_args(request, lang, "sk")
    code, tr = language["lang"], i18n.translations(language["lang"])
    t, cc = texts.HEATMAP[code], upper_country(country)
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
    language = lang_args(request, lang, "sk")
    t = texts.REGIONS[language["lang"]]
    cc = upper_country(country)
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
    data = technologies.usage(conn, pages_cache(request))
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
        with begin_write(request.app.state.engine) as conn:
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
