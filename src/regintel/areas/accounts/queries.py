"""All SQL of the accounts area."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, func, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

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
    privacy_withheld_rows,
    signup_leads,
)
from regintel.db.engine import insert_for
from regintel.db.schema import (
    api_keys,
    companies,
    company_changes,
    deliveries,
    email_outbox,
    monitoring_events,
    people,
    roles,
    watches,
)

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


# --- withholding a natural person: the rows taken out, rewritten and kept (privacy.py, traders.py) --------


def withheld_rows_of(conn: Connection, key: str) -> list[Mapping[str, Any]]:
    """The rows kept under `key`, oldest first (parents were kept before their children, and a row kept
    again after a re-import comes later)."""
    query = (
        select(privacy_withheld_rows)
        .where(privacy_withheld_rows.c.person_key == key)
        .order_by(privacy_withheld_rows.c.id)
    )
    return cast("list[Mapping[str, Any]]", list(conn.execute(query).mappings()))


def insert_withheld(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Rows kept as they were (`person_key`, `table_name`, `row_id`, `data`)."""
    conn.execute(privacy_withheld_rows.insert(), list(rows))


def delete_withheld(conn: Connection, key: str) -> None:
    conn.execute(delete(privacy_withheld_rows).where(privacy_withheld_rows.c.person_key == key))


def end_withholding(conn: Connection, key: str) -> None:
    """Forget the rows kept under `key` and its suppression (the request and the log stay)."""
    delete_withheld(conn, key)
    conn.execute(delete(privacy_person_suppressions).where(privacy_person_suppressions.c.person_key == key))


def suppressed_keys(conn: Connection, prefix: str) -> list[str]:
    """The suppressed keys starting with `prefix`."""
    query = select(privacy_person_suppressions.c.person_key).where(
        privacy_person_suppressions.c.person_key.startswith(prefix)
    )
    return list(conn.execute(query).scalars())


def people_named(
    conn: Connection, keys: Sequence[str], name_norm: str, limit: int
) -> list[Mapping[str, Any]]:
    """People rows with one of `keys` or the normalised name `name_norm` (either may be empty), by name."""
    clauses: list[ColumnElement[bool]] = [people.c.person_key.in_(keys)] if keys else []
    if name_norm:
        clauses.append(people.c.name_norm == name_norm)
    if not clauses:
        return []
    query = select(people).where(or_(*clauses)).order_by(people.c.name, people.c.id).limit(limit)
    return cast("list[Mapping[str, Any]]", conn.execute(query).mappings().all())


def roles_of_person(conn: Connection, person_id: int) -> list[Mapping[str, Any]]:
    """The person's roles with their companies' country, national id and name, by company name."""
    query = (
        select(companies.c.country, companies.c.national_id, companies.c.name, roles.c.role)
        .join(companies, companies.c.id == roles.c.company_id)
        .where(roles.c.person_id == person_id)
        .order_by(companies.c.name)
    )
    return cast("list[Mapping[str, Any]]", conn.execute(query).mappings().all())


def person_by_key(conn: Connection, person_key: str) -> tuple[int, str] | None:
    """(id, name) of the register person with `person_key`."""
    found = conn.execute(select(people.c.id, people.c.name).where(people.c.person_key == person_key)).first()
    return None if found is None else (int(found.id), str(found.name))


def person_row(conn: Connection, person_key: str) -> Mapping[str, Any] | None:
    item = conn.execute(select(people).where(people.c.person_key == person_key)).mappings().first()
    return cast("Mapping[str, Any] | None", item)


def people_rows(conn: Connection, person_id: int) -> list[Mapping[str, Any]]:
    query = select(people).where(people.c.id == person_id)
    return cast("list[Mapping[str, Any]]", conn.execute(query).mappings().all())


def _held(person_id: int, holder_key: str) -> ColumnElement[bool]:
    return or_(roles.c.person_id == person_id, roles.c.holder_key == holder_key)


def roles_held(conn: Connection, person_id: int, holder_key: str) -> list[Mapping[str, Any]]:
    """The roles the person holds, as a person row or under their holder key."""
    query = select(roles).where(_held(person_id, holder_key))
    return cast("list[Mapping[str, Any]]", conn.execute(query).mappings().all())


def delete_roles_held(conn: Connection, person_id: int, holder_key: str) -> int:
    return int(conn.execute(delete(roles).where(_held(person_id, holder_key))).rowcount)


