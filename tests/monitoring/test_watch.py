"""Public e-mail watches (spec 4.7): double opt-in through a REAL SMTP server on 127.0.0.1 (aiosmtpd),
alerts through the outbox and the worker, unsubscribe by token or by a link sent to the address."""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from urllib.parse import unquote

import pytest
from aiosmtpd.controller import Controller
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from sqlalchemy import select

from regintel.areas.monitoring.watches import CONFIRM
from regintel.db.schema import email_outbox, watches
from regintel.jobs.worker import Worker
from tests.builders import make_company
from tests.helpers import assert_envelope, assert_error

WATCH = "/api/v1/watch"
ME = "Jana.Nova@Example.SK"


class Inbox:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:  # noqa: N802
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))  # type: ignore[attr-defined]
        return "250 Message accepted"


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()


@pytest.fixture
def mail_worker(engine, settings, smtp):  # type: ignore[no-untyped-def]
    return Worker(
        engine,
        settings.model_copy(
            update={"smtp_host": "127.0.0.1", "smtp_port": smtp[1], "smtp_from": "alerts@regintel.test"}
        ),
    )


def link_token(msg: EmailMessage) -> str:
    return unquote(re.search(r"token=([^\s>]+)", msg.get_content()).group(1))  # type: ignore[union-attr]


def deliver(worker: Worker, inbox: Inbox, count: int) -> list[EmailMessage]:
    asyncio.run(worker.run_once())
    deadline = time.monotonic() + 5
    while len(inbox.messages) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return inbox.messages


