"""VAT payers and their published bank accounts, and the Slovak identifier holders the linker reads."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import (
    and_,
    or_,
    select,
)
from sqlalchemy.engine import Connection

from regintel.db.schema import companies, identifiers

from ..tables import (
    bank_accounts,
    vat_payers,
)
from .common import company_columns, mappings


def company_payers(conn: Connection, company: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The VAT payer records of a company: linked at import, or holding its national id."""
    p = vat_payers.c
    return mappings(
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
    return mappings(
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
            *company_columns(),
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
    return mappings(conn.execute(query).mappings())


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
