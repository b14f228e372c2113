"""What a change of a company means to its watchers: event type, severity, webhook body, retry delay.

Pure functions over the change-log rows the loader writes (field, old and new value as text).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

INSOLVENCY_FIELDS = ("in_bankruptcy", "in_restructuring", "in_liquidation")
INSOLVENCY_CHANGED = "company.insolvency.changed"
COMPANY_CHANGED = "company.changed"
COMPANY_CREATED = "company.created"
TEST_EVENT = "test"
# Event types a generic webhook subscription may ask for (spec 4.5); monitoring subscriptions
# (spec 4.6) always receive exactly INSOLVENCY_CHANGED.
EVENT_TYPES = (INSOLVENCY_CHANGED, COMPANY_CHANGED, COMPANY_CREATED)
SEVERITIES = ("info", "warning", "critical")

_CRITICAL = {"in_bankruptcy", "in_restructuring"}
# Liquidation is a normal way to close a healthy company (spec 2.2): a warning, not an alarm.
_WARNING = {"in_liquidation", "status", "dissolved_on"}


@dataclass(frozen=True)
class Change:
    """One change-log row of a company, with the company's public key."""

    change_id: int | None
    company_id: int
    country: str
    national_id: str
    field: str
    old_value: str | None
    new_value: str | None
    source: str
    detected_at: datetime


def event_type(field: str) -> str:
    if field in INSOLVENCY_FIELDS:
        return INSOLVENCY_CHANGED
    if field == "created":
        return COMPANY_CREATED
    return COMPANY_CHANGED


def severity(field: str) -> str:
    """`critical` for bankruptcy and restructuring flips, `warning` for liquidation, dissolution and
    status changes, `info` for everything else."""
    if field in _CRITICAL:
        return "critical"
    if field in _WARNING:
        return "warning"
    return "info"


def field_value(field: str, text: str | None) -> Any:
    """A change-log value as published: insolvency flags as booleans, everything else as text."""
    if field in INSOLVENCY_FIELDS:
        return text == "true"
    return text


def webhook_body(change: Change) -> dict[str, Any]:
    """The delivery body: for insolvency flips exactly DESIGN.md section 3's
    `{"type", "ico", "country", "field", "from", "to", "detected_at"}` (flags as booleans)."""
    body: dict[str, Any] = {
        "type": event_type(change.field),
        "ico": change.national_id,
        "country": change.country,
    }
    if change.field == "created":
        return body | {"name": change.new_value, "detected_at": change.detected_at}
    return body | {
        "field": change.field,
        "from": field_value(change.field, change.old_value),
        "to": field_value(change.field, change.new_value),
        "detected_at": change.detected_at,
    }


def build_test_body(country: str, national_id: str, sent_at: datetime) -> dict[str, Any]:
    """The body of `POST …/{id}/test`: the insolvency shape with `type` `test`, nothing flipped."""
    return {
        "type": TEST_EVENT,
        "ico": national_id,
        "country": country,
        "field": "in_bankruptcy",
        "from": False,
        "to": False,
        "detected_at": sent_at,
    }


def retry_delay(attempts: int, schedule: Sequence[float]) -> timedelta | None:
    """Delay before the next attempt after `attempts` failed ones, or None when retries are exhausted."""
    if attempts < 1 or attempts > len(schedule):
        return None
    return timedelta(seconds=schedule[attempts - 1])


def matches(event: str, country: str, event_types: Sequence[str], countries: Sequence[str] | None) -> bool:
    """Whether a generic subscription's filters let an event through (company scope is checked apart)."""
    return event in event_types and (not countries or country in countries)
