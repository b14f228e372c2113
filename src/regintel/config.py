"""Settings, read once from `REGINTEL_*` environment variables and passed in explicitly."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Plan(BaseModel):
    """One plan: a per-minute limit plus either a monthly quota or a fixed pass budget."""

    title: str
    rate_per_minute: int = Field(gt=0)
    monthly_quota: int | None = Field(default=None, gt=0)
    budget: int | None = Field(default=None, gt=0, description="fixed request budget of a pass")
    duration_days: int | None = Field(default=None, gt=0, description="validity of a pass")
    enrich_max_identifiers: int | None = Field(
        default=None,
        gt=0,
        description="most identifiers in one enrichment job (areas/enrich); None: the service's own cap",
    )


class OidcProvider(BaseModel):
    """An OpenID Connect provider people may sign in with (areas/accounts, docs/accounts.md)."""

    title: str | None = Field(default=None, description="Name shown to people; default: the provider's key")
    issuer: str = Field(description="Issuer URL; its `/.well-known/openid-configuration` is read")
    client_id: str
    client_secret: str | None = Field(default=None, description="None: a public client (PKCE only)")
    scope: str = Field(default="openid email profile")


DEFAULT_PLANS: dict[str, Plan] = {
    "free": Plan(title="Free", rate_per_minute=120, monthly_quota=1_000, enrich_max_identifiers=1_000),
    "pro": Plan(title="Pro", rate_per_minute=600, monthly_quota=250_000, enrich_max_identifiers=25_000),
    "business": Plan(
        title="Business", rate_per_minute=3_000, monthly_quota=2_000_000, enrich_max_identifiers=100_000
    ),
    "day_pass": Plan(
        title="Day pass", rate_per_minute=300, budget=5_000, duration_days=1, enrich_max_identifiers=5_000
    ),
    "week_pass": Plan(
        title="Week pass", rate_per_minute=300, budget=25_000, duration_days=7, enrich_max_identifiers=25_000
    ),
}

# DESIGN.md section 3: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h between attempts, then failed.
DEFAULT_RETRY_SCHEDULE = [5.0, 300.0, 1_800.0, 7_200.0, 18_000.0, 36_000.0, 36_000.0]
DEV_SECRET_KEY = "dev-only-insecure-secret-key-change-me"

DEFAULT_PURPOSES = [
    "kyc",
    "aml",
    "credit_assessment",
    "procurement",
    "journalism",
    "legal_claim",
    "research",
]


class Settings(BaseSettings):
    """Every setting of the service. Documented in docs/configuration.md (checked by a test)."""

    model_config = SettingsConfigDict(env_prefix="REGINTEL_", extra="ignore")

    database_url: str = Field(
        default="sqlite:///./data/regintel.db",
        description="SQLAlchemy URL: `sqlite:///path.db` (default) or `postgresql://user@host/db`.",
    )
    database_replica_urls: list[str] = Field(
        default_factory=list,
        description="PostgreSQL read replicas "
        "(JSON list of URLs): read-only requests go to them in turn; writes "
        "and reads of what a client just wrote go to `database_url`.",
    )
    data_dir: Path = Field(
        default=Path("./data"),
        description="Folder for the SQLite file, counters, import rejects and search indexes.",
    )
    redis_url: str | None = Field(
        default=None,
        description="When set, rate-limit and quota counters live in Redis so several hosts share them.",
    )
    rate_limit_storage: Literal["auto", "memory", "sqlite", "redis"] = Field(
        default="auto",
        description="Counter storage: `auto` = Redis when `redis_url` is set, else a SQLite counter file "
        "shared by all processes on the host; `memory` is for a single process only.",
    )
    base_url: str = Field(
        default="http://127.0.0.1:8000",
        description="Public base address, used in links, feeds and the OpenAPI `servers` entry.",
    )
    environment: Literal["development", "production"] = Field(default="development")
    cors_allow_origins: list[str] = Field(
        default_factory=lambda: ["*"],
        description="Origins whose browser "
        'scripts may call the API (JSON list); `["*"]`: any, as keys are '
        "sent explicitly and never as cookies.",
    )
    log_level: str = Field(
        default="INFO",
        description="Python log level of `serve` and `worker` (DEBUG, INFO, "
        "WARNING, ERROR); INFO includes the access log of every request.",
    )
    log_format: Literal["text", "json"] = Field(
        default="text",
        description="`json`: one JSON object per log line, with `request_id` and the access fields as keys.",
    )
    plans: dict[str, Plan] = Field(
        default_factory=lambda: dict(DEFAULT_PLANS),
        description="Plans as JSON: name → {title, rate_per_minute, "
        "monthly_quota | budget + duration_days, enrich_max_identifiers?}.",
    )
    default_plan: str = Field(default="free", description="Plan given to keys created without one.")
    rate_window_seconds: int = Field(
        default=60,
        gt=0,
        description="Length of the fixed per-key window. Spec 8 fixes 60 s; tests shorten it.",
    )
    shared_limit_per_minute: int = Field(
        default=600,
        gt=0,
        description="Shared per-IP limiter for calls without a key (and the floor for keyed calls).",
    )
    shared_window_seconds: int = Field(default=60, gt=0, description="Window of the shared limiter.")
    trust_forwarded_for: bool = Field(
        default=False, description="Take the client IP from `X-Forwarded-For` (only behind a trusted proxy)."
    )
    allowed_purposes: list[str] = Field(
        default_factory=lambda: list(DEFAULT_PURPOSES),
        description="Declared purposes that unlock natural-person fields.",
    )
    llm_base_url: str | None = Field(
        default=None,
        description="OpenAI-compatible chat API (e.g. "
        "`http://127.0.0.1:11434/v1`) that rewrites due-diligence reports into prose; "
        "unset: the rule-based narrative is served as it is.",
    )
    llm_model: str | None = Field(default=None, description="Model name sent to `llm_base_url`.")
    allow_private_webhooks: bool = Field(
        default=False,
        description="Allow webhook URLs that resolve to "
        "private, loopback or link-local addresses (tests, intranets).",
    )
    security_allow_private: bool = Field(
        default=False,
        description="Let the passive security checks "
        "(areas/security) reach private, loopback or link-local addresses. "
        "Production refuses them; only tests set it.",
    )
    security_nameservers: list[str] = Field(
        default_factory=list,
        description="Resolvers the security checks "
        "ask, as `ip` or `ip:port`; empty: the system's resolvers. Tests "
        "point it at a DNS server on 127.0.0.1.",
    )
    security_https_port: int = Field(
        default=443, gt=0, lt=65536, description="Port of the TLS and HTTPS checks (tests only change it)."
    )
    security_http_port: int = Field(
        default=80,
        gt=0,
        lt=65536,
        description="Port of the plain-HTTP redirect check (tests only change it).",
    )
    security_ca_file: str | None = Field(
        default=None,
        description="PEM bundle the certificate check trusts instead of the system's (tests only).",
    )
    security_timeout_seconds: float = Field(
        default=5.0,
        gt=0,
        le=60,
        description="Time limit of each DNS query, TLS handshake and HTTP request of a security check.",
    )
    security_max_age_hours: float = Field(
        default=168.0,
        gt=0,
        description="A domain's stored security check older than this is served and checked again.",
    )
    search_backend: Literal["auto", "tantivy", "sqlite_fts", "pg_trgm"] = Field(
        default="auto",
        description="Name/address index: `auto` = tantivy (an embedded index under "
        "`data_dir/search`, the fastest measured, docs/search.md); `sqlite_fts` (FTS5 in the SQLite file) or "
        "`pg_trgm` (trigram GIN in PostgreSQL) keep the index inside the database.",
    )
    search_refresh_seconds: float = Field(
        default=1.0,
        ge=0,
        description="How often each API process's search-index thread (never a request) runs the "
        "due `search.index` jobs and checks the database for changes its index has not seen yet.",
    )
    smtp_host: str | None = Field(
        default=None, description="SMTP server; without it e-mails go to the outbox table and the log."
    )
    smtp_port: int = Field(default=25)
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = Field(default="regintel@localhost")
    billing_webhook_secret: str | None = Field(
        default=None,
        description="Stripe webhook signing secret "
        "(`whsec_…`) of POST /api/v1/billing/webhook (areas/accounts).",
    )
    smtp_starttls: bool = False
    stripe_api_key: str | None = Field(
        default=None,
        description="Stripe secret key (`sk_…`) that creates "
        "checkout and billing-portal sessions (areas/accounts); unset: no provider, "
        "checkout and portal answer 503.",
    )
    stripe_api_base: str = Field(
        default="https://api.stripe.com",
        description="Base address of the Stripe API (tests point it at a local fake).",
    )
    billing_prices: dict[str, str] = Field(
        default_factory=dict,
        description="Plan → Stripe price id "
        "(`price_…`) sold by checkout (JSON); a plan without a price cannot "
        "be bought.",
    )
    oidc_providers: dict[str, OidcProvider] = Field(
        default_factory=dict,
        description="OpenID Connect "
        "providers for sign-in (JSON: name → {title?, issuer, "
        "client_id, client_secret?, scope?}); empty: e-mail links "
        "and passkeys only.",
    )
    key_cache_seconds: float = Field(
        default=2.0,
        ge=0,
        description="How long an API process remembers a key "
        "lookup; a revoked key stops working within this time.",
    )
    db_concurrency: int = Field(
        default=16,
        gt=0,
        le=1_000,
        description="Database connections one API "
        "process lends to requests at once (its pool holds a few more for streams "
        "and background reads). A request finding none free waits up to "
        "`db_wait_seconds`, then is answered 503 `OVERLOADED` with `Retry-After`.",
    )
    db_wait_seconds: float = Field(
        default=2.0,
        ge=0,
        le=60,
        description="How long a request may wait for a database connection before it is shed with 503.",
    )
    threads: int = Field(
        default=8,
        gt=0,
        le=200,
        description="Worker threads of one API process for "
        "blocking work (database reads on PostgreSQL, counters, sync handlers).",
    )
    warm_start: bool = Field(
        default=False,
        description="At start-up, build FastAPI's route contexts, compile the pages' templates and one "
        "company's check, and prepare the region maps, so that no first request pays for them (about 1 s "
        "of CPU a process).",
    )
    max_inflight_requests: int = Field(
        default=1_000,
        gt=0,
        description="Requests one API process serves at "
        "once; beyond it new requests are answered 503 `OVERLOADED` at once.",
    )
    workers: int | None = Field(
        default=None,
        gt=0,
        le=256,
        description="API processes `regintel serve` starts; default: one per CPU core (`os.cpu_count()`).",
    )
    query_timeout_ms: int = Field(default=5_000, gt=0, description="Time limit of one API read query.")
    auto_migrate: bool = Field(default=True, description="`serve` upgrades the schema before starting.")
    secret_key: str = Field(
        default=DEV_SECRET_KEY,
        description="Server secret that signs e-mail watch "
        "tokens; refused in production unless set to 32 or more random characters.",
    )
    webhook_retry_schedule: list[float] = Field(
        default_factory=lambda: list(DEFAULT_RETRY_SCHEDULE),
        min_length=1,
        description="Seconds to wait before each retry of a failed webhook or e-mail; after the last one "
        "the delivery is `failed` and its subscription paused.",
    )
    webhook_timeout_seconds: float = Field(
        default=5.0, gt=0, le=60, description="Time limit of one webhook attempt (connect, send and read)."
    )
    webhook_concurrency: int = Field(
        default=64, gt=0, le=1_000, description="Webhook attempts one worker runs at once."
    )
    vies_base_url: str = Field(
        default="https://ec.europa.eu/taxation_customs/vies/rest-api",
        description="EU VIES REST API that `/vat/validate` asks (`{base}/ms/{MS}/vat/{nr}`).",
    )
    vies_timeout_seconds: float = Field(
        default=8.0,
        gt=0,
        le=60,
        description="Time limit of one VIES call; beyond it the answer is `unavailable`.",
    )
    webhook_secret_grace_hours: float = Field(
        default=24.0,
        ge=0,
        description="After a secret rotation, deliveries are also signed with the old secret this long.",
    )
    worker_poll_seconds: float = Field(
        default=1.0, gt=0, description="How often an idle worker looks for due deliveries and e-mails."
    )
    stats_poll_seconds: float = Field(
        default=30.0,
        gt=0,
        description="How often the worker looks whether "
        "the data moved; once it has held still that long, the worker recomputes "
        "the statistics snapshots that are no longer current.",
    )
    watch_confirm_hours: int = Field(
        default=72, gt=0, description="Validity of the confirmation link of a public e-mail watch."
    )
    changes_stream_poll_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="How often an open `/companies/changes/stream` looks for new changes.",
    )
    changes_stream_heartbeat_seconds: float = Field(
        default=15.0,
        gt=0,
        le=300,
        description="Interval of the "
        "SSE comment lines that keep an idle changes stream open "
        "through proxies.",
    )

    @field_validator("default_plan")
    @classmethod
    def _known_plan(cls, value: str) -> str:
        return value.strip().lower()

    @model_validator(mode="after")
    def _no_default_secret_in_production(self) -> Settings:
        if self.environment == "production" and (
            self.secret_key == DEV_SECRET_KEY or len(self.secret_key) < 32
        ):
            raise ValueError("REGINTEL_SECRET_KEY must be set to 32 or more random characters in production")
        return self

    def plan(self, name: str) -> Plan:
        """The plan called `name`, falling back to the default plan for unknown names."""
        return self.plans.get(name) or self.plans[self.default_plan]

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def load_settings(**overrides: Any) -> Settings:
    """Settings from the environment, with explicit overrides (used by the CLI and tests)."""
    return Settings(**overrides)
