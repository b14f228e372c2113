"""The compliance area's tables (migration 0018_debtors)."""

from __future__ import annotations

from sqlalchemy import Column, Date, DateTime, ForeignKey, Index, String, Table, Text, UniqueConstraint

from regintel.db.schema import Id, Money, metadata

# One entry of a published debtor list (social insurance, health insurer, tax administration) as the list
# of `listed_on` gave it. A list is a snapshot: an entry missing from a newer import of the same list
# (source, creditor) is kept with `delisted_on` set (the debt was paid or fell under the threshold), so
# payment discipline can look back; `record_key` (a hash of the entry's fields) makes a re-import of the
# same file write nothing.
debtor_entries = Table(
    "debtor_entries",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("source", String(32), nullable=False),
    Column("kind", String(16), nullable=False),  # social_insurance | health_insurance | tax
    Column("creditor", String(64), nullable=False),
    Column("record_key", String(64), nullable=False),
    Column("country", String(2), nullable=False),
    Column("national_id", String(32)),  # as the list gives it (None when the list has no identifier)
    Column("company_id", Id, ForeignKey("companies.id", ondelete="SET NULL")),
    Column("match", String(16), nullable=False),  # identifier | name_postcode | none
    Column("name", Text, nullable=False),
    Column("address", Text),
    Column("amount", Money),
    Column("currency", String(3), nullable=False),
    Column("listed_on", Date, nullable=False),  # the list's date when first seen
    Column("last_listed_on", Date, nullable=False),  # the newest list that still carried it
    Column("delisted_on", Date),  # the first list that no longer carried it
    Column("run_id", Id),
    Column("imported_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("source", "creditor", "record_key", name="uq_debtor_entries_key"),
)
Index("ix_debtor_entries_company_id", debtor_entries.c.company_id, debtor_entries.c.delisted_on)
# The newest list date of a source (`max(last_listed_on)`) is one index probe.
Index("ix_debtor_entries_source", debtor_entries.c.source, debtor_entries.c.last_listed_on)
