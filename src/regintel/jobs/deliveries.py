"""One attempt of one webhook delivery: re-check the address, connect to it, POST the signed body.

Every attempt resolves the host again and refuses it if any address is private (DNS rebinding), then
connects to the address it checked (the URL's host is replaced by that address; `Host` and the TLS
server name stay the subscriber's host name, so certificates are verified as usual). Redirects are not
followed: a 3xx is a failed attempt, since following it would reach an unchecked address.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import httpx

from regintel import __version__
from regintel.areas.monitoring.webhook_targets import resolve_for_delivery
from regintel.config import Settings
from regintel.db.deliveries import Outcome
from regintel.domain.webhook_urls import UnsafeWebhookUrl, parse_webhook_url
from regintel.jobs.signing import signed_headers, signing_secrets

USER_AGENT = f"regintel-webhooks/{__version__} (+https://www.standardwebhooks.com/)"


def make_client(settings: Settings) -> httpx.AsyncClient:
    """No redirects, no proxies from the environment, bounded time and connections. One client for the
    whole worker (measured: faster here than several small ones), keep-alive per receiver."""
    size = settings.webhook_concurrency
    return httpx.AsyncClient(
        timeout=httpx.Timeout(settings.webhook_timeout_seconds),
        follow_redirects=False,
        trust_env=False,
        limits=httpx.Limits(max_connections=size, max_keepalive_connections=size),
    )


async def _post(client: httpx.AsyncClient, row: Mapping[str, Any], settings: Settings, now: datetime) -> int:
    target = parse_webhook_url(row["url"])
    ip = await resolve_for_delivery(target, settings.allow_private_webhooks)
    headers = signed_headers(row["message_id"], row["body"], signing_secrets(row, now), now)
    headers |= {"content-type": "application/json", "user-agent": USER_AGENT, "host": target.host_header}
    extensions = (
        {"sni_hostname": target.host} if target.url.scheme == "https" and target.literal is None else {}
    )
    request = client.build_request(
        "POST",
        target.url.copy_with(host=str(ip)),
        content=row["body"].encode(),
        headers=headers,
        extensions=extensions,
    )
    # The body of the answer is never read: only its status matters, and it may be large.
    response = await client.send(request, stream=True)
    await response.aclose()
    return response.status_code


async def attempt(client: httpx.AsyncClient, row: Mapping[str, Any], settings: Settings) -> Outcome:
    """Try once; never raises. A 2xx is success, anything else (or no answer in time) a failure."""
    now = datetime.now(UTC)
    started = time.perf_counter()
    status: int | None = None
    error: str | None = None
    try:
        # httpx's timeout applies per read; the outer limit also stops a receiver that drips bytes.
        async with asyncio.timeout(settings.webhook_timeout_seconds + 1):
            status = await _post(client, row, settings, now)
        if not 200 <= status < 300:
            error = f"HTTP {status}"
    except UnsafeWebhookUrl as exc:
        error = f"refused: {exc.message}"
    except (TimeoutError, httpx.TimeoutException):
        error = f"timeout after {settings.webhook_timeout_seconds:g} s"
    except httpx.HTTPError as exc:
        error = f"{type(exc).__name__}: {exc}"[:500] or type(exc).__name__
    except OSError as exc:
        error = f"{type(exc).__name__}: {exc}"[:500]
    return Outcome(
        delivery_id=row["id"],
        subscription_id=row["subscription_id"],
        attempts=row["attempts"],
        ok=error is None,
        status_code=status,
        error=error,
        duration_ms=int((time.perf_counter() - started) * 1000),
        attempted_at=now,
    )
