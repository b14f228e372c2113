"""What the importer reads and writes: row counts, stored notices, contracts and payers, their
replacement and deletion (in 500s)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any, cast

from sqlalchemy import (
    Row,
    Table,
    delete,
    distinct,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection

from ..tables import (
    bank_accounts,
    contracts,
    ted_buyers,
    ted_lots,
    ted_notice_cpv,
    ted_notices,
    ted_winners,
    vat_payers,
)


def notice_count(conn: Connection, source: str) -> int:
    query = select(func.count()).select_from(ted_notices).where(ted_notices.c.source == source)
    return int(conn.execute(query).scalar_one())


def payer_count(conn: Connection, source: str) -> int:
    query = select(func.count()).select_from(vat_payers).where(vat_payers.c.source == source)
    return int(conn.execute(query).scalar_one())


def contract_count(conn: Connection, source: str) -> int:
    """The contracts (records, not party rows) a source holds."""
    query = select(func.count(distinct(contracts.c.record_key))).where(contracts.c.source == source)
    return int(conn.execute(query).scalar_one())


def insert_rows(conn: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """Insert `rows` into one of the area's tables in one statement (many parameter sets)."""
    conn.execute(table.insert(), list(rows))


def stored_notice(conn: Connection, notice_id: str) -> Row[Any, Any] | None:
    """`(id, content_hash)` of the stored notice, if any."""
    n = ted_notices.c
    return conn.execute(select(n.id, n.content_hash).where(n.notice_id == notice_id)).first()


def insert_notice(conn: Connection, values: Mapping[str, Any]) -> int:
    return int(conn.execute(ted_notices.insert().values(**values).returning(ted_notices.c.id)).scalar_one())


def replace_notice(
    conn: Connection, pk: int, notice_id: str, sources: Iterable[str], values: Mapping[str, Any]
) -> None:
    """Remove a stored notice's parts and its contracts (of `sources`), and write its new values."""
    for table in (ted_notice_cpv, ted_lots, ted_buyers, ted_winners):
        conn.execute(delete(table).where(table.c.notice_pk == pk))
    conn.execute(
        delete(contracts).where(contracts.c.source.in_(sources), contracts.c.record_key == notice_id)
    )
    conn.execute(update(ted_notices).where(ted_notices.c.id == pk).values(**values))


def stored_contract_rows(conn: Connection, source: str, keys: Sequence[str]) -> list[Row[Any, Any, Any]]:
    """`(record_key, record_hash, record_version)` of the source's rows of these contracts, 500 keys to a
    query."""
    c = contracts.c
    rows: list[Row[Any, Any, Any]] = []
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        rows.extend(
            conn.execute(
                select(c.record_key, c.record_hash, c.record_version).where(
                    c.source == source, c.record_key.in_(chunk)
                )
            )
        )
    return rows


def delete_contracts(conn: Connection, source: str, keys: Sequence[str]) -> None:
    """Delete the source's rows of these contracts, 500 keys to a statement."""
    for start in range(0, len(keys), 500):
        conn.execute(
            delete(contracts).where(
                contracts.c.source == source, contracts.c.record_key.in_(keys[start : start + 500])
            )
        )


def stored_payer(conn: Connection, country: str, vat_id: str) -> Row[Any, Any, Any] | None:
    """`(id, record_hash, answered_on)` of the stored VAT payer, if any."""
    p = vat_payers.c
    query = select(p.id, p.record_hash, p.answered_on).where(p.country == country, p.vat_id == vat_id)
    return conn.execute(query).first()


def insert_payer(conn: Connection, values: Mapping[str, Any]) -> int:
    return int(conn.execute(vat_payers.insert().values(**values).returning(vat_payers.c.id)).scalar_one())


def replace_payer(conn: Connection, pk: int, values: Mapping[str, Any]) -> None:
    """Write a stored payer's new values and remove its accounts (the caller writes the new ones)."""
    conn.execute(update(vat_payers).where(vat_payers.c.id == pk).values(**values))
    conn.execute(delete(bank_accounts).where(bank_accounts.c.payer_id == pk))


def newest_answer(conn: Connection, source: str, country: str) -> date | None:
    """The newest `answered_on` of the source's payers of `country`."""
    p = vat_payers.c
    query = select(func.max(p.answered_on)).where(p.source == source, p.country == country)
    return cast(date | None, conn.execute(query).scalar())


def payers_answered_before(conn: Connection, source: str, country: str, as_of: date) -> list[tuple[int, str]]:
    """`(id, vat_id)` of the source's payers of `country` answered before `as_of` (or never)."""
    p = vat_payers.c
    query = select(p.id, p.vat_id).where(
        p.source == source, p.country == country, or_(p.answered_on.is_(None), p.answered_on < as_of)
    )
    return [(int(r.id), r.vat_id) for r in conn.execute(query)]


def delete_payers(conn: Connection, ids: Sequence[int]) -> None:
    """Delete these payers and their accounts, 500 to a statement."""
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        conn.execute(delete(bank_accounts).where(bank_accounts.c.payer_id.in_(chunk)))
        conn.execute(delete(vat_payers).where(vat_payers.c.id.in_(chunk)))
