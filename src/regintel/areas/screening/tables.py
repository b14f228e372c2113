"""Screening tables (migration 0013_screening): sanctions lists, their entries with names (aliases and
weak aliases kept apart), identifiers, birth dates, countries and programmes, and the precomputed
company hits behind `sanctioned` and `/public/stats/sanctions`."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
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


def _ts(name: str, nullable: bool = True) -> Column[datetime]:
    return Column(name, DateTime(timezone=True), nullable=nullable)


def _entry_fk() -> Column[int]:
    return Column("entry_id", Id, ForeignKey("sanction_entries.id", ondelete="CASCADE"), nullable=False)


sanction_lists = Table(
    "sanction_lists",
    metadata,
    Column("id", String(32), primary_key=True),  # the source id, also in `data_sources`
    Column("name", Text, nullable=False),
    Column("mode", String(16), nullable=False),  # sanctioned | debarred
    Column("entry_count", Integer, nullable=False, server_default="0"),
    Column("version", Integer, nullable=False, server_default="0"),  # bumped by every import that changed it
    Column("location", Text),
    _ts("imported_at"),
    _ts("changed_at"),
)

sanction_entries = Table(
    "sanction_entries",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("list_id", String(32), ForeignKey("sanction_lists.id", ondelete="CASCADE"), nullable=False),
    Column("entry_key", String(128), nullable=False),
    Column("schema", String(16), nullable=False),
    Column("caption", Text, nullable=False),
    Column("topics", String(64), nullable=False),  # comma-separated: sanction, debarment
    Column("listed_on", String(10)),
    Column("remarks", Text),
    Column("content_hash", String(64), nullable=False),
    _ts("updated_at", False),
    UniqueConstraint("list_id", "entry_key"),
)

sanction_names = Table(
    "sanction_names",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    _entry_fk(),
    Column("name", Text, nullable=False),
    Column("name_norm", Text, nullable=False),
    Column("kind", String(8), nullable=False),  # primary | alias | weak
    Column("lang", String(8)),
)
Index("ix_sanction_names_entry_id", sanction_names.c.entry_id)

sanction_identifiers = Table(
    "sanction_identifiers",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    _entry_fk(),
    Column("id_type", String(48), nullable=False),
    Column("value", Text, nullable=False),
    Column("value_norm", String(128), nullable=False),
    Column("country", String(2)),
)
Index("ix_sanction_identifiers_entry_id", sanction_identifiers.c.entry_id)
Index("ix_sanction_identifiers_value_norm", sanction_identifiers.c.value_norm)

sanction_birth_dates = Table(
    "sanction_birth_dates",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    _entry_fk(),
    Column("birth_date", String(10), nullable=False),
)
Index("ix_sanction_birth_dates_entry_id", sanction_birth_dates.c.entry_id)

sanction_countries = Table(
    "sanction_countries",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    _entry_fk(),
    Column("country", String(2), nullable=False),
    Column("role", String(16), nullable=False),
)
Index("ix_sanction_countries_entry_id", sanction_countries.c.entry_id)

sanction_programmes = Table(
    "sanction_programmes",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    _entry_fk(),
    Column("programme", Text, nullable=False),
)
Index("ix_sanction_programmes_entry_id", sanction_programmes.c.entry_id)

company_sanction_hits = Table(
    "company_sanction_hits",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    _entry_fk(),
    Column("subject", String(16), nullable=False),  # company | officer | owner
    Column("subject_name", Text, nullable=False),
    Column("natural_person", Boolean, nullable=False),
    Column("score", Float, nullable=False),
    Column("features", JSON, nullable=False),
    Column("algorithm", String(32), nullable=False),
    _ts("computed_at", False),
    UniqueConstraint(
        "company_id", "entry_id", "subject", "subject_name", name="uq_company_sanction_hits_key"
    ),
)
Index("ix_company_sanction_hits_entry_id", company_sanction_hits.c.entry_id)

# One row per company the job screened (migration 0021): without it a company with no hit could not be told
# from one never screened, which the credit and risk models must not count as clean.
company_screenings = Table(
    "company_screenings",
    metadata,
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
    _ts("screened_at", False),
    Column("list_versions", JSON, nullable=False),  # {list id: version} screened against
    Column("algorithm", String(32), nullable=False),
    Column("threshold", Float, nullable=False),
)
