"""The company's core fields, built from one `companies` row with no further query, in one place: the
compact record of list answers (bulk, by-identifier, advanced search) is these fields, and the full
record (`service.company_record`) is these fields with its sections."""

from __future__ import annotations

from regintel.areas.companies.schemas import Candidate, CompanySummary, NacePrimary, _CompanyCore
from regintel.domain.rows import Row


class CoreFields(_CompanyCore):
    """What the summary and the full record share, in their body's order (`nace` after `address`);
    not a read model of its own. The full record widens `nace` with its codes, keeping its place."""

    nace: NacePrimary


def core(row: Row) -> CoreFields:
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "ico": row["national_id"],
        "name": row["name"],
        "legalForm": {"code": row["legal_form"], "name": row["legal_form_name"]},
        "status": row["status"],
        "foundedOn": row["founded_on"],
        "dissolvedOn": row["dissolved_on"],
        "address": {
            "street": row["street"],
            "city": row["city"],
            "postalCode": row["postal_code"],
            "text": row["address_text"],
            "regionCode": row["region_code"],
            "districtCode": row["district_code"],
            "municipalityCode": row["municipality_code"],
            "nuts3": row["nuts3"],
        },
        "nace": {"primary": row["nace_primary"]},
        "sizeClass": row["size_class"],
        "employees": row["employees"],
        "vatId": row["vat_id"],
        "taxId": row["tax_id"],
        "lei": row["lei"],
        "inBankruptcy": bool(row["in_bankruptcy"]),
        "inRestructuring": bool(row["in_restructuring"]),
        "inLiquidation": bool(row["in_liquidation"]),
    }


def summary(row: Row) -> CompanySummary:
    return {**core(row), "updatedAt": row["updated_at"]}


def candidate(row: Row) -> Candidate:
    """How an ambiguous identifier's candidates are listed (as in 409 AMBIGUOUS_IDENTIFIER)."""
    return {"country": row["country"], "nationalId": row["national_id"], "name": row["name"]}
