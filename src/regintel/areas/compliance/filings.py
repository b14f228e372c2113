"""Filed documents (`filed_statements`): the `/annual-reports` answer.

    from regintel.areas.compliance import filings

    filings.annual_reports(conn, row, limit) -> answer, or None when no register of filed documents of
    the company's country is imported (the route answers 501 with `missing_reason`)

A company of a covered country with nothing filed gets an empty list, never a 501.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.compliance import queries
from regintel.ingest.sources.sk_registeruz_filings import INFO as RUZ_FILINGS
from regintel.ingest.sources.sk_registeruz_units import RUZ_ID

Row = Mapping[str, Any]

# The register of filed documents of each country (source id).
REGISTERS = {"SK": RUZ_FILINGS.id}
MISSING = {
    "SK": "the Register účtovných závierok's filed statements are not imported (regintel import "
    "sk_registeruz_filings)",
}
NOT_COVERED = (
    "the Czech Sbírka listin, the Companies House filing history and the other registers of filed "
    "documents have no importer"
)
# The public pages of the RÚZ site (www.registeruz.sk/cruz-public), as the site links them.
RUZ_PAGE = "https://www.registeruz.sk/cruz-public/domain"
DEFAULT_LIMIT, MAX_LIMIT = 100, 500


def imported(conn: Connection, country: str) -> bool:
    source = REGISTERS.get(country)
    if source is None:
        return False
    return queries.last_import_at(conn, source) is not None


def missing_reason(country: str) -> str:
    if country in MISSING:
        return f"no register of filed documents of {country} is imported: {MISSING[country]}"
    return f"no register of filed documents of {country} is imported ({NOT_COVERED})"


def _document(r: Row) -> dict[str, Any]:
    sid = r["statement_id"]
    return {
        "statementId": sid,
        "periodFrom": r["period_from"],
        "periodTo": r["period_to"],
        "type": r["kind"],
        "consolidated": r["consolidated"],
        "compiledOn": r["compiled_on"].isoformat() if r["compiled_on"] else None,
        "updatedOn": r["updated_on"].isoformat() if r["updated_on"] else None,
        "channel": r["data_source"],
        "source": r["source"],
        "url": f"{RUZ_PAGE}/accountingclosure/show/{sid}",
        "reports": [
            {"reportId": str(i), "url": f"{RUZ_PAGE}/financialreport/show/{i}"} for i in r["report_ids"]
        ],
        "annualReportIds": [str(i) for i in r["annual_report_ids"]],
    }


def annual_reports(conn: Connection, row: Row, limit: int = DEFAULT_LIMIT) -> dict[str, Any] | None:
    country = row["country"]
    if not imported(conn, country):
        return None
    # A statement names its company by IČO or, in the current API, only by its RÚZ unit id, which the
    # unit's import stored as the company's `ruz_id` identifier.
    total, rows = queries.filed_of_company(conn, country, row["national_id"], row["id"], RUZ_ID, limit)
    return {
        "country": country,
        "nationalId": row["national_id"],
        "name": row["name"],
        "total": total,
        "documents": [_document(r) for r in rows],
    }
