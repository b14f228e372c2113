"""Point reads behind the exact-lookup endpoints: many keys in one query, identifiers, LEI records.

Statements are built once with bound parameters (`expanding` for lists): on this path building a
select per call would cost more than SQLite answering it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import and_, bindparam, select
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.prepared import Prepared
from regintel.db.schema import code_list_items, companies, identifiers, lei_records

_BY_NATIONAL_IDS = (
    select(companies)
    .where(companies.c.national_id.in_(bindparam("ids", expanding=True)))
    .order_by(companies.c.country, companies.c.national_id)
)

_BY_IDENTIFIER = (
    select(
        companies,
        identifiers.c.type.label("matched_type"),
        identifiers.c.value.label("matched_value"),
        identifiers.c.source.label("matched_source"),
    )
    .join(identifiers, identifiers.c.company_id == companies.c.id)
    .where(
        identifiers.c.type.in_(bindparam("types", expanding=True)),
        identifiers.c.value.in_(bindparam("values", expanding=True)),
    )
    .order_by(companies.c.country, companies.c.national_id, identifiers.c.type)
    .limit(bindparam("limit"))
)
_BY_IDENTIFIER_IN_COUNTRY = _BY_IDENTIFIER.where(companies.c.country == bindparam("country"))

_elf = code_list_items.alias("elf")
_LEI = (
    select(
        companies,
        lei_records.c.lei.label("lr_lei"),
        lei_records.c.legal_name.label("lr_legal_name"),
        lei_records.c.registration_status.label("lr_registration_status"),
        lei_records.c.entity_status.label("lr_entity_status"),
        lei_records.c.legal_form.label("lr_legal_form"),
        lei_records.c.country.label("lr_country"),
        lei_records.c.next_renewal.label("lr_next_renewal"),
        lei_records.c.last_update.label("lr_last_update"),
        lei_records.c.source.label("lr_source"),
        _elf.c.name_en.label("lr_legal_form_name"),
    )
    .select_from(lei_records)
    .join(companies, companies.c.id == lei_records.c.company_id, isouter=True)
    .join(
        _elf, and_(_elf.c.list_name == "legal-forms", _elf.c.code == lei_records.c.legal_form), isouter=True
    )
    .where(lei_records.c.lei == bindparam("lei"))
)
# The single-key reads run through `Prepared` (the by-lei path of spec 8 is the high-volume one).
_LEI_READ = Prepared(_LEI)
_COMPANY_BY_LEI = Prepared(
    select(companies).where(companies.c.lei == bindparam("lei")).order_by(companies.c.id).limit(1)
)


def companies_by_national_ids(conn: Connection, national_ids: Iterable[str]) -> list[RowMapping]:
    """Every company, in any country, whose national id is one of `national_ids`: one indexed query
    (the caller keeps the (country, id) pairs it asked for)."""
    wanted = sorted(set(national_ids))
    if not wanted:
        return []
    return list(conn.execute(_BY_NATIONAL_IDS, {"ids": wanted}).mappings())


def companies_by_identifier(
    conn: Connection, types: Iterable[str], values: Iterable[str], country: str | None, limit: int
) -> list[RowMapping]:
    """Companies holding one of `values` as an identifier of one of `types`, with what matched."""
    params: dict[str, Any] = {"types": sorted(set(types)), "values": sorted(set(values)), "limit": limit}
    if country:
        return list(conn.execute(_BY_IDENTIFIER_IN_COUNTRY, params | {"country": country}).mappings())
    return list(conn.execute(_BY_IDENTIFIER, params).mappings())


def lei_with_company(conn: Connection, lei: str) -> Mapping[str, Any] | None:
    """The GLEIF record of `lei` with its linked company (if any) and the ELF legal-form name: one query."""
    return _LEI_READ.first(conn, lei=lei)


def company_by_lei(conn: Connection, lei: str) -> Mapping[str, Any] | None:
    """A company that declares `lei` although GLEIF's record is not (yet) imported."""
    return _COMPANY_BY_LEI.first(conn, lei=lei)
