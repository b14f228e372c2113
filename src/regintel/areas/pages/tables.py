"""The pages area's tables (migrations 0013_pages, 0019_pages_contract_totals, 0025_pages_renders)."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
)

from regintel.db.schema import Id, Money, metadata

# Views of a company's public check page, added in batches by the in-process counter (service.ViewCounter).
page_views = Table(
    "page_views",
    metadata,
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
    Column("views", BigInteger, nullable=False),
    Column("last_viewed_at", DateTime(timezone=True), nullable=False),
)
Index("ix_page_views_views", page_views.c.views)

# Content-Security-Policy violation reports sent by browsers (POST /csp-report); bounded, oldest dropped.
csp_reports = Table(
    "csp_reports",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("document_uri", Text),
    Column("violated_directive", Text),
    Column("blocked_uri", Text),
    Column("body", JSON, nullable=False),
    Column("size", Integer, nullable=False),
)

# Public-contract value per supplier company and currency, precomputed by the job `pages.contract-totals`
# from the public_money area's contracts (the ranking must not aggregate millions of contracts per request).
contract_totals = Table(
    "contract_totals",
    metadata,
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
    Column("currency", String(3), primary_key=True),
    Column("total", Money, nullable=False),
    Column("contracts", Integer, nullable=False),
    Column("computed_at", DateTime(timezone=True), nullable=False),
)
Index("ix_contract_totals_rank", contract_totals.c.currency, contract_totals.c.total)

# Renders kept so that a request reads bytes instead of making them (migration 0025_pages_renders): social
# PNGs under `og:<sha256 of the SVG>` (content-addressed: new data gives a new SVG, hence a new key; `version`
# null) and gzip-compressed sitemap pages under `sitemap:<n>:<base digest>` with the data version they were
# made at (renders.py).
page_renders = Table(
    "page_renders",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("version", String(200)),
    Column("body", LargeBinary, nullable=False),
    Column("size", Integer, nullable=False),
    Column("computed_at", DateTime(timezone=True), nullable=False),
)
Index("ix_page_renders_computed_at", page_renders.c.computed_at)
