"""Records of the funds sources (EU cohesion projects, the Commission's Financial Transparency System,
CORDIS, Czech subsidies, State aid awards) and the cell readers their CSV parsers share. No I/O.

Every source hands the funds area (`regintel.areas.funds.importing`) one of three records: an `Award`
(one beneficiary of one grant, project, subsidy or aid award), a `CordisProject` or a
`CordisParticipation`. Amounts are major units (`Decimal`) with their currency beside them."""

from __future__ import annotations

import hashlib
import re
from dataclasses import astuple, dataclass
from datetime import date, datetime
from decimal import Decimal

import pycountry
from babel.numbers import NumberFormatError, parse_decimal

from regintel.ingest.base import RecordError

KINDS = ("eu_project", "cz_subsidy", "state_aid")
# Codes the EU's own datasets use where ISO 3166-1 has another (CORDIS, FTS: Greece EL, United Kingdom UK).
EU_COUNTRY_CODES = {"EL": "GR", "UK": "GB"}


@dataclass(frozen=True)
class Beneficiary:
    """A recipient as the publisher names it."""

    name: str
    country: str | None  # ISO 3166-1 alpha-2
    national_id: str | None = None  # register number as published (IČO, TAM "National ID")
    vat: str | None = None  # VAT number with its member-state prefix
    city: str | None = None


@dataclass(frozen=True)
class Award:
    """One beneficiary of one EU project, Czech subsidy or State aid award."""

    kind: str  # one of KINDS
    record_key: str  # unique within its source
    beneficiary: Beneficiary
    title: str | None
    currency: str  # ISO 4217
    amount: Decimal | None = None  # total: project budget, contracted amount, approved subsidy, nominal aid
    eu_amount: Decimal | None = None  # the EU's contribution
    aid_element: Decimal | None = None  # State aid: the gross grant equivalent
    programme: str | None = None
    fund: str | None = None  # ERDF, ESF+, CF …; a subsidy's financial source; an aid's instrument
    granting_body: str | None = None
    measure: str | None = None  # State aid: SA number
    measure_type: str | None = None  # State aid: GBER | ABER | FIBER | Notified …
    objective: str | None = None
    region: str | None = None  # NUTS code or name
    nace: str | None = None
    year: int | None = None
    granted_on: date | None = None
    start_on: date | None = None
    end_on: date | None = None
    link: str | None = None

    def content_hash(self) -> str:
        return _digest(self)


@dataclass(frozen=True)
class CordisProject:
    project_id: str  # the grant agreement number
    acronym: str | None
    title: str
    status: str | None
    framework: str  # H2020 | HORIZON
    funding_scheme: str | None
    legal_basis: str | None
    start_on: date | None
    end_on: date | None
    signed_on: date | None
    total_cost: Decimal | None
    ec_max_contribution: Decimal | None

    def content_hash(self) -> str:
        return _digest(self)


@dataclass(frozen=True)
class CordisParticipation:
    project_id: str
    organisation_id: str  # the PIC
    beneficiary: Beneficiary
    role: str  # coordinator | participant | partner | associatedPartner | thirdParty
    sme: bool | None
    activity_type: str | None  # PRC private company, HES higher education, REC research, PUB, OTH
    ec_contribution: Decimal | None
    net_ec_contribution: Decimal | None
    total_cost: Decimal | None
    ended: bool

    def content_hash(self) -> str:
        return _digest(self)


def _digest(record: Award | CordisProject | CordisParticipation) -> str:
    return hashlib.md5(repr(astuple(record)).encode(), usedforsecurity=False).hexdigest()


def text(value: str | None) -> str | None:
    """The cell with whitespace collapsed, or None when empty."""
    return " ".join((value or "").split()) or None


def amount(value: str | None, locale: str) -> Decimal | None:
    """A number as the publisher writes it in `locale` (CORDIS and DotInfo use a decimal comma);
    grouping spaces are dropped first (Czech groups with a no-break space)."""
    raw = re.sub(r"\s", "", value or "")
    if not raw:
        return None
    try:
        return parse_decimal(raw, locale=locale)
    except NumberFormatError:
        raise RecordError(f"{value!r} is not an amount") from None


def day(value: str | None, formats: tuple[str, ...] = ("%Y-%m-%d",)) -> date | None:
    raw = (value or "").strip()
    if not raw:
        return None
    for fmt in formats:
        try:
            return datetime.strptime(raw[:10] if fmt == "%Y-%m-%d" else raw, fmt).date()
        except ValueError:
            continue
    raise RecordError(f"{value!r} is not a date")


def country(value: str | None) -> str | None:
    """ISO 3166-1 alpha-2 from a code (EL and UK as the EU writes them) or an English name; None for a
    value that names no country (FTS writes regions such as "Third countries")."""
    raw = (value or "").strip()
    if not raw:
        return None
    upper = raw.upper()
    if upper in EU_COUNTRY_CODES:
        return EU_COUNTRY_CODES[upper]
    try:
        return str(pycountry.countries.lookup(raw).alpha_2)
    except LookupError:
        return None


def currency(value: str | None, default: str) -> str:
    raw = (value or "").strip().upper()
    if not raw:
        return default
    if pycountry.currencies.get(alpha_3=raw) is None:
        raise RecordError(f"{value!r} is not an ISO 4217 currency")
    return raw
