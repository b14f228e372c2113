"""Resolving webhook hosts and applying the SSRF rules of `domain.webhook_urls`.

Checked twice: when a subscription is created (a clear 422 for the caller) and before every attempt
(a name may point elsewhere by then: DNS rebinding). The worker connects to the address it checked,
never to a second resolution of the name.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Sequence
from typing import Any

from regintel.domain.webhook_urls import (
    IPAddress,
    UnsafeWebhookUrl,
    WebhookTarget,
    check_addresses,
    parse_webhook_url,
)


def _addresses(infos: Sequence[tuple[Any, ...]]) -> list[IPAddress]:
    seen: list[IPAddress] = []
    for info in infos:
        sockaddr = info[4]
        ip = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        if ip not in seen:
            seen.append(ip)
    return seen


def check_webhook_url(raw: str, allow_private: bool, field: str = "webhook_url") -> str:
    """Validate a URL for a new subscription; returns it normalised, or raises `UnsafeWebhookUrl`."""
    target = parse_webhook_url(raw, field)
    if target.literal is not None:
        check_addresses(target, [target.literal], allow_private, field)
        return str(target.url)
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise UnsafeWebhookUrl(f"The host {target.host} does not resolve", "unresolvable", field) from None
    check_addresses(target, _addresses(infos), allow_private, field)
    return str(target.url)


async def resolve_for_delivery(target: WebhookTarget, allow_private: bool) -> IPAddress:
    """The checked address to connect to for one attempt (raises `UnsafeWebhookUrl`)."""
    if target.literal is not None:
        return check_addresses(target, [target.literal], allow_private)
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise UnsafeWebhookUrl(f"The host {target.host} does not resolve", "unresolvable") from None
    return check_addresses(target, _addresses(infos), allow_private)
