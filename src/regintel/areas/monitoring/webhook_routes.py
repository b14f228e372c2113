"""Generic webhook subscriptions (spec 4.5): company events filtered by type, country and company."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.deps import ApiKey, AppSettings, DbConn, DbWriteConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.monitoring import subscriptions as subs
from regintel.areas.monitoring import webhook_subscriptions as svc
from regintel.areas.monitoring.schemas import (
    CreateWebhook,
    Deleted,
    Resume,
    WebhookResumed,
    WebhookSubscription,
    WebhookSubscriptionWithSecret,
)

router = APIRouter(prefix="/api/v1/webhooks/subscriptions", tags=["Webhooks"], route_class=StrictRoute)

SubId = Annotated[int, Path(ge=1, le=2**63 - 1, description="Subscription id")]
KIND = "webhook"


@router.get(
    "",
    response_model=Envelope[list[WebhookSubscription]],
    summary="List webhook subscriptions",
    description="This key's generic webhook subscriptions, newest first, with their filters and delivery "
    "figures (never the secret). `page`, `per_page`, `meta.total`.",
)
def list_(
    request: Request,
    conn: DbConn,
    caller: ApiKey,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=200)] = 50,
    status: Annotated[Literal["active", "paused"] | None, Query(description="`active` or `paused`")] = None,
) -> Response:
    items, total = svc.list_webhooks(
        conn, caller.key.id, status=subs.parse_status(status), page=page, per_page=per_page
    )
    return ok(request, items, total=total, page=page, per_page=per_page)


@router.post(
    "",
    status_code=201,
    response_model=Envelope[WebhookSubscriptionWithSecret],
    summary="Create one",
    description="Receive company events at `url`: `company.insolvency.changed` (body as the monitoring "
    "webhook), `company.changed` (`field`, `from`, `to`; needs `companies`) and `company.created` "
    "(`name`), optionally only for `countries` and/or `companies` (at most 1,000). Signed per Standard "
    "Webhooks with the `whsec_…` secret shown only in this answer; at least once, retried with "
    "back-off, paused (never dropped) when a delivery exhausts its retries. The URL rules of the "
    "monitoring subscriptions apply (http(s), public address, no credentials).",
)
def create(
    request: Request, body: CreateWebhook, conn: DbWriteConn, caller: ApiKey, settings: AppSettings
) -> Response:
    data = svc.create_webhook(
        conn,
        caller.key.id,
        url=body.url,
        event_types=body.event_types,
        countries=body.countries,
        companies=[(c.country, c.ico) for c in body.companies or []],
        description=body.description,
        settings=settings,
    )
    conn.commit()
    return ok(request, data, status_code=201)


@router.delete(
    "/{sub_id:int}",
    response_model=Envelope[Deleted],
    summary="Delete one",
    description="Stop the subscription; its queued deliveries are cancelled. Another key's "
    "subscription answers 404.",
)
def delete(request: Request, sub_id: SubId, conn: DbWriteConn, caller: ApiKey) -> Response:
    data = subs.delete(conn, caller.key.id, sub_id, KIND)
    conn.commit()
    return ok(request, data)


@router.post(
    "/{sub_id:int}/resume",
    response_model=Envelope[WebhookResumed],
    summary="Resume a paused one",
    description="Addition to the specification: make a paused subscription active again and, unless "
    "`retry_failed` is false, queue its failed deliveries again in their original order.",
)
def resume(
    request: Request, sub_id: SubId, conn: DbWriteConn, caller: ApiKey, body: Resume | None = None
) -> Response:
    data = subs.resume(conn, caller.key.id, sub_id, KIND, (body or Resume()).retry_failed)
    conn.commit()
    return ok(request, data)
