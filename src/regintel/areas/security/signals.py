"""Brand signals from what a passive check saw: technologies (the open rule file `fingerprints.json`),
the mail provider (MX hosts) and the certificate issuer. Pure functions over the check's facts.

HTML is read with lxml (the `<meta name>` contents and `<script src>` values), never with expressions
over the raw markup.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import lxml.html
from lxml.etree import ParserError

RULES_PATH = Path(__file__).with_name("fingerprints.json")


@dataclass(frozen=True)
class Signal:
    kind: str  # technology | mail_provider | cert_issuer
    name: str
    category: str | None
    evidence: str


@dataclass(frozen=True)
class Rules:
    version: str
    technologies: tuple[dict[str, Any], ...]
    mail_providers: tuple[tuple[str, re.Pattern[str]], ...]
    shared_domains: frozenset[str]


@lru_cache(maxsize=1)
def rules() -> Rules:
    doc = json.loads(RULES_PATH.read_text(encoding="utf-8"))
    techs = []
    for rule in doc["technologies"]:
        compiled = dict(rule)
        compiled["headers"] = {k.lower(): re.compile(v, re.I) for k, v in rule.get("headers", {}).items()}
        compiled["meta"] = {k.lower(): re.compile(v, re.I) for k, v in rule.get("meta", {}).items()}
        compiled["scriptSrc"] = [re.compile(v, re.I) for v in rule.get("scriptSrc", [])]
        compiled["cookies"] = [c.lower() for c in rule.get("cookies", [])]
        techs.append(compiled)
    mail = tuple((m["name"], re.compile(m["mx"], re.I)) for m in doc["mail_providers"])
    return Rules(
        doc["version"],
        tuple(techs),
        mail,
        frozenset(doc["shared_mail_domains"]) | frozenset(doc["shared_web_domains"]),
    )


def page_markers(html: str) -> dict[str, Any]:
    """`meta` (name → content) and `scripts` (src values) of an HTML page; empty when it is not HTML."""
    if not html.strip():
        return {"meta": {}, "scripts": []}
    try:
        doc = lxml.html.document_fromstring(html)
    except (ParserError, ValueError):
        return {"meta": {}, "scripts": []}
    meta = {
        str(el.get("name")).lower(): str(el.get("content") or "")[:200]
        for el in doc.iter("meta")
        if el.get("name")
    }
    scripts = [str(el.get("src"))[:500] for el in doc.iter("script") if el.get("src")][:200]
    return {"meta": meta, "scripts": scripts}


def technologies(
    headers: Mapping[str, str], cookies: Sequence[str], markers: Mapping[str, Any]
) -> list[Signal]:
    """Every rule that matches a header, a cookie name, a `<meta>` or a `<script src>`."""
    found: list[Signal] = []
    cookie_names = {c.lower() for c in cookies}
    for rule in rules().technologies:
        evidence = _match(rule, headers, cookie_names, markers)
        if evidence is not None:
            found.append(Signal("technology", rule["name"], rule.get("category"), evidence))
    return found


def _match(
    rule: Mapping[str, Any], headers: Mapping[str, str], cookies: set[str], markers: Mapping[str, Any]
) -> str | None:
    for header, pattern in rule["headers"].items():
        value = headers.get(header)
        if value is not None and (m := pattern.search(value)):
            return _with_version(f"header {header}: {value[:120]}", m)
    for name in rule["cookies"]:
        if name in cookies:
            return f"cookie {name}"
    for name, pattern in rule["meta"].items():
        value = markers.get("meta", {}).get(name)
        if value is not None and (m := pattern.search(value)):
            return _with_version(f"meta {name}: {value[:120]}", m)
    for pattern in rule["scriptSrc"]:
        for src in markers.get("scripts", []):
            if m := pattern.search(src):
                return _with_version(f"script src {src[:160]}", m)
    return None


def _with_version(evidence: str, match: re.Match[str]) -> str:
    version = match.groupdict().get("version")
    return f"{evidence} (version {version})" if version else evidence


def mail_provider(mx_hosts: Sequence[str]) -> list[Signal]:
    """The provider whose MX host names the domain uses (the first rule matching any MX)."""
    for name, pattern in rules().mail_providers:
        for mx in mx_hosts:
            if pattern.search(mx.rstrip(".")):
                return [Signal("mail_provider", name, "Mail", f"MX {mx}")]
    return []


def cert_issuer(issuer: Mapping[str, str] | None) -> list[Signal]:
    """The certificate issuer's organisation (or common name)."""
    if not issuer:
        return []
    name = issuer.get("O") or issuer.get("CN")
    if not name:
        return []
    return [
        Signal(
            "cert_issuer",
            name[:128],
            "Certificate authority",
            ", ".join(f"{k}={v}" for k, v in issuer.items())[:300],
        )
    ]


def canonical_name(kind: str, value: str) -> str:
    """The rule file's spelling of a technology or mail-provider name given in any case (unknown names
    are returned as given: they match nothing)."""
    names = (
        [r["name"] for r in rules().technologies]
        if kind == "technology"
        else [name for name, _ in rules().mail_providers]
    )
    return next((n for n in names if n.lower() == value.strip().lower()), value)


def is_shared_domain(registered_domain: str) -> bool:
    """A mailbox provider's or a platform's public domain (gmail.com, seznam.cz, facebook.com, …): its
    posture says nothing of the company that published an address on it."""
    # A platform on the Public Suffix List's private section (blogspot.com, …) makes each site its own
    # registrable domain (filmklubb.blogspot.com): the platform's posture all the same.
    labels = registered_domain.split(".")
    shared = rules().shared_domains
    return any(".".join(labels[i:]) in shared for i in range(len(labels) - 1))
