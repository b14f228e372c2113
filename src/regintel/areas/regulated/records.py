"""What the supervisory and licensing registers publish, as the importers hand it to the loader: one
authorisation or licence of an entity (`Authorisation`) or one licensed professional (`Professional`).

Pure values (no I/O): the source modules in `ingest/sources/` build them, `loading` stores them. The
content hash is what a re-import compares, so the same row again writes nothing."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from datetime import date

SECTORS = ("financial", "energy", "trust")
ROLES = ("lawyer", "notary", "bailiff", "expert", "interpreter", "translator", "tax_adviser")
STATUSES = ("active", "suspended", "ended")


def _digest(value: Authorisation | Professional) -> str:
    return hashlib.sha256(
        json.dumps(
            asdict(value),
            sort_keys=True,
            default=str,
            ensure_ascii=False,
        ).encode()
    ).hexdigest()


@dataclass(frozen=True)
class Authorisation:
    """One licence or authorisation of an entity, as one register row states it."""

    source: str
    country: str  # ISO 3166-1 alpha-2 of the register
    sector: str  # one of SECTORS (trust: a service of a trusted list, areas/regulated/trusted_lists.py)
    record_key: str  # the publisher's key of the row (licence number, or entity id + licence type)
    name: str
    national_id: str | None  # IČO as published, normalised by the source
    address: str | None
    city: str | None
    licence_type: str  # as published (ČNB "Banka", ERÚ "11", ÚRSO "elektroenergetika - výroba")
    category: str  # normalised (rules.FINANCIAL_CATEGORIES or rules.ENERGY_ACTIVITIES)
    status: str  # one of STATUSES
    status_text: str | None  # as published
    licence_number: str | None = None
    granted_on: date | None = None
    valid_until: date | None = None
    ended_on: date | None = None

    def content_hash(self) -> str:
        return _digest(self)


@dataclass(frozen=True)
class Professional:
    """One licensed professional (a natural person) as a chamber's or the ministry's list shows them,
    with the firm they practise through when the list names one."""

    source: str
    country: str
    role: str  # one of ROLES
    record_key: str  # registration number in the list
    name: str
    title: str | None
    specialisation: str | None  # an expert's field, an interpreter's language
    status: str  # one of STATUSES
    since: date | None
    firm_name: str | None
    firm_national_id: str | None
    address: str | None
    city: str | None
    phone: str | None
    email: str | None
    website: str | None

    def content_hash(self) -> str:
        return _digest(self)
