"""The security area's tables (migration 0018_security)."""

from __future__ import annotations

from sqlalchemy import JSON, Column, Date, DateTime, Index, Integer, String, Table, Text, UniqueConstraint

from regintel.db.schema import Id, metadata

# Domains a register publishes for a company (its website, the domain of its e-mail address), keyed by the
# register identity so that contacts imported before the company record still attach to it. The local part
# of an e-mail address is never stored: only `@domain`.
company_domains = Table(
    "company_domains",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("country", String(2), nullable=False),
    Column("national_id", String(32), nullable=False),
    Column("host", String(253), nullable=False),  # normalised ASCII (IDNA) host name
    Column("registered_domain", String(253), nullable=False),  # the registrable domain (public suffix list)
    Column("kind", String(8), nullable=False),  # website | email
    Column("value", Text, nullable=False),  # as published (an e-mail address reduced to `@domain`)
    Column("source", String(32), nullable=False),
    Column("source_record", Text),
    Column("published_on", Date),
    Column("run_id", Id),
    Column("retrieved_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("country", "national_id", "host", "kind", "source"),
)
Index("ix_company_domains_host", company_domains.c.host)
Index("ix_company_domains_registered_domain", company_domains.c.registered_domain)

# The latest passive check of one host: its findings, score and the facts it saw (DNS, TLS, HTTP).
security_checks = Table(
    "security_checks",
    metadata,
    Column("host", String(253), primary_key=True),
    Column("status", String(8), nullable=False),  # done | refused | failed
    Column("score", Integer),
    Column("findings", JSON, nullable=False),
    Column("facts", JSON, nullable=False),
    Column("error", Text),
    Column("checked_at", DateTime(timezone=True), nullable=False),
    Column("duration_ms", Integer, nullable=False),
)

# What the checks revealed about a host, one row per signal, so the brand-signal list can filter by it:
# `technology` (fingerprint rule), `mail_provider` (MX), `cert_issuer` (TLS certificate).
security_signals = Table(
    "security_signals",
    metadata,
    Column("host", String(253), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("name", String(128), primary_key=True),
    Column("category", String(64)),
    Column("evidence", Text),
)
Index("ix_security_signals_kind_name", security_signals.c.kind, security_signals.c.name)
