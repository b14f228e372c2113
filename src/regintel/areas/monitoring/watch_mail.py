"""The e-mails of public watches: confirmation, unsubscribe link and insolvency alert (plain text)."""

from __future__ import annotations

from email.message import EmailMessage
from urllib.parse import quote

from regintel.areas.monitoring.watches import CONFIRM, UNSUBSCRIBE, make_token
from regintel.config import Settings
from regintel.domain.monitoring import field_value
from regintel.domain.rows import Row

FLAG_NAMES = {
    "in_bankruptcy": "bankruptcy",
    "in_restructuring": "restructuring",
    "in_liquidation": "liquidation",
}


def _company(watch: Row) -> str:
    return f"{watch['company_name']} ({watch['country']} {watch['national_id']})"


def _unsubscribe_url(settings: Settings, watch: Row) -> str:
    token = make_token(settings, UNSUBSCRIBE, watch)
    return f"{settings.base_url.rstrip('/')}/api/v1/watch/unsubscribe?token={quote(token)}"


def _confirm(settings: Settings, watch: Row) -> tuple[str, str]:
    token = quote(make_token(settings, CONFIRM, watch))
    link = f"{settings.base_url.rstrip('/')}/api/v1/watch/confirm?token={token}"
    return (
        f"Confirm your watch of {watch['company_name']}",
        f"Someone (hopefully you) asked to be told by e-mail when the insolvency status of\n"
        f"{_company(watch)} changes.\n\nTo start the watch, open this link within "
        f"{settings.watch_confirm_hours} hours:\n\n{link}\n\nIf you did not ask for this, ignore this "
        "e-mail: nothing will be sent.\n",
    )


def _unsubscribe(settings: Settings, watch: Row) -> tuple[str, str]:
    url = _unsubscribe_url(settings, watch)
    return (
        f"Stop watching {watch['company_name']}?",
        f"To stop the e-mails about {_company(watch)}, send an empty POST to\n\n{url}\n\n"
        f"for example: curl -X POST '{url}'\n\nIf you did not ask for this, ignore this e-mail.\n",
    )


def _alert(settings: Settings, watch: Row, change: Row) -> tuple[str, str]:
    what = FLAG_NAMES.get(change["field"], change["field"])
    now_on = bool(field_value(change["field"], change["new_value"]))
    headline = f"{what} {'declared' if now_on else 'ended'}"
    return (
        f"{watch['company_name']}: {headline}",
        f"{_company(watch)}: {headline}.\n\n"
        f"{change['field']}: {field_value(change['field'], change['old_value'])} -> {now_on}\n"
        f"detected at: {change['detected_at']:%Y-%m-%d %H:%M} UTC\n\n"
        f"To stop these e-mails: {_unsubscribe_url(settings, watch)} (POST, or the unsubscribe button of "
        f"your mail program).\n",
    )


def render(mail: Row, watch: Row, settings: Settings) -> EmailMessage | None:
    """The message for an outbox row, or None when it is no longer due (watch ended meanwhile)."""
    if mail["kind"] == "watch_alert":
        if watch["status"] != "confirmed" or mail["field"] is None:
            return None
        subject, body = _alert(settings, watch, mail)
    elif mail["kind"] == "watch_confirm":
        if watch["status"] != "pending":
            return None
        subject, body = _confirm(settings, watch)
    elif mail["kind"] == "watch_unsubscribe":
        subject, body = _unsubscribe(settings, watch)
    else:
        return None
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = settings.smtp_from, mail["to_addr"], subject
    if mail["kind"] == "watch_alert":
        # RFC 8058 one-click unsubscribe: the mail program POSTs `List-Unsubscribe=One-Click` to this URL.
        msg["List-Unsubscribe"] = f"<{_unsubscribe_url(settings, watch)}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(body)
    return msg