def person_roles(conn: Connection, person_id: int, holder_key: str) -> list[Mapping[str, Any]]:
    """The person's roles as listed, with their companies (`id`, country, national id, `company_name`)."""
    query = (
        select(
            roles.c.role,
            roles.c.title,
            roles.c.holder_name,
            roles.c.share_pct,
            roles.c.voting_pct,
            roles.c.natures_of_control,
            roles.c.since,
            roles.c.until,
            roles.c.source,
            companies.c.id,
            companies.c.country,
            companies.c.national_id,
            companies.c.name.label("company_name"),
        )
        .join(companies, companies.c.id == roles.c.company_id)
        .where(_held(person_id, holder_key))
        .order_by(companies.c.name, roles.c.role)
    )
    return cast("list[Mapping[str, Any]]", conn.execute(query).mappings().all())


def changes_of_companies(conn: Connection, company_ids: Sequence[int]) -> list[Mapping[str, Any]]:
    """The change-log entries of these companies with the company's country and national id, in order."""
    query = (
        select(company_changes, companies.c.country, companies.c.national_id)
        .join(companies, companies.c.id == company_changes.c.company_id)
        .where(company_changes.c.company_id.in_(company_ids))
        .order_by(company_changes.c.id)
    )
    return cast("list[Mapping[str, Any]]", list(conn.execute(query).mappings()))


def change_values_of(conn: Connection, company_ids: Sequence[int]) -> list[tuple[int, Any, Any]]:
    """(id, old value, new value) of the change-log entries of these companies."""
    c = company_changes.c
    query = select(c.id, c.old_value, c.new_value).where(c.company_id.in_(list(company_ids)))
    return [(int(i), old, new) for i, old, new in conn.execute(query).all()]


def set_change_values(conn: Connection, change_id: int, old: Any, new: Any) -> None:
    conn.execute(
        update(company_changes).where(company_changes.c.id == change_id).values(old_value=old, new_value=new)
    )


def delete_person(conn: Connection, person_id: int) -> None:
    conn.execute(delete(people).where(people.c.id == person_id))


def delete_people(conn: Connection, person_ids: Sequence[int]) -> None:
    conn.execute(delete(people).where(people.c.id.in_(list(person_ids))))


def insert_person(conn: Connection, values: Mapping[str, Any]) -> int:
    inserted = conn.execute(people.insert().values(values)).inserted_primary_key
    assert inserted is not None
    return int(inserted[0])


