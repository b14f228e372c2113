"""The landing pages of spec 4.7 under `/api/v1/public/`: one per topic, the per-country directories
(`companies-{country}` in English, `firmy-{country}` in Slovak) and the policy pages, each with its social
image (`og.svg`, `og.png`). Server-rendered, no script, `?lang=sk|en` where both languages exist."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import Connection

from regintel.api.deps import PublicLimit, ReadConn, public_base
from regintel.api.routing import StrictRoute
from regintel.config import Settings
from regintel.render import svg

from . import html, i18n, queries, renders, service
from .aggregates import CURRENCIES
from .topics import DIRECTORY, POLICIES, TOPICS, UI

router = APIRouter(
    prefix="/api/v1/public", tags=["Pages"], dependencies=[PublicLimit], route_class=StrictRoute
)
Lang = Annotated[
    Literal["sk", "en"] | None,
    Query(description="Page language, `sk` or `en`; without it Accept-Language decides (else `sk`)"),
]
CountryPath = Annotated[
    str, Path(min_length=2, max_length=2, pattern="^[A-Za-z]{2}$", description="ISO 3166-1 alpha-2")
]
HOUR = "public, max-age=3600"
SVG = "image/svg+xml; charset=utf-8"


def _cache(request: Request) -> dict[str, Any]:
    state = request.app.state
    if not hasattr(state, "pages_cache"):
        state.pages_cache = {}
    cache: dict[str, Any] = state.pages_cache  # app.state is untyped: the dict set just above
    return cache


def _image(request: Request, conn: Connection, source: str, png: bool) -> Response:
    etag = '"' + hashlib.sha256(source.encode() + (b"png" if png else b"")).hexdigest()[:32] + '"'
    headers = {"Cache-Control": HOUR, "ETag": etag}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    if png:
        png_bytes = renders.og_png(conn, request.app.state.engine, source)
        return Response(png_bytes, media_type="image/png", headers=headers)
    return Response(source.encode(), media_type=SVG, headers=headers)


def _facts(conn: Connection, cache: dict[str, Any]) -> list[tuple[str, str, str]]:
    cov = service.coverage(conn, cache)
    return [
        ("Legal entities", html.money(cov["entities"]), "green"),
        ("Countries", str(len(cov["countries"])), "lime"),
        ("Sources", str(len(cov["sources"])), "lime"),
        ("Pages and badges", "no key", "green"),
    ]


def _og(conn: Connection, cache: dict[str, Any], title: str, subtitle: str) -> str:
    return svg.og_image(title, subtitle, _facts(conn, cache), "regintel · open European company registers")


def _directory_svg(conn: Connection, cache: dict[str, Any], cc: str) -> str:
    return _og(conn, cache, f"Companies in {cc}", f"Every legal entity of {cc}'s registers")


def og_sources(conn: Connection) -> list[str]:
    """The SVGs of every topic, policy and country directory image (of the countries with companies), as
    their routes build them now: the job `pages.og-ahead` renders them ahead of the first request."""
    cache: dict[str, Any] = {}
    out = [_og(conn, cache, t.title["en"], t.text["en"][:120]) for t in TOPICS.values()]
    out += [_og(conn, cache, titles["en"], f"regintel · {titles['sk']}") for titles in POLICIES.values()]
    return out + [_directory_svg(conn, cache, cc) for cc in queries.company_countries(conn)]


def _page(
    request: Request, lang: str, by_header: bool, path: str, template: str, **context: Any
) -> HTMLResponse:
    base = public_base(request)
    return html.page(
        template,
        lang=lang,
        by_header=by_header,
        ui=UI[lang],
        canonical=f"{base}{path}?lang={lang}",
        og_image=f"{base}{path}/og.png",
        alternate=i18n.alternates(request, base),
        topics=TOPICS,
        policies=POLICIES,
        **context,
    )


# -- topics ----------------------------------------------------------------------------------------------


def _topic_routes(slug: str) -> None:
    topic = TOPICS[slug]
    path = f"/api/v1/public/{slug}"

    def page(request: Request, conn: ReadConn, lang: Lang = None) -> HTMLResponse:
        lang, by_header = i18n.choose(request, lang, "sk")
        return _page(
            request,
            lang,
            by_header,
            path,
            "topic.html",
            title=topic.title[lang],
            description=topic.text[lang],
            topic=topic,
            coverage=service.coverage(conn, _cache(request)),
        )

    def og(request: Request, conn: ReadConn, fmt: str) -> Response:
        return _image(
            request, conn, _og(conn, _cache(request), topic.title["en"], topic.text["en"][:120]), fmt == "png"
        )

    def og_svg(request: Request, conn: ReadConn) -> Response:
        return og(request, conn, "svg")

    def og_png(request: Request, conn: ReadConn) -> Response:
        return og(request, conn, "png")

    name = slug.replace("-", "_")
    for fn, suffix in ((page, ""), (og_svg, "/og.svg"), (og_png, "/og.png")):
        fn.__name__ = f"topic_{name}{suffix.replace('/og.', '_og_')}"
    router.add_api_route(
        f"/{slug}",
        page,
        methods=["GET"],
        response_class=HTMLResponse,
        summary=f"Landing page: {topic.title['en']}",
        description=topic.text["en"],
    )
    router.add_api_route(
        f"/{slug}/og.svg",
        og_svg,
        methods=["GET"],
        response_class=Response,
        summary=f"Social image: {topic.title['en']}",
        description="1200x630 SVG. Cached 1 h.",
        responses={200: {"content": {"image/svg+xml": {}}}},
    )
    router.add_api_route(
        f"/{slug}/og.png",
        og_png,
        methods=["GET"],
        response_class=Response,
        summary=f"Social image (PNG): {topic.title['en']}",
        description="1200x630 PNG. Cached 1 h.",
        responses={200: {"content": {"image/png": {}}}},
    )


for _slug in TOPICS:
    _topic_routes(_slug)


# -- per-country directories -------------------------------------------------------------------------------


def _directory(request: Request, conn: Connection, country: str, lang: str, path: str) -> HTMLResponse:
    cc = country.upper()
    cov = service.coverage(conn, _cache(request))
    entry = next((c for c in cov["countries"] if c["country"] == cc), None)
    title = DIRECTORY["title"][lang].format(country=cc)
    intro = (
        DIRECTORY["text"][lang].format(
            country=cc, entities=html.money(entry["entities"]), active=html.money(entry["active"])
        )
        if entry
        else UI[lang]["none"]
    )
    largest = service.country_largest(conn, cc, CURRENCIES.get(cc, "EUR")) if entry else []
    base = public_base(request)
    return html.page(
        "directory.html",
        lang=lang,
        ui=UI[lang],
        title=title,
        heading=title,
        intro=intro,
        description=intro,
        country=cc,
        largest=largest,
        canonical=f"{base}{path}",
        og_image=f"{base}{path}/og.png",
        alternate=[
            {"lang": "sk", "href": f"{base}/api/v1/public/firmy-{cc.lower()}"},
            {"lang": "en", "href": f"{base}/api/v1/public/companies-{cc.lower()}"},
        ],
        topics=TOPICS,
        policies=POLICIES,
    )


def _directory_og(request: Request, conn: Connection, country: str, png: bool) -> Response:
    cc = country.upper()
    return _image(
        request,
        conn,
        _directory_svg(conn, _cache(request), cc),
        png,
    )


@router.get(
    "/companies-{country}",
    response_class=HTMLResponse,
    summary="Companies of a country (landing)",
    description="A country's directory landing page in English: counts, the largest companies, a link to "
    "the full directory (`/firmy/{country}`).",
)
def companies_country(request: Request, country: CountryPath, conn: ReadConn) -> HTMLResponse:
    return _directory(request, conn, country, "en", f"/api/v1/public/companies-{country.lower()}")


@router.get(
    "/firmy-{country}",
    response_class=HTMLResponse,
    summary="Firmy krajiny (landing)",
    description="The same landing page in Slovak.",
)
def firmy_country(request: Request, country: CountryPath, conn: ReadConn) -> HTMLResponse:
    return _directory(request, conn, country, "sk", f"/api/v1/public/firmy-{country.lower()}")


def _directory_og_route(png: bool) -> Any:
    # Bound by a closure, not a default argument: FastAPI would serve a defaulted parameter as a query
    # parameter (`?_png=true` turned og.svg into a PNG; found by schemathesis).
    def handler(request: Request, country: CountryPath, conn: ReadConn) -> Response:
        return _directory_og(request, conn, country, png)

    return handler


for _prefix in ("companies", "firmy"):
    for _fmt in ("svg", "png"):
        _handler = _directory_og_route(_fmt == "png")
        _handler.__name__ = f"{_prefix}_country_og_{_fmt}"
        router.add_api_route(
            f"/{_prefix}-{{country}}/og.{_fmt}",
            _handler,
            methods=["GET"],
            response_class=Response,
            summary=f"Social image of a country directory ({_fmt.upper()})",
            description="1200x630. Cached 1 h.",
            responses={200: {"content": {"image/svg+xml" if _fmt == "svg" else "image/png": {}}}},
        )


# -- policy pages ------------------------------------------------------------------------------------------


def _host(url: str | None) -> str | None:
    return urlsplit(url).hostname if url else None


def processors(settings: Settings) -> list[dict[str, str]]:
    """The third parties this instance is configured to send data to (from its settings, never secrets)."""
    out = []
    if settings.smtp_host:
        out.append({"what": "E-mail delivery (sign-in links, watch alerts)", "who": settings.smtp_host})
    if settings.stripe_api_key:
        out.append(
            {
                "what": "Payments (checkout, billing portal)",
                "who": _host(settings.stripe_api_base) or "Stripe",
            }
        )
    if settings.llm_base_url:
        out.append({"what": "Language model (report prose)", "who": _host(settings.llm_base_url) or "?"})
    for name, provider in sorted(settings.oidc_providers.items()):
        out.append({"what": f"Sign-in with {name}", "who": _host(str(provider.issuer)) or name})
    if settings.redis_url:
        out.append({"what": "Rate-limit counters", "who": _host(settings.redis_url) or "Redis"})
    return out


def _policy_routes(slug: str) -> None:
    titles = POLICIES[slug]
    path = f"/api/v1/public/{slug}"

    def page(request: Request, lang: Lang = None) -> HTMLResponse:
        settings: Settings = request.app.state.settings
        lang, by_header = i18n.choose(request, lang, "sk")
        return _page(
            request,
            lang,
            by_header,
            path,
            "policy.html",
            title=titles[lang],
            slug=slug,
            processors=processors(settings),
            limiter=settings.rate_limit_storage,
            base=public_base(request),
        )

    def og_svg(request: Request, conn: ReadConn) -> Response:
        return _image(
            request, conn, _og(conn, _cache(request), titles["en"], f"regintel · {titles['sk']}"), False
        )

    def og_png(request: Request, conn: ReadConn) -> Response:
        return _image(
            request, conn, _og(conn, _cache(request), titles["en"], f"regintel · {titles['sk']}"), True
        )

    name = slug.replace("-", "_")
    page.__name__, og_svg.__name__, og_png.__name__ = (
        f"policy_{name}",
        f"policy_{name}_og_svg",
        f"policy_{name}_og_png",
    )
    router.add_api_route(
        f"/{slug}",
        page,
        methods=["GET"],
        response_class=HTMLResponse,
        summary=f"Policy: {titles['en']}",
        description=f"The {titles['en'].lower()} page (sk, en).",
    )
    router.add_api_route(
        f"/{slug}/og.svg",
        og_svg,
        methods=["GET"],
        response_class=Response,
        summary=f"Social image: {titles['en']}",
        description="1200x630 SVG. Cached 1 h.",
        responses={200: {"content": {"image/svg+xml": {}}}},
    )
    router.add_api_route(
        f"/{slug}/og.png",
        og_png,
        methods=["GET"],
        response_class=Response,
        summary=f"Social image (PNG): {titles['en']}",
        description="1200x630 PNG. Cached 1 h.",
        responses={200: {"content": {"image/png": {}}}},
    )


for _policy in POLICIES:
    _policy_routes(_policy)
