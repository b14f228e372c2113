"""Technology usage (`/technologie`, `/technologies`): how many checked company domains show each technology
and mail provider of the security area's fingerprint rules, from its stored passive checks
(`security.service.signal_list`; a page never starts a check). Kept 15 minutes per process."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection

from regintel.areas.security import service as security_svc
from regintel.areas.security import signals

TTL = 900.0


def usage(conn: Connection, cache: dict[str, Any], ttl: float = TTL) -> dict[str, Any]:
    hit = cache.get("technologies")
    if hit is not None and time.monotonic() - hit[0] < ttl:
        cached: dict[str, Any] = hit[1]  # the cache is the app's untyped dict; this entry holds a dict
        return cached

    def hosts(kind: str, name: str) -> int:
        return security_svc.signal_list(conn, {kind: name}, 1, 1)[0]

    rules = signals.rules()
    techs: list[dict[str, Any]] = [
        {"name": r["name"], "category": r.get("category"), "domains": hosts("technology", r["name"])}
        for r in rules.technologies
    ]
    mail: list[dict[str, Any]] = [
        {"name": name, "category": "Mail provider", "domains": hosts("mail_provider", name)}
        for name, _ in rules.mail_providers
    ]
    out = {
        "checked_domains": security_svc.signal_list(conn, {}, 1, 1)[0],
        "rules_version": rules.version,
        "technologies": sorted(techs, key=lambda t: (-t["domains"], t["name"])),
        "mail_providers": sorted(mail, key=lambda t: (-t["domains"], t["name"])),
    }
    cache["technologies"] = (time.monotonic(), out)
    return out
