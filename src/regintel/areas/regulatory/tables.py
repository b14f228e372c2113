"""Regulatory feed tables (migration 0018_regulatory): one row per regulator publication, keyed by its
source and the SHA-256 of its feed id, with its rule-set tags in a child table (the `tag` filter and
the top tags are one index lookup and one GROUP BY)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
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


regulatory_entries = Table(
    "regulatory_entries",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("source", String(32), nullable=False),  # the source id, also in `data_sources`
    Column("entry_key", String(64), nullable=False),  # SHA-256 of `guid`: re-import finds the entry by it
    Column("guid", Text, nullable=False),  # the feed's <guid> / <id> (or link), as published
    Column("title", Text, nullable=False),
    Column("summary", Text, nullable=False),
    Column("link", Text),
    Column("language", String(8)),
    Column("categories", JSON),  # the publisher's own categories, as published
    Column("search_text", Text, nullable=False),  # title + summary folded, for `q`
    Column("content_hash", String(64), nullable=False),
    _ts("published_at", nullable=False),
    _ts("updated_at"),
    _ts("first_seen_at", nullable=False),
    _ts("retrieved_at", nullable=False),
    Column("import_run_id", Integer),
    UniqueConstraint("source", "entry_key"),
)
Index("ix_regulatory_entries_published", regulatory_entries.c.published_at, regulatory_entries.c.id)
Index(
    "ix_regulatory_entries_source_published", regulatory_entries.c.source, regulatory_entries.c.published_at
)

regulatory_entry_tags = Table(
    "regulatory_entry_tags",
    metadata,
    Column("entry_id", Id, ForeignKey("regulatory_entries.id", ondelete="CASCADE"), primary_key=True),
    Column("tag", String(32), primary_key=True),
)
Index("ix_regulatory_entry_tags_tag", regulatory_entry_tags.c.tag, regulatory_entry_tags.c.entry_id)
