"""Public money (issue 20): the records the contract, tender and bank-account importers produce, and the
pure rules that decide how a record's party is linked to a company. No I/O.

Linking rule (docs/public-money.md, "Linking"): a party is linked by its national identifier when the
publisher gives one that is well-formed for the party's country and a company holds it; otherwise by name
and country through the resolver, and only when the resolver's score is at least `LINK_THRESHOLD`. The
threshold is above the resolver's own (0.8): a contract shown on the wrong company is worse than one left
unlinked, and the score is kept beside every link so a reader can judge it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

LINK_THRESHOLD = 0.9
LINK_BY_ID = "identifier"
LINK_BY_NAME = "name"


@dataclass(frozen=True)
class Org:
    """A party of a notice or contract as the publisher describes it."""

    ref: str  # the party's id inside its notice (ORG-0001) or its position in a contract record
    name: str
    country: str | None  # ISO 3166-1 alpha-2
    national_id: str | None = None  # as published (CompanyID, IČO)
    city: str | None = None
    address: str | None = None


@dataclass(frozen=True)
class TedLot:
    lot_id: str
    title: str | None
    cpv: str | None
    estimated_value: Decimal | None
    currency: str | None


@dataclass(frozen=True)
class TedAward:
    """One winner of one lot (a tendering party of several organisations gives one award each)."""

    lot_id: str
    winner: Org
    contract_ref: str | None
    contract_title: str | None
    signed_on: date | None
    value: Decimal | None
    currency: str | None
    group_lead: bool | None = None


@dataclass(frozen=True)
class TedNotice:
    notice_id: str  # BT-701, a UUID
    version: str | None
    publication_number: str | None  # BT-5, e.g. 00123456-2024, once TED has published the notice
    form: str  # ContractNotice, ContractAwardNotice, PriorInformationNotice
    notice_type: str | None  # BT-02: cn-standard, can-standard, veat, pin-only, …
    subtype: str | None  # notice subtype 1-40
    issue_date: date
    language: str | None
    title: str | None
    description: str | None
    procedure: str | None
    nature: str | None  # works | supplies | services
    cpv_main: str | None
    cpv_codes: tuple[str, ...]
    country: str | None  # the (first) buyer's country
    estimated_value: Decimal | None
    estimated_currency: str | None
    total_value: Decimal | None
    total_currency: str | None
    buyer_legal_type: str | None
    buyers: tuple[Org, ...] = ()
    lots: tuple[TedLot, ...] = ()
    awards: tuple[TedAward, ...] = ()

    @property
    def key(self) -> str:
        return self.notice_id

    def content_hash(self) -> str:
        return record_hash(self)


@dataclass(frozen=True)
class ContractRecord:
    """One record of the Czech register of contracts (one contract, its current version)."""

    contract_id: str  # idSmlouvy: stable across versions
    version_id: str  # idVerze: the web page of this version
    link: str
    published_at: datetime | None
    title: str | None
    signed_on: date | None
    number: str | None
    value_net: Decimal | None
    value_gross: Decimal | None
    foreign_value: Decimal | None
    foreign_currency: str | None
    valid: bool
    publisher: Org
    publisher_pays: bool | None  # subjekt/platce
    parties: tuple[tuple[Org, bool | None], ...] = ()  # (counterparty, prijemce flag)

    @property
    def key(self) -> str:
        return self.contract_id

    def content_hash(self) -> str:
        return record_hash(self)


@dataclass(frozen=True)
class CrzContract:
    """One contract (or amendment) of the Slovak central register of contracts (CRZ), its current state.

    The register names the ordering public body (`zs1`) and the supplier (`zs2`) of every record, so the
    supplier is the one party. Sums are in EUR: the contract's own (`suma_zmluva`) and the total with
    amendments (`suma_spolu`); the register does not say whether VAT is included."""

    contract_id: str  # ID: the record at crz.gov.sk/zmluva/{ID}/
    number: str | None  # nazov: the contract's own number as the body writes it
    title: str | None  # predmet
    kind: str | None  # typ: contract | amendment
    signed_on: date | None  # datum
    effective_on: date | None  # datum_ucinnost
    valid_until: date | None  # datum_platnost_do
    published_on: date | None  # datum_zverejnene
    value: Decimal | None  # suma_zmluva, 0 read as not stated
    value_total: Decimal | None  # suma_spolu, 0 read as not stated
    buyer: Org
    supplier: Org
    valid: bool  # stav 3 (cancelled) removes the contract
    link: str

    @property
    def key(self) -> str:
        return self.contract_id

    @property
    def version_id(self) -> str:
        # CRZ records carry no version number: every change replaces the stored record.
        return ""

    @property
    def parties(self) -> tuple[tuple[Org, bool | None], ...]:
        return ((self.supplier, True),)

    def content_hash(self) -> str:
        return record_hash(self)


@dataclass(frozen=True)
class BankAccountRecord:
    """The published bank accounts and reliability status of one VAT payer."""

    country: str
    vat_id: str  # as the register keys it (CZ12345678, PL NIP)
    national_id: str | None  # the company's register number derived from the VAT id, when it is one
    status: str  # reliable | unreliable | not_found | active | exempt | not_registered
    status_since: date | None
    tax_office: str | None
    name: str | None
    answered_on: date | None
    accounts: tuple[tuple[str | None, str, date | None, date | None], ...] = ()
    # (IBAN or None when the account is not an IBAN, account as published, published from, published until)

    @property
    def key(self) -> str:
        return f"{self.country}:{self.vat_id}"

    def content_hash(self) -> str:
        return record_hash(self)


@dataclass(frozen=True)
class PayerList:
    """A complete published list of VAT payers' accounts (the Slovak export), yielded before its payers:
    a list older than the one stored is refused whole, and the payers of its source and country that it
    no longer names (and that no newer answer stored) are removed with their accounts. A partial answer
    (one API search) yields none."""

    country: str
    as_of: date
    vat_ids: frozenset[str]


def newer_answer_stored(stored: date | None, incoming: date | None) -> bool:
    """An answer older than the stored one never replaces it (replaying an old list or SOAP answer does
    not roll a payer's accounts back); an undated answer replaces only an undated one."""
    if stored is None:
        return False
    return incoming is None or incoming < stored


def record_hash(record: Any) -> str:
    """A stable digest of a record's content: the same input gives the same hash, so a re-import is
    recognised and writes nothing. The dataclasses' repr lists every field in order, with exact values
    (Decimal, date), so it is the content; `asdict` + JSON cost ten times more per record (profiled)."""
    return hashlib.sha256(repr(record).encode()).hexdigest()[:32]


def contract_role(prijemce: bool | None, any_flagged: bool) -> str:
    """The role of a counterparty of a Czech register record. The register does not say who supplies:
    `prijemce` marks a party as the recipient of the payment (the supplier). Without any flag in the
    record the direction is unknown: the party is a `counterparty` of the publishing body."""
    if prijemce:
        return "supplier"
    return "party" if any_flagged else "counterparty"


@dataclass
class LinkDecision:
    company_id: int | None
    method: str | None
    score: float | None
    candidates: list[dict[str, Any]] = field(default_factory=list)


def accept_name_match(score: float, same_country: bool, threshold: float = LINK_THRESHOLD) -> bool:
    """A name match links only at or above the threshold and within the party's own country."""
    return same_country and score >= threshold
