"""Finding companies and people by name or address (spec 4.4, 4.5, 4.7): search, autocomplete,
addresses, people, resolve and match."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from regintel.api.deps import ApiKey, PublicLimit, ReadConn, run_read
from regintel.api.envelope import Envelope, ok
from regintel.api.query_params import Page, Q, not_blank, page_size
from regintel.api.routing import StrictRoute
from regintel.api.search_index import SearchIndex
from regintel.areas.search import resolve as resolve_svc
from regintel.areas.search import service as svc
from regintel.areas.search.schemas import (
    AddressHit,
    CompanyHit,
    MatchCandidate,
    PublicSuggestion,
    Resolved,
    SearchCompany,
    Suggestion,
)
from regintel.domain.identifiers import (
    is_valid_national_id,
    national_id_candidates,
    parse_country,
    parse_identifier,
)
from regintel.errors import InvalidIdentifier, NotFound, ValidationFailed

router = APIRouter(tags=["Search"], route_class=StrictRoute)

PUBLIC_CACHE = {"Cache-Control": "public, max-age=300"}  # spec 8 names no period for autocomplete
Country = Annotated[str | None, Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case")]


def _cc(country: str | None) -> str | None:
    return parse_country(country) if country else None


@router.get(
    "/api/v1/companies/search",
    response_model=Envelope[list[CompanyHit]],
    summary="Fuzzy search (legacy)",
    description="Companies whose name resembles `q` in any word order, forgiving case, diacritics, "
    "legal-form suffixes and one or two typos in longer words, ranked by `score` (0-1). An "
    "identifier in `q` (IČO with spaces, VAT id, LEI) finds its company first. Paginated with "
    "`page`/`limit`; `meta.total` counts the matches found (at most the 200 best). "
    "Autocomplete is the preferred endpoint for search boxes.",
)
async def search(
    request: Request,
    _key: ApiKey,
    index: SearchIndex,
    q: Q,
    country: Country = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    page: Page = 1,
    per_page: Annotated[
        int | None,
        Query(ge=1, le=100, description="Alias of `limit`, the name the answer's `meta.per_page` uses"),
    ] = None,
) -> Response:
    limit = page_size(request, limit, per_page)
    items, total = await run_read(request, svc.search, index, not_blank(q), _cc(country), limit, page)
    return ok(request, items, total=total, page=page, per_page=limit)


@router.get(
    "/api/v1/companies/autocomplete",
    response_model=Envelope[list[Suggestion]],
    summary="Autocomplete",
    description="Suggestions while typing: the last word may be unfinished, typos are forgiven, and "
    "each hit carries `highlight`, the name HTML-escaped with the matched parts in `<mark>…</mark>`. "
    "`active_only` leaves out dissolved entities.",
)
async def autocomplete(
    request: Request,
    _key: ApiKey,
    index: SearchIndex,
    q: Q,
    country: Country = None,
    limit: Annotated[int, Query(ge=1, le=20)] = 10,
    active_only: bool = False,
) -> Response:
    found = await run_read(request, svc.autocomplete, index, not_blank(q), _cc(country), limit, active_only)
    return ok(request, found)


@router.get(
    "/api/v1/public/autocomplete",
    response_model=Envelope[list[PublicSuggestion]],
    dependencies=[PublicLimit],
    summary="Public autocomplete",
    tags=["Public"],
    description="Autocomplete without a key: at most 8 active entities, with highlight markup.",
)
async def public_autocomplete(
    request: Request,
    index: SearchIndex,
    q: Q,
    country: Country = None,
    limit: Annotated[int, Query(ge=1, le=8)] = 8,
) -> Response:
    found = await run_read(request, svc.public_autocomplete, index, not_blank(q), _cc(country), limit)
    return ok(request, found, headers=PUBLIC_CACHE)


@router.get(
    "/api/v1/public/address/autocomplete",
    response_model=Envelope[list[AddressHit]],
    dependencies=[PublicLimit],
    summary="Address autocomplete",
    tags=["Public"],
    description="Registered addresses matching the typed text (street, number, postal code, town, "
    "in any order, typos forgiven), each with the number of companies registered there.",
)
def address_autocomplete(
    request: Request,
    conn: ReadConn,
    index: SearchIndex,
    q: Q,
    country: Country = None,
    limit: Annotated[int, Query(ge=1, le=20)] = 10,
) -> Response:
    return ok(
        request,
        svc.address_autocomplete(conn, index, not_blank(q), _cc(country), limit),
        headers=PUBLIC_CACHE,
    )


@router.get(
    "/api/v1/companies/at-address",
    response_model=Envelope[list[SearchCompany]],
    summary="Companies at an address",
    description="Companies registered at `address`, compared in normalised form (case, diacritics, "
    "punctuation and spacing ignored). When no address is written exactly so, the closest known "
    "address (score ≥ 0.9) is used; `meta.address_norm` says which. 404 when none is close.",
)
def at_address(
    request: Request,
    conn: ReadConn,
    _key: ApiKey,
    index: SearchIndex,
    address: Annotated[str, Query(min_length=3, max_length=300)],
    country: Country = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    page: Page = 1,
    per_page: Annotated[int | None, Query(ge=1, le=200, description="Alias of `limit`")] = None,
) -> Response:
    limit = page_size(request, limit, per_page)
    items, total, norm = svc.companies_at_address(conn, index, not_blank(address), _cc(country), limit, page)
    if norm is None:
        raise NotFound(f"No company is registered at {address!r}")
    return ok(request, items, total=total, page=page, per_page=limit, address_norm=norm)


class ResolveIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    q: str = Field(min_length=1, max_length=300, description="Free text: name with town, or an identifier")
    country: str | None = Field(default=None, min_length=2, max_length=2)
    threshold: float = Field(default=resolve_svc.RESOLVE_THRESHOLD, ge=0, le=1)


def _resolve(request: Request, conn: Any, index: Any, body: ResolveIn) -> Response:
    best, others = resolve_svc.resolve(conn, index, not_blank(body.q), _cc(body.country), body.threshold)
    nearest = [c.read_model(body.threshold) for c in others[:5]]
    if best is None:
        raise NotFound(
            f"No entity passes the threshold {body.threshold} for {body.q!r}", details={"candidates": nearest}
        )
    data = Resolved(
        entity=svc.summary(best.row),
        score=round(best.score, 4),
        reasons=resolve_svc.reasons(best),
        alternatives=nearest,
    )
    return ok(request, data)


_RESOLVE_DESC = (
    "The single best entity for free text such as `Slovnaft a.s., Bratislava` or an identifier in "
    "any usual format (IČO with spaces, VAT id `SK2020244699`, LEI), with a `score` (0-1) and the "
    "`reasons` (features that matched). 404 `NOT_FOUND` with `details.candidates` when nothing "
    "passes `threshold` (default 0.8)."
)


@router.get(
    "/api/v1/companies/resolve",
    response_model=Envelope[Resolved],
    summary="Resolve",
    description=_RESOLVE_DESC,
)
def resolve_get(
    request: Request,
    conn: ReadConn,
    _key: ApiKey,
    index: SearchIndex,
    q: Annotated[str, Query(min_length=1, max_length=300)],
    country: Country = None,
    threshold: Annotated[float, Query(ge=0, le=1)] = resolve_svc.RESOLVE_THRESHOLD,
) -> Response:
    return _resolve(request, conn, index, ResolveIn(q=q, country=country, threshold=threshold))


@router.post(
    "/api/v1/companies/resolve",
    response_model=Envelope[Resolved],
    summary="Resolve",
    description=_RESOLVE_DESC + ' Body: `{"q": …, "country"?: …, "threshold"?: …}`.',
)
def resolve_post(
    request: Request, conn: ReadConn, _key: ApiKey, index: SearchIndex, body: ResolveIn
) -> Response:
    return _resolve(request, conn, index, body)


class Identifiers(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    national_id: str | None = Field(default=None, max_length=40)
    ico: str | None = Field(default=None, max_length=40)
    vat: str | None = Field(default=None, max_length=40)
    ic_dph: str | None = Field(default=None, max_length=40)
    dic: str | None = Field(default=None, max_length=40)
    lei: str | None = Field(default=None, max_length=40)


class MatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = Field(default=None, max_length=300)
    country: str | None = Field(default=None, min_length=2, max_length=2)
    address: str | None = Field(default=None, max_length=300)
    identifiers: Identifiers = Field(default_factory=Identifiers)
    limit: int = Field(default=5, ge=1, le=25)
    threshold: float = Field(default=0.85, ge=0, le=1)


def _identifier_errors(ids: Identifiers, country: str | None) -> list[dict[str, str]]:
    """Each identifier checked for its format and check digits; one detail per malformed field (a typo
    must not pass for an identifier that matched nothing)."""
    errors = []
    for field, value in ids.model_dump().items():
        if not value:
            continue
        try:
            if field in ("national_id", "ico") and not country:
                if not any(is_valid_national_id(cc, value) for cc in national_id_candidates(value)):
                    raise InvalidIdentifier(f"{value!r} is not a valid register number in any market")
            else:
                kind = "ico" if field == "national_id" else field
                parse_identifier(kind, value, country)
        except InvalidIdentifier as exc:
            errors.append({"field": f"identifiers.{field}", "in": "body", "message": exc.message})
    return errors


@router.post(
    "/api/v1/companies/match",
    response_model=Envelope[list[MatchCandidate]],
    summary="Match",
    description="Ranked candidates for a record `{name, country, address, identifiers{national_id, ico, "
    "vat, ic_dph, dic, lei}}`, each with `score` (0-1), `match` (score ≥ `threshold`) and the "
    "`features` that matched (name similarity, location, identifiers). Unknown fields answer 422, and "
    "so does each identifier that fails its format or check digits (`details` names each one; "
    "`national_id` and `ico` are checked for `country`, or for every market without it).",
    openapi_extra={
        "requestBody": {
            "content": {
                "application/json": {
                    "example": {
                        "name": "Slovnaft",
                        "country": "SK",
                        "address": "Vlčie hrdlo 1, Bratislava",
                        "identifiers": {"ico": "31 322 832"},
                    }
                }
            }
        }
    },
)
def match(
    request: Request, conn: ReadConn, _key: ApiKey, index: SearchIndex, body: Annotated[MatchIn, Body()]
) -> Response:
    bad = _identifier_errors(body.identifiers, _cc(body.country))
    if bad:
        raise ValidationFailed("Malformed identifier(s): " + ", ".join(e["field"] for e in bad), details=bad)
    ids = tuple(v for v in body.identifiers.model_dump().values() if v)
    if not (body.name or "").strip() and not ids:
        raise ValidationFailed(
            "Give a `name` or at least one identifier",
            details=[{"field": "name", "in": "body", "message": "name or identifiers required"}],
        )
    ev = resolve_svc.Evidence(body.name, _cc(body.country), body.address, ids)
    found = resolve_svc.candidates(conn, index, ev, body.limit)
    return ok(request, [c.read_model(body.threshold) for c in found], total=len(found))
