"""The regulated area's tables (migration 0018_regulated): licences and authorisations of entities from
the supervisory registers (national banks, energy regulators), and licensed professionals from the
chambers' and the ministry's lists. Each row keeps its source, the publisher's key, the hash a re-import
compares, and how it was linked to a company (`match_method`, `match_score`; docs/regulated.md)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from regintel.db.schema import metadata

Id = BigInteger().with_variant(Integer(), "sqlite")


def _common() -> list[Any]:
    return [
        Column("id", Id, primary_key=True, autoincrement=True),
        Column("source", String(32), nullable=False),
        Column("country", String(2), nullable=False),
        Column("record_key", String(200), nullable=False),
        Column("name", Text, nullable=False),
        Column("address", Text),
        Column("city", String(128)),
        Column("status", String(16), nullable=False),
        Column("company_id", Id, ForeignKey("companies.id", ondelete="SET NULL")),
        Column("match_method", String(16)),
        Column("match_score", Float),
        Column("record_hash", String(64), nullable=False),
        Column("imported_at", DateTime(timezone=True), nullable=False),
    ]


regulated_authorisations = Table(
    "regulated_authorisations",
    metadata,
    *_common(),
    Column("sector", String(16), nullable=False),  # financial | energy
    Column("national_id", String(32)),
    Column("licence_type", Text, nullable=False),
    Column("licence_number", String(200)),
    Column("category", String(48), nullable=False),
    Column("status_text", String(128)),
    Column("granted_on", Date),
    Column("valid_until", Date),
    Column("ended_on", Date),
    UniqueConstraint("source", "record_key"),
    Index("ix_regulated_authorisations_company", "company_id", "sector"),
)

licensed_professionals = Table(
    "licensed_professionals",
    metadata,
    *_common(),
    Column("role", String(16), nullable=False),
    Column("title", String(128)),
    Column("specialisation", Text),
    Column("since", Date),
    Column("firm_name", Text),
    Column("firm_national_id", String(32)),
    Column("phone", String(128)),
    Column("email", String(254)),
    Column("website", Text),
    UniqueConstraint("source", "record_key"),
    Index("ix_licensed_professionals_company", "company_id", "role"),
)
