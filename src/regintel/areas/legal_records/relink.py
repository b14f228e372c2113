"""Relinking after a company import (docs/legal-records.md, "Linking"): parties stored without a company
are resolved again by the import's `Linker` (IČO, then name at `NAME_THRESHOLD` with the address's
municipality); e-Sbírka mentions by IČO only, as at import."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import RowMapping

from regintel.db.relink import Found, summary
from regintel.search.base import SearchBackend

from . import queries
from .linking import Link, Linker
from .records import Party


def _found(link: Link) -> Found | None:
    if link.company_id is None or link.method is None:
        return None
    return Found(link.company_id, link.method, float(link.score or 1.0))


def relink(engine: Engine, backend: SearchBackend | None, country: str | None = None) -> dict[str, Any]:
    """Resolve this area's unlinked parties again (only those of `country` when given), and its parties
    linked by name again by IČO alone: a company holding the party's IČO replaces the name match."""
    result: dict[str, tuple[int, int, int]] = {}
    with engine.connect().execution_options(sqlite_immediate=True) as conn:
        linker = Linker(conn, backend)

        def party(row: RowMapping) -> Party:
            return Party(
                name=row["name"],
                national_id=row["national_id"],
                country=row["country"],
                address=row.get("address"),
            )

        def party_link(row: RowMapping) -> Found | None:
            return _found(linker.link(party(row)))

        def party_by_id(row: RowMapping) -> Found | None:
            return _found(linker.link(party(row), by_name=False))

        result["court_decision_parties"] = queries.relink_court_parties(
            conn, party_link, party_by_id, country
        )
        result["antitrust_parties"] = queries.relink_antitrust_parties(conn, party_link, party_by_id, country)
        if country in (None, "SK"):  # the IPKZ register's operators are Slovak
            result["ipkz_installations"] = queries.relink_ipkz_operators(conn, party_link, party_by_id)
        if country in (None, "CZ"):  # mentions are found by IČO in Czech acts: by number only

            def mention_link(row: RowMapping) -> Found | None:
                return _found(
                    linker.link(
                        Party(name=row["name"], national_id=row["national_id"], country="CZ"), by_name=False
                    )
                )

            result["sbirka_mentions"] = queries.relink_sbirka_mentions(conn, mention_link)
    return summary(result)
