"""The public-money area's SQL: TED search and detail, a company's contracts, VAT payers and bank accounts,
and what the importer and the relink read and write."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    Row,
    Select,
    Table,
    and_,
    delete,
    distinct,
    exists,
    func,
    literal,
    or_,
    select,
    true,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from regintel.db.schema import companies, identifiers

from .tables import (
    bank_accounts,
    contracts,
    ted_buyers,
    ted_lots,
    ted_notice_cpv,
    ted_notices,
    ted_winners,
    vat_payers,
)

SUPPLIER_ROLES = ("supplier", "counterparty")


def _rows(result: Iterable[Any]) -> list[Mapping[str, Any]]:
    """Row mappings as the plain mappings the services take."""
    return list(cast(Iterable[Mapping[str, Any]], result))


@dataclass(frozen=True)
class TedFilters:
    country: str | None = None
    cpv_prefix: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    value_min: Decimal | None = None
    value_max: Decimal | None = None
    currency: str | None = None
    buyer_name: str | None = None  # normalised, matched as a substring
    winner_name: str | None = None


def _party(table: Any, name: str) -> ColumnElement[bool]:
    return exists().where(
        table.c.notice_pk == ted_notices.c.id, table.c.name_norm.like(f"%{_escape(name)}%", escape="\\")
    )


def _prefix_range(column: Any, prefix: str) -> list[ColumnElement[bool]]:
    """`column LIKE 'prefix%'` for digit strings as a range, which a plain b-tree index serves on both
    backends (PostgreSQL uses an index for LIKE only under the C collation or with pattern_ops)."""
    out = [column >= prefix]
    digits = prefix.rstrip("9")
    if digits:
        out.append(column < digits[:-1] + str(int(digits[-1]) + 1))
    return out


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _only_cpv_country_dates(f: TedFilters) -> bool:
    return all(v is None for v in (f.value_min, f.value_max, f.currency, f.buyer_name, f.winner_name))


def _cpv_entries(prefix: str, f: TedFilters) -> list[ColumnElement[bool]]:
    """The `ted_notice_cpv` entries a CPV filter matches, narrowed by country and period when given: one
    range of `ix_ted_notice_cpv_search` (division, country, issue date), whatever the number of notices."""
    c = ted_notice_cpv.c
    out = [c.division == prefix[:2], *_prefix_range(c.cpv, prefix)]
    if f.country:
        out.append(c.country == f.country)
    if f.date_from is not None:
        out.append(c.issue_date >= f.date_from)
    if f.date_to is not None:
        out.append(c.issue_date <= f.date_to)
    return out


def _where(f: TedFilters) -> list[ColumnElement[bool]]:
    n = ted_notices.c
    out: list[ColumnElement[bool]] = []
    if f.country:
        out.append(n.country == f.country)
    if f.cpv_prefix:
        out.append(n.id.in_(select(ted_notice_cpv.c.notice_pk).where(*_cpv_entries(f.cpv_prefix, f))))
    for column, op_value in ((n.issue_date, (f.date_from, f.date_to)), (n.value, (f.value_min, f.value_max))):
        low, high = op_value
        if low is not None:
            out.append(column >= low)
        if high is not None:
            out.append(column <= high)
    if f.currency:
        out.append(n.currency == f.currency)
    if f.buyer_name:
        out.append(_party(ted_buyers, f.buyer_name))
    if f.winner_name:
        out.append(_party(ted_winners, f.winner_name))
    return out


def search_notices(
    conn: Connection, f: TedFilters, offset: int, limit: int
) -> tuple[int, list[Mapping[str, Any]]]:
    """(total, one page newest first). With a CPV filter and no other filter than country and period, the
    count and the page's ids come from `ix_ted_notice_cpv_search` alone, so their cost follows the matches,
    not the notices of the country and period; the page's rows are then read by id."""
    n = ted_notices.c
    if f.cpv_prefix and _only_cpv_country_dates(f):
        c = ted_notice_cpv.c
        entries = _cpv_entries(f.cpv_prefix, f)
        total = conn.execute(select(func.count(func.distinct(c.notice_pk))).where(*entries)).scalar_one()
        page = (
            select(c.notice_pk, c.issue_date)
            .where(*entries)
            .distinct()
            .order_by(c.issue_date.desc(), c.notice_pk.desc())
        )
    else:
        where = _where(f)
        total = conn.execute(select(func.count()).select_from(ted_notices).where(*where)).scalar_one()
        page = select(n.id).where(*where).order_by(n.issue_date.desc(), n.id.desc())
    ids = [int(r[0]) for r in conn.execute(page.offset(offset).limit(limit))]
    if not ids:
        return int(total), []
    rows = (
        conn.execute(select(ted_notices).where(n.id.in_(ids)).order_by(n.issue_date.desc(), n.id.desc()))
        .mappings()
        .all()
    )
    return int(total), _rows(rows)


