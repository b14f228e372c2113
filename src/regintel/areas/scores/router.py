"""Spec 4.4: `/companies/{ico}/financial-history`, `/credit-score`, `/credit`, `/risk`, `/peers`, `/similar`
and `POST /companies/{ico}/score-dispute`. The models are documented in docs/scores.md."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, DbConn, DbWriteConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies.service import resolve_ico
from regintel.areas.scores import disputes, peers, schemas, views

router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)

Ico = Annotated[str, Path(max_length=40, description="National identifier")]
Country = Annotated[
    str | None,
    Query(
        min_length=2,
        max_length=2,
        description="ISO 3166-1 alpha-2, any case (default: SK first; 409 when the "
        "identifier exists in several countries)",
    ),
]
_OPEN = (
    "The model is open: every factor, threshold and weight is in docs/scores.md, and the answer names the "
    "model version. "
)


def _meta(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"country": row["country"], "national_id": row["national_id"]}


@router.get(
    "/{ico}/financial-history",
    response_model=Envelope[schemas.FinancialHistory],
    summary="Multi-year financial trends",
    description="Every statement year, newest first (one statement per year: the last written when two "
    "sources report the same year), with revenue, profit, total assets, equity, liabilities and employees "
    "in the statement's currency and in euro at the ECB reference rate of the period's last month end "
    "(rate and date given; null for a currency the ECB does not quote), and the ratios: net margin, "
    "return on assets, equity ratio, debt ratio, leverage, asset turnover, growth against the year "
    "before, liquidity and the Altman Z''-score where the statement has their inputs.",
)
def financial_history(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, views.financial_history(conn, row), **_meta(row))


@router.get(
    "/{ico}/credit-score",
    response_model=Envelope[schemas.CreditScoreOut],
    summary="Composite 0-100, A-F grade, factor breakdown",
    description=_OPEN + "Ten factors (financial strength with the Altman Z''-score where computable, "
    "profitability, liquidity, payment discipline, age, size, legal events, insolvency, sanctions, tax "
    "reliability), each with its weight, value, points and evidence (input, date, source). Factors "
    "without data are listed in `missing_inputs` and lower `confidence`; they never count as good. "
    "Without any financial statement the score and grade are withheld (`withheld_reason`) unless a "
    "knock-out state (bankruptcy, dissolution, liquidation, restructuring) caps it.",
)
def credit_score(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, views.credit_score(conn, row), **_meta(row))


@router.get(
    "/{ico}/credit",
    response_model=Envelope[schemas.CreditOut],
    summary="Credit",
    description=_OPEN + "The current grade, a credit limit recommendation (min(revenue / 12, equity / 2) "
    "of the latest statement times the grade's share, in the statement's currency and in euro) and the "
    "grade's history: the same model run on each statement year with the data of that year.",
)
def credit(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, views.credit(conn, row), **_meta(row))


@router.get(
    "/{ico}/risk",
    response_model=Envelope[schemas.RiskOut],
    summary="Risk score 0-100",
    description=_OPEN + "0 means no sign of risk; each driver that applies (insolvency states, "
    "dissolution, negative equity, losses, falling revenue, a young company, no recent statement …) adds "
    "its points, capped at 100. `checked` lists every driver evaluated; drivers whose data does not exist "
    "yet (sanctions, tax lists, debtor lists) are in `missing_inputs`.",
)
def risk(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, views.risk(conn, row), **_meta(row))


@router.get(
    "/{ico}/peers",
    response_model=Envelope[schemas.PeersOut],
    summary="Industry benchmarks by NACE",
    description="The company's ratios (net margin, return on assets, equity ratio, debt ratio, asset "
    "turnover, revenue, revenue per employee) against the quartiles of the active companies of its NACE "
    "class, country, EU size class and statement currency (the NACE division when the class has fewer "
    "than 5), with the peer count. `group.basis` says whether the quartiles were precomputed (and when) "
    "or computed for this request.",
)
def peer_benchmarks(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, peers.peers(conn, row), **_meta(row))


@router.get(
    "/{ico}/similar",
    response_model=Envelope[schemas.SimilarOut],
    summary="Competitors",
    description="Active companies of the same NACE class (then division) and comparable size (revenue in "
    "euro within a third and three times this company's, or headcount when revenue is unknown), nearest "
    "in size first, each with the reasons. `scope`: `region` (same NUTS 3 region), `country` (default) "
    "or `world`.",
)
def similar(
    request: Request,
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    country: Country = None,
    scope: Annotated[Literal["region", "country", "world"], Query()] = "country",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    row = resolve_ico(conn, ico, country)
    return ok(request, peers.similar(conn, row, scope, limit), **_meta(row))


@router.post(
    "/{ico}/score-dispute",
    status_code=201,
    response_model=Envelope[schemas.DisputeOut],
    summary="Dispute a score",
    description="File a dispute of the company's credit or risk score (optionally of one factor or driver, "
    "with a link to evidence). It is stored with the score, grade and model version it disputes and "
    "answered with its id and status `received`; the record is tied to the key that filed it.",
)
def score_dispute(
    request: Request,
    ico: Ico,
    body: schemas.DisputeIn,
    conn: DbWriteConn,
    caller: ApiKey,
    country: Country = None,
) -> Response:
    row = resolve_ico(conn, ico, country)
    data = disputes.file_dispute(conn, caller.key.id, row, body)
    conn.commit()
    return ok(request, data, status_code=201, **_meta(row))
