"""The compliance area's tables (migrations 0018_debtors, 0034_compliance_filings)."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    String,
    Table,
    Text,
    UniqueConstraint,
)

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

# A statement filed in a register of filed documents (RÚZ), as the register's detail answer gave it, for
# `/annual-reports`. Linked to the company when read, by (country, national_id) or its RÚZ unit id, so a
# company imported after its filings finds them; `statement_id` is the register's own id (its public page
# is built from it).
filed_statements = Table(
    "filed_statements",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("source", String(32), nullable=False),
    Column("statement_id", String(32), nullable=False),
    Column("country", String(2), nullable=False),
    Column("national_id", String(32)),  # None when the register names only its accounting unit
    Column("unit_id", String(32)),
    Column("name", Text),
    Column("period_from", String(7)),  # YYYY-MM
    Column("period_to", String(7), nullable=False),
    Column("compiled_on", Date),
    Column("kind", String(16), nullable=False),  # ordinary | extraordinary | interim | combined
    Column("consolidated", Boolean),
    Column("data_source", String(32)),  # the register's own channel of the filing (zdrojDat)
    Column("updated_on", Date),
    Column("report_ids", JSON, nullable=False),
    Column("annual_report_ids", JSON, nullable=False),
    Column("run_id", Id),
    Column("imported_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("source", "statement_id", name="uq_filed_statements_key"),
)
Index(
    "ix_filed_statements_company",
    filed_statements.c.country,
    filed_statements.c.national_id,
    filed_statements.c.period_to,
)
Index("ix_filed_statements_unit", filed_statements.c.unit_id)