def find_notice(conn: Connection, pub: str) -> Mapping[str, Any] | None:
    """By TED publication number or by notice id (a notice not yet published has only the latter)."""
    row = (
        conn.execute(
            select(ted_notices).where(
                or_(ted_notices.c.publication_number == pub, ted_notices.c.notice_id == pub)
            )
        )
        .mappings()
        .first()
    )
    return cast(Mapping[str, Any] | None, row)


def _company_columns() -> list[Any]:
    return [
        companies.c.country.label("company_country"),
        companies.c.national_id.label("company_national_id"),
        companies.c.name.label("company_name"),
    ]


def parties(conn: Connection, table: Any, notice_pks: Sequence[int]) -> list[Mapping[str, Any]]:
    """Buyers or winners of these notices with the company each is linked to."""
    if not notice_pks:
        return []
    query = (
        select(table, *_company_columns())
        .select_from(table.outerjoin(companies, companies.c.id == table.c.company_id))
        .where(table.c.notice_pk.in_(list(notice_pks)))
        .order_by(table.c.notice_pk, table.c.org_ref)
    )
    return _rows(conn.execute(query).mappings())


def lots(conn: Connection, notice_pk: int) -> list[Mapping[str, Any]]:
    return _rows(
        conn.execute(
            select(ted_lots).where(ted_lots.c.notice_pk == notice_pk).order_by(ted_lots.c.lot_id)
        ).mappings()
    )


def cpv_codes(conn: Connection, notice_pk: int) -> list[str]:
    return [
        str(c)
        for c in conn.execute(
            select(ted_notice_cpv.c.cpv)
            .where(ted_notice_cpv.c.notice_pk == notice_pk)
            .order_by(ted_notice_cpv.c.cpv)
        ).scalars()
    ]


def _company_contracts(company: Mapping[str, Any]) -> ColumnElement[bool]:
    c = contracts.c
    return and_(
        c.role.in_(SUPPLIER_ROLES),
        or_(
            c.company_id == company["id"],
            and_(c.party_country == company["country"], c.party_national_id == company["national_id"]),
        ),
    )


def company_contracts(
    conn: Connection, company: Mapping[str, Any], offset: int, limit: int
) -> tuple[int, list[Mapping[str, Any]]]:
    where = _company_contracts(company)
    total = conn.execute(select(func.count()).select_from(contracts).where(where)).scalar_one()
    rows = (
        conn.execute(
            select(contracts)
            .where(where)
            .order_by(
                func.coalesce(contracts.c.signed_on, contracts.c.published_on).desc(), contracts.c.id.desc()
            )
            .offset(offset)
            .limit(limit)
        )
        .mappings()
        .all()
    )
    return int(total), _rows(rows)


def all_company_contracts(
    conn: Connection, company: Mapping[str, Any], limit: int
) -> list[Mapping[str, Any]]:
    return _rows(
        conn.execute(
            select(contracts).where(_company_contracts(company)).order_by(contracts.c.id.desc()).limit(limit)
        ).mappings()
    )


