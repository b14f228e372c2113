"""Screening routes: public screening (`/public/screen`, `/public/screen/name`, the `/public/screener`
HTML form), public statistics (`/public/stats/sanctions`), and a company's hits (`/companies/{ico}/
sanctions`, and as a Maltego transform result)."""

from __future__ import annotations

from typing import Annotated, Literal

import pycountry
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, PackageLoader
from pydantic import AfterValidator, Field, StringConstraints, ValidationError, WithJsonSchema

from regintel.api import stats_feeds
from regintel.api.deps import ApiKey, AppSettings, DbConn, PublicLimit
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.areas.people import service as people_svc
from regintel.areas.screening import service as svc
from regintel.areas.screening.maltego import to_maltego
from regintel.areas.screening.schemas import (
    CompanySanctions,
    EntityQuery,
    NameQuery,
    SanctionsStats,
    ScreenResult,
)
from regintel.domain.screening import ALGORITHM, DEFAULT_THRESHOLD, SCHEMAS, Subject
from regintel.errors import RegintelError
from regintel.render.tabular import to_csv

public = APIRouter(
    prefix="/api/v1/public", tags=["Screening"], dependencies=[PublicLimit], route_class=StrictRoute
)
keyed = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)
ROUTERS = [public, keyed]

_templates = Environment(
    loader=PackageLoader("regintel.areas.screening", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
_SCREEN_DOC = (
    "Every hit lists the features that made it (name similarity by token Levenshtein with a "
    "phonetic rescue, token-sorted similarity and metaphone agreement; country, birth date, "
    "identifier, weak alias and schema evidence), each with its value and weight, and the algorithm "
    "version; the score is the weighted sum, clipped to 0-1. Names in any script are transliterated. "
    "501 while no sanctions list is imported."
)
Threshold = Annotated[float, Query(ge=0.0, le=1.0, description="Hits scoring at least this (0-1)")]
Country = Annotated[
    str | None,
    Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case (default: SK first)"),
]
# The screener's form sends every field, blank ones as "" (no JavaScript to drop them): a blank field is
# declared as such (`const: ""`, typeless, so the document's two-letter rule for `country` leaves it
# alone), and everything else the server takes is in the type, so FastAPI refuses the rest with 422
# before the handler runs (issue 16: `?country=A` was answered 200 although the document said two letters).
_Blank = Annotated[Literal[""], WithJsonSchema({"const": "", "description": "a blank form field: not given"})]
_ISO2 = sorted(c.alpha_2 for c in pycountry.countries)
_ISO2_ANY_CASE = frozenset(_ISO2 + [c.lower() for c in _ISO2])


def _iso2(value: str) -> str:
    if value not in _ISO2_ANY_CASE:
        raise ValueError("not an ISO 3166-1 alpha-2 country (upper or lower case)")
    return value


# The ISO list in upper or lower case, as `/code-lists/bank-codes` declares it (a JSON Schema enum has no
# case-insensitive form, so a mixed-case "Af" is refused rather than taken against the document).
_COUNTRY = Annotated[
    str, AfterValidator(_iso2), WithJsonSchema({"type": "string", "enum": sorted(_ISO2_ANY_CASE)})
]
_BIRTH = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$")]
_SHARE = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
ScreenerSchema = Annotated[
    Literal["person", "organization", "vessel", "aircraft", ""] | None,
    Query(description="What is screened; blank: any"),
]
ScreenerCountry = Annotated[
    _COUNTRY | _Blank | None, Query(description="ISO 3166-1 alpha-2, upper or lower case; blank: none")
]
ScreenerBirthDate = Annotated[
    _BIRTH | _Blank | None, Query(description="`YYYY`, `YYYY-MM` or `YYYY-MM-DD`; blank: none")
]
ScreenerThreshold = Annotated[
    _SHARE | _Blank | None,
    Query(description=f"Hits scoring at least this (0-1); blank: the default {DEFAULT_THRESHOLD}"),
]
Mode = Annotated[
    Literal["sanctioned", "debarred", "any"],
    Query(description="`sanctioned` (sanctions lists), `debarred` (debarment lists) or `any`"),
]
Purpose = Annotated[
    str | None,
    Query(
        max_length=64,
        description="Declared processing purpose (e.g. `kyc`): "
        "officers and owners who are natural persons are screened only with one",
    ),
]


def _subject(body: NameQuery) -> Subject:
    if isinstance(body, EntityQuery):
        return Subject.build(
            body.name,
            body.schema_,
            body.countries,
            [body.birth_date] if body.birth_date else [],
            body.identifiers,
        )
    return Subject.build(body.name)


@public.post(
    "/screen",
    response_model=Envelope[ScreenResult],
    summary="Screen an entity",
    description="Screen a person or organisation (name, and optionally `schema`, `countries`, "
    "`birth_date`, `identifiers`) against the imported sanctions lists. " + _SCREEN_DOC,
)
def screen_entity(request: Request, conn: DbConn, body: EntityQuery) -> Response:
    return ok(request, svc.screen(conn, _subject(body), body.threshold, body.limit, body.lists))


@public.post(
    "/screen/name",
    response_model=Envelope[ScreenResult],
    summary="Screen a name",
    description="Screen a bare name against the imported sanctions lists. " + _SCREEN_DOC,
)
def screen_name(request: Request, conn: DbConn, body: NameQuery) -> Response:
    return ok(request, svc.screen(conn, _subject(body), body.threshold, body.limit, body.lists))


@public.get(
    "/screener",
    response_class=HTMLResponse,
    summary="Screener (HTML)",
    description="A form for the same screening as `POST /public/screen`, answered server-side "
    "(works without JavaScript). Blank fields count as not given. A malformed field is refused with 422 "
    "`VALIDATION_ERROR`; a name the screening cannot compare (no letters or digits, or nothing left once "
    "honorifics and legal-form words are removed) is answered 422 with the form and the reason.",
    responses={200: {"content": {"text/html": {"schema": {"type": "string"}}}}},
)
def screener(
    request: Request,
    conn: DbConn,
    name: Annotated[
        str | None, Query(max_length=300, description="The name to screen; blank: the form")
    ] = None,
    schema: ScreenerSchema = None,
    country: ScreenerCountry = None,
    birth_date: ScreenerBirthDate = None,
    identifier: Annotated[str | None, Query(max_length=64)] = None,
    threshold: ScreenerThreshold = None,
) -> HTMLResponse:
    share = DEFAULT_THRESHOLD if threshold is None or threshold == "" else threshold
    form = {
        "name": name,
        "schema": schema or "",
        "country": country,
        "birth_date": birth_date,
        "identifier": identifier,
        "threshold": share,
    }
    result, error, status = None, None, 200
    if name:
        try:
            body = EntityQuery.model_validate(
                {
                    "name": name,
                    "schema": schema or None,
                    "countries": [country] if country else [],
                    "birth_date": birth_date or None,
                    "identifiers": [identifier] if identifier else [],
                    "threshold": share,
                }
            )
            result = svc.screen(conn, _subject(body), body.threshold, body.limit)
        except ValidationError as exc:
            error, status = (
                "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()),
                422,
            )
        except RegintelError as exc:
            error, status = str(exc), exc.status
    page = _templates.get_template("screener.html").render(
        form=form,
        result=result,
        error=error,
        schemas=SCHEMAS,
        algorithm=ALGORITHM,
        lists=svc.list_versions(conn),
    )
    return HTMLResponse(page, status_code=status)


stats_feeds.register(
    stats_feeds.StatsFeed(
        name="sanctions",
        title="Sanctioned companies",
        description="Companies whose name, officers or owners match a sanctions or debarment list entry; "
        "filter `mode`.",
        columns=("country", "national_id", "name", "best_score", "hit_count", "entries"),
        rows=None,
        path="/api/v1/public/stats/sanctions",
    )
)


@public.get(
    "/stats/sanctions",
    response_model=Envelope[SanctionsStats],
    summary="Sanctioned companies",
    description="Companies whose name, officers or owners match a listed entry at the default "
    "threshold (precomputed after each list import), best score first, at most 100. "
    "`mode`: `sanctioned` (sanctions lists), `debarred` (debarment lists), `any`. Names of "
    "natural persons are left out of the public hits.",
)
def sanctions_stats(
    request: Request, conn: DbConn, mode: Mode = "any", limit: Annotated[int, Query(ge=1, le=100)] = 100
) -> Response:
    data = svc.sanctioned_stats(conn, mode, limit)
    return ok(request, data, total=data["total"])


@public.get(
    "/stats/sanctions.csv",
    summary="Sanctioned companies (CSV)",
    response_class=Response,
    description="The companies of `/public/stats/sanctions` as CSV, up to 500 rows: country, national "
    "id, name, best score, hit count and the listed entries hit; the lists and their "
    "attribution in the lines before the header.",
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
)
def sanctions_stats_csv(
    conn: DbConn, mode: Mode = "any", limit: Annotated[int, Query(ge=1, le=500)] = 500
) -> Response:
    data = svc.sanctioned_stats(conn, mode, limit)
    rows = [item | {"entries": "; ".join(h["entry"] for h in item["hits"])} for item in data["items"]]
    preamble = [
        f"Sanctioned companies ({mode}), {data['total']} in all; algorithm {ALGORITHM}",
        "Lists: " + "; ".join(f"{v['name']} (version {v['version']})" for v in data["lists"]),
    ]
    body = to_csv(rows, ["country", "national_id", "name", "best_score", "hit_count", "entries"], preamble)
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'inline; filename="stats-sanctions.csv"'},
    )


