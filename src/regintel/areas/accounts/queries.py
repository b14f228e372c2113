"""All SQL of the accounts area."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, cast

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection

from regintel.areas.accounts.tables import (
    account_api_keys,
    account_fo_addenda,
    account_identities,
    account_login_links,
    account_passes,
    account_passkeys,
    account_sessions,
    accounts,
    billing_customers,
    billing_events,
    billing_subscriptions,
    oauth_clients,
    oauth_codes,
    oauth_refresh_tokens,
    oauth_tokens,
    privacy_actions,
    privacy_person_suppressions,
    privacy_requests,
    privacy_suppressions,
    signup_leads,
)
from regintel.db.engine import insert_for
from regintel.db.schema import api_keys, companies, email_outbox, watches

# A RowMapping is read by column name, but SQLAlchemy types it Mapping[str | Column, Any] and a Mapping's key
# type is invariant, so rows are cast (no run-time change) to the Mapping[str, Any] the callers read.


def find_account(conn: Connection, email: str) -> Mapping[str, Any] | None:
    item = conn.execute(select(accounts).where(accounts.c.email == email)).mappings().first()
    return cast("Mapping[str, Any] | None", item)


def get_account(conn: Connection, account_id: int) -> Mapping[str, Any] | None:
    item = conn.execute(select(accounts).where(accounts.c.id == account_id)).mappings().first()
    return cast("Mapping[str, Any] | None", item)


def insert_account(conn: Connection, email: str, plan: str, now: datetime) -> int:
    return int(
        conn.execute(
            accounts.insert().values(email=email, plan=plan, created_at=now).returning(accounts.c.id)
        ).scalar_one()
    )


def touch_login(conn: Connection, account_id: int, now: datetime) -> None:
    conn.execute(update(accounts).where(accounts.c.id == account_id).values(last_login_at=now))


def insert_link(conn: Connection, nonce: str, email: str, now: datetime) -> None:
    conn.execute(account_login_links.insert().values(nonce=nonce, email=email, created_at=now))


def links_since(conn: Connection, email: str, since: datetime) -> int:
    rows = conn.execute(
        select(account_login_links.c.nonce).where(
            account_login_links.c.email == email, account_login_links.c.created_at >= since
        )
    ).all()
    return len(rows)


def use_link(conn: Connection, nonce: str, email: str, now: datetime) -> bool:
    """Mark the link used; False when it is unknown or was used before (single use)."""
    result = conn.execute(
        update(account_login_links)
        .where(
            account_login_links.c.nonce == nonce,
            account_login_links.c.email == email,
            account_login_links.c.used_at.is_(None),
        )
        .values(used_at=now)
    )
    return result.rowcount == 1


def queue_mail(conn: Connection, kind: str, to_addr: str, subject: str, body: str, now: datetime) -> None:
    """A pre-rendered mail in the shared outbox (sent by the worker: SMTP, else the log)."""
    conn.execute(
        email_outbox.insert().values(
            kind=kind,
            to_addr=to_addr,
            subject=subject,
            body=body,
            status="pending",
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
    )


def insert_session(
    conn: Connection, account_id: int, token_hash: str, csrf: str, now: datetime, expires: datetime
) -> None:
    conn.execute(
        account_sessions.insert().values(
            account_id=account_id, token_hash=token_hash, csrf_token=csrf, created_at=now, expires_at=expires
        )
    )


def delete_session(conn: Connection, session_id: int) -> int:
    return int(conn.execute(delete(account_sessions).where(account_sessions.c.id == session_id)).rowcount)


def find_session(conn: Connection, token_hash: str) -> Mapping[str, Any] | None:
    item = (
        conn.execute(
            select(
                account_sessions.c.id,
                account_sessions.c.csrf_token,
                account_sessions.c.expires_at,
                accounts.c.id.label("account_id"),
                accounts.c.email,
                accounts.c.plan,
            )
            .join(accounts, accounts.c.id == account_sessions.c.account_id)
            .where(account_sessions.c.token_hash == token_hash)
        )
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


_KEY = [
    api_keys.c.id,
    api_keys.c.name,
    api_keys.c.plan,
    api_keys.c.prefix,
    api_keys.c.created_at,
    api_keys.c.expires_at,
    api_keys.c.revoked_at,
    api_keys.c.last_used_at,
]


def link_key(conn: Connection, key_id: int, account_id: int) -> None:
    conn.execute(account_api_keys.insert().values(api_key_id=key_id, account_id=account_id))


def account_keys(conn: Connection, account_id: int) -> list[Mapping[str, Any]]:
    rows = list(
        conn.execute(
            select(*_KEY)
            .join(account_api_keys, account_api_keys.c.api_key_id == api_keys.c.id)
            .where(
                account_api_keys.c.account_id == account_id,
                api_keys.c.id.not_in(select(oauth_tokens.c.api_key_id)),
            )
            .order_by(api_keys.c.id)
        ).mappings()
    )
    return cast("list[Mapping[str, Any]]", rows)


def account_key(conn: Connection, account_id: int, key_id: int) -> Mapping[str, Any] | None:
    """The key when this account owns it: another account's key is not found (never forbidden)."""
    item = (
        conn.execute(
            select(*_KEY)
            .join(account_api_keys, account_api_keys.c.api_key_id == api_keys.c.id)
            .where(
                account_api_keys.c.account_id == account_id,
                api_keys.c.id == key_id,
                api_keys.c.id.not_in(select(oauth_tokens.c.api_key_id)),
            )
        )
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def update_key(conn: Connection, key_id: int, **values: Any) -> None:
    conn.execute(update(api_keys).where(api_keys.c.id == key_id).values(**values))


_WATCH = [
    watches.c.id,
    watches.c.status,
    watches.c.created_at,
    watches.c.confirmed_at,
    watches.c.unsubscribed_at,
    companies.c.country,
    companies.c.national_id,
    companies.c.name.label("company_name"),
    companies.c.status.label("company_status"),
]


def account_watches(conn: Connection, email: str) -> list[Mapping[str, Any]]:
    rows = list(
        conn.execute(
            select(*_WATCH)
            .join(companies, companies.c.id == watches.c.company_id)
            .where(watches.c.email == email)
            .order_by(watches.c.id)
        ).mappings()
    )
    return cast("list[Mapping[str, Any]]", rows)


def account_watch(conn: Connection, email: str, watch_id: int) -> Mapping[str, Any] | None:
    item = (
        conn.execute(
            select(*_WATCH)
            .join(companies, companies.c.id == watches.c.company_id)
            .where(watches.c.email == email, watches.c.id == watch_id)
        )
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def delete_watch(conn: Connection, watch_id: int) -> None:
    conn.execute(delete(watches).where(watches.c.id == watch_id))


def current_addendum(conn: Connection, account_id: int) -> Mapping[str, Any] | None:
    item = (
        conn.execute(
            select(account_fo_addenda)
            .where(account_fo_addenda.c.account_id == account_id, account_fo_addenda.c.revoked_at.is_(None))
            .order_by(account_fo_addenda.c.id.desc())
        )
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def insert_addendum(conn: Connection, account_id: int, text_version: str, person: str, now: datetime) -> int:
    return int(
        conn.execute(
            account_fo_addenda.insert()
            .values(account_id=account_id, text_version=text_version, person_name=person, accepted_at=now)
            .returning(account_fo_addenda.c.id)
        ).scalar_one()
    )


def revoke_addenda(conn: Connection, account_id: int, now: datetime) -> None:
    conn.execute(
        update(account_fo_addenda)
        .where(account_fo_addenda.c.account_id == account_id, account_fo_addenda.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )


def key_has_addendum(conn: Connection, key_id: int) -> bool:
    """True when the key's owning account has a live acceptance of the natural-persons addendum."""
    row = conn.execute(
        select(account_fo_addenda.c.id)
        .join(account_api_keys, account_api_keys.c.account_id == account_fo_addenda.c.account_id)
        .where(account_api_keys.c.api_key_id == key_id, account_fo_addenda.c.revoked_at.is_(None))
        .limit(1)
    ).first()
    return row is not None


# --- OAuth 2.1 ---------------------------------------------------------------------------------------


def insert_client(
    conn: Connection,
    client_id: str,
    account_id: int | None,
    name: str,
    redirect_uris: str,
    now: datetime,
    registration: str = "account",
) -> None:
    conn.execute(
        oauth_clients.insert().values(
            client_id=client_id,
            account_id=account_id,
            name=name,
            redirect_uris=redirect_uris,
            created_at=now,
            registration=registration,
        )
    )


def get_client(conn: Connection, client_id: str) -> Mapping[str, Any] | None:
    item = (
        conn.execute(select(oauth_clients).where(oauth_clients.c.client_id == client_id)).mappings().first()
    )
    return cast("Mapping[str, Any] | None", item)


def account_clients(conn: Connection, account_id: int) -> list[Mapping[str, Any]]:
    rows = list(
        conn.execute(
            select(oauth_clients)
            .where(oauth_clients.c.account_id == account_id)
            .order_by(oauth_clients.c.created_at)
        ).mappings()
    )
    return cast("list[Mapping[str, Any]]", rows)


def revoke_client(conn: Connection, client_id: str, now: datetime) -> None:
    """The client and every live token it obtained end now."""
    conn.execute(
        update(oauth_clients)
        .where(oauth_clients.c.client_id == client_id, oauth_clients.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    tokens = select(oauth_tokens.c.api_key_id).where(oauth_tokens.c.client_id == client_id).scalar_subquery()
    conn.execute(
        update(api_keys)
        .where(api_keys.c.id.in_(tokens), api_keys.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    conn.execute(
        update(oauth_refresh_tokens)
        .where(oauth_refresh_tokens.c.client_id == client_id, oauth_refresh_tokens.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )


def insert_refresh(conn: Connection, **values: Any) -> None:
    conn.execute(oauth_refresh_tokens.insert().values(**values))


def get_refresh(conn: Connection, token_hash: str) -> Mapping[str, Any] | None:
    item = (
        conn.execute(select(oauth_refresh_tokens).where(oauth_refresh_tokens.c.token_hash == token_hash))
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def use_refresh(conn: Connection, token_hash: str, now: datetime) -> bool:
    """Marks the token used; False when it was used or revoked already (a concurrent use)."""
    return (
        conn.execute(
            update(oauth_refresh_tokens)
            .where(
                oauth_refresh_tokens.c.token_hash == token_hash,
                oauth_refresh_tokens.c.used_at.is_(None),
                oauth_refresh_tokens.c.revoked_at.is_(None),
            )
            .values(used_at=now)
        ).rowcount
        == 1
    )


def revoke_family(conn: Connection, family_id: str, now: datetime) -> None:
    """Every refresh token of the family and every access token issued with one of them end now."""
    conn.execute(
        update(oauth_refresh_tokens)
        .where(oauth_refresh_tokens.c.family_id == family_id, oauth_refresh_tokens.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    keys = select(oauth_refresh_tokens.c.api_key_id).where(
        oauth_refresh_tokens.c.family_id == family_id, oauth_refresh_tokens.c.api_key_id.is_not(None)
    )
    conn.execute(
        update(api_keys)
        .where(api_keys.c.id.in_(keys.scalar_subquery()), api_keys.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )


def get_access(conn: Connection, key_hash: str) -> Mapping[str, Any] | None:
    """The `oauth_tokens` row of an access token (by the SHA-256 of the raw token)."""
    item = (
        conn.execute(
            select(oauth_tokens)
            .join(api_keys, api_keys.c.id == oauth_tokens.c.api_key_id)
            .where(api_keys.c.key_hash == key_hash)
        )
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def revoke_access(conn: Connection, api_key_id: int, now: datetime) -> None:
    conn.execute(
        update(api_keys)
        .where(api_keys.c.id == api_key_id, api_keys.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )


def insert_code(conn: Connection, **values: Any) -> None:
    conn.execute(oauth_codes.insert().values(**values))


def get_code(conn: Connection, code_hash: str) -> Mapping[str, Any] | None:
    item = conn.execute(select(oauth_codes).where(oauth_codes.c.code_hash == code_hash)).mappings().first()
    return cast("Mapping[str, Any] | None", item)


def use_code(conn: Connection, code_hash: str, now: datetime) -> bool:
    return (
        conn.execute(
            update(oauth_codes)
            .where(oauth_codes.c.code_hash == code_hash, oauth_codes.c.used_at.is_(None))
            .values(used_at=now)
        ).rowcount
        == 1
    )


def insert_token(
    conn: Connection,
    *,
    name: str,
    plan: str,
    key_hash: str,
    prefix: str,
    now: datetime,
    expires: datetime,
    client_id: str,
    account_id: int,
) -> int:
    key_id = int(
        conn.execute(
            api_keys.insert()
            .values(
                name=name, plan=plan, key_hash=key_hash, prefix=prefix, created_at=now, expires_at=expires
            )
            .returning(api_keys.c.id)
        ).scalar_one()
    )
    conn.execute(oauth_tokens.insert().values(api_key_id=key_id, client_id=client_id, account_id=account_id))
    conn.execute(account_api_keys.insert().values(api_key_id=key_id, account_id=account_id))
    return key_id


def rotate_token(
    conn: Connection, key_id: int, key_hash: str, prefix: str, plan: str, expires: datetime
) -> None:
    """The key of an authorization now answers to a refreshed access token (the replaced token's hash is
    gone, so it is refused; one revoked alone, RFC 7009, stays refused while its refresh token goes on)."""
    conn.execute(
        update(api_keys)
        .where(api_keys.c.id == key_id)
        .values(key_hash=key_hash, prefix=prefix, plan=plan, expires_at=expires, revoked_at=None)
    )


# --- public forms and privacy requests ---------------------------------------------------------------


def find_lead(conn: Connection, kind: str, email: str) -> Mapping[str, Any] | None:
    item = (
        conn.execute(select(signup_leads).where(signup_leads.c.kind == kind, signup_leads.c.email == email))
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def insert_lead(conn: Connection, **values: Any) -> int:
    return int(conn.execute(signup_leads.insert().values(**values).returning(signup_leads.c.id)).scalar_one())


def update_lead(conn: Connection, lead_id: int, **values: Any) -> None:
    conn.execute(update(signup_leads).where(signup_leads.c.id == lead_id).values(**values))


def lead_counts(conn: Connection, since: datetime) -> tuple[int, int]:
    confirmed = (signup_leads.c.kind == "lead") & (signup_leads.c.status == "confirmed")
    total = conn.execute(select(func.count()).where(confirmed)).scalar_one()
    recent = conn.execute(
        select(func.count()).where(confirmed, signup_leads.c.confirmed_at >= since)
    ).scalar_one()
    return int(total), int(recent)


def is_suppressed(conn: Connection, email: str) -> bool:
    return (
        conn.execute(
            select(privacy_suppressions.c.email).where(privacy_suppressions.c.email == email)
        ).first()
        is not None
    )


def insert_request(conn: Connection, **values: Any) -> int:
    return int(
        conn.execute(privacy_requests.insert().values(**values).returning(privacy_requests.c.id)).scalar_one()
    )


def get_request(conn: Connection, request_id: int) -> Mapping[str, Any] | None:
    item = (
        conn.execute(select(privacy_requests).where(privacy_requests.c.id == request_id)).mappings().first()
    )
    return cast("Mapping[str, Any] | None", item)


def update_request(conn: Connection, request_id: int, **values: Any) -> None:
    conn.execute(update(privacy_requests).where(privacy_requests.c.id == request_id).values(**values))


def requests_of(conn: Connection, email: str) -> list[Mapping[str, Any]]:
    rows = list(
        conn.execute(
            select(privacy_requests).where(privacy_requests.c.email == email).order_by(privacy_requests.c.id)
        ).mappings()
    )
    return cast("list[Mapping[str, Any]]", rows)


def leads_of(conn: Connection, email: str) -> list[Mapping[str, Any]]:
    rows = list(
        conn.execute(
            select(signup_leads).where(signup_leads.c.email == email).order_by(signup_leads.c.id)
        ).mappings()
    )
    return cast("list[Mapping[str, Any]]", rows)


def suppress(conn: Connection, email: str, reason: str, request_id: int, now: datetime) -> None:
    if not is_suppressed(conn, email):
        conn.execute(
            privacy_suppressions.insert().values(
                email=email, reason=reason, request_id=request_id, created_at=now
            )
        )


def delete_leads(conn: Connection, email: str) -> int:
    return int(conn.execute(delete(signup_leads).where(signup_leads.c.email == email)).rowcount)


def suppress_leads(conn: Connection, email: str) -> int:
    return int(
        conn.execute(
            update(signup_leads).where(signup_leads.c.email == email).values(status="suppressed")
        ).rowcount
    )


def end_watches(conn: Connection, email: str, now: datetime) -> int:
    return int(
        conn.execute(
            update(watches)
            .where(watches.c.email == email, watches.c.status != "unsubscribed")
            .values(status="unsubscribed", unsubscribed_at=now)
        ).rowcount
    )


def drop_pending_mail(conn: Connection, email: str, now: datetime) -> None:
    conn.execute(
        update(email_outbox)
        .where(email_outbox.c.to_addr == email, email_outbox.c.status == "pending")
        .values(status="skipped", last_error="privacy suppression")
    )


# --- billing -----------------------------------------------------------------------------------------


def record_event(
    conn: Connection, event_id: str, type_: str, account_id: int | None, outcome: str, now: datetime
) -> bool:
    """False when the event was seen before (the provider retries; replays change nothing)."""
    seen = conn.execute(
        select(billing_events.c.event_id).where(billing_events.c.event_id == event_id)
    ).first()
    if seen is not None:
        return False
    conn.execute(
        billing_events.insert().values(
            event_id=event_id, type=type_, account_id=account_id, outcome=outcome, received_at=now
        )
    )
    return True


def get_subscription(conn: Connection, account_id: int) -> Mapping[str, Any] | None:
    item = (
        conn.execute(select(billing_subscriptions).where(billing_subscriptions.c.account_id == account_id))
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def set_subscription(
    conn: Connection, account_id: int, subscription_id: str, status: str, plan: str, now: datetime
) -> None:
    values = {"subscription_id": subscription_id, "status": status, "plan": plan, "updated_at": now}
    if get_subscription(conn, account_id) is None:
        conn.execute(billing_subscriptions.insert().values(account_id=account_id, **values))
    else:
        conn.execute(
            update(billing_subscriptions)
            .where(billing_subscriptions.c.account_id == account_id)
            .values(**values)
        )


def set_account_plan(conn: Connection, account_id: int, plan: str) -> int:
    """The account's plan, and at once the plan of its live keys and tokens; returns the keys changed."""
    conn.execute(update(accounts).where(accounts.c.id == account_id).values(plan=plan))
    owned = select(account_api_keys.c.api_key_id).where(account_api_keys.c.account_id == account_id)
    passes = select(account_passes.c.api_key_id).where(account_passes.c.api_key_id.is_not(None))
    return int(
        conn.execute(
            update(api_keys)
            .where(
                api_keys.c.id.in_(owned.scalar_subquery()),
                api_keys.c.id.not_in(passes.scalar_subquery()),  # paid for apart
                api_keys.c.revoked_at.is_(None),
            )
            .values(plan=plan)
        ).rowcount
    )


def key_account(conn: Connection, key_id: int) -> int | None:
    row = conn.execute(
        select(account_api_keys.c.account_id).where(account_api_keys.c.api_key_id == key_id)
    ).first()
    return int(row[0]) if row is not None else None


def get_customer(conn: Connection, account_id: int) -> Mapping[str, Any] | None:
    item = (
        conn.execute(select(billing_customers).where(billing_customers.c.account_id == account_id))
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def set_customer(conn: Connection, account_id: int, provider: str, customer_id: str, now: datetime) -> None:
    conn.execute(
        insert_for(conn, billing_customers)
        .values(account_id=account_id, provider=provider, customer_id=customer_id, created_at=now)
        .on_conflict_do_nothing()
    )


# --- passkeys ----------------------------------------------------------------------------------------


def insert_passkey(
    conn: Connection, account_id: int, credential_id: str, public_key: str, sign_count: int, now: datetime
) -> int:
    return int(
        conn.execute(
            account_passkeys.insert()
            .values(
                account_id=account_id,
                credential_id=credential_id,
                public_key=public_key,
                sign_count=sign_count,
                created_at=now,
            )
            .returning(account_passkeys.c.id)
        ).scalar_one()
    )


def passkey_by_credential(conn: Connection, credential_id: str) -> Mapping[str, Any] | None:
    item = (
        conn.execute(select(account_passkeys).where(account_passkeys.c.credential_id == credential_id))
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def account_passkeys_of(conn: Connection, account_id: int) -> list[Mapping[str, Any]]:
    rows = list(
        conn.execute(
            select(account_passkeys)
            .where(account_passkeys.c.account_id == account_id)
            .order_by(account_passkeys.c.id)
        ).mappings()
    )
    return cast("list[Mapping[str, Any]]", rows)


def used_passkey(conn: Connection, passkey_id: int, sign_count: int, now: datetime) -> None:
    conn.execute(
        update(account_passkeys)
        .where(account_passkeys.c.id == passkey_id)
        .values(sign_count=sign_count, last_used_at=now)
    )


def delete_passkey(conn: Connection, account_id: int, passkey_id: int) -> bool:
    return (
        conn.execute(
            delete(account_passkeys).where(
                account_passkeys.c.id == passkey_id, account_passkeys.c.account_id == account_id
            )
        ).rowcount
        == 1
    )


# --- OpenID Connect identities -----------------------------------------------------------------------


def find_identity(conn: Connection, provider: str, subject: str) -> Mapping[str, Any] | None:
    item = (
        conn.execute(
            select(account_identities).where(
                account_identities.c.provider == provider, account_identities.c.subject == subject
            )
        )
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def insert_identity(
    conn: Connection, account_id: int, provider: str, subject: str, email: str | None, now: datetime
) -> None:
    conn.execute(
        account_identities.insert().values(
            account_id=account_id,
            provider=provider,
            subject=subject,
            email=email,
            created_at=now,
            last_login_at=now,
        )
    )


def touch_identity(conn: Connection, identity_id: int, now: datetime) -> None:
    conn.execute(
        update(account_identities).where(account_identities.c.id == identity_id).values(last_login_at=now)
    )


def account_identities_of(
    conn: Connection, account_id: int, provider: str | None = None
) -> list[Mapping[str, Any]]:
    query = select(account_identities).where(account_identities.c.account_id == account_id)
    if provider is not None:
        query = query.where(account_identities.c.provider == provider)
    rows = list(conn.execute(query.order_by(account_identities.c.id)).mappings())
    return cast("list[Mapping[str, Any]]", rows)


def delete_identities(conn: Connection, account_id: int, provider: str) -> None:
    conn.execute(
        delete(account_identities).where(
            account_identities.c.account_id == account_id, account_identities.c.provider == provider
        )
    )


# --- passes --------------------------------------------------------------------------------------------


def insert_pass(conn: Connection, **values: Any) -> bool:
    """A paid pass; False when this checkout already granted one (the provider's second event for it)."""
    stmt = (
        insert_for(conn, account_passes)
        .values(**values)
        .on_conflict_do_nothing(index_elements=["checkout_id"])
        .returning(account_passes.c.id)
    )  # RETURNING, not rowcount: psycopg counts a skipped row as 1
    return conn.execute(stmt).first() is not None


def account_passes_of(conn: Connection, account_id: int) -> list[Mapping[str, Any]]:
    rows = (
        conn.execute(
            select(account_passes)
            .where(account_passes.c.account_id == account_id)
            .order_by(account_passes.c.id)
        )
        .mappings()
        .all()
    )
    return cast("list[Mapping[str, Any]]", rows)


def claim_pass(conn: Connection, account_id: int, pass_id: int, key_id: int, now: datetime) -> bool:
    """Ties an unclaimed pass of the account to a key; False when it is not the account's or already used."""
    return bool(
        conn.execute(
            update(account_passes)
            .where(
                account_passes.c.id == pass_id,
                account_passes.c.account_id == account_id,
                account_passes.c.claimed_at.is_(None),
                account_passes.c.refunded_at.is_(None),
            )
            .values(api_key_id=key_id, claimed_at=now)
        ).rowcount
    )


def passes_of_payment(conn: Connection, payment_intent: str) -> list[Mapping[str, Any]]:
    rows = (
        conn.execute(
            select(account_passes)
            .where(account_passes.c.payment_intent == payment_intent)
            .order_by(account_passes.c.id)
        )
        .mappings()
        .all()
    )
    return cast("list[Mapping[str, Any]]", rows)


def refund_pass(conn: Connection, pass_id: int, now: datetime) -> bool:
    """Marks a pass refunded and revokes its key, if it has one; False when it was refunded already."""
    done = conn.execute(
        update(account_passes)
        .where(account_passes.c.id == pass_id, account_passes.c.refunded_at.is_(None))
        .values(refunded_at=now)
        .returning(account_passes.c.api_key_id)
    ).first()
    if done is None:
        return False
    if done.api_key_id is not None:
        conn.execute(
            update(api_keys)
            .where(api_keys.c.id == done.api_key_id, api_keys.c.revoked_at.is_(None))
            .values(revoked_at=now)
        )
    return True


def get_pass(conn: Connection, account_id: int, pass_id: int) -> Mapping[str, Any] | None:
    item = (
        conn.execute(
            select(account_passes).where(
                account_passes.c.id == pass_id, account_passes.c.account_id == account_id
            )
        )
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


# --- register persons withheld ---------------------------------------------------------------------------


def all_requests(conn: Connection, open_only: bool) -> list[Mapping[str, Any]]:
    stmt = select(privacy_requests).order_by(
        privacy_requests.c.due_at.is_(None), privacy_requests.c.due_at, privacy_requests.c.id
    )
    if open_only:
        stmt = stmt.where(privacy_requests.c.status != "done")
    return cast("list[Mapping[str, Any]]", conn.execute(stmt).mappings().all())


def person_suppressions_of(conn: Connection, request_id: int) -> list[Mapping[str, Any]]:
    rows = (
        conn.execute(
            select(privacy_person_suppressions)
            .where(privacy_person_suppressions.c.request_id == request_id)
            .order_by(privacy_person_suppressions.c.person_key)
        )
        .mappings()
        .all()
    )
    return cast("list[Mapping[str, Any]]", rows)


def is_person_suppressed(conn: Connection, person_key: str) -> bool:
    return (
        conn.execute(
            select(privacy_person_suppressions.c.person_key).where(
                privacy_person_suppressions.c.person_key == person_key
            )
        ).first()
        is not None
    )


def insert_person_suppression(conn: Connection, **values: Any) -> None:
    conn.execute(privacy_person_suppressions.insert().values(**values))


def record_action(conn: Connection, key: str, action: str, request_id: int | None, now: datetime) -> None:
    """One line of the withholding log (`privacy_actions`); its new id moves the data version."""
    conn.execute(
        privacy_actions.insert().values(person_key=key, action=action, request_id=request_id, created_at=now)
    )


def key_is_paid_pass(conn: Connection, key_id: int) -> bool:
    return (
        conn.execute(select(account_passes.c.id).where(account_passes.c.api_key_id == key_id)).first()
        is not None
    )
