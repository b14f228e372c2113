"""Point reads behind the exact-lookup endpoints: many keys in one query, identifiers, LEI records."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.engine import Connection

from regintel.db.schema import code_list_items, companies, identifiers, lei_records


def companies_by_national_ids(conn: Connection, national_ids: Iterable[str]) -> list[Mapping[str, Any]]:
    """Every company, in any country, whose national id is one of `national_ids`: one indexed query
    (the caller keeps the (country, id) pairs it asked for)."""
    wanted = sorted(set(national_ids))
    if not wanted:
        return []
    return list(conn.execute(select(companies).where(companies.c.national_id.in_(wanted))
                             .order_by(companies.c.country, companies.c.national_id)).mappings())


def companies_by_identifier(conn: Connection, types: Iterable[str], values: Iterable[str],
                            country: str | None, limit: int) -> list[Mapping[str, Any]]:
    """Companies holding one of `values` as an identifier of one of `types`, with what matched."""
    query = (select(companies, identifiers.c.type.label("matched_type"), identifiers.c.value.label("matched_value"),
                    identifiers.c.source.label("matched_source"))
             .join(identifiers, identifiers.c.company_id == companies.c.id)
             .where(identifiers.c.type.in_(sorted(set(types))), identifiers.c.value.in_(sorted(set(values)))))
    if country:
        query = query.where(companies.c.country == country)
    query = query.order_by(companies.c.country, companies.c.national_id, identifiers.c.type).limit(limit)
    return list(conn.execute(query).mappings())


def lei_with_company(conn: Connection, lei: str) -> Mapping[str, Any] | None:
    """The GLEIF record of `lei` with its linked company (if any) and the ELF legal-form name: one query."""
    elf = code_list_items.alias("elf")
    query = (select(companies, lei_records.c.lei.label("lr_lei"), lei_records.c.legal_name.label("lr_legal_name"),
                    lei_records.c.registration_status.label("lr_registration_status"),
                    lei_records.c.entity_status.label("lr_entity_status"),
                    lei_records.c.legal_form.label("lr_legal_form"), lei_records.c.country.label("lr_country"),
                    lei_records.c.next_renewal.label("lr_next_renewal"),
                    lei_records.c.last_update.label("lr_last_update"), lei_records.c.source.label("lr_source"),
                    elf.c.name_en.label("lr_legal_form_name"))
             .select_from(lei_records)
             .join(companies, companies.c.id == lei_records.c.company_id, isouter=True)
             .join(elf, and_(elf.c.list_name == "legal-forms", elf.c.code == lei_records.c.legal_form),
                   isouter=True)
             .where(lei_records.c.lei == lei))
    return conn.execute(query).mappings().first()


def company_by_lei(conn: Connection, lei: str) -> Mapping[str, Any] | None:
    """A company that declares `lei` although GLEIF's record is not (yet) imported."""
    return conn.execute(select(companies).where(companies.c.lei == lei)
                        .order_by(companies.c.id).limit(1)).mappings().first()
