"""Relinking after a company import (docs/funds.md, "Linking"): beneficiaries stored without a company
are resolved again by the import's `Linker` (register number, VAT number, then name at `LINK_THRESHOLD`),
DotInfo's IČO staying authoritative as at import."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, Table
from sqlalchemy.engine import RowMapping

from regintel.db.relink import Found, relink_rows, summary
from regintel.ingest.sources.funds_records import Beneficiary
from regintel.search.base import SearchBackend

from .linking import Linker
from .tables import cordis_participants, fund_awards
from .writing import AUTHORITATIVE_IDS


def relink(engine: Engine, backend: SearchBackend | None, country: str | None = None) -> dict[str, Any]:
    """Resolve this area's unlinked beneficiaries again (only those of `country` when given)."""
    result: dict[str, tuple[int, int, int]] = {}
    with engine.connect().execution_options(sqlite_immediate=True) as conn:
        linker = Linker(conn, backend)

        def beneficiary(row: RowMapping) -> Beneficiary:
            return Beneficiary(
                row["beneficiary_name"],
                row["beneficiary_country"],
                national_id=row["beneficiary_national_id"],
                vat=row["beneficiary_vat"],
                city=row["beneficiary_city"],
            )

        def by_identifiers(row: RowMapping) -> Found | None:
            found = linker.by_identifiers(beneficiary(row))
            if found is None or found.company_id is None or found.method is None:
                return None
            return Found(found.company_id, found.method, float(found.score or 1.0))

        def link(row: RowMapping) -> Found | None:
            who = beneficiary(row)
            # CORDIS participations carry no source column: they are all eu_cordis, never authoritative.
            found = linker.link(who, id_is_authoritative=row.get("source") in AUTHORITATIVE_IDS)
            if found.company_id is None or found.method is None:
                return None
            return Found(found.company_id, found.method, float(found.score or 1.0))

        tables: tuple[Table, ...] = (fund_awards, cordis_participants)
        for table in tables:
            c = table.c
            columns = [
                c.beneficiary_name,
                c.beneficiary_country,
                c.beneficiary_national_id,
                c.beneficiary_vat,
                c.beneficiary_city,
                *([c.source] if "source" in c else []),
            ]
            result[table.name] = relink_rows(
                conn,
                table,
                [c.id],
                columns,
                link,
                c.beneficiary_country == country if country else None,
                by_identifier=by_identifiers,
            )
    return summary(result)