def _company_hits(
    conn: DbConn, settings: AppSettings, ico: str, country: str | None, purpose: str | None, threshold: float
) -> dict[str, object]:
    personal = people_svc.check_purpose(purpose, settings.allowed_purposes)
    row = companies_svc.resolve_ico(conn, ico, country)
    return svc.company_sanctions(conn, row, threshold, personal)


@keyed.get(
    "/{ico}/sanctions",
    response_model=Envelope[CompanySanctions],
    summary="Sanctions and debarment hits",
    description="Sanctions and debarment hits for the company, its current officers and its owners "
    "(roles and parent companies), each hit with its list, programmes, listed names, score and features. "
    "Officers and owners who are natural persons are screened only with a declared `purpose`. " + _SCREEN_DOC,
)
def company_sanctions(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    ico: Annotated[str, Path(max_length=40, description="National identifier")],
    country: Country = None,
    purpose: Purpose = None,
    threshold: Threshold = DEFAULT_THRESHOLD,
) -> Response:
    data = _company_hits(conn, settings, ico, country, purpose, threshold)
    return ok(request, data, country=data["country"], national_id=data["national_id"])


@keyed.get(
    "/{ico}/maltego/sanctions",
    summary="Sanctions hits (Maltego)",
    response_class=Response,
    description="The company's sanctions hits (as `/companies/{ico}/sanctions`) as a Maltego transform "
    "response (`MaltegoMessage` XML): one entity per hit (maltego.Person, maltego.Organization), with "
    "list, programmes, score and features as additional fields.",
    responses={200: {"content": {"application/xml": {"schema": {"type": "string"}}}}},
)
def company_sanctions_maltego(
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    ico: Annotated[str, Path(max_length=40, description="National identifier")],
    country: Country = None,
    purpose: Purpose = None,
    threshold: Threshold = DEFAULT_THRESHOLD,
) -> Response:
    data = _company_hits(conn, settings, ico, country, purpose, threshold)
    return Response(to_maltego(data), media_type="application/xml")
