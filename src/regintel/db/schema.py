"""The whole data model in one place (SQLAlchemy Core). Runs unchanged on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Numeric,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    func,
    literal_column,
    text,
    true,
)

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

# SQLite only auto-increments INTEGER PRIMARY KEY; PostgreSQL gets 64-bit ids.
Id = BigInteger().with_variant(Integer(), "sqlite")
Money = Numeric(20, 2)


def _ts(name: str, nullable: bool = True) -> Column[datetime]:
    return Column(name, DateTime(timezone=True), nullable=nullable)


companies = Table(
    "companies",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("country", String(2), nullable=False),
    Column("national_id", String(32), nullable=False),
    Column("name", Text, nullable=False),
    Column("name_norm", Text, nullable=False),
    Column("legal_form", String(16)),
    Column("legal_form_name", Text),
    Column("status", String(16), nullable=False, server_default="active"),
    Column("founded_on", Date),
    Column("dissolved_on", Date),
    Column("street", Text),
    Column("city", Text),
    Column("postal_code", String(16)),
    Column("address_text", Text),
    Column("address_norm", Text),
    Column("region_code", String(16)),
    Column("district_code", String(16)),
    Column("municipality_code", String(16)),
    Column("nuts3", String(8)),
    Column("nace_primary", String(16)),
    Column("nace_codes", JSON),
    Column("size_class", String(16)),
    Column("employees", Integer),
    Column("vat_id", String(32)),
    Column("tax_id", String(32)),
    Column("lei", String(20)),
    Column("in_bankruptcy", Boolean, nullable=False, server_default=false()),
    Column("in_restructuring", Boolean, nullable=False, server_default=false()),
    Column("in_liquidation", Boolean, nullable=False, server_default=false()),
    Column("source", String(32), nullable=False),
    _ts("created_at", False),
    _ts("updated_at", False),
    UniqueConstraint("country", "national_id"),
    # Spec 2.2: bankruptcy and restructuring are mutually exclusive; liquidation is independent.
    CheckConstraint("NOT (in_bankruptcy AND in_restructuring)", name="insolvency_exclusive"),
)
Index("ix_companies_national_id", companies.c.national_id)

identifiers = Table(
    "identifiers",
    metadata,
    Column("type", String(16), primary_key=True),
    Column("value", String(64), primary_key=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
    Column("source", String(32), nullable=False),
)
Index("ix_identifiers_company_id", identifiers.c.company_id)

company_sources = Table(
    "company_sources",
    metadata,
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
    Column("source", String(32), primary_key=True),
    Column("source_record_id", Text),
    Column("published_on", Date),
    _ts("first_seen", False),
    _ts("last_seen", False),
    Column("run_id", Id),
)

people = Table(
    "people",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("person_key", String(64), nullable=False, unique=True),
    Column("name", Text, nullable=False),
    Column("name_norm", Text, nullable=False),
    Column("birth_date", String(10)),
    Column("nationality", String(64)),
    Column("country_of_residence", String(64)),
    Column("source", String(32), nullable=False),
)
Index("ix_people_name_norm", people.c.name_norm)

roles = Table(
    "roles",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("role", String(32), nullable=False),
    Column("holder_key", String(64), nullable=False),
    Column("person_id", Id, ForeignKey("people.id", ondelete="CASCADE")),
    Column("holder_company_id", Id, ForeignKey("companies.id", ondelete="SET NULL")),
    Column("holder_name", Text, nullable=False),
    Column("title", Text),
    Column("share_pct", Float),
    Column("voting_pct", Float),
    Column("natures_of_control", JSON),
    Column("since", Date),
    Column("until", Date),
    Column("source", String(32), nullable=False),
    # A holder known only by name (no person record, no company key): its normalised name, and the
    # country and register number its source gives (a UK PSC's `identification`), so that a foreign
    # company can be found among other registers' holders (migration 0028_ownership_holder_names).
    Column("holder_name_norm", Text),
    Column("holder_reg_country", String(2)),
    Column("holder_reg_number", String(64)),
    UniqueConstraint("company_id", "role", "holder_key", "source"),
)
Index("ix_roles_person_id", roles.c.person_id)
Index("ix_roles_holder_company_id", roles.c.holder_company_id)
Index(
    "ix_roles_holder_name_norm",
    roles.c.holder_name_norm,
    sqlite_where=roles.c.holder_name_norm.isnot(None),
    postgresql_where=roles.c.holder_name_norm.isnot(None),
)
Index(
    "ix_roles_holder_reg_number",
    roles.c.holder_reg_number,
    roles.c.holder_reg_country,
    sqlite_where=roles.c.holder_reg_number.isnot(None),
    postgresql_where=roles.c.holder_reg_number.isnot(None),
)

ownerships = Table(
    "ownerships",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("parent_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("child_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(16), nullable=False, server_default="direct"),
    Column("share_pct", Float),
    Column("since", Date),
    Column("until", Date),
    Column("source", String(32), nullable=False),
    UniqueConstraint("parent_id", "child_id", "kind", "source"),
)
Index("ix_ownerships_child_id", ownerships.c.child_id)

financial_statements = Table(
    "financial_statements",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("year", Integer, nullable=False),
    Column("period_from", String(10)),
    Column("period_to", String(10)),
    Column("currency", String(3), nullable=False),
    Column("revenue", Money),
    Column("profit", Money),
    Column("total_assets", Money),
    Column("equity", Money),
    Column("liabilities", Money),
    Column("employees", Integer),
    # The lines liquidity and the Altman Z''-score read (migration 0019_statement_lines).
    Column("current_assets", Money),
    Column("current_liabilities", Money),
    Column("retained_earnings", Money),
    Column("ebit", Money),
    Column("statement_type", String(32)),
    Column("source_record_id", Text),
    Column("source", String(32), nullable=False),
    UniqueConstraint("company_id", "year", "source"),
)

company_changes = Table(
    "company_changes",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("field", String(64), nullable=False),
    Column("old_value", Text),
    Column("new_value", Text),
    Column("source", String(32), nullable=False),
    Column("run_id", Id),
    _ts("detected_at", False),
)
Index("ix_company_changes_company_id", company_changes.c.company_id, company_changes.c.id)

lei_records = Table(
    "lei_records",
    metadata,
    Column("lei", String(20), primary_key=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="SET NULL")),
    Column("legal_name", Text, nullable=False),
    Column("registration_status", String(24), nullable=False),
    Column("entity_status", String(16)),
    Column("entity_category", String(32)),
    Column("legal_form", String(8)),
    Column("ra_code", String(16)),
    Column("ra_entity_id", String(64)),
    Column("country", String(2)),
    Column("jurisdiction", String(8)),
    Column("city", Text),
    Column("managing_lou", String(20)),
    Column("validation_sources", String(32)),
    Column("conformity_flag", String(24)),
    Column("initial_registration", DateTime(timezone=True)),
    Column("last_update", DateTime(timezone=True)),
    Column("next_renewal", DateTime(timezone=True)),
    Column("source", String(32), nullable=False),
)
Index("ix_lei_records_company_id", lei_records.c.company_id)

lei_relationships = Table(
    "lei_relationships",
    metadata,
    Column("child_lei", String(20), primary_key=True),
    Column("parent_lei", String(20), primary_key=True),
    Column("kind", String(48), primary_key=True),
    Column("status", String(16)),
    Column("registration_status", String(24)),
    Column("share_pct", Float),
    Column("start_date", String(32)),
    Column("end_date", String(32)),
    Column("source", String(32), nullable=False),
)
Index("ix_lei_relationships_parent_lei", lei_relationships.c.parent_lei)

lei_reporting_exceptions = Table(
    "lei_reporting_exceptions",
    metadata,
    Column("lei", String(20), primary_key=True),
    Column("category", String(48), primary_key=True),
    Column("reason", String(48), nullable=False),
    Column("reference", Text),
    Column("source", String(32), nullable=False),
)

registration_authorities = Table(
    "registration_authorities",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("country", String(2)),
    Column("jurisdiction", Text),
    Column("register_name", Text),
    Column("register_name_local", Text),
    Column("organisation", Text),
    Column("website", Text),
)

code_lists = Table(
    "code_lists",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("title", Text, nullable=False),
    Column("description", Text),
    Column("hierarchical", Boolean, nullable=False, server_default=false()),
    Column("source", Text),
    Column("licence", Text),
    Column("item_count", Integer, nullable=False, server_default="0"),
)

code_list_items = Table(
    "code_list_items",
    metadata,
    Column("list_name", String(32), ForeignKey("code_lists.name", ondelete="CASCADE"), primary_key=True),
    Column("code", String(32), primary_key=True),
    Column("name_sk", Text, nullable=False),
    Column("name_en", Text, nullable=False),
    Column("name_sk_fallback", Boolean, nullable=False, server_default=false()),
    Column("name_en_fallback", Boolean, nullable=False, server_default=false()),
    Column("parent", String(32)),
    Column("level", Integer),
    Column("search_text", Text, nullable=False),
    Column("extra", JSON),
)
Index("ix_code_list_items_parent", code_list_items.c.list_name, code_list_items.c.parent)

data_sources = Table(
    "data_sources",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", Text, nullable=False),
    Column("publisher", Text, nullable=False),
    Column("country", String(2)),
    Column("category", String(32), nullable=False),
    Column("formats", Text, nullable=False),
    Column("licence", Text, nullable=False),
    Column("licence_url", Text),
    Column("attribution", Text, nullable=False),
    Column("url", Text),
    Column("cadence", String(16), nullable=False),
    _ts("last_import_at"),
    Column("row_count", BigInteger, nullable=False, server_default="0"),
    Column("last_run", JSON),
)

import_runs = Table(
    "import_runs",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("source", String(32), nullable=False),
    Column("location", Text),
    Column("status", String(16), nullable=False),
    _ts("started_at", False),
    _ts("finished_at"),
    Column("stats", JSON),
)
Index("ix_import_runs_source", import_runs.c.source, import_runs.c.id)

api_keys = Table(
    "api_keys",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("name", Text, nullable=False),
    Column("plan", String(32), nullable=False),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("prefix", String(12), nullable=False),
    _ts("created_at", False),
    _ts("expires_at"),
    _ts("revoked_at"),
    _ts("last_used_at"),
)

worker_heartbeats = Table(
    "worker_heartbeats",
    metadata,
    Column("worker_id", String(64), primary_key=True),
    Column("hostname", Text),
    Column("pid", Integer),
    _ts("started_at", False),
    _ts("beat_at", False),
)

# -- work that follows a change (migration 0012_jobs) -------------------------------------------

# One row per piece of deferred work (search index updates, statistics, scores, enrichment, reports),
# written in the transaction of the change that calls for it and run by `regintel worker`
# (`jobs/queue.py`, `jobs/runner.py`). A queued row with a `dedupe_key` is not queued twice.
jobs = Table(
    "jobs",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("kind", String(64), nullable=False),
    Column("payload", JSON, nullable=False),
    Column("dedupe_key", String(200)),
    Column("owner_key_id", Integer),  # the API key that asked for it, when a caller did
    Column("status", String(16), nullable=False),  # queued, running, done, failed
    Column("priority", Integer, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("max_attempts", Integer, nullable=False),
    _ts("run_after", False),
    _ts("lease_until"),
    Column("worker_id", String(64)),
    Column("last_error", Text),
    Column("result", JSON),
    _ts("created_at", False),
    _ts("started_at"),
    _ts("finished_at"),
    Index("ix_jobs_due", "status", "priority", "run_after"),
    Index(
        "uq_jobs_queued_dedupe",
        "dedupe_key",
        unique=True,
        sqlite_where=text("status = 'queued'"),
        postgresql_where=text("status = 'queued'"),
    ),
)

# -- monitoring, webhooks and e-mail watches (migration 0002_monitoring) ---------------------------

# One row per webhook endpoint a key registered: `monitoring` subscriptions watch one company
# (spec 4.6), `webhook` subscriptions filter events by type, country and company (spec 4.5).
subscriptions = Table(
    "subscriptions",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),
    Column("api_key_id", Id, ForeignKey("api_keys.id", ondelete="CASCADE"), nullable=False),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE")),
    Column("url", Text, nullable=False),
    Column("secret", String(80), nullable=False),
    Column("previous_secret", String(80)),
    _ts("previous_secret_until"),
    Column("event_types", JSON, nullable=False),
    Column("countries", JSON),
    Column("description", Text),
    Column("status", String(16), nullable=False, server_default="active"),
    Column("pause_reason", Text),
    _ts("created_at", False),
    _ts("updated_at", False),
    _ts("paused_at"),
    _ts("deleted_at"),
    _ts("last_delivery_at"),
    Column("last_status", Integer),
    Column("last_error", Text),
    Column("consecutive_failures", Integer, nullable=False, server_default="0"),
    Column("total_deliveries", BigInteger, nullable=False, server_default="0"),
    Column("total_failures", BigInteger, nullable=False, server_default="0"),
)
Index("ix_subscriptions_company_id", subscriptions.c.company_id)
Index("ix_subscriptions_api_key_id", subscriptions.c.api_key_id, subscriptions.c.kind, subscriptions.c.id)

subscription_companies = Table(
    "subscription_companies",
    metadata,
    Column("subscription_id", Id, ForeignKey("subscriptions.id", ondelete="CASCADE"), primary_key=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
)
Index("ix_subscription_companies_company_id", subscription_companies.c.company_id)

cases = Table(
    "cases",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("api_key_id", Id, ForeignKey("api_keys.id", ondelete="CASCADE"), nullable=False),
    Column("title", Text, nullable=False),
    Column("status", String(16), nullable=False, server_default="open"),
    Column("note", Text),
    _ts("created_at", False),
    _ts("updated_at", False),
)
Index("ix_cases_api_key_id", cases.c.api_key_id, cases.c.id)

# A key's view of a change of a company it watches (spec 6.2), written with the change itself.
monitoring_events = Table(
    "monitoring_events",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("api_key_id", Id, ForeignKey("api_keys.id", ondelete="CASCADE"), nullable=False),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("change_id", Id, ForeignKey("company_changes.id", ondelete="CASCADE")),
    Column("event_type", String(48), nullable=False),
    Column("field", String(64), nullable=False),
    Column("old_value", Text),
    Column("new_value", Text),
    Column("severity", String(8), nullable=False),
    Column("source", String(32), nullable=False),
    _ts("detected_at", False),
    Column("case_id", Id, ForeignKey("cases.id", ondelete="SET NULL")),
    UniqueConstraint("api_key_id", "change_id"),
)
Index(
    "ix_monitoring_events_key_company",
    monitoring_events.c.api_key_id,
    monitoring_events.c.company_id,
    monitoring_events.c.id,
)
Index("ix_monitoring_events_case_id", monitoring_events.c.case_id)

# The webhook outbox: one row per (subscription, event), delivered at least once by the worker.
deliveries = Table(
    "deliveries",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("message_id", String(40), nullable=False, unique=True),
    Column("subscription_id", Id, ForeignKey("subscriptions.id", ondelete="CASCADE"), nullable=False),
    Column("change_id", Id, ForeignKey("company_changes.id", ondelete="SET NULL")),
    Column("event_type", String(48), nullable=False),
    Column("body", Text, nullable=False),
    Column("status", String(16), nullable=False, server_default="pending"),
    Column("attempts", Integer, nullable=False, server_default="0"),
    _ts("detected_at", False),
    _ts("next_attempt_at", False),
    _ts("lease_until"),
    Column("claimed_by", String(64)),
    _ts("created_at", False),
    _ts("delivered_at"),
    Column("last_status_code", Integer),
    Column("last_error", Text),
    UniqueConstraint("subscription_id", "change_id"),
)
Index("ix_deliveries_due", deliveries.c.status, deliveries.c.next_attempt_at)
Index(
    "ix_deliveries_order",
    deliveries.c.subscription_id,
    deliveries.c.status,
    deliveries.c.detected_at,
    deliveries.c.id,
)

delivery_attempts = Table(
    "delivery_attempts",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("delivery_id", Id, ForeignKey("deliveries.id", ondelete="CASCADE"), nullable=False),
    Column("attempt", Integer, nullable=False),
    _ts("attempted_at", False),
    Column("status_code", Integer),
    Column("error", Text),
    Column("duration_ms", Integer, nullable=False),
    Column("worker", String(64)),
)
Index("ix_delivery_attempts_delivery_id", delivery_attempts.c.delivery_id, delivery_attempts.c.id)

# Public e-mail watches (double opt-in) and the e-mail outbox the worker sends from.
watches = Table(
    "watches",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("email", String(320), nullable=False),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("status", String(16), nullable=False, server_default="pending"),
    _ts("created_at", False),
    _ts("confirmed_at"),
    _ts("unsubscribed_at"),
    _ts("last_mail_at"),
    UniqueConstraint("email", "company_id"),
)
Index("ix_watches_company_id", watches.c.company_id)

email_outbox = Table(
    "email_outbox",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("kind", String(32), nullable=False),
    Column("to_addr", String(320), nullable=False),
    Column("subject", Text),  # rendered by the worker when it sends
    Column("body", Text),
    Column("watch_id", Id, ForeignKey("watches.id", ondelete="SET NULL")),
    Column("change_id", Id, ForeignKey("company_changes.id", ondelete="SET NULL")),
    Column("status", String(16), nullable=False, server_default="pending"),
    Column("attempts", Integer, nullable=False, server_default="0"),
    _ts("next_attempt_at", False),
    _ts("lease_until"),
    _ts("created_at", False),
    _ts("sent_at"),
    Column("last_error", Text),
    UniqueConstraint("watch_id", "change_id"),
)
Index("ix_email_outbox_due", email_outbox.c.status, email_outbox.c.next_attempt_at)

# Search (migration 0003_search): the index's change watermark and exact address look-ups.
Index("ix_companies_updated_at", companies.c.updated_at)
Index("ix_companies_address_norm", companies.c.address_norm)

# Filters and aggregates (migration 0004_filters): indexes behind advanced search and the stats.
Index("ix_companies_country_status", companies.c.country, companies.c.status)
for _column in (
    "founded_on",
    "dissolved_on",
    "district_code",
    "municipality_code",
    "postal_code",
    "size_class",
    "employees",
):
    Index(f"ix_companies_{_column}", companies.c[_column], companies.c.country)
Index("ix_companies_vat_id", companies.c.vat_id, companies.c.country)
# Written exactly as the queries write them: SQLite matches an expression index by its text.
NACE_DIGITS = func.replace(companies.c.nace_primary, literal_column("'.'"), literal_column("''"))
CITY_LOWER = func.lower(companies.c.city)
Index("ix_companies_city_lower", CITY_LOWER, companies.c.country)

# Covering indexes (migration 0006_covering_indexes): pages in name order walk this index and test the
# common filters on its columns, fetching only the page's rows; the id follows the name so that the
# index order is the pages' `ORDER BY name_norm, id`.
NAME_SORT_COLUMNS = (
    "name_norm",
    "id",
    "country",
    "status",
    "in_bankruptcy",
    "in_restructuring",
    "in_liquidation",
    "size_class",
    "nuts3",
    "nace_primary",
    "legal_form",
    "city",
    "region_code",
    "founded_on",
    "employees",
    "lei",
    "vat_id",
)
Index("ix_companies_name_sort", *(companies.c[name] for name in NAME_SORT_COLUMNS))
# Counts by a code filter read these without the rows when status, size class or a founding-date range
# come along (migrations 0006_covering_indexes, 0011_counted_founded).
_COUNTED = (companies.c.country, companies.c.status, companies.c.size_class, companies.c.founded_on)
Index("ix_companies_nuts3", companies.c.nuts3, *_COUNTED)
Index("ix_companies_region_code", companies.c.region_code, *_COUNTED)
Index("ix_companies_legal_form", companies.c.legal_form, *_COUNTED)
Index("ix_companies_nace_digits", NACE_DIGITS, *_COUNTED)
Index("ix_companies_lei", companies.c.lei, companies.c.country, companies.c.status, companies.c.vat_id)
for _flag in ("in_bankruptcy", "in_restructuring", "in_liquidation"):
    Index(
        f"ix_companies_{_flag}",
        companies.c.country,
        sqlite_where=companies.c[_flag] == true(),
        postgresql_where=companies.c[_flag],
    )
Index(
    "ix_company_sources_source_last_seen",
    company_sources.c.source,
    company_sources.c.last_seen,
    company_sources.c.company_id,
)
Index("ix_lei_records_registration_status", lei_records.c.registration_status)

# Derived: each company's latest financial statement (highest year, then the last written), kept
# current by triggers on financial_statements (see the migration), so range filters and the revenue
# sort use plain indexes instead of a "latest per company" subquery.
latest_financials = Table(
    "latest_financials",
    metadata,
    Column("company_id", Id, primary_key=True),
    Column("country", String(2), nullable=False),  # the company's, copied: counts per country need no join
    Column("statement_id", Id, nullable=False),
    Column("year", Integer, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("revenue", Money),
    Column("profit", Money),
    Column("total_assets", Money),
    Column("equity", Money),
    Column("liabilities", Money),
    Column("employees", Integer),
    Column("source", String(32), nullable=False),
)
for _figure in ("revenue", "profit", "total_assets", "equity", "employees"):
    Index(f"ix_latest_financials_{_figure}", latest_financials.c[_figure], latest_financials.c.currency)
Index("ix_latest_financials_country", latest_financials.c.country, latest_financials.c.year)

# -- insolvency notices and change feeds (migration 0005_insolvency) --------------------------------

# Gazette notices that start or end a bankruptcy, restructuring or liquidation (spec 1, 2.3, 6.3).
# `country` is the company's, copied: the public feeds filter and count by it without a join.
insolvency_events = Table(
    "insolvency_events",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("country", String(2), nullable=False),
    Column("event_type", String(16), nullable=False),
    Column("phase", String(8), nullable=False),
    Column("event_date", Date, nullable=False),
    Column("published_on", Date),
    Column("decision_date", Date),
    Column("court", Text),
    Column("case_number", Text),
    Column("reference", Text),
    Column("notice_id", String(64), nullable=False),
    Column("link", Text),
    Column("title", Text, nullable=False),
    Column("summary", Text),
    Column("trustee", Text),
    Column("source", String(32), nullable=False),
    Column("run_id", Id),
    _ts("created_at", False),
    _ts("updated_at", False),
    UniqueConstraint("source", "notice_id"),
    CheckConstraint("event_type IN ('bankruptcy', 'restructuring', 'liquidation')", name="event_type"),
    CheckConstraint("phase IN ('start', 'end')", name="phase"),
)
Index("ix_insolvency_events_company_id", insolvency_events.c.company_id, insolvency_events.c.event_date)
Index("ix_insolvency_events_event_date", insolvency_events.c.event_date, insolvency_events.c.id)

# The cross-company change feeds page by id within a field, and start at a detection time.
Index("ix_company_changes_field", company_changes.c.field, company_changes.c.id)
Index("ix_company_changes_detected_at", company_changes.c.detected_at)

# -- precomputed statistics (migration 0007_stats_snapshots) ---------------------------------------

# Whole-database aggregates of the statistics endpoints, one row per aggregate and its default
# parameters (`overview`, `breakdown:nace:100`), as computed for one data version
# (`db.stats.data_version` with the code version): a request answers from here while that version is
# current instead of aggregating millions of rows. Derived data; `regintel stats refresh` rebuilds it.
stats_snapshots = Table(
    "stats_snapshots",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("data_version", Text, nullable=False),
    _ts("computed_at", False),
    Column("payload", JSON, nullable=False),
)

# -- company activities (migration 0035_company_activities) ----------------------------------------

# The listed NACE activities of the companies whose register names no primary one (ONRC lists the
# classes a trader is authorised for), one row each, digits as NACE_DIGITS derives them (`62.01` ->
# `6201`), written with the company by the loader and by synth. The `nace` filter finds such a company by
# any of them through (nace_digits, company_id); a company with a primary activity has no rows here and
# is found by its primary alone, through the companies' own index (db/company_filters.py::_nace).
company_activities = Table(
    "company_activities",
    metadata,
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
    Column("nace_digits", Text, primary_key=True),
)
Index("ix_company_activities_nace_digits", company_activities.c.nace_digits, company_activities.c.company_id)
