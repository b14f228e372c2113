"""Standard Webhooks signatures (the `standardwebhooks` library): `webhook-id`, `webhook-timestamp`,
`webhook-signature` over `{id}.{timestamp}.{body}` with the subscription's `whsec_…` secret."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from standardwebhooks.webhooks import Webhook


def signing_secrets(row: Mapping[str, Any], now: datetime) -> list[str]:
    """The current secret, plus the previous one while its grace period after a rotation lasts."""
    out = [row["secret"]]
    until = row.get("previous_secret_until")
    if row.get("previous_secret") and until is not None:
        until = until.replace(tzinfo=UTC) if until.tzinfo is None else until
        if now < until:
            out.append(row["previous_secret"])
    return out


def signed_headers(message_id: str, body: str, secrets: Sequence[str], now: datetime) -> dict[str, str]:
    """The three Standard Webhooks headers; one `v1,…` signature per secret, space-separated."""
    timestamp = now.astimezone(UTC).replace(microsecond=0)
    signatures = [
        Webhook(secret).sign(msg_id=message_id, timestamp=timestamp, data=body) for secret in secrets
    ]
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(timestamp.timestamp())),
        "webhook-signature": " ".join(signatures),
    }
