"""Which webhook URLs we may call (SSRF rules): the URL's shape and the addresses it may reach.

The URL is parsed with httpx's parser, the same one that later sends the request, so the checked
host and the called host cannot disagree. Resolution is I/O and lives in `areas.monitoring.webhook_targets`.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

import httpx

from regintel.errors import ValidationFailed

MAX_URL_LENGTH = 2048
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_HOSTNAME = re.compile(
    r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.?"
)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


@dataclass(frozen=True)
class WebhookTarget:
    """A parsed webhook URL: where to connect and what to send as `Host` and TLS server name."""

    url: httpx.URL
    host: str  # ASCII (IDNA) host name or IP literal, without brackets
    port: int
    literal: IPAddress | None  # the address when the URL names one directly

    @property
    def host_header(self) -> str:
        default = 443 if self.url.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"


class UnsafeWebhookUrl(ValidationFailed):
    """422 `VALIDATION_ERROR` whose details name the field and a machine-readable `reason`."""

    def __init__(self, message: str, reason: str, field: str = "webhook_url"):
        super().__init__(
            message, details=[{"field": field, "in": "body", "reason": reason, "message": message}]
        )
        self.reason = reason


def parse_webhook_url(raw: str, field: str = "webhook_url") -> WebhookTarget:
    """Check the URL's shape: http(s) only, a host, no credentials, at most 2,048 characters."""
    if not raw or len(raw) > MAX_URL_LENGTH:
        raise UnsafeWebhookUrl(f"The URL must have 1 to {MAX_URL_LENGTH} characters", "length", field)
    if any(ch.isspace() or ord(ch) < 32 for ch in raw):
        raise UnsafeWebhookUrl("The URL must not contain spaces or control characters", "malformed", field)
    try:
        url = httpx.URL(raw)
        host = url.raw_host.decode("ascii").lower()
    except (httpx.InvalidURL, UnicodeError, ValueError):
        raise UnsafeWebhookUrl("The URL cannot be parsed", "malformed", field) from None
    if url.scheme not in ("http", "https"):
        raise UnsafeWebhookUrl("Only http and https URLs are accepted", "scheme", field)
    if url.userinfo:
        raise UnsafeWebhookUrl("The URL must not contain credentials (user:password@)", "credentials", field)
    literal = _ip_literal(host)
    if literal is None and not _HOSTNAME.fullmatch(host):
        raise UnsafeWebhookUrl("The URL has no valid host name", "host", field)
    port = url.port or (443 if url.scheme == "https" else 80)
    return WebhookTarget(url=url, host=host.rstrip("."), port=port, literal=literal)


def _ip_literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def address_refusal(ip: IPAddress) -> str | None:
    """Why `ip` must not be called (`loopback`, `private`, …), or None for a public unicast address.
    IPv6 forms that carry an IPv4 address (mapped, 6to4, Teredo, NAT64) are judged by that address."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is None and ip in _NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            return address_refusal(embedded)
    for reason, flag in (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link_local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("private", ip.is_private),
        ("reserved", ip.is_reserved),
    ):
        if flag:
            return reason
    return None if ip.is_global else "not_global"


def check_addresses(
    target: WebhookTarget, addresses: list[IPAddress], allow_private: bool, field: str = "webhook_url"
) -> IPAddress:
    """The address to connect to: the first of `addresses`, provided that none of them is refused
    (a name that resolves to one public and one private address is refused as a whole)."""
    if not addresses:
        raise UnsafeWebhookUrl(f"The host {target.host} does not resolve", "unresolvable", field)
    if not allow_private:
        for ip in addresses:
            reason = address_refusal(ip)
            if reason is not None:
                raise UnsafeWebhookUrl(
                    f"The URL's host {target.host} resolves to a {reason.replace('_', '-')} "
                    f"address ({ip}); webhooks are only sent to public addresses",
                    f"{reason}_address",
                    field,
                )
    return addresses[0]
