"""Monitoring subscriptions (spec 4.6, 6.1): webhooks on a company's insolvency flips."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.deps import ApiKey, AppSettings, DbConn, DbWriteConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies.service import decode_cursor, encode_cursor
from regintel.areas.monitoring import subscriptions as svc
from regintel.areas.monitoring.bulk_subscriptions import run_bulk
from regintel.areas.monitoring.schemas import (
    Bulk,
    BulkResult,
    CreateMonitoring,
    Deleted,
    DeliveryLog,
    MonitoringSubscription,
    MonitoringSubscriptionWithSecret,
    Resume,
    Resumed,
    TestQueued,
)

router = APIRouter(prefix="/api/v1/monitoring/subscriptions", tags=["Monitoring"], route_class=StrictRoute)

SubId = Annotated[int, Path(ge=1, le=2**63 - 1, description="Subscription id")]
Page = Annotated[int, Query(ge=1, le=100_000)]
PerPage = Annotated[int, Query(ge=1, le=200)]
StatusFilter = Annotated[Literal["active", "paused"] | None, Query(description="`active` or `paused`")]
KIND = "monitoring"
_SIGNED = (
    "Deliveries are signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, "
    "`webhook-signature`) with the subscription's `whsec_…` secret."
)


@router.post(
    "",
    status_code=201,
    response_model=Envelope[MonitoringSubscriptionWithSecret],
    summary="Create a subscription",
    description="Watch one company: every flip of `in_bankruptcy`, `in_restructuring` or `in_liquidation` "
    'POSTs `{"type": "company.insolvency.changed", "ico", "country", "field", "from", "to", '
    '"detected_at"}` to `webhook_url`, at least once, retried with back-off (5 s … 10 h) and then '
    f"marked failed. {_SIGNED} The `secret` is shown only in this answer and after a rotation. "
    "404 for an unknown company, 422 for a malformed identifier or a URL that is not http(s), carries "
    "credentials or resolves to a private, loopback or link-local address; 409 if this key already "
    "sends this company to this URL.",
)
def create(
    request: Request, body: CreateMonitoring, conn: DbWriteConn, caller: ApiKey, settings: AppSettings
) -> Response:
    data = svc.create_monitoring(conn, caller.key.id, body.ico, body.country, body.webhook_url, settings)
    conn.commit()
    return ok(request, data, status_code=201)


@router.get(
    "",
    response_model=Envelope[list[MonitoringSubscription]],
    summary="List subscriptions",
    description="This key's subscriptions, newest first, with delivery figures (never the secret). "
    "Paginated with `page` and `per_page` (`meta.total`).",
)
def list_(
    request: Request,
    conn: DbConn,
    caller: ApiKey,
    page: Page = 1,
    per_page: PerPage = 50,
    status: StatusFilter = None,
) -> Response:
    items, total = svc.list_monitoring(
        conn, caller.key.id, status=svc.parse_status(status), page=page, per_page=per_page
    )
    return ok(request, items, total=total, page=page, per_page=per_page)


@router.post(
    "/bulk",
    response_model=Envelope[BulkResult],
    summary="Bulk operation",
    description="Create or delete up to 100 subscriptions in one call. Each item is applied on its own "
    "and answered with the status it would have had alone (201, 200, 404, 409, 422 …) and its record or "
    "error; a failing item never undoes the others. Created items carry their `secret`.",
)
def bulk(request: Request, body: Bulk, conn: DbWriteConn, caller: ApiKey, settings: AppSettings) -> Response:
    return ok(request, run_bulk(conn, caller.key.id, body.operations, settings))


@router.get(
    "/{sub_id:int}",
    response_model=Envelope[MonitoringSubscription],
    summary="One subscription",
    description="A subscription of this key with its delivery figures and queued deliveries. "
    "Another key's subscription answers 404.",
)
def get(request: Request, sub_id: SubId, conn: DbConn, caller: ApiKey) -> Response:
    return ok(request, svc.get_monitoring(conn, caller.key.id, sub_id))


@router.delete(
    "/{sub_id:int}",
    response_model=Envelope[Deleted],
    summary="Unsubscribe",
    description="Stop the subscription; deliveries still queued for it are cancelled.",
)
def delete(request: Request, sub_id: SubId, conn: DbWriteConn, caller: ApiKey) -> Response:
    data = svc.delete(conn, caller.key.id, sub_id, KIND)
    conn.commit()
    return ok(request, data)


@router.post(
    "/{sub_id:int}/rotate-secret",
    response_model=Envelope[MonitoringSubscriptionWithSecret],
    summary="Rotate the subscription secret",
    description="Issue a new `whsec_…` secret, effective at once and shown only in this answer. For "
    "`REGINTEL_WEBHOOK_SECRET_GRACE_HOURS` (24 h by default) deliveries carry two signatures, with "
    "the new and the old secret, so a receiver can switch without rejecting a message.",
)
def rotate_secret(
    request: Request, sub_id: SubId, conn: DbWriteConn, caller: ApiKey, settings: AppSettings
) -> Response:
    data = svc.rotate(conn, caller.key.id, sub_id, KIND, settings)
    conn.commit()
    return ok(request, data)


@router.post(
    "/{sub_id:int}/test",
    status_code=202,
    response_model=Envelope[TestQueued],
    summary="Send a test delivery",
    description="Queue a signed delivery with `type` `test` (otherwise the insolvency body, nothing "
    "flipped). Answers 202 with the delivery id (its `webhook-id`); follow it in "
    "`GET …/{id}/deliveries`. It is delivered after whatever the subscription already has queued.",
)
def send_test(request: Request, sub_id: SubId, conn: DbWriteConn, caller: ApiKey) -> Response:
    data = svc.queue_test(conn, caller.key.id, sub_id)
    conn.commit()
    return ok(request, data, status_code=202)


@router.post(
    "/{sub_id:int}/resume",
    response_model=Envelope[Resumed],
    summary="Resume a paused subscription",
    description="Addition to the specification. A subscription whose delivery exhausted its retries is "
    "paused, never dropped: its deliveries stay queued. Resuming makes it active again and, unless "
    "`retry_failed` is false, queues the failed deliveries again in their original order.",
)
def resume(
    request: Request, sub_id: SubId, conn: DbWriteConn, caller: ApiKey, body: Resume | None = None
) -> Response:
    data = svc.resume(conn, caller.key.id, sub_id, KIND, (body or Resume()).retry_failed)
    conn.commit()
    return ok(request, data)


@router.get(
    "/{sub_id:int}/deliveries",
    response_model=Envelope[list[DeliveryLog]],
    summary="Delivery log",
    description="Addition to the specification. The subscription's deliveries, newest first, each with "
    "every attempt (time, HTTP status, error, duration). Keyset-paginated with `cursor`.",
)
def deliveries(
    request: Request,
    sub_id: SubId,
    conn: DbConn,
    caller: ApiKey,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    status: Annotated[
        str | None,
        Query(
            pattern="^(pending|delivering|succeeded|failed|cancelled)$",
            description="Only deliveries in this state",
        ),
    ] = None,
) -> Response:
    items = svc.list_subscription_deliveries(
        conn, caller.key.id, sub_id, KIND, before_id=decode_cursor(cursor), limit=limit + 1, status=status
    )
    next_cursor = encode_cursor(items[limit - 1]["id"]) if len(items) > limit else None
    return ok(request, items[:limit], next_cursor=next_cursor)
