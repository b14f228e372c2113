"""Sending the e-mail outbox: SMTP when `REGINTEL_SMTP_HOST` is set, otherwise the log (DESIGN.md
section 3); the outbox row keeps what was sent. Failed sends are retried on the webhook schedule."""

from __future__ import annotations

import logging
import smtplib
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from sqlalchemy import Engine
from sqlalchemy.engine import RowMapping

from regintel.areas.monitoring.watch_mail import render
from regintel.config import Settings
from regintel.db import watches as db
from regintel.db.engine import begin_write
from regintel.domain.monitoring import retry_delay

log = logging.getLogger("regintel.worker")


def smtp_send(msg: EmailMessage, settings: Settings) -> None:
    assert settings.smtp_host is not None
    with smtplib.SMTP(
        settings.smtp_host, settings.smtp_port, timeout=settings.webhook_timeout_seconds * 2
    ) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password or "")
        smtp.send_message(msg)


def _prerendered(mail: RowMapping, settings: Settings) -> EmailMessage | None:
    """A mail queued with its subject and body already written (account sign-in links, opt-ins)."""
    if mail["watch_id"] is not None or not mail["subject"] or not mail["body"]:
        return None
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = settings.smtp_from, mail["to_addr"], mail["subject"]
    msg.set_content(mail["body"])
    return msg


def _send_one(engine: Engine, mail: RowMapping, settings: Settings) -> str:
    now = datetime.now(UTC)
    with engine.connect() as conn:
        watch = db.get_watch(conn, mail["watch_id"]) if mail["watch_id"] is not None else None
    msg = render(mail, watch, settings) if watch is not None else _prerendered(mail, settings)
    if msg is None:
        status, error, subject, body = "skipped", "no longer due", None, None
    else:
        subject, body, error = str(msg["Subject"]), msg.get_content(), None
        try:
            if settings.smtp_host:
                smtp_send(msg, settings)
                status = "sent"
            else:
                log.info("E-mail (no SMTP configured) to=%s subject=%r\n%s", mail["to_addr"], subject, body)
                status = "logged"
        except (OSError, smtplib.SMTPException) as exc:
            error = f"{type(exc).__name__}: {exc}"[:500]
            status = "retry"
    _finish(engine, mail, status, now, subject, body, error, settings)
    return status


def _finish(
    engine: Engine,
    mail: RowMapping,
    status: str,
    now: datetime,
    subject: str | None,
    body: str | None,
    error: str | None,
    settings: Settings,
) -> None:
    attempts = mail["attempts"] + 1
    retry_at = None
    if status == "retry":
        delay = retry_delay(attempts, settings.webhook_retry_schedule)
        status, retry_at = ("failed", None) if delay is None else ("pending", now + delay)
        log.warning("E-mail %s to %s not sent (%s): %s", mail["id"], mail["to_addr"], status, error)
    with begin_write(engine) as conn:
        db.finish_mail(
            conn,
            mail["id"],
            status,
            now,
            subject=subject,
            body=body,
            error=error,
            retry_at=retry_at,
            attempts=attempts,
        )


def send_due_mails(engine: Engine, settings: Settings, limit: int = 50) -> int:
    """Claim and send due e-mails (blocking: the worker runs it in a thread). Returns how many."""
    lease = timedelta(seconds=settings.webhook_timeout_seconds * 4 + 5)
    with begin_write(engine) as conn:
        mails = db.claim_mails(conn, limit, datetime.now(UTC), lease)
    for mail in mails:
        _send_one(engine, mail, settings)
    return len(mails)
