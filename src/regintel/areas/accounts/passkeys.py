"""Passkeys (WebAuthn, py_webauthn): register one on a signed-in account, then sign in with it.

The challenge travels as a signed token (itsdangerous, 5 minutes) bound to its ceremony and, for a
registration, to the account; the relying party is the service's public host, the origin its public base.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy.engine import Connection
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers import exceptions as webauthn_errors
from webauthn.helpers.structs import (
    PublicKeyCredentialCreationOptions,
    PublicKeyCredentialDescriptor,
    PublicKeyCredentialRequestOptions,
)

from regintel.api.deps import public_base
from regintel.areas.accounts import queries as q
from regintel.config import Settings
from regintel.errors import NotFound, Unauthorized, ValidationFailed

# Every error py_webauthn raises on a malformed or failing credential (it has no common base class).
_REFUSED: tuple[type[Exception], ...] = (
    ValueError,
    KeyError,
    TypeError,
    *(v for v in vars(webauthn_errors).values() if isinstance(v, type) and issubclass(v, Exception)),
)
SALT = "passkey-challenge"
CHALLENGE_SECONDS = 300


def _invalid(field: str, message: str) -> ValidationFailed:
    return ValidationFailed(
        message, details=[{"field": field, "in": "body", "reason": "invalid", "message": message}]
    )


def _rp(request: Request) -> tuple[str, str]:
    base = public_base(request)
    return urlsplit(base).hostname or "localhost", base


def options(
    conn: Connection, request: Request, settings: Settings, kind: str, session: Mapping[str, Any] | None
) -> dict[str, Any]:
    rp_id, _ = _rp(request)
    serializer = URLSafeTimedSerializer(settings.secret_key, salt=SALT)
    opts: PublicKeyCredentialCreationOptions | PublicKeyCredentialRequestOptions
    if kind == "registration":
        assert session is not None
        existing = [
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(p["credential_id"]))
            for p in q.account_passkeys_of(conn, session["account_id"])
        ]
        opts = generate_registration_options(
            rp_id=rp_id,
            rp_name="regintel",
            user_name=session["email"],
            user_id=str(session["account_id"]).encode(),
            exclude_credentials=existing,
        )
        bound: int | None = int(session["account_id"])
    else:
        opts = generate_authentication_options(rp_id=rp_id)
        bound = None
    token = serializer.dumps({"k": kind, "c": bytes_to_base64url(opts.challenge), "a": bound})
    return {"options": json.loads(options_to_json(opts)), "challenge_token": token}


def _challenge(settings: Settings, token: str, kind: str) -> tuple[bytes, int | None]:
    try:
        data = URLSafeTimedSerializer(settings.secret_key, salt=SALT).loads(token, max_age=CHALLENGE_SECONDS)
    except SignatureExpired:
        raise _invalid("challenge_token", "The challenge has expired; ask for new options") from None
    except BadSignature:
        raise _invalid("challenge_token", "The challenge token is not valid") from None
    if not isinstance(data, dict) or data.get("k") != kind:
        raise _invalid("challenge_token", f"This challenge is not for a {kind}")
    return base64url_to_bytes(str(data["c"])), data.get("a")


def register(
    conn: Connection,
    request: Request,
    settings: Settings,
    session: Mapping[str, Any],
    token: str,
    credential: dict[str, Any],
) -> dict[str, Any]:
    challenge, bound = _challenge(settings, token, "registration")
    if bound != session["account_id"]:
        raise _invalid("challenge_token", "This challenge was issued to another session")
    rp_id, origin = _rp(request)
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin
        )
    except _REFUSED as exc:
        raise _invalid("credential", f"The passkey registration does not verify: {exc}") from None
    credential_id = bytes_to_base64url(verified.credential_id)
    if q.passkey_by_credential(conn, credential_id) is not None:
        raise _invalid("credential", "This passkey is registered already")
    now = datetime.now(UTC)
    passkey_id = q.insert_passkey(
        conn,
        session["account_id"],
        credential_id,
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
        now,
    )
    return {"id": passkey_id, "credential_id": credential_id, "created_at": now}


def authenticate(
    conn: Connection, request: Request, settings: Settings, token: str, credential: dict[str, Any]
) -> int:
    """The account id the assertion proves; 401 when the passkey is unknown or the assertion fails."""
    challenge, _ = _challenge(settings, token, "authentication")
    raw_id = credential.get("rawId") or credential.get("id")
    passkey = q.passkey_by_credential(conn, str(raw_id)) if isinstance(raw_id, str) else None
    if passkey is None:
        raise Unauthorized("Unknown passkey")
    rp_id, origin = _rp(request)
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=base64url_to_bytes(passkey["public_key"]),
            credential_current_sign_count=passkey["sign_count"],
        )
    except _REFUSED as exc:
        raise Unauthorized(f"The passkey assertion does not verify: {exc}") from None
    q.used_passkey(conn, passkey["id"], verified.new_sign_count, datetime.now(UTC))
    return int(passkey["account_id"])


def delete(conn: Connection, session: Mapping[str, Any], passkey_id: int) -> dict[str, Any]:
    if not q.delete_passkey(conn, session["account_id"], passkey_id):
        raise NotFound(f"No passkey with id {passkey_id} on this account")
    return {"id": passkey_id, "deleted": True}
