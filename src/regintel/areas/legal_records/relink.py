"""Relinking after a company import (docs/legal-records.md, "Linking"): parties stored without a company
are resolved again by the import's `Linker` (IČO, then name at `NAME_THRESHOLD` with the address's
municipality); e-Sbírka mentions by IČO only, as at import."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, literal
from sqlalchemy.engine import RowMapping

from regintel.db.relink import Found, relink_rows, summary
from regintel.search.base import SearchBackend

from .linking import Link, Linker
from .records import Party
from .tables import antitrust_parties, court_decision_parties, ipkz_installations, sbirka_mentions


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

        d = court_decision_parties.c
        result["court_decision_parties"] = relink_rows(
            conn,
            court_decision_parties,
            [d.decision_pk, d.position],
            [d.name, d.national_id, d.country],
            party_link,
            d.country == country if country else None,
            by_identifier=party_by_id,
        )
        a = antitrust_parties.c
        result["antitrust_parties"] = relink_rows(
            conn,
            antitrust_parties,
            [a.case_pk, a.position],
            [a.name, a.national_id, a.country, a.address],
            party_link,
            a.country == country if country else None,
            by_identifier=party_by_id,
        )
        if country in (None, "SK"):  # the IPKZ register's operators are Slovak
            i = ipkz_installations.c
            result["ipkz_installations"] = relink_rows(
                conn,
                ipkz_installations,
                [i.id],
                [
                    i.operator_name.label("name"),
                    i.operator_national_id.label("national_id"),
                    literal("SK").label("country"),
                    i.operator_address.label("address"),
                ],
                party_link,
                by_identifier=party_by_id,
            )
        if country in (None, "CZ"):  # mentions are found by IČO in Czech acts: by number only
            m = sbirka_mentions.c

            def mention_link(row: RowMapping) -> Found | None:
                return _found(
                    linker.link(
                        Party(name=row["name"], national_id=row["national_id"], country="CZ"), by_name=False
                    )
                )

            result["sbirka_mentions"] = relink_rows(
                conn,
                sbirka_mentions,
                [m.act_pk, m.position],
                [m.name, m.national_id],
                mention_link,
                m.national_id.is_not(None),
            )
    return summary(result)
