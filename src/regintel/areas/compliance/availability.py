"""The compliance sections a server cannot answer, because the register they need is not imported.

Such a section answers 501 `NOT_IMPLEMENTED` naming the register (the project's rule for a part that
cannot be real on an install). For the API: the Postman collection files these requests apart, so that
"Run collection" runs what the server can answer (issue 16).

    from regintel.areas.compliance import availability

    availability.unavailable_sections(conn, company_row) -> {section: reason}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.compliance import debtors, filings

# Sections no importer exists for: 501 on every install. No open register of executions exists: the
# Slovak Register exekúcií and the Czech Centrální evidence exekucí answer per query for a fee.
NO_REGISTER = {
    "executions": "No register of executions is imported: the Slovak Register exekúcií and the Czech "
    "Centrální evidence exekucí are fee-based per query, with no open data",
}


def unavailable_sections(conn: Connection, row: Mapping[str, Any]) -> dict[str, str]:
    """Section (the path's last segment under `/companies/{ico}/`) → why it answers 501 for `row`."""
    out = {section: f"/{section}: {reason}" for section, reason in NO_REGISTER.items()}
    if debtors.debtors(conn, row) is None:
        out["debtors"] = f"/debtors: {debtors.missing_reason(row['country'])}"
    if not filings.imported(conn, row["country"]):
        out["annual-reports"] = f"/annual-reports: {filings.missing_reason(row['country'])}"
    return out