def insert_roles(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    conn.execute(roles.insert(), list(rows))


def touch_companies(conn: Connection, company_ids: Sequence[int], now: datetime) -> None:
    """The companies' documents changed: search indexes and caches see them as updated."""
    conn.execute(update(companies).where(companies.c.id.in_(list(company_ids))).values(updated_at=now))


def national_ids_of(conn: Connection, company_ids: Sequence[int]) -> list[str]:
    found = conn.execute(select(companies.c.national_id).where(companies.c.id.in_(list(company_ids))))
    return [str(n) for n in found.scalars()]


def existing_company_ids(conn: Connection, company_ids: Collection[int]) -> set[int]:
    """Those of `company_ids` still in the register."""
    query = select(companies.c.id).where(companies.c.id.in_(company_ids))
    return {int(c) for c in conn.execute(query).scalars()}


def company_row(conn: Connection, country: str, national_id: str) -> Mapping[str, Any] | None:
    query = select(companies).where(companies.c.country == country, companies.c.national_id == national_id)
    return cast("Mapping[str, Any] | None", conn.execute(query).mappings().first())


def company_present(conn: Connection, country: str, national_id: str) -> bool:
    query = select(companies.c.id).where(
        companies.c.country == country, companies.c.national_id == national_id
    )
    return conn.execute(query).first() is not None


def delete_company(conn: Connection, company_id: int) -> None:
    """The cascades of the schema take the rows that hang on it."""
    conn.execute(delete(companies).where(companies.c.id == company_id))


def roles_held_elsewhere(conn: Connection, company_id: int, holder_key: str) -> list[dict[str, Any]]:
    """The roles a company (a sole trader's entry) holds in other companies, by id or holder key."""
    held = or_(roles.c.holder_company_id == company_id, roles.c.holder_key == holder_key)
    query = select(roles).where(held, roles.c.company_id != company_id)
    return [dict(r) for r in conn.execute(query).mappings()]


def delete_roles(conn: Connection, role_ids: Sequence[int]) -> None:
    conn.execute(delete(roles).where(roles.c.id.in_(list(role_ids))))


def own_people(conn: Connection, company_id: int) -> list[dict[str, Any]]:
    """People rows with roles in this company and in no other."""
    other = roles.alias("other")
    elsewhere = (
        select(other.c.id).where(other.c.person_id == people.c.id, other.c.company_id != company_id).exists()
    )
    mine = select(roles.c.person_id).where(roles.c.company_id == company_id)
    query = select(people).where(people.c.id.in_(mine), ~elsewhere).order_by(people.c.id)
    return [dict(r) for r in conn.execute(query).mappings()]


def rows_where_in(conn: Connection, table: Table, column: str, values: Sequence[int]) -> list[dict[str, Any]]:
    """Whole rows of `table` whose `column` is one of `values`."""
    return [dict(r) for r in conn.execute(select(table).where(table.c[column].in_(values))).mappings()]


def relink_row(conn: Connection, table: Table, row_id: int, column: str, value: Any) -> int:
    """Give the row `row_id` of `table` its link `column` back, unless it has one by now."""
    query = update(table).where(table.c.id == row_id, table.c[column].is_(None)).values({column: value})
    return int(conn.execute(query).rowcount)


def person_id_by_key(conn: Connection, person_key: str) -> int | None:
    found = conn.execute(select(people.c.id).where(people.c.person_key == person_key)).scalar()
    return None if found is None else int(found)


def row_exists(conn: Connection, table: Table, row_id: Any) -> bool:
    return conn.execute(select(table.c.id).where(table.c.id == row_id)).first() is not None


def insert_row(conn: Connection, table: Table, values: Mapping[str, Any]) -> None:
    conn.execute(table.insert().values(values))


def insert_row_new_id(conn: Connection, table: Table, values: Mapping[str, Any]) -> int:
    """Insert a row under a new id (`values` without one); returns it."""
    return int(conn.execute(table.insert().values(values).returning(table.c.id)).scalar_one())


# --- what is still queued to go out about a withheld person (outbox.py) ----------------------------------


def _changes_of(company_ids: Sequence[int]) -> Any:
    return select(company_changes.c.id).where(company_changes.c.company_id.in_(list(company_ids)))


def event_values_of(conn: Connection, company_ids: Sequence[int]) -> list[tuple[int, Any, Any]]:
    """(id, old value, new value) of the monitoring events of these companies."""
    me = monitoring_events.c
    query = select(me.id, me.old_value, me.new_value).where(me.company_id.in_(list(company_ids)))
    return [(int(i), old, new) for i, old, new in conn.execute(query).all()]


def set_event_values(conn: Connection, event_id: int, old: Any, new: Any) -> None:
    conn.execute(
        update(monitoring_events)
        .where(monitoring_events.c.id == event_id)
        .values(old_value=old, new_value=new)
    )


def delivery_bodies(
    conn: Connection, statuses: Sequence[str], company_ids: Sequence[int]
) -> list[tuple[int, str]]:
    """(id, body) of the deliveries in one of `statuses` about the changes of these companies."""
    d = deliveries.c
    query = select(d.id, d.body).where(d.status.in_(statuses), d.change_id.in_(_changes_of(company_ids)))
    return [(int(i), body) for i, body in conn.execute(query).all()]


def set_delivery_body(
    conn: Connection, delivery_id: int, body: str, statuses: Sequence[str] | None = None
) -> None:
    """Rewrite a delivery's body (with `statuses`: only while it is in one of them)."""
    d = deliveries.c
    where = [d.id == delivery_id] + ([d.status.in_(statuses)] if statuses is not None else [])
    conn.execute(update(deliveries).where(*where).values(body=body))


def cancel_deliveries(conn: Connection, statuses: Sequence[str], company_id: int, reason: str) -> int:
    """Cancel the deliveries in one of `statuses` about a company's changes; returns how many."""
    d = deliveries.c
    return int(
        conn.execute(
            update(deliveries)
            .where(d.status.in_(statuses), d.change_id.in_(_changes_of([company_id])))
            .values(status="cancelled", lease_until=None, last_error=reason)
        ).rowcount
    )
