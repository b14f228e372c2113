"""Compliance routes of spec 4.4 (docs/compliance.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, DbConn, ReadConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.areas.compliance import debtors as debtors_svc
from regintel.areas.compliance import exposure as exposure_svc
from regintel.areas.compliance import filings as filings_svc
from regintel.areas.compliance import full as full_svc
from regintel.areas.compliance import risk as risk_svc
from regintel.areas.compliance import schemas, service
from regintel.areas.compliance.availability import NO_REGISTER
from regintel.errors import NotImplementedYet, RegintelError

router = APIRouter(prefix="/api/v1/companies", tags=["Compliance"], route_class=StrictRoute)


def _meta(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"country": row["country"], "national_id": row["national_id"]}


@router.get(
    "/{ico}/compliance",
    response_model=Envelope[schemas.Summary],
    summary="Unified KYC/KYB summary",
    description="Identity, register status, insolvency flags, sanctions (identifier-confirmed hits apart "
    "from name-only candidates), beneficial ownership known or not (and why), tax reliability (the "
    "Czech VAT payer register; `unknown` with the reason elsewhere), NIS2 scope and credit grade, each "
    "with its source, date and, when unknown, the reason.",
)
def compliance(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, service.summary(conn, row), **_meta(row))


@router.get(
    "/{ico}/compliance-dd",
    response_model=Envelope[schemas.DueDiligence],
    summary="Compliance due diligence",
    description="A due-diligence checklist built from the compliance summary and the filing obligation: "
    "each check `passed`, `failed` or `unknown` (an unknown input never passes) with its finding and red "
    "flags (`warning`, `critical`). The rules are documented in docs/compliance.md.",
)
def compliance_dd(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, service.due_diligence(conn, row), **_meta(row))


@router.post(
    "/bulk-compliance",
    response_model=Envelope[schemas.Bulk],
    summary="Portfolio compliance check",
    description=f'At most {schemas.MAX_BULK} companies, each `{{"country", "id"}}` (or `ico` for '
    "`id`): the compliance summary of each, or its own error (NOT_FOUND, VALIDATION_ERROR), in input "
    "order. A bad item never fails the call; a malformed body does (422).",
)
def bulk_compliance(request: Request, body: schemas.BulkIn, conn: ReadConn, _key: ApiKey) -> Response:
    items: list[dict[str, Any]] = []
    rows: list[Mapping[str, Any]] = []
    for i, target in enumerate(body.companies):
        nid = target.id if target.id is not None else target.ico
        try:
            row = companies_svc.get_company_row(conn, target.country, nid or "")
        except RegintelError as exc:
            items.append(
                {
                    "index": i,
                    "country": target.country.upper(),
                    "nationalId": nid,
                    "ok": False,
                    "summary": None,
                    "error": {"code": exc.code, "message": exc.message},
                }
            )
            continue
        rows.append(row)
        items.append(
            {
                "index": i,
                "country": row["country"],
                "nationalId": row["national_id"],
                "ok": True,
                "summary": None,
                "error": None,
            }
        )
    done = iter(service.summaries(conn, rows))
    for it in items:
        if it["ok"]:
            it["summary"] = next(done)
    found = sum(1 for i in items if i["ok"])
    return ok(request, {"items": items, "found": found, "errors": len(items) - found})


@router.get(
    "/{ico}/full",
    response_model=Envelope[schemas.Full],
    summary="Aggregate of the main sections",
    description="Company record, financial history, credit score, risk, relations, ultimate owner, "
    "sanctions, NIS2 scope, timeline head, bank accounts, public contracts, compliance summary, "
    "obligations and screening hits in one call: each section `present` or absent with a `reason` (one "
    "failing section never fails the call), with its own `durationMs`.",
)
def full(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, full_svc.full(conn, row), **_meta(row))


@router.get(
    "/{ico}/supplier-risk",
    response_model=Envelope[schemas.SupplierRisk],
    summary="Supplier risk",
    description="The risk score with its drivers, the due-diligence verdict and its red flags, rolled "
    "into `low`, `review` or `high` (rules in docs/compliance.md).",
)
def supplier_risk(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, risk_svc.supplier_risk(conn, row), **_meta(row))


@router.get(
    "/{ico}/supply-chain-risk",
    response_model=Envelope[schemas.SupplyChainRisk],
    summary="Supply-chain risk",
    description=f"The company's risk and that of each company linked by ownership (shareholders, "
    f"holdings, corporate directors; at most {risk_svc.MAX_LINKS}), with insolvency flags and sanctions "
    "status. No supplier-link register is imported, so links are ownership links only.",
)
def supply_chain_risk(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, risk_svc.supply_chain_risk(conn, row), **_meta(row))


@router.get(
    "/{ico}/obligations",
    response_model=Envelope[schemas.Obligations],
    summary="Obligations",
    description="Filing obligations with deadlines: the next annual financial statement after the "
    "latest year we hold, its deadline under the country's law (CZ, SK, GB, NO, PL; cited in "
    "`legalBasis`) and whether it is overdue; `unknown` for other countries.",
)
def obligations(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, risk_svc.obligations(conn, row), **_meta(row))


@router.get(
    "/{ico}/vat-liability-check",
    response_model=Envelope[schemas.VatLiability],
    summary="VAT liability check",
    description="VAT registration (from the register's VAT id or the VAT payer register), unreliable-"
    "payer status and the bank accounts published for VAT purposes (Czech ADIS, Polish white list where "
    "imported); `unknown` with the reason where no register is imported. Tax debt is `unknown`: no "
    "tax-debtor list is imported.",
)
def vat_liability_check(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, risk_svc.vat_liability(conn, row), **_meta(row))


def _missing(section: str) -> Any:
    def handler(_key: ApiKey, row: CompanyRow) -> Response:
        raise NotImplementedYet(f"/{section}: {NO_REGISTER[section]}; this section is not available")

    handler.__name__ = section.replace("-", "_")
    return handler


for _section in NO_REGISTER:
    router.add_api_route(
        f"/{{ico}}/{_section}",
        _missing(_section),
        methods=["GET"],
        summary=_section.replace("-", " ").capitalize(),
        description=f"501 NOT_IMPLEMENTED: {NO_REGISTER[_section]}.",
        responses={501: {"description": "The register is not imported"}},
    )


@router.get(
    "/{ico}/debtors",
    response_model=Envelope[schemas.Debtors],
    summary="Unified social-insurance and health-insurer debtors",
    description="The company's entries on the published debtor lists of its country: the Slovak "
    "Sociálna poisťovňa, the health insurers (VšZP, Dôvera, Union) and the Financial Administration's tax "
    "debtors; current entries (on the newest list of each creditor) and past ones (delisted), each with "
    "the amount as listed and the list dates. 501 NOT_IMPLEMENTED naming the missing lists when none "
    "covering the company's country is imported.",
    responses={501: {"description": "No debtor list of the company's country is imported"}},
)
def debtors(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    answer = debtors_svc.debtors(conn, row)
    if answer is None:
        raise NotImplementedYet(f"/debtors: {debtors_svc.missing_reason(row['country'])}")
    return ok(request, answer, **_meta(row))


@router.get(
    "/{ico}/annual-reports",
    response_model=Envelope[schemas.AnnualReports],
    summary="Filed documents",
    description="The statements the company filed in its country's register of filed documents (the "
    "Slovak Register účtovných závierok), newest period first: period, type, consolidated or not, the "
    "date drawn up to and of the register's last change, and the public pages of the statement and of "
    "each report filed in it. An empty list when none is filed; 501 NOT_IMPLEMENTED naming the register "
    "when none of the company's country is imported.",
    responses={501: {"description": "No register of filed documents of the company's country is imported"}},
)
def annual_reports(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    row: CompanyRow,
    limit: Annotated[int, Query(ge=1, le=filings_svc.MAX_LIMIT)] = filings_svc.DEFAULT_LIMIT,
) -> Response:
    answer = filings_svc.annual_reports(conn, row, limit)
    if answer is None:
        raise NotImplementedYet(f"/annual-reports: {filings_svc.missing_reason(row['country'])}")
    return ok(request, answer, **_meta(row))


@router.get(
    "/{ico}/exposure",
    response_model=Envelope[schemas.Exposure],
    summary="Exposure to troubled counterparties",
    description="The companies linked by current ownership and board relations (owners, holdings, "
    "corporate directors) with their distress signals (bankruptcy, restructuring, liquidation, "
    "dissolution, identifier-confirmed sanctions hit, current debtor-list entries), and the concentration "
    "of the company's public contracts by buyer (top shares, HHI); rolled into `low`, `elevated` or "
    "`high` by the rules of docs/compliance.md, with the inputs that could not be read in `unknown`.",
)
def exposure(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, exposure_svc.exposure(conn, row), **_meta(row))
