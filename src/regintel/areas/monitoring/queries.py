"""The monitoring area's own SQL; the rest of its statements (subscriptions, deliveries, the outbox) are in
`db/`, where the worker and the loader share them."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from regintel.db.schema import deliveries


def insert_delivery(conn: Connection, values: dict[str, Any]) -> int:
    """A queued delivery row (`db.outbox.delivery_row`); its id."""
    delivery_id: int = conn.execute(
        deliveries.insert().values(**values).returning(deliveries.c.id)
    ).scalar_one()
    return delivery_id
