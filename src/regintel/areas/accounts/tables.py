"""The accounts area's tables (migration 0013_accounts)."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Index, Integer, String, Table, Text, UniqueConstraint

from regintel.db.schema import Id, metadata

# A person who signed in with a confirmed e-mail address; `plan` is the plan of the keys it creates.
accounts = Table(
    "accounts",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("email", String(320), nullable=False, unique=True),
    Column("plan", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_login_at", DateTime(timezone=True)),
)

# Server-side sessions: the cookie carries a signed random token, only its SHA-256 is stored.
account_sessions = Table(
    "account_sessions",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("csrf_token", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)
Index("ix_account_sessions_account_id", account_sessions.c.account_id)

# Magic links sent: the nonce makes each link single-use.
account_login_links = Table(
    "account_login_links",
    metadata,
    Column("nonce", String(64), primary_key=True),
    Column("email", String(320), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True)),
)
Index("ix_account_login_links_email", account_login_links.c.email, account_login_links.c.created_at)

# The owner of a key created on the account page (keys made by `regintel keys create` have none).
account_api_keys = Table(
    "account_api_keys",
    metadata,
    Column("api_key_id", Id, ForeignKey("api_keys.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
)
Index("ix_account_api_keys_account_id", account_api_keys.c.account_id)

# Acceptances of the natural-persons addendum: kept after a revocation (the record of what was agreed).
account_fo_addenda = Table(
    "account_fo_addenda",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("text_version", String(32), nullable=False),
    Column("person_name", Text, nullable=False),
    Column("accepted_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True)),
)
Index("ix_account_fo_addenda_account_id", account_fo_addenda.c.account_id)

# OAuth 2.1 (migration 0014_accounts_oauth): public clients (PKCE, no secret) registered by an account on
# the account page (`registration` = account) or by anyone through RFC 7591 dynamic registration
# (`registration` = dynamic, no account; 0018_accounts_finish).
oauth_clients = Table(
    "oauth_clients",
    metadata,
    Column("client_id", String(64), primary_key=True),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE")),
    Column("name", Text, nullable=False),
    Column("redirect_uris", Text, nullable=False),  # JSON list, compared exactly
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True)),
    Column("registration", String(16), nullable=False, server_default="account"),
)
Index("ix_oauth_clients_account_id", oauth_clients.c.account_id)

# Authorization codes (hash only), single use, 10 minutes.
oauth_codes = Table(
    "oauth_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column(
        "client_id", String(64), ForeignKey("oauth_clients.client_id", ondelete="CASCADE"), nullable=False
    ),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("redirect_uri", Text, nullable=False),
    Column("scope", Text, nullable=False),
    Column("code_challenge", String(128), nullable=False),
    Column("code_challenge_method", String(8), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True)),
)

# An access token is an `api_keys` row (hash of the `rio_…` token, the account's plan, 1-hour expiry), so
# every keyed route accepts it through the unchanged key check; this row says which client it came from.
oauth_tokens = Table(
    "oauth_tokens",
    metadata,
    Column("api_key_id", Id, ForeignKey("api_keys.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "client_id", String(64), ForeignKey("oauth_clients.client_id", ondelete="CASCADE"), nullable=False
    ),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
)
Index("ix_oauth_tokens_client_id", oauth_tokens.c.client_id)

# Public forms (migration 0015_accounts_public). A lead or newsletter intent counts once confirmed by the
# e-mailed link (double opt-in); `status` pending | confirmed | suppressed.
signup_leads = Table(
    "signup_leads",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # lead | newsletter
    Column("email", String(320), nullable=False),
    Column("use_case", Text),
    Column("source", String(100)),
    Column("status", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("confirmed_at", DateTime(timezone=True)),
    Column("last_mail_at", DateTime(timezone=True)),
)
Index("ux_signup_leads_kind_email", signup_leads.c.kind, signup_leads.c.email, unique=True)
Index("ix_signup_leads_confirmed_at", signup_leads.c.confirmed_at)

# Data-protection requests (GDPR art. 15-21): recorded at once, acted on when the e-mailed link is
# redeemed; `due_at` is one month after verification.
privacy_requests = Table(
    "privacy_requests",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # access | erase | object | rectify
    Column("email", String(320), nullable=False),
    Column("details", Text),
    Column("status", String(16), nullable=False),  # unverified | verified | done
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("verified_at", DateTime(timezone=True)),
    Column("due_at", DateTime(timezone=True)),
    Column("done_at", DateTime(timezone=True)),
    Column("outcome", Text),
    Column("person_name", Text),  # 0019: the register person the requester says they are (optional)
    Column("person_keys", Text),  # 0019: JSON list of person keys (`p:…`) the requester names
)
Index("ix_privacy_requests_email", privacy_requests.c.email)

# Addresses that erased or objected: no lead, newsletter or watch mail is sent to them again.
privacy_suppressions = Table(
    "privacy_suppressions",
    metadata,
    Column("email", String(320), primary_key=True),
    Column("reason", String(16), nullable=False),
    Column("request_id", Id, ForeignKey("privacy_requests.id", ondelete="SET NULL")),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# Billing (migration 0016_accounts_billing): provider events seen (idempotency by event id) and the
# subscription state the provider last reported per account.
billing_events = Table(
    "billing_events",
    metadata,
    Column("event_id", String(100), primary_key=True),
    Column("type", String(100), nullable=False),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="SET NULL")),
    Column("outcome", Text, nullable=False),
    Column("received_at", DateTime(timezone=True), nullable=False),
)

billing_subscriptions = Table(
    "billing_subscriptions",
    metadata,
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("subscription_id", String(100), nullable=False),
    Column("status", String(32), nullable=False),
    Column("plan", String(32), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# Passkeys (WebAuthn, migration 0017_accounts_passkeys): the credential's id and COSE public key.
account_passkeys = Table(
    "account_passkeys",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("credential_id", String(700), nullable=False, unique=True),  # base64url
    Column("public_key", Text, nullable=False),  # base64url of the COSE key
    Column("sign_count", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_used_at", DateTime(timezone=True)),
)
Index("ix_account_passkeys_account_id", account_passkeys.c.account_id)

# Refresh tokens (0018_accounts_finish), hash only, rotated on every use. Every token descended from one
# authorization shares a `family_id`: presenting a used token again revokes the whole family (the
# refresh tokens and the access tokens they produced).
oauth_refresh_tokens = Table(
    "oauth_refresh_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("family_id", String(64), nullable=False),
    Column(
        "client_id", String(64), ForeignKey("oauth_clients.client_id", ondelete="CASCADE"), nullable=False
    ),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column(
        "api_key_id", Id, ForeignKey("api_keys.id", ondelete="SET NULL")
    ),  # the access token issued with it
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True)),
    Column("revoked_at", DateTime(timezone=True)),
)
Index("ix_oauth_refresh_tokens_family_id", oauth_refresh_tokens.c.family_id)
Index("ix_oauth_refresh_tokens_client_id", oauth_refresh_tokens.c.client_id)

# The payment provider's customer of an account (made at the first checkout; the portal needs it).
billing_customers = Table(
    "billing_customers",
    metadata,
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("provider", String(16), nullable=False),
    Column("customer_id", String(100), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("provider", "customer_id", name="uq_billing_customers_provider_customer_id"),
)

# OpenID Connect identities linked to an account: (provider, subject) is the provider's stable user id.
account_identities = Table(
    "account_identities",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("provider", String(40), nullable=False),
    Column("subject", String(255), nullable=False),
    Column("email", String(320)),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_login_at", DateTime(timezone=True)),
    UniqueConstraint("provider", "subject", name="uq_account_identities_provider_subject"),
)
Index("ix_account_identities_account_id", account_identities.c.account_id)

# Paid one-time passes (0019_accounts_passes): one row per paid checkout (unique, so the provider's
# `completed` and `async_payment_succeeded` events for one session grant one pass). The account turns a
# pass into a key once (`api_key_id`, `claimed_at`), so the raw key is shown to its owner and only its
# hash is ever stored.
account_passes = Table(
    "account_passes",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("account_id", Id, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("plan", String(32), nullable=False),
    Column("checkout_id", String(100), nullable=False),
    Column("event_id", String(100), nullable=False),
    Column("paid_at", DateTime(timezone=True), nullable=False),
    Column("api_key_id", Id, ForeignKey("api_keys.id", ondelete="SET NULL")),
    Column("claimed_at", DateTime(timezone=True)),
    # The payment the checkout completed with: a refund event names it, not the checkout (migration 0023).
    Column("payment_intent", String(100)),
    Column("refunded_at", DateTime(timezone=True)),
    UniqueConstraint("checkout_id", name="uq_account_passes_checkout_id"),
)
Index("ix_account_passes_account_id", account_passes.c.account_id)
Index("ix_account_passes_payment_intent", account_passes.c.payment_intent)

# Natural persons of the register withheld after a verified erase/object request that the operator matched
# to them (`regintel privacy answer`): the person's register rows are removed and re-imports skip the key
# (ingest/sections.py reads this table). Only the key, the request and the reason are kept: the legal record.
privacy_person_suppressions = Table(
    "privacy_person_suppressions",
    metadata,
    Column("person_key", String(64), primary_key=True),
    Column("request_id", Id, ForeignKey("privacy_requests.id", ondelete="SET NULL")),
    Column("reason", String(16), nullable=False),  # erase | object
    Column("roles_removed", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# Every withholding and lift, in order (migration 0031): never deleted, so its newest id moves whenever served
# register data was withheld or put back; `db.stats.data_version` reads it (by name: db sits below the areas),
# so aggregates, snapshots and stored pages made before are not served after.
privacy_actions = Table(
    "privacy_actions",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("person_key", String(64), nullable=False),
    Column("action", String(16), nullable=False),  # withhold | lift
    Column("request_id", Id, ForeignKey("privacy_requests.id", ondelete="SET NULL")),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# The register rows a suppression took out of the served tables, kept as they were (JSON), so a suppression
# never loses register data and `regintel privacy lift` can put them back (migration 0020).
privacy_withheld_rows = Table(
    "privacy_withheld_rows",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("person_key", String(64), nullable=False, index=True),
    Column("table_name", String(32), nullable=False),  # people | roles | company_changes
    Column("row_id", Id, nullable=False),
    Column("data", Text, nullable=False),
)
