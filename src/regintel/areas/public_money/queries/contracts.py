"""A company's public contracts (supplier side) and the per-supplier totals of the pages ranking."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import (
    DateTime,
    Select,
    and_,
    func,
    literal,
    or_,
    select,
)
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from regintel.db.schema import companies

from ..tables import (
    contracts,
)
from .common import mappings

SUPPLIER_ROLES = ("supplier", "counterparty")


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
    return int(total), mappings(rows)


def all_company_contracts(
    conn: Connection, company: Mapping[str, Any], limit: int
) -> list[Mapping[str, Any]]:
    return mappings(
        conn.execute(
            select(contracts).where(_company_contracts(company)).order_by(contracts.c.id.desc()).limit(limit)
        ).mappings()
    )


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
