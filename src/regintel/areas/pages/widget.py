"""Widget tokens: signed with the server secret (itsdangerous), bound to a key and to the origins the
widget may run on, expiring. Nothing is stored: a token is checked by its signature, its age and the
`Origin` header of the browser's request."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from regintel.errors import Forbidden, Unauthorized, ValidationFailed

SALT = "regintel.widget-token.v1"
TYPES = ("check", "badges")
MAX_TTL = 7 * 86400  # a token lives at most a week (default: one day)


_HOST = re.compile(r"[a-z0-9.-]+")


def normalise_origin(value: str) -> str:
    """`scheme://host[:port]`, lower-case, as browsers send it in `Origin`; anything else is refused."""
    parts = urlsplit(value.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
        or parts.password
    ):
        raise ValidationFailed(
            "An origin is `scheme://host[:port]` with scheme http or https", details={"origin": value}
        )
    if not _HOST.fullmatch(parts.hostname):  # `afa*` or `a b` is no host a browser sends (schemathesis)
        raise ValidationFailed(
            "An origin's host is letters, digits, dots and hyphens (a DNS name or an IPv4 address)",
            details={"origin": value},
        )
    if not _port_ok(parts.netloc):
        raise ValidationFailed("An origin's port is a number from 1 to 65535", details={"origin": value})
    port = f":{parts.port}" if parts.port and parts.port != {"http": 80, "https": 443}[parts.scheme] else ""
    return f"{parts.scheme}://{parts.hostname.lower()}{port}"


def _port_ok(netloc: str) -> bool:
    """No port, or 1-65535 written without leading zeros (urllib raises on reading a port out of range)."""
    if netloc.endswith("]") or ":" not in netloc:
        return True
    port = netloc.rpartition(":")[2]
    return port.isdigit() and port[0] != "0" and int(port) <= 65535


def _serializer(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=SALT)


def issue(secret: str, key_id: int, origins: list[str], ttl: int) -> str:
    return _serializer(secret).dumps({"k": key_id, "o": origins, "t": ttl})


def is_token(raw: str) -> bool:
    """Widget tokens and API keys share the credential slots (`Authorization: Bearer`, `?api_key=`); keys
    start with `ri_`, tokens never do (itsdangerous' URL-safe base64 of a JSON object starts with `ey`)."""
    return not raw.startswith("ri_")


def claims_of(secret: str, token: str) -> dict[str, Any]:
    """The claims of a genuine token younger than its lifetime (origin not checked)."""
    try:
        claims: dict[str, Any] = _serializer(secret).loads(token, max_age=MAX_TTL)  # signed from a dict
        _serializer(secret).loads(token, max_age=int(claims["t"]))
    except SignatureExpired as exc:
        raise Unauthorized("The widget token has expired: ask your server for a new one") from exc
    except BadSignature as exc:
        raise Unauthorized("Invalid widget token or API key") from exc
    return claims


def check_origin(claims: dict[str, Any], origin: str | None) -> None:
    """A token's data goes only to a browser on an origin the token names."""
    if not origin:
        raise Forbidden("The widget's data is served to browsers only: the request has no Origin header")
    try:
        normal = normalise_origin(origin)
    except ValidationFailed as exc:
        raise Forbidden("This origin may not use the widget token") from exc
    if normal not in claims["o"]:
        raise Forbidden("This origin may not use the widget token", details={"origin": normal})