def test_double_opt_in_alert_and_one_click_unsubscribe(client, engine, smtp, mail_worker):
    inbox, _ = smtp
    make_company(engine)
    resp = client.post(WATCH, json={"email": ME, "ico": "31322832"})
    data = assert_envelope(resp, 202)
    assert data["status"] == "pending_confirmation" and resp.headers["cache-control"] == "no-store"
    make_company(engine, in_liquidation=True)  # not confirmed yet: no alert
    [confirm] = deliver(mail_worker, inbox, 1)
    assert confirm["To"] == "jana.nova@example.sk" and confirm["From"] == "alerts@regintel.test"
    assert "Confirm your watch of SLOVNAFT, a.s." == confirm["Subject"]
    assert "http://testserver/api/v1/watch/confirm?token=" in confirm.get_content()
    done = assert_envelope(client.get(f"{WATCH}/confirm", params={"token": link_token(confirm)}))
    assert (done["status"], done["company_name"]) == ("confirmed", "SLOVNAFT, a.s.")
    assert_envelope(client.get(f"{WATCH}/confirm", params={"token": link_token(confirm)}))  # idempotent

    make_company(engine, in_liquidation=True, in_bankruptcy=True)
    alert = deliver(mail_worker, inbox, 2)[1]
    assert alert["Subject"] == "SLOVNAFT, a.s.: bankruptcy declared"
    assert "in_bankruptcy: False -> True" in alert.get_content()
    assert alert["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    one_click = alert["List-Unsubscribe"].strip("<>").replace("http://testserver", "")
    resp = client.post(
        one_click,
        content=b"List-Unsubscribe=One-Click",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert assert_envelope(resp)["status"] == "unsubscribed"
    make_company(engine, in_liquidation=True, in_bankruptcy=False)
    assert (
        asyncio.run(mail_worker.run_once()) == 0 and len(inbox.messages) == 2
    )  # no alert after unsubscribing
    with engine.connect() as conn:
        sent = conn.execute(
            select(email_outbox.c.kind, email_outbox.c.status).order_by(email_outbox.c.id)
        ).all()
    assert [tuple(r) for r in sent] == [("watch_confirm", "sent"), ("watch_alert", "sent")]


def test_without_smtp_mail_goes_to_the_log(client, engine, settings, caplog):
    make_company(engine)
    assert_envelope(client.post(WATCH, json={"email": ME, "ico": "31322832", "country": "sk"}), 202)
    with caplog.at_level(logging.INFO, logger="regintel.worker"):
        asyncio.run(Worker(engine, settings).run_once())
    assert "Confirm your watch" in caplog.text and "/api/v1/watch/confirm?token=" in caplog.text
    with engine.connect() as conn:
        row = conn.execute(select(email_outbox)).mappings().one()
    assert row["status"] == "logged" and row["subject"].startswith("Confirm") and "token=" in row["body"]


def test_requests_are_throttled_and_do_not_reveal_state(client, engine, smtp, mail_worker):
    inbox, _ = smtp
    make_company(engine)
    first = assert_envelope(client.post(WATCH, json={"email": ME, "ico": "31322832"}), 202)
    again = assert_envelope(client.post(WATCH, json={"email": ME.lower(), "ico": "31322832"}), 202)
    assert first == again
    assert len(deliver(mail_worker, inbox, 1)) == 1  # one confirmation mail, not two
    with engine.connect() as conn:
        assert conn.execute(select(watches.c.email, watches.c.status)).all() == [
            ("jana.nova@example.sk", "pending")
        ]


def test_unsubscribe_by_address_sends_a_link(client, engine, smtp, mail_worker):
    inbox, _ = smtp
    make_company(engine)
    assert_envelope(client.post(WATCH, json={"email": ME, "ico": "31322832"}), 202)
    confirm = deliver(mail_worker, inbox, 1)[0]
    assert_envelope(client.get(f"{WATCH}/confirm", params={"token": link_token(confirm)}))
    with engine.begin() as conn:
        conn.execute(watches.update().values(last_mail_at=None))
    unknown = assert_envelope(
        client.post(f"{WATCH}/unsubscribe", json={"email": "x@example.sk", "ico": "31322832"})
    )
    known = assert_envelope(client.post(f"{WATCH}/unsubscribe", json={"email": ME, "ico": "31322832"}))
    assert unknown == known and known["status"] == "unsubscribe_link_sent"
    link_mail = deliver(mail_worker, inbox, 2)[1]
    assert link_mail["To"] == "jana.nova@example.sk" and link_mail["Subject"].startswith("Stop watching")
    with engine.connect() as conn:
        assert (
            conn.execute(select(watches.c.status)).scalar_one() == "confirmed"
        )  # not until the link is used
    done = assert_envelope(client.post(f"{WATCH}/unsubscribe", json={"token": link_token(link_mail)}))
    assert done["status"] == "unsubscribed"


def test_bad_tokens_and_input(client, engine, settings):
    make_company(engine)
    assert_envelope(client.post(WATCH, json={"email": ME, "ico": "31322832"}), 202)
    payload = {"w": 1, "e": "jana.nova@example.sk"}

    class OldSigner(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - (settings.watch_confirm_hours + 1) * 3600

    expired = URLSafeTimedSerializer(settings.secret_key, salt=CONFIRM, signer=OldSigner).dumps(payload)
    err = assert_error(client.get(f"{WATCH}/confirm", params={"token": expired}), 422, "VALIDATION_ERROR")
    assert err["details"][0]["reason"] == "expired"
    forged = URLSafeTimedSerializer("someone-else", salt=CONFIRM).dumps(payload)
    for token in [forged, "abc", "x" * 1000, "' OR 1=1 --"]:
        err = assert_error(client.get(f"{WATCH}/confirm", params={"token": token}), 422, "VALIDATION_ERROR")
        assert err["details"][0]["reason"] == "invalid"
    confirm_token = URLSafeTimedSerializer(settings.secret_key, salt=CONFIRM).dumps(payload)
    # a confirmation token is no unsubscribe token
    assert_error(client.post(f"{WATCH}/unsubscribe", json={"token": confirm_token}), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{WATCH}/confirm"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{WATCH}/confirm", params={"token": "x" * 1001}), 422, "VALIDATION_ERROR")
    for body in [
        {"email": "not-an-address", "ico": "31322832"},
        {"email": ME, "ico": "31322833", "country": "sk"},
        {"email": ME, "ico": "31322832", "name": "x"},
        {"email": ME},
        {"email": "a@b.c" * 100, "ico": "1"},
    ]:
        assert_error(client.post(WATCH, json=body), 422, "VALIDATION_ERROR")
    assert_error(client.post(WATCH, json={"email": ME, "ico": "35757442", "country": "sk"}), 404, "NOT_FOUND")
    assert_error(client.post(f"{WATCH}/unsubscribe", json={}), 422, "VALIDATION_ERROR")
    assert_error(client.post(f"{WATCH}/unsubscribe", json={"email": ME}), 422, "VALIDATION_ERROR")


def test_the_default_secret_key_is_refused_in_production():
    from pydantic import ValidationError

    from regintel.config import Settings

    with pytest.raises(ValidationError, match="REGINTEL_SECRET_KEY"):
        Settings(environment="production")
    with pytest.raises(ValidationError, match="REGINTEL_SECRET_KEY"):
        Settings(environment="production", secret_key="short")
    assert Settings(environment="production", secret_key="k" * 40).secret_key == "k" * 40
