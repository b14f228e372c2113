"""Passkeys through HTTP with a software authenticator: a P-256 key made with `cryptography` builds the
attestation (format `none`) and the assertions, as py_webauthn's own tests do."""

from __future__ import annotations

import hashlib
import json
import os
import struct

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url, encode_cbor

from tests.areas_accounts.test_account_api import sign_in
from tests.helpers import assert_envelope, assert_error

RP_ID, ORIGIN = "testserver", "http://testserver"


class SoftAuthenticator:
    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(32)
        self.count = 0

    def _client_data(self, kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        ).encode()

    def register(self, options: dict, origin: str = ORIGIN) -> dict:
        numbers = self.key.public_key().public_numbers()
        cose = encode_cbor(
            {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        )
        auth_data = (
            hashlib.sha256(options["rp"]["id"].encode()).digest()
            + bytes([0x45])
            + struct.pack(">I", 0)
            + bytes(16)
            + struct.pack(">H", len(self.credential_id))
            + self.credential_id
            + cose
        )
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        cid = bytes_to_base64url(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(
                    self._client_data("webauthn.create", options["challenge"], origin)
                ),
                "attestationObject": bytes_to_base64url(attestation),
            },
        }

    def assert_(self, options: dict, origin: str = ORIGIN, count: int | None = None) -> dict:
        self.count = self.count + 1 if count is None else count
        auth_data = (
            hashlib.sha256(options["rpId"].encode()).digest() + bytes([0x05]) + struct.pack(">I", self.count)
        )
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        cid = bytes_to_base64url(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "authenticatorData": bytes_to_base64url(auth_data),
                "signature": bytes_to_base64url(signature),
            },
        }


def _register(client, csrf, device):
    opts = assert_envelope(
        client.post("/account/passkeys/options", json={"kind": "registration"}, headers=csrf)
    )
    cred = device.register(opts["options"])
    return assert_envelope(
        client.post(
            "/account/passkeys/verify",
            headers=csrf,
            json={"kind": "registration", "challenge_token": opts["challenge_token"], "credential": cred},
        ),
        201,
    )


def test_register_then_sign_in_with_the_passkey(app_factory, engine):
    client = app_factory()
    csrf = sign_in(client, engine, "pk@example.org")
    device = SoftAuthenticator()
    registered = _register(client, csrf, device)
    assert registered["status"] == "registered"
    fresh = app_factory()  # another browser, no session
    assert_error(fresh.get("/account"), 401, "UNAUTHORIZED")
    opts = assert_envelope(fresh.post("/account/passkeys/options", json={"kind": "authentication"}))
    out = assert_envelope(
        fresh.post(
            "/account/passkeys/verify",
            json={
                "kind": "authentication",
                "challenge_token": opts["challenge_token"],
                "credential": device.assert_(opts["options"]),
            },
        )
    )
    assert out["status"] == "signed_in"
    assert assert_envelope(fresh.get("/account"))["email"] == "pk@example.org"
    # a replayed counter, a wrong origin, another key, a registration token: all refused
    opts = assert_envelope(fresh.post("/account/passkeys/options", json={"kind": "authentication"}))
    replay = device.assert_(opts["options"], count=1)
    assert_error(
        fresh.post(
            "/account/passkeys/verify",
            json={"kind": "authentication", "challenge_token": opts["challenge_token"], "credential": replay},
        ),
        401,
        "UNAUTHORIZED",
    )
    evil = device.assert_(opts["options"], origin="https://evil.example")
    assert_error(
        fresh.post(
            "/account/passkeys/verify",
            json={"kind": "authentication", "challenge_token": opts["challenge_token"], "credential": evil},
        ),
        401,
        "UNAUTHORIZED",
    )
    stranger = SoftAuthenticator()
    assert_error(
        fresh.post(
            "/account/passkeys/verify",
            json={
                "kind": "authentication",
                "challenge_token": opts["challenge_token"],
                "credential": stranger.assert_(opts["options"]),
            },
        ),
        401,
        "UNAUTHORIZED",
    )
    assert_error(
        fresh.post(
            "/account/passkeys/verify",
            json={"kind": "registration", "challenge_token": opts["challenge_token"], "credential": {}},
        ),
        403,
        "FORBIDDEN",
    )  # no CSRF token
    # delete: another account cannot, the owner can
    other_csrf = sign_in(fresh, engine, "other@example.org")
    assert_error(
        fresh.post(f"/account/passkeys/{registered['id']}/delete", headers=other_csrf), 404, "NOT_FOUND"
    )
    assert assert_envelope(client.post(f"/account/passkeys/{registered['id']}/delete", headers=csrf))[
        "deleted"
    ]
    opts = assert_envelope(fresh.post("/account/passkeys/options", json={"kind": "authentication"}))
    assert_error(
        fresh.post(
            "/account/passkeys/verify",
            json={
                "kind": "authentication",
                "challenge_token": opts["challenge_token"],
                "credential": device.assert_(opts["options"]),
            },
        ),
        401,
        "UNAUTHORIZED",
    )


def test_registration_checks(client, engine):
    assert_error(client.post("/account/passkeys/options", json={"kind": "registration"}), 401, "UNAUTHORIZED")
    csrf = sign_in(client, engine)
    assert_error(client.post("/account/passkeys/options", json={"kind": "registration"}), 403, "FORBIDDEN")
    for body in ({"kind": "other"}, {"kind": "registration", "x": 1}, {}):
        assert_error(
            client.post("/account/passkeys/options", json=body, headers=csrf), 422, "VALIDATION_ERROR"
        )
    device = SoftAuthenticator()
    opts = assert_envelope(
        client.post("/account/passkeys/options", json={"kind": "registration"}, headers=csrf)
    )
    wrong_origin = device.register(opts["options"], origin="https://evil.example")
    assert_error(
        client.post(
            "/account/passkeys/verify",
            headers=csrf,
            json={
                "kind": "registration",
                "challenge_token": opts["challenge_token"],
                "credential": wrong_origin,
            },
        ),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.post(
            "/account/passkeys/verify",
            headers=csrf,
            json={"kind": "registration", "challenge_token": "forged", "credential": {}},
        ),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.post(
            "/account/passkeys/verify",
            headers=csrf,
            json={
                "kind": "registration",
                "challenge_token": opts["challenge_token"],
                "credential": {"id": 5},
            },
        ),
        422,
        "VALIDATION_ERROR",
    )
    _register(client, csrf, device)
    opts = assert_envelope(
        client.post("/account/passkeys/options", json={"kind": "registration"}, headers=csrf)
    )
    assert opts["options"]["excludeCredentials"]  # the existing passkey is excluded
    assert_error(client.post("/account/passkeys/99/delete", headers=csrf), 404, "NOT_FOUND")
