"""The funds area's use cases: a company's EU projects, CORDIS projects, Czech subsidies and GBER awards
(spec 4.4) and its public EU-funds summary (spec 4.7). Other areas may call every public function here."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from sqlalchemy.engine import Connection

from . import queries
from .schemas import (
    Beneficiary,
    CompanyRef,
    CordisOrganisation,
    CordisProject,
    CzSubsidy,
    EuFundsSummary,
    EuProject,
    FundingProject,
    GberAward,
    Match,
    Period,
    SourceRef,
)

Page = tuple[int, list[Any], list[dict[str, Any]]]  # total, items, the catalogue entries of their sources
CORDIS_URL = "https://cordis.europa.eu/project/id/{id}"
TOP = 5


def _num(value: Decimal | None) -> float | None:
    return float(value) if value is not None else None


def _beneficiary(row: Mapping[str, Any]) -> Beneficiary:
    return Beneficiary(
        name=row["beneficiary_name"],
        nationalId=row["beneficiary_national_id"],
        vat=row["beneficiary_vat"],
        country=row["beneficiary_country"],
    )


def _common(row: Mapping[str, Any], source: str) -> dict[str, Any]:
    return {
        "match": Match(method=row["match_method"], score=row["match_score"]),
        "source": SourceRef(id=source, importedAt=row["imported_at"]),
    }


def _sources(
    conn: Connection, rows: list[Mapping[str, Any]], default: str | None = None
) -> list[dict[str, Any]]:
    ids = [r.get("source") or default for r in rows]
    return [dict(r) for r in queries.catalogue(conn, [i for i in ids if i])]


def eu_projects(conn: Connection, company: Mapping[str, Any], page: int, per_page: int) -> Page:
    """EU cohesion projects (Kohesio) and directly managed EU funds (FTS) the company received."""
    total, rows = queries.company_awards(
        conn, int(company["id"]), "eu_project", None, (page - 1) * per_page, per_page
    )
    items = [
        EuProject(
            id=r["id"],
            project=r["title"],
            programme=r["programme"],
            fund=r["fund"],
            amount=_num(r["amount"]),
            euContribution=_num(r["eu_amount"]),
            currency=r["currency"],
            period=Period(start=r["start_on"], end=r["end_on"]),
            year=r["year"],
            grantingBody=r["granting_body"],
            beneficiary=_beneficiary(r),
            link=r["link"],
            **_common(r, r["source"]),
        )
        for r in rows
    ]
    return total, items, _sources(conn, rows)


def cordis_projects(conn: Connection, company: Mapping[str, Any], page: int, per_page: int) -> Page:
    """Horizon 2020 and Horizon Europe projects the company takes part in, with its role and contribution."""
    total, rows = queries.company_participations(conn, int(company["id"]), (page - 1) * per_page, per_page)
    items = [
        CordisProject(
            projectId=r["project_id"],
            acronym=r["acronym"],
            title=r["title"],
            framework=r["framework"],
            fundingScheme=r["funding_scheme"],
            status=r["status"],
            period=Period(start=r["start_on"], end=r["end_on"]),
            totalCost=_num(r["project_total_cost"]),
            ecMaxContribution=_num(r["ec_max_contribution"]),
            role=r["role"],
            ecContribution=_num(r["ec_contribution"]),
            netEcContribution=_num(r["net_ec_contribution"]),
            organisationTotalCost=_num(r["total_cost"]),
            currency="EUR",
            participationEnded=r["ended"],
            organisation=CordisOrganisation(
                pic=r["organisation_id"],
                name=r["beneficiary_name"],
                vat=r["beneficiary_vat"],
                country=r["beneficiary_country"],
                sme=r["sme"],
                activityType=r["activity_type"],
            ),
            link=CORDIS_URL.format(id=r["project_id"]),
            **_common(r, "eu_cordis"),
        )
        for r in rows
    ]
    return total, items, _sources(conn, rows, "eu_cordis")


def cz_subsidies(conn: Connection, company: Mapping[str, Any], page: int, per_page: int) -> Page:
    """Czech subsidies (DotInfo) granted to the company."""
    total, rows = queries.company_awards(
        conn, int(company["id"]), "cz_subsidy", None, (page - 1) * per_page, per_page
    )
    items = [
        CzSubsidy(
            id=r["id"],
            subsidyNumber=r["record_key"],
            title=r["title"],
            purpose=r["objective"],
            programme=r["programme"],
            provider=r["granting_body"],
            amountApproved=_num(r["amount"]),
            currency=r["currency"],
            grantedOn=r["granted_on"],
            year=r["year"],
            recipient=_beneficiary(r),
            **_common(r, r["source"]),
        )
        for r in rows
    ]
    return total, items, _sources(conn, rows)


def gber_awards(conn: Connection, company: Mapping[str, Any], page: int, per_page: int) -> Page:
    """State aid the company was granted under the General Block Exemption Regulation."""
    total, rows = queries.company_awards(
        conn, int(company["id"]), "state_aid", "GBER", (page - 1) * per_page, per_page
    )
    items = [
        GberAward(
            id=r["id"],
            reference=r["record_key"],
            saNumber=r["measure"],
            measureTitle=r["title"],
            measureType=r["measure_type"],
            instrument=r["fund"],
            objective=r["objective"],
            nominalAmount=_num(r["amount"]),
            aidElement=_num(r["aid_element"]),
            currency=r["currency"],
            grantedOn=r["granted_on"],
            grantingAuthority=r["granting_body"],
            region=r["region"],
            nace=r["nace"],
            beneficiary=_beneficiary(r),
            link=r["link"],
            **_common(r, r["source"]),
        )
        for r in rows
    ]
    return total, items, _sources(conn, rows)


def eu_funds_summary(conn: Connection, company: Mapping[str, Any]) -> EuFundsSummary:
    """How many EU-funded projects the company has, their EU contributions added up, and the five largest."""
    rows = queries.eu_funding(conn, int(company["id"]))
    total = sum((r["eu_amount"] for r in rows if r["eu_amount"] is not None), Decimal(0))
    top = [
        FundingProject(
            source=r["source"],
            title=r["title"],
            programme=r["programme"],
            euContribution=_num(r["eu_amount"]),
            currency="EUR",
            period=Period(start=r["start_on"], end=r["end_on"]),
            link=r["link"],
        )
        for r in rows[:TOP]
    ]
    return EuFundsSummary(
        company=CompanyRef(
            country=company["country"], nationalId=company["national_id"], name=company["name"]
        ),
        projects=len(rows),
        euContribution=float(total),
        currency="EUR",
        topProjects=top,
    )
