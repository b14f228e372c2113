"""Records that source parsers produce and the loader writes: frozen dataclasses, so a record is
whole when built and a changed copy is `dataclasses.replace`; the loader changes no record (it
normalises keys into copies). `CompanyRecord` carries its lists as tuples for the same reason.

A field left `None` means "this source says nothing about it": the loader never erases a value
because a source does not carry it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal


@dataclass(frozen=True)
class CompanyKey:
    country: str
    national_id: str


@dataclass(frozen=True)
class PersonRecord:
    name: str
    birth_date: str | None = None  # "YYYY", "YYYY-MM" or "YYYY-MM-DD": registers publish partial dates
    nationality: str | None = None
    country_of_residence: str | None = None


@dataclass(frozen=True)
class RoleRecord:
    role: str  # director | shareholder | beneficial_owner | statutory_body | auditor | …
    holder_name: str
    person: PersonRecord | None = None
    holder_company: CompanyKey | None = None
    title: str | None = None
    share_pct: float | None = None
    voting_pct: float | None = None
    natures_of_control: list[str] | None = None
    since: date | None = None
    until: date | None = None
    # A holder known only by name: the country (ISO alpha-2) and register number its source gives.
    holder_reg_country: str | None = None
    holder_reg_number: str | None = None


@dataclass(frozen=True)
class FinancialRecord:
    year: int
    currency: str
    period_from: str | None = None
    period_to: str | None = None
    revenue: Decimal | None = None
    profit: Decimal | None = None
    total_assets: Decimal | None = None
    equity: Decimal | None = None
    liabilities: Decimal | None = None
    employees: int | None = None
    current_assets: Decimal | None = None
    current_liabilities: Decimal | None = None
    retained_earnings: Decimal | None = None
    ebit: Decimal | None = None  # operating result (earnings before interest and taxes)
    statement_type: str | None = None
    source_record_id: str | None = None


@dataclass(frozen=True, slots=True)
class CompanyRecord:
    country: str
    national_id: str
    name: str | None = None
    source_record_id: str | None = None
    published_on: date | None = None
    legal_form: str | None = None
    legal_form_name: str | None = None
    status: str | None = None  # active | dissolved | inactive
    founded_on: date | None = None
    dissolved_on: date | None = None
    street: str | None = None
    city: str | None = None
    postal_code: str | None = None
    address_text: str | None = None
    region_code: str | None = None
    district_code: str | None = None
    municipality_code: str | None = None
    nuts3: str | None = None
    nace_primary: str | None = None
    nace_codes: tuple[str, ...] | None = None
    size_class: str | None = None
    employees: int | None = None
    vat_id: str | None = None
    tax_id: str | None = None
    lei: str | None = None
    in_bankruptcy: bool | None = None
    in_restructuring: bool | None = None
    in_liquidation: bool | None = None
    identifiers: tuple[tuple[str, str], ...] = ()
    roles: tuple[RoleRecord, ...] | None = None  # None: the source says nothing about roles
    financials: tuple[FinancialRecord, ...] = ()

    @property
    def key(self) -> CompanyKey:
        return CompanyKey(self.country, self.national_id)


@dataclass(frozen=True)
class OwnershipRecord:
    """A company-to-company edge, by national key or by LEI (resolved by the loader)."""

    parent: CompanyKey | None = None
    child: CompanyKey | None = None
    parent_lei: str | None = None
    child_lei: str | None = None
    kind: str = "direct"  # direct | ultimate
    share_pct: float | None = None
    since: date | None = None
    until: date | None = None


@dataclass(frozen=True)
class LeiRecord:
    lei: str
    legal_name: str
    registration_status: str
    company: CompanyKey | None = None
    entity_status: str | None = None
    entity_category: str | None = None
    legal_form: str | None = None
    ra_code: str | None = None
    ra_entity_id: str | None = None
    country: str | None = None
    jurisdiction: str | None = None
    city: str | None = None
    managing_lou: str | None = None
    validation_sources: str | None = None
    conformity_flag: str | None = None
    initial_registration: datetime | None = None
    last_update: datetime | None = None
    next_renewal: datetime | None = None


@dataclass(frozen=True)
class LeiRelationshipRecord:
    child_lei: str
    parent_lei: str
    kind: str
    status: str | None = None
    registration_status: str | None = None
    share_pct: float | None = None
    start_date: str | None = None
    end_date: str | None = None


@dataclass(frozen=True)
class ReportingExceptionRecord:
    lei: str
    category: str
    reason: str
    reference: str | None = None


@dataclass(frozen=True)
class RegistrationAuthorityRecord:
    """An entry of GLEIF's registration-authorities list: what an LEI record's RA code stands for."""

    code: str
    country: str | None = None
    jurisdiction: str | None = None
    register_name: str | None = None
    register_name_local: str | None = None
    organisation: str | None = None
    website: str | None = None


@dataclass(frozen=True)
class StatementRecord:
    """Financial statements published apart from their company's record (RÚZ files statements and
    reports separately from the accounting unit). The company is named by its national id or, when
    the record does not carry it, by `ref`: an identifier (type, value) an earlier record stored on
    it. The loader resolves the company after the batch's companies are written, so it may come
    earlier in the same file or from an earlier import. A field left None keeps what an earlier
    record of the same statement (company, year) said, so a header and its figures may arrive apart."""

    country: str
    financials: list[FinancialRecord]
    national_id: str | None = None
    ref: tuple[str, str] | None = None


@dataclass(frozen=True)
class InsolvencyEventRecord:
    """A gazette notice that starts or ends a company's bankruptcy, restructuring or liquidation.

    The loader stores it once per (source, notice_id) and moves the company's insolvency flags when
    the notice is the newest known one of its kind for the company (see `domain.insolvency_events`).
    `debtor` carries the name and address the notice gives: the company is created from it only when
    it is not in the database yet (flags and provenance are all a notice says about a known company).
    """

    country: str
    national_id: str
    event_type: str  # bankruptcy | restructuring | liquidation
    phase: str  # start | end
    event_date: date
    notice_id: str
    title: str
    published_on: date | None = None
    decision_date: date | None = None
    court: str | None = None
    case_number: str | None = None
    reference: str | None = None  # where it was published: "Obchodný vestník 45/2024, K012345"
    link: str | None = None
    summary: str | None = None
    trustee: str | None = None
    debtor: CompanyRecord | None = None


Record = (
    CompanyRecord
    | OwnershipRecord
    | LeiRecord
    | LeiRelationshipRecord
    | ReportingExceptionRecord
    | RegistrationAuthorityRecord
    | StatementRecord
    | InsolvencyEventRecord
)
