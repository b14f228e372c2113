"""Security routes (spec 4.1, 4.4): `/companies/{ico}/domains`, `/security`, `/security/cyber-score`,
`/brand-signals` and `/brand-signals/{domain}` (docs/security-posture.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, AppSettings, DbConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.security import service
from regintel.areas.security.schemas import (
    BrandSignals,
    BrandSignalsDetail,
    CompanyDomain,
    CyberScore,
    SecurityPosture,
)
from regintel.errors import ValidationFailed

companies_router = APIRouter(prefix="/api/v1/companies", tags=["Security"], route_class=StrictRoute)
signals_router = APIRouter(prefix="/api/v1/brand-signals", tags=["Security"], route_class=StrictRoute)
ROUTERS = [companies_router, signals_router]

PENDING = (
    "Checks never run in the request: a domain without a stored check, or whose check is older than "
    "`REGINTEL_SECURITY_MAX_AGE_HOURS` (default 7 days), is queued as the job `security.check` and "
    "reported `pending` (or with its older result and `recheck_queued`) until the worker has run it."
)
Filter = Annotated[str | None, Query(min_length=1, max_length=128)]


@companies_router.get(
    "/{ico}/domains",
    response_model=Envelope[list[CompanyDomain]],
    summary="Domains",
    description="The company's websites and e-mail domains as registers publish them (e.g. the "
    "KBO contact file), normalised (IDNA, lower case, registrable domain from the Public Suffix "
    "List), each with the published value, its source, licence, import run and dates. Shared "
    "mailbox domains (gmail.com, seznam.cz, …) are flagged: they are not the company's.",
)
def company_domains(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    items = service.domains(conn, row)
    return ok(request, items, total=len(items), country=row["country"], national_id=row["national_id"])


@companies_router.get(
    "/{ico}/security",
    response_model=Envelope[SecurityPosture],
    summary="NIS2 security posture (findings, score 0-100)",
    description="Passive posture of the company's domains: DNS (MX, SPF, DMARC, DNSSEC, CAA), "
    "TLS (protocol versions, certificate validity, expiry, names, trust) and HTTP (HSTS, CSP, "
    "X-Content-Type-Options, framing, HTTP→HTTPS redirect), as findings with severity, and a "
    "score 0-100 (the weakest domain's). " + PENDING + " Domains resolving to private, "
    "loopback or link-local addresses are refused (`status` `refused`).",
)
def security(
    request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow, settings: AppSettings
) -> Response:
    view = service.posture(conn, row, settings)
    conn.commit()  # the queued checks
    return ok(request, view)


@companies_router.get(
    "/{ico}/security/cyber-score",
    response_model=Envelope[CyberScore],
    summary="Cyber score",
    description="The posture score 0-100 with its band (`good` ≥ 80, `fair` ≥ 60, `weak` ≥ 40, "
    "`poor`), the weakest domain and the points it lost per category (mail, dns, tls, http). " + PENDING,
)
def cyber_score(
    request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow, settings: AppSettings
) -> Response:
    view = service.cyber_score(conn, row, settings)
    conn.commit()
    return ok(request, view)


@signals_router.get(
    "",
    response_model=Envelope[list[BrandSignals]],
    summary="Brand signals list",
    description="Checked register domains with what the passive checks revealed: technologies "
    "(the open rule file `areas/security/fingerprints.json`, Wappalyzer pattern style: headers, "
    "cookies, `<meta name=generator>`, script `src`), the mail provider (from MX) and the "
    "certificate issuer, with the companies publishing each domain. Filters (exact, case-"
    "insensitive, combined): `technology`, `category`, `mail_provider`, `cert_issuer`, `domain` "
    "(the domain or any host under it), `min_score`, `max_score`. Sorted by domain; paginated "
    "(`meta.total`, `meta.page`, `meta.per_page`).",
)
def brand_signals(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    technology: Filter = None,
    category: Filter = None,
    mail_provider: Filter = None,
    cert_issuer: Filter = None,
    domain: Annotated[str | None, Query(min_length=1, max_length=253)] = None,
    min_score: Annotated[int | None, Query(ge=0, le=100)] = None,
    max_score: Annotated[int | None, Query(ge=0, le=100)] = None,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    if page * per_page > 10_000:
        raise ValidationFailed(
            "page × per_page is at most 10,000; narrow the filters",
            details=[{"field": "page", "in": "query", "message": "beyond the last page served"}],
        )
    filters = {
        "technology": technology,
        "category": category,
        "mail_provider": mail_provider,
        "cert_issuer": cert_issuer,
        "min_score": min_score,
        "max_score": max_score,
        "domain": domain,
    }
    total, items = service.signal_list(conn, filters, page, per_page)
    return ok(request, items, total=total, page=page, per_page=per_page)


@signals_router.get(
    "/{domain}",
    response_model=Envelope[BrandSignalsDetail],
    summary="Brand signals for a domain",
    description="One domain a register publishes (Unicode or ASCII): its technologies, mail "
    "provider, certificate issuer, score and the companies publishing it. 404 for a domain no "
    "register publishes (only those are ever checked). " + PENDING,
)
def brand_signals_for(
    request: Request,
    domain: Annotated[str, Path(min_length=1, max_length=253)],
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
) -> Response:
    view = service.signals_for_domain(conn, domain, settings)
    conn.commit()
    return ok(request, view)
