"""What is still queued to go out about a withheld natural person (docs/accounts.md, "Withholding a natural
person"): webhook deliveries not yet delivered, and the monitoring events keys read, each of which copied the
change's old and new values when the change was detected. Redacting the change log alone left those copies
naming the person, so a delivery queued before the withholding still carried the name out.

Deliveries already made cannot be recalled; those not delivered (`pending`, `delivering` under a lease, or
`failed`, which a resume can queue again) are rewritten (a register person: their names become `[withheld]`,
as in the change log) or cancelled (a sole trader: the whole event is about the withheld register entry)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import orjson
from sqlalchemy.engine import Connection

from regintel.areas.accounts import queries as q

# not delivered yet: queued, being sent under a lease, or failed for good, which a resume with
# `retry_failed` queues again with the body it has
QUEUED = ("pending", "delivering", "failed")
CANCELLED_BECAUSE = "withheld after a data-protection request"

Redact = Callable[[str | None], str | None]


def _redact_json(value: Any, redact: Redact) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redact_json(v, redact) for v in value]
    if isinstance(value, dict):
        return {k: _redact_json(v, redact) for k, v in value.items()}
    return value


def redact_queued(
    conn: Connection, company_ids: Sequence[int], redact: Redact
) -> dict[str, list[dict[str, Any]]]:
    """Rewrite the monitoring events of these companies and their deliveries still queued with `redact`;
    returns the rows as they were, by table, for the caller to keep."""
    kept: dict[str, list[dict[str, Any]]] = {"monitoring_events": [], "deliveries": []}
    if not company_ids:
        return kept
    for event_id, old, new in q.event_values_of(conn, company_ids):
        fixed = [redact(old), redact(new)]
        if fixed != [old, new]:
            kept["monitoring_events"].append({"id": event_id, "old_value": old, "new_value": new})
            q.set_event_values(conn, event_id, fixed[0], fixed[1])
    for delivery_id, body in q.delivery_bodies(conn, QUEUED, company_ids):
        fixed_body = orjson.dumps(_redact_json(orjson.loads(body), redact)).decode()
        if fixed_body != body:
            kept["deliveries"].append({"id": delivery_id, "body": body})
            q.set_delivery_body(conn, delivery_id, fixed_body)
    return kept


def restore_queued(conn: Connection, kept: dict[str, list[dict[str, Any]]]) -> None:
    """Put back what `redact_queued` rewrote: monitoring events, and deliveries still queued (one delivered
    meanwhile went out redacted, which cannot be undone)."""
    for event in kept.get("monitoring_events", ()):
        q.set_event_values(conn, event["id"], event["old_value"], event["new_value"])
    for delivery in kept.get("deliveries", ()):
        q.set_delivery_body(conn, delivery["id"], delivery["body"], QUEUED)


def cancel_queued(conn: Connection, company_id: int) -> int:
    """Cancel the deliveries still queued about a company's changes (a withheld sole trader's register
    entry); returns how many. A lift does not queue them again: their moment has passed."""
    return q.cancel_deliveries(conn, QUEUED, company_id, CANCELLED_BECAUSE)
