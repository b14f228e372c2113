"""Request and response models of the monitoring, webhook and watch operations (published in OpenAPI)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

IdPath = Field(ge=1, le=2**63 - 1, description="Identifier from the create or list answer")
Url = Field(
    min_length=1, max_length=2048, description="http(s) URL on a public address; no credentials in it"
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateMonitoring(Strict):
    ico: str = Field(min_length=1, max_length=40, description="National identifier (IČO in SK and CZ)")
    country: str | None = Field(
        default=None,
        min_length=2,
        max_length=2,
        description="ISO 3166-1 alpha-2, any case; default: SK first, 409 when ambiguous",
    )
    webhook_url: str = Url


class SubscriptionFigures(BaseModel):
    """Figures every subscription record carries."""

    id: int
    event_types: list[str]
    status: Literal["active", "paused"] = Field(
        description="`paused` after a delivery exhausted its retries; resume with `POST …/{id}/resume`"
    )
    pause_reason: str | None
    created_at: datetime
    updated_at: datetime
    paused_at: datetime | None
    last_delivery_at: datetime | None = Field(description="Time of the last attempt")
    last_status: int | None = Field(
        description="HTTP status of the last attempt (none when it got no answer)"
    )
    last_error: str | None
    consecutive_failures: int = Field(description="Failed attempts since the last success")
    total_deliveries: int = Field(description="Deliveries acknowledged with a 2xx")
    total_failures: int = Field(description="Failed attempts")


class MonitoringSubscription(SubscriptionFigures):
    ico: str
    country: str
    company_name: str
    webhook_url: str
    queued_deliveries: int | None = Field(
        default=None, description="Pending or in-flight deliveries (one subscription only)"
    )


class SecretFields(BaseModel):
    secret: str = Field(description="Standard Webhooks signing secret `whsec_…`; shown only now")
    previous_secret_valid_until: datetime | None = Field(
        description="After a rotation, until when deliveries also carry a signature made with the old secret"
    )


class MonitoringSubscriptionWithSecret(MonitoringSubscription, SecretFields):
    pass


class Deleted(BaseModel):
    id: int
    deleted: bool
    cancelled_deliveries: int = Field(description="Queued deliveries cancelled with it")


class Resume(Strict):
    retry_failed: bool = Field(
        default=True,
        description="Queue again the deliveries that had exhausted their retries (in their original order)",
    )


class Resumed(MonitoringSubscription):
    requeued_deliveries: int


class TestQueued(BaseModel):
    delivery_id: str = Field(description="The delivery's `webhook-id` header")
    id: int
    subscription_id: int
    status: str
    subscription_status: str = Field(description="A paused subscription delivers it once resumed")


class Attempt(BaseModel):
    attempt: int
    attempted_at: datetime
    status_code: int | None
    error: str | None
    duration_ms: int


class DeliveryLog(BaseModel):
    id: int
    delivery_id: str = Field(description="The `webhook-id` header: the same on every attempt")
    event_type: str
    status: Literal["pending", "delivering", "succeeded", "failed", "cancelled"]
    attempts: int
    detected_at: datetime
    created_at: datetime
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    last_status_code: int | None
    last_error: str | None
    attempt_log: list[Attempt]


class Bulk(Strict):
    operations: list[Any] = Field(
        min_length=1,
        max_length=100,
        description='Up to 100 items: `{"action": "create", "ico", "country"?, "webhook_url"}` or '
        '`{"action": "delete", "id"}`. Each item succeeds or fails on its own.',
    )


class BulkItem(BaseModel):
    index: int
    action: str | None
    status: int = Field(description="HTTP status the item would have had on its own")
    data: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class BulkResult(BaseModel):
    results: list[BulkItem]
    succeeded: int
    failed: int


class CompanyRef(Strict):
    country: str = Field(min_length=2, max_length=2)
    ico: str = Field(min_length=1, max_length=40)


class CreateWebhook(Strict):
    url: str = Url
    event_types: list[str] = Field(
        min_length=1,
        max_length=10,
        description="`company.insolvency.changed`, `company.changed` (needs `companies`), `company.created`",
    )
    countries: list[str] | None = Field(default=None, max_length=50, description="Only these countries")
    companies: list[CompanyRef] | None = Field(
        default=None, max_length=1000, description="Only these companies"
    )
    description: str | None = Field(default=None, max_length=500)


class WebhookSubscription(SubscriptionFigures):
    url: str
    countries: list[str]
    companies: list[dict[str, str]]
    description: str | None


class WebhookSubscriptionWithSecret(WebhookSubscription, SecretFields):
    pass


class WebhookResumed(WebhookSubscription):
    requeued_deliveries: int
