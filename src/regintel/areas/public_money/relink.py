"""Relinking after a company import (docs/public-money.md, "Relinking"): records stored without a company
are resolved again, by the same `Linker` and threshold as at import, once new companies exist.

The loop over a table's unlinked rows is `db.relink.relink_rows`, which the funds and legal-records areas'
relinks run too."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import RowMapping

from regintel.db.relink import Found, relink_rows, summary
from regintel.domain.public_money import LinkDecision, Org
from regintel.search.base import SearchBackend

from .linking import Linker
from .loading import TED_SOURCES
from .queries import relink as queries


def _found(decision: LinkDecision | None) -> Found | None:
    if decision is None or decision.company_id is None or decision.method is None:
        return None
    return Found(decision.company_id, decision.method, float(decision.score or 1.0))


def relink(engine: Engine, backend: SearchBackend | None, country: str | None = None) -> dict[str, Any]:
    """Resolve this area's unlinked parties again (only those of `country` when given)."""
    result: dict[str, tuple[int, int, int]] = {}
    with engine.connect().execution_options(sqlite_immediate=True) as conn:
        linker = Linker(conn, backend)

        def org_link(row: RowMapping) -> Found | None:
            org = Org(
                ref="",
                name=row["name"],
                country=row["country"],
                national_id=row["national_id"],
                city=row["city"],
            )
            return _found(linker.link(org))

        def org_by_id(row: RowMapping) -> Found | None:
            return _found(linker.by_national_id(row["country"], row["national_id"]))

        for scope in queries.ted_party_scopes(country):
            result[scope.table.name] = relink_rows(
                conn, scope.table, scope.pk, scope.columns, org_link, scope.where, by_identifier=org_by_id
            )

        def contract_link(row: RowMapping) -> Found | None:
            city = None
            if row["source"] in TED_SOURCES:  # the winner's city, as the import had it
                city = queries.ted_winner_city(conn, row["record_key"], row["party_ref"])
            org = Org(
                ref=row["party_ref"],
                name=row["party_name"],
                country=row["party_country"],
                national_id=row["party_national_id"],
                city=city,
            )
            # The Czech and Slovak registers' IČO is authoritative, as at import (docs/public-money.md).
            return _found(linker.link(org, id_is_authoritative=row["source"] not in TED_SOURCES))

        scope = queries.contract_scope(country)
        result["contracts"] = relink_rows(
            conn,
            scope.table,
            scope.pk,
            scope.columns,
            contract_link,
            scope.where,
            by_identifier=lambda row: _found(
                linker.by_national_id(row["party_country"], row["party_national_id"])
            ),
        )

        def payer_link(row: RowMapping) -> Found | None:
            return _found(
                linker.by_national_id(row["country"], row["national_id"])
                or linker.by_vat_id(row["country"], row["vat_id"])
            )

        scope = queries.payer_scope(country)
        result["vat_payers"] = relink_rows(
            conn, scope.table, scope.pk, scope.columns, payer_link, scope.where
        )
    return summary(result)
