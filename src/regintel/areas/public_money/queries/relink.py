"""What the relink after a company import reads (`relink.py`): each table's key, the columns its link
takes and the rows it tries, and a TED winner's city as imported."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    Column,
    Table,
    and_,
    or_,
    select,
    true,
)
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from ..tables import (
    contracts,
    ted_buyers,
    ted_notices,
    ted_winners,
    vat_payers,
)


def ted_winner_city(conn: Connection, notice_id: str, party_ref: str) -> str | None:
    """The city of a TED notice's winner as imported (`party_ref` is `<lot id>:<organisation ref>`)."""
    w = ted_winners.c
    query = (
        select(w.city)
        .join(ted_notices, ted_notices.c.id == w.notice_pk)
        .where(ted_notices.c.notice_id == notice_id, w.lot_id + ":" + w.org_ref == party_ref)
    )
    return cast(str | None, conn.execute(query).scalar())


@dataclass(frozen=True)
class Scope:
    """One table as `db.relink.relink_rows` takes it: the key, the columns the link reads, the rows tried
    (every unlinked row when None)."""

    table: Table
    pk: list[Column[Any]]
    columns: list[ColumnElement[Any]]
    where: ColumnElement[bool] | None


def ted_party_scopes(country: str | None) -> list[Scope]:
    """TED winners, then buyers, of `country` (every country when None), by name, country, id and city."""
    return [
        Scope(
            table,
            list(table.primary_key.columns),
            [table.c.name, table.c.country, table.c.national_id, table.c.city],
            in_country(table.c.country, country),
        )
        for table in (ted_winners, ted_buyers)
    ]


def contract_scope(country: str | None) -> Scope:
    """Contract parties of `country`, with the record's source and key (a TED winner's city is looked up)."""
    c = contracts.c
    return Scope(
        contracts,
        [c.id],
        [c.source, c.record_key, c.party_ref, c.party_name, c.party_country, c.party_national_id],
        in_country(c.party_country, country),
    )


def payer_scope(country: str | None) -> Scope:
    """The VAT payers `relinkable_payers` names, by national id and VAT id."""
    v = vat_payers.c
    return Scope(vat_payers, [v.id], [v.country, v.national_id, v.vat_id], relinkable_payers(country))


def in_country(column: ColumnElement[Any], country: str | None) -> ColumnElement[bool] | None:
    """The relink's scope: rows whose `column` is `country` (every row when None)."""
    return column == country if country else None


def relinkable_payers(country: str | None) -> ColumnElement[bool]:
    """The payers a relink tries: Slovak payers are named by IČ DPH alone, so the company's stored IČ DPH
    or DIČ links them; other countries' need a national id."""
    v = vat_payers.c
    return and_(
        or_(v.national_id.is_not(None), v.country == "SK"),
        v.country == country if country else true(),
    )
