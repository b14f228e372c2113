"""EU VAT number validation (spec 4.7 `/vat/validate`): the number's format and check digits for the 27
member states with python-stdnum, then the Commission's VIES service for whether the number is registered.

VIES (REST, `{vies_base_url}/ms/{MS}/vat/{number}`) is often partly down: a member state's system
unavailable, timeouts, rate limits. Those answers are reported as `unavailable`, never as invalid, and are
not cached; a `valid` or `invalid` verdict is cached for 24 hours (spec 8) in the API process. Greece is
`EL` in VAT numbers and in VIES.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import httpx
from cachetools import TTLCache
from stdnum.eu import vat as eu_vat
from stdnum.exceptions import ValidationError as StdnumError

from regintel.errors import ValidationFailed

CACHE_SECONDS = 24 * 3600
MEMBER_STATES = tuple(
    sorted("EL" if c == "gr" else c.upper() for c in eu_vat.MEMBER_STATES if c != "xi")
)  # 27
COUNTRY = {"EL": "GR"}
# VIES `userError` values that mean "no verdict now", not "invalid" (VIES technical information).
UNAVAILABLE = {
    "MS_UNAVAILABLE",
    "TIMEOUT",
    "SERVICE_UNAVAILABLE",
    "MS_MAX_CONCURRENT_REQ",
    "GLOBAL_MAX_CONCURRENT_REQ",
    "SERVER_BUSY",
    "IP_BLOCKED",
    "VAT_BLOCKED",
}
MAX_INPUT = 40


def new_cache() -> TTLCache[tuple[str, str], dict[str, Any]]:
    return TTLCache(maxsize=100_000, ttl=CACHE_SECONDS)


def split(value: str) -> tuple[str, str]:
    """`CZ 45795908`, `el094259216`, `GR094259216` → (member state as VIES names it, number). 422 when the
    prefix is not one of the 27 member states."""
    raw = re.sub(r"[\s.\-/]", "", value or "").upper()
    if not raw or len(raw) > MAX_INPUT:
        raise ValidationFailed(
            "`vat` is empty or too long",
            details=[{"field": "vat", "in": "query", "message": "2-letter prefix and number"}],
        )
    prefix = "EL" if raw[:2] == "GR" else raw[:2]
    if prefix not in MEMBER_STATES:
        raise ValidationFailed(
            f"{raw[:2]!r} is not the VAT prefix of an EU member state",
            details=[
                {
                    "field": "vat",
                    "in": "query",
                    "message": "prefix must be one of " + ", ".join(MEMBER_STATES),
                }
            ],
        )
    return prefix, raw[2:]


def check_format(ms: str, number: str) -> str | None:
    """None when the number is well-formed with valid check digits, else the reason."""
    try:
        eu_vat.validate(ms + number)
    except StdnumError as exc:
        return str(exc)
    return None


def base_answer(ms: str, number: str, reason: str | None) -> dict[str, Any]:
    return {
        "vat": ms + number,
        "memberState": ms,
        "country": COUNTRY.get(ms, ms),
        "number": number,
        "formatValid": reason is None,
        "formatReason": reason,
    }


async def ask_vies(client: httpx.AsyncClient, base_url: str, ms: str, number: str) -> dict[str, Any]:
    """One VIES call → `status` valid | invalid | unavailable, with the registered name and address."""
    url = f"{base_url.rstrip('/')}/ms/{ms}/vat/{number}"
    checked = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    try:
        resp = await client.get(url, headers={"Accept": "application/json"})
    except httpx.HTTPError as exc:
        return _unavailable(f"VIES could not be reached: {type(exc).__name__}", checked)
    if resp.status_code != 200:
        return _unavailable(f"VIES answered HTTP {resp.status_code}", checked)
    try:
        body = resp.json()
    except ValueError:
        return _unavailable("VIES answered something that is not JSON", checked)
    error = str(body.get("userError") or "")
    if error in UNAVAILABLE or not isinstance(body.get("isValid"), bool):
        return _unavailable(f"VIES: {error or 'no verdict in the answer'}", checked)
    return {
        "status": "valid" if body["isValid"] else "invalid",
        "viesResult": error or None,
        "name": _clean(body.get("name")),
        "address": _clean(body.get("address")),
        "requestDate": body.get("requestDate"),
        "checkedAt": checked,
        "reason": None,
    }


def _unavailable(reason: str, checked: str) -> dict[str, Any]:
    return {
        "status": "unavailable",
        "viesResult": None,
        "name": None,
        "address": None,
        "requestDate": None,
        "checkedAt": checked,
        "reason": reason,
    }


def _clean(value: Any) -> str | None:
    """VIES writes `---` for a field a member state does not share."""
    if not isinstance(value, str) or value.strip() in ("", "---"):
        return None
    return value.strip()
