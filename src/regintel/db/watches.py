"""Public e-mail watches and the e-mail outbox (claimed by the worker like deliveries)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.schema import companies, company_changes, email_outbox, watches
from regintel.domain.rows import Row

_WATCH = [*watches.c, companies.c.country, companies.c.national_id, companies.c.name.label("company_name")]


def find_watch(conn: Connection, email: str, company_id: int) -> RowMapping | None:
    return (
        conn.execute(select(watches).where(watches.c.email == email, watches.c.company_id == company_id))
        .mappings()
        .first()
    )


def get_watch(conn: Connection, watch_id: int) -> RowMapping | None:
    return (
        conn.execute(
            select(*_WATCH)
            .join(companies, companies.c.id == watches.c.company_id)
            .where(watches.c.id == watch_id)
        )
        .mappings()
        .first()
    )


def insert_watch(conn: Connection, email: str, company_id: int, now: datetime) -> int:
    return int(
        conn.execute(
            watches.insert()
            .values(email=email, company_id=company_id, status="pending", created_at=now)
            .returning(watches.c.id)
        ).scalar_one()
    )


def set_status(conn: Connection, watch_id: int, status: str, now: datetime) -> None:
    values: dict[str, Any] = {"status": status}
    if status == "confirmed":
        values["confirmed_at"] = now
    elif status == "unsubscribed":
        values["unsubscribed_at"] = now
    conn.execute(update(watches).where(watches.c.id == watch_id).values(**values))


def queue_mail(conn: Connection, kind: str, watch: Row, now: datetime) -> None:
    """Queue a mail about `watch` (rendered and sent by the worker) and note when."""
    conn.execute(
        email_outbox.insert().values(
            kind=kind,
            to_addr=watch["email"],
            watch_id=watch["id"],
            status="pending",
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
    )
    conn.execute(update(watches).where(watches.c.id == watch["id"]).values(last_mail_at=now))


def claim_mails(conn: Connection, limit: int, now: datetime, lease: timedelta) -> list[RowMapping]:
    """Claim due e-mails (leases, as for deliveries; `FOR UPDATE SKIP LOCKED` on PostgreSQL)."""
    o = email_outbox
    due = or_(
        and_(o.c.status == "pending", o.c.next_attempt_at <= now),
        and_(o.c.status == "sending", o.c.lease_until < now),
    )
    chosen = select(o.c.id).where(due).order_by(o.c.id).limit(limit).with_for_update(skip_locked=True)
    ids = (
        conn.execute(
            update(o)
            .where(o.c.id.in_(chosen.scalar_subquery()))
            .values(status="sending", lease_until=now + lease)
            .returning(o.c.id)
        )
        .scalars()
        .all()
    )
    if not ids:
        return []
    query = (
        select(
            o,
            company_changes.c.field,
            company_changes.c.old_value,
            company_changes.c.new_value,
            company_changes.c.detected_at,
        )
        .join(company_changes, company_changes.c.id == o.c.change_id, isouter=True)
        .where(o.c.id.in_(list(ids)))
        .order_by(o.c.id)
    )
    return list(conn.execute(query).mappings())


def finish_mail(
    conn: Connection,
    mail_id: int,
    status: str,
    now: datetime,
    *,
    subject: str | None = None,
    body: str | None = None,
    error: str | None = None,
    retry_at: datetime | None = None,
    attempts: int = 0,
) -> None:
    """`sent`, `logged` (no SMTP configured), `skipped` (watch gone), `failed`, or back to `pending`."""
    values: dict[str, Any] = {
        "status": status,
        "lease_until": None,
        "last_error": error,
        "attempts": attempts,
    }
    if subject is not None:
        values.update(subject=subject, body=body)
    if status in ("sent", "logged"):
        values["sent_at"] = now
    if retry_at is not None:
        values["next_attempt_at"] = retry_at
    conn.execute(update(email_outbox).where(email_outbox.c.id == mail_id).values(**values))