def company_payers(conn: Connection, company: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The VAT payer records of a company: linked at import, or holding its national id."""
    p = vat_payers.c
    return _rows(
        conn.execute(
            select(vat_payers)
            .where(
                or_(
                    p.company_id == company["id"],
                    and_(p.country == company["country"], p.national_id == company["national_id"]),
                )
            )
            .order_by(p.id)
        ).mappings()
    )


def payer_accounts(conn: Connection, payer_ids: Sequence[int]) -> list[Mapping[str, Any]]:
    if not payer_ids:
        return []
    return _rows(
        conn.execute(
            select(bank_accounts)
            .where(bank_accounts.c.payer_id.in_(list(payer_ids)))
            .order_by(bank_accounts.c.published_from, bank_accounts.c.id)
        ).mappings()
    )


def source_has_payers(conn: Connection, source: str) -> bool:
    return (
        conn.execute(select(vat_payers.c.id).where(vat_payers.c.source == source).limit(1)).first()
        is not None
    )


def accounts_by_iban(
    conn: Connection, iban: str, exclude_sources: Sequence[str] = ()
) -> list[Mapping[str, Any]]:
    """Every payer that published this IBAN (in a source not excluded), with its company when known."""
    p = vat_payers.c
    company = companies.c
    query = (
        select(
            bank_accounts,
            p.country,
            p.vat_id,
            p.national_id,
            p.status,
            p.status_since,
            p.answered_on,
            p.source,
            p.company_id,
            *_company_columns(),
        )
        .select_from(
            bank_accounts.join(vat_payers, vat_payers.c.id == bank_accounts.c.payer_id).outerjoin(
                companies,
                or_(
                    company.id == p.company_id,
                    and_(
                        p.company_id.is_(None),
                        company.country == p.country,
                        company.national_id == p.national_id,
                    ),
                ),
            )
        )
        .where(bank_accounts.c.iban == iban)
        .order_by(bank_accounts.c.id)
    )
    if exclude_sources:
        query = query.where(p.source.not_in(list(exclude_sources)))
    return _rows(conn.execute(query).mappings())


def supplier_totals(now: datetime) -> Select[tuple[Any, ...]]:
    """Per supplier company and currency, the sum and count of the contracts `/companies/{ico}/contracts`
    lists (supplier or counterparty role, linked at import or naming the company's country and identifier),
    those with a value, stamped `computed_at` = `now`: columns `company_id, currency, total, contracts,
    computed_at`."""
    ct, co = contracts.c, companies.c
    company = func.coalesce(ct.company_id, co.id)
    return (
        select(
            company.label("company_id"),
            ct.currency,
            func.sum(ct.value).label("total"),
            func.count().label("contracts"),
            literal(now, DateTime(timezone=True)).label("computed_at"),
        )
        .select_from(
            contracts.outerjoin(
                companies,
                and_(
                    ct.company_id.is_(None),
                    co.country == ct.party_country,
                    co.national_id == ct.party_national_id,
                ),
            )
        )
        .where(
            ct.role.in_(SUPPLIER_ROLES),
            ct.value.is_not(None),
            ct.currency.is_not(None),
            or_(ct.company_id.is_not(None), co.id.is_not(None)),
        )
        .group_by(company, ct.currency)
    )


def sk_identifier_holders(conn: Connection, kind: str, value: str) -> list[int]:
    """At most two Slovak companies holding the identifier `kind` = `value` (`ic_dph`, `dic`): the
    public-money linker links a VAT payer only to a single holder."""
    query = (
        select(identifiers.c.company_id)
        .join(companies, companies.c.id == identifiers.c.company_id)
        .where(
            identifiers.c.type == kind,
            identifiers.c.value == value,
            companies.c.country == "SK",
        )
        .distinct()
        .limit(2)
    )
    return list(conn.execute(query).scalars().all())


def ted_winner_city(conn: Connection, notice_id: str, party_ref: str) -> str | None:
    """The city of a TED notice's winner as imported (`party_ref` is `<lot id>:<organisation ref>`)."""
    w = ted_winners.c
    query = (
        select(w.city)
        .join(ted_notices, ted_notices.c.id == w.notice_pk)
        .where(ted_notices.c.notice_id == notice_id, w.lot_id + ":" + w.org_ref == party_ref)
    )
    return cast(str | None, conn.execute(query).scalar())


# -- the importer's reads and writes (importing.py, loading.py, relink.py) ----------------------------------


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
