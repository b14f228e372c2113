"""The monitoring models are the contract: every served body carries exactly the fields its route's
model declares (no undeclared key, no required one missing) and validates against it (issue 14)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from regintel.areas.monitoring import schemas
from tests.builders import make_company
from tests.helpers import assert_envelope

MONITORING = "/api/v1/monitoring/subscriptions"
HOOKS = "/api/v1/webhooks/subscriptions"
HOOK = "http://127.0.0.1:9/hook"


def exact(model: type[BaseModel], body: Any) -> None:
    assert isinstance(body, dict), body
    declared = set(model.model_fields)
    required = {name for name, field in model.model_fields.items() if field.is_required()}
    assert required <= set(body) <= declared, (model.__name__, set(body) ^ declared)
    model.model_validate(body)
    for name, field in model.model_fields.items():
        inner = field.annotation
        args = getattr(inner, "__args__", ())
        if isinstance(inner, type) and issubclass(inner, BaseModel) and body[name] is not None:
            exact(inner, body[name])
        elif args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
            for item in body[name] or ():
                exact(args[0], item)


def test_monitoring_bodies_are_their_models(client, auth, engine):
    make_company(engine)
    created = assert_envelope(
        client.post(MONITORING, json={"ico": "31322832", "webhook_url": HOOK}, headers=auth), 201
    )
    exact(schemas.MonitoringSubscriptionWithSecret, created)
    sub = f"{MONITORING}/{created['id']}"
    for item in assert_envelope(client.get(MONITORING, headers=auth)):
        exact(schemas.MonitoringSubscription, item)
    exact(schemas.MonitoringSubscription, assert_envelope(client.get(sub, headers=auth)))
    exact(schemas.TestQueued, assert_envelope(client.post(f"{sub}/test", headers=auth), 202))
    deliveries = assert_envelope(client.get(f"{sub}/deliveries", headers=auth))
    assert deliveries
    for item in deliveries:
        exact(schemas.DeliveryLog, item)
    bulk = client.post(
        f"{MONITORING}/bulk",
        json={"operations": [{"action": "create", "ico": "31322832", "webhook_url": HOOK}, {"action": "x"}]},
        headers=auth,
    )
    exact(schemas.BulkResult, assert_envelope(bulk))
    exact(schemas.Deleted, assert_envelope(client.delete(sub, headers=auth)))


def test_webhook_bodies_are_their_models(client, auth, engine):
    created = assert_envelope(
        client.post(HOOKS, json={"url": HOOK, "event_types": ["company.insolvency.changed"]}, headers=auth),
        201,
    )
    exact(schemas.WebhookSubscriptionWithSecret, created)
    for item in assert_envelope(client.get(HOOKS, headers=auth)):
        exact(schemas.WebhookSubscription, item)
    exact(schemas.Deleted, assert_envelope(client.delete(f"{HOOKS}/{created['id']}", headers=auth)))
