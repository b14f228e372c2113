"""The records the legal-records importers produce (court decisions, antitrust cases, integrated
permits, Czech collection-of-laws entries): frozen values, no I/O. Each has a stable key within its
source and a content hash, so a re-import of the same record writes nothing."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import orjson


def content_hash(value: Any) -> str:
    """MD5 of the record's canonical JSON (a change detector, not a security measure)."""
    body = orjson.dumps(asdict(value), option=orjson.OPT_SORT_KEYS, default=str)
    return hashlib.md5(body, usedforsecurity=False).hexdigest()


@dataclass(frozen=True)
class Party:
    """A legal person a record names, as the publisher writes it."""

    name: str
    national_id: str | None = None  # IČO as published (normalised when well-formed)
    country: str | None = None
    role: str | None = None
    address: str | None = None


@dataclass(frozen=True)
class CourtDecision:
    guid: str
    court_id: str | None
    court_name: str
    judge: str | None
    file_ref: str | None  # spisová značka
    identifier: str | None  # identifikačné číslo spisu
    ecli: str | None
    decided_on: date | None
    form: str | None  # rozsudok, uznesenie, platobný rozkaz, …
    nature: str | None  # prvotné, konečné, …
    area: str | None
    subarea: str | None
    regulations: tuple[str, ...]
    document_url: str | None
    parties: tuple[Party, ...]


@dataclass(frozen=True)
class Ruling:
    """One instance's word on an antitrust decision (the council of the office, a court)."""

    instance: str
    decided_on: date | None
    outcome: str
    reference: str | None = None


@dataclass(frozen=True)
class AntitrustCase:
    case_ref: str  # spisová značka / číslo rozhodnutia, unique per source
    kind: str  # cartel | merger | abuse | state_aid | other
    title: str | None
    decided_on: date | None
    final_on: date | None  # právoplatnosť
    verdict: str | None
    fine: Decimal | None
    currency: str | None
    link: str | None
    parties: tuple[Party, ...]
    rulings: tuple[Ruling, ...]


@dataclass(frozen=True)
class Permit:
    number: str
    kind: str | None
    issued_on: date | None
    final_on: date | None
    link: str | None


@dataclass(frozen=True)
class IpkzInstallation:
    installation_id: str
    name: str
    operator: Party
    address: str | None
    municipality: str | None
    activity_code: str | None
    activity: str | None
    latitude: float | None
    longitude: float | None
    inspections: int
    inspections_with_findings: int
    last_inspection_on: date | None
    link: str | None
    permits: tuple[Permit, ...]


@dataclass(frozen=True)
class SbirkaAct:
    iri: str
    number: int
    year: int
    act_type: str | None
    title: str
    promulgated_on: date | None
    effective_on: date | None
    link: str
    mentions: tuple[Party, ...]  # legal persons the act's text names (by IČO)
    excerpts: tuple[str, ...]  # the sentence that names each mention, in the same order


def ecli_ok(value: str) -> bool:
    """ECLI:<country>:<court>:<year>:<ordinal> (Council conclusions 2011/C 127/01)."""
    parts = value.split(":")
    return len(parts) == 5 and parts[0] == "ECLI" and len(parts[1]) == 2 and parts[3].isdigit()
