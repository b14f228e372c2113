"""Host names from register data: a published website or e-mail address → a normalised ASCII host and its
registrable domain. Pure functions, no I/O.

IDNA 2008 with UTS #46 mapping (the `idna` package) turns `www.Čaj.sk` into `www.xn--aj-wka.sk`; the
registrable domain comes from the Public Suffix List shipped inside `publicsuffixlist` (no download).
E-mail syntax is `email-validator`'s; only the domain of an address is kept.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import lru_cache

import httpx
import idna
from email_validator import EmailNotValidError, validate_email
from publicsuffixlist import PublicSuffixList

MAX_HOST = 253


@dataclass(frozen=True)
class Host:
    host: str  # ASCII, lower case, no trailing dot
    registered_domain: str  # e.g. `example.co.uk` for `www.example.co.uk`


class NotAHost(ValueError):
    """The value names no public host (malformed, an IP address, a bare public suffix)."""


@lru_cache(maxsize=1)
def _psl() -> PublicSuffixList:
    return PublicSuffixList()


def normalise_host(raw: str) -> Host:
    """A host name (Unicode or ASCII, any case, optional final dot) as ASCII with its registrable domain."""
    name = raw.strip().rstrip(".").lower()
    if not name or len(name) > MAX_HOST or any(ch.isspace() for ch in name):
        raise NotAHost(f"not a host name: {raw!r}")
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        pass
    else:
        raise NotAHost(f"an IP address, not a host name: {raw!r}")
    try:
        ascii_name = idna.encode(name, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        raise NotAHost(f"not a valid host name: {raw!r} ({exc})") from None
    registered = _psl().privatesuffix(ascii_name)
    if registered is None:
        raise NotAHost(f"no registrable domain under a public suffix: {raw!r}")
    return Host(ascii_name, registered)


def website_host(raw: str) -> Host:
    """The host of a published website (`www.x.be`, `http://x.be/kontakt`, `https://Čaj.sk:8443`)."""
    value = raw.strip()
    if not value:
        raise NotAHost("empty website")
    if "://" not in value:
        value = "http://" + value
    try:
        url = httpx.URL(value)
        host = url.host
    except (httpx.InvalidURL, UnicodeError, ValueError) as exc:
        raise NotAHost(f"not a website address: {raw!r} ({exc})") from None
    if url.scheme not in ("http", "https") or url.userinfo:
        raise NotAHost(f"not an http(s) website address: {raw!r}")
    return normalise_host(host)


def email_host(raw: str) -> Host:
    """The domain of a published e-mail address (syntax checked, no DNS lookup)."""
    try:
        checked = validate_email(raw.strip(), check_deliverability=False)
    except EmailNotValidError as exc:
        raise NotAHost(f"not an e-mail address: {raw!r} ({exc})") from None
    return normalise_host(checked.ascii_domain)
