"""The filters of `/companies/advanced-search` (+ `.csv`) and `/companies/stats/breakdown`.

One model: its field descriptions are the OpenAPI parameter descriptions and the filter table of
docs/advanced-search.md (a test keeps the two equal). Filters AND together; a list filter ORs its
values (`country=SK&country=CZ` or `country=SK,CZ`).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
)

# Amounts and dates are taken exactly as the OpenAPI document states them (issue 16: schemathesis found
# `revenue_min=z` refused although the document allowed any string, and `updated_since=0` taken as a Unix
# time although the document asked for an RFC 3339 date-time). A query value is a JSON number, a date
# YYYY-MM-DD or an RFC 3339 date-time with its zone (no leap second: Python cannot represent one), and
# the document says so with a pattern beside the format.
NUMBER_PATTERN = r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"
_DAY = "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
DATE_PATTERN = f"^{_DAY}$"
_ZONE = "(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
DATETIME_PATTERN = f"^{_DAY}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]([.][0-9]{{1,6}})?{_ZONE}$"
MAX_AMOUNT = 10**15
_DATE_SCHEMA = {"type": "string", "format": "date", "pattern": DATE_PATTERN}
_DATETIME_SCHEMA = {"type": "string", "format": "date-time", "pattern": DATETIME_PATTERN}


def _number(value: Any) -> Any:
    if isinstance(value, bool) or (isinstance(value, str) and not re.fullmatch(NUMBER_PATTERN, value)):
        raise ValueError("a number is written as in JSON (`1500000`, `-2.5`, `1e6`)")
    return value


def _day(value: Any) -> Any:
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not re.fullmatch(DATE_PATTERN, value):
        raise ValueError("a date is written YYYY-MM-DD")
    return value


def _moment(value: Any) -> Any:
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not (
        re.fullmatch(DATE_PATTERN, value) or re.fullmatch(DATETIME_PATTERN, value)
    ):
        raise ValueError("a date YYYY-MM-DD or an RFC 3339 date-time with its zone (`2026-01-01T00:00:00Z`)")
    if len(value) == 10:  # a date alone is that day's midnight in UTC (kept with its zone when stored)
        return datetime.combine(date.fromisoformat(value), time(), tzinfo=UTC)
    return value


def _in_utc(value: datetime) -> datetime:
    """The moment in UTC; one that UTC cannot hold (`0001-01-01T00:00:00+01:00`, a year-9999 time west of
    Greenwich) is the earliest or latest moment there is, which every record follows or none reaches."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        return (datetime.min if value.year == 1 else datetime.max).replace(tzinfo=UTC)


Money = Annotated[
    Decimal,
    Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT),
    BeforeValidator(_number),
    WithJsonSchema({"type": "number", "minimum": -MAX_AMOUNT, "maximum": MAX_AMOUNT}),
]
Day = Annotated[date, BeforeValidator(_day), WithJsonSchema(_DATE_SCHEMA)]
Moment = Annotated[
    datetime,
    BeforeValidator(_moment),
    AfterValidator(_in_utc),
    WithJsonSchema({"anyOf": [_DATETIME_SCHEMA, _DATE_SCHEMA]}),
]
# A code is never empty: `district=` would be a filter that silently matches nothing (schemathesis).
Code = Annotated[str, Field(min_length=1)]
Codes = Annotated[list[Code] | None, Field(default=None)]
Flag = Annotated[bool | None, Field(default=None)]
Amount = Annotated[Money | None, Field(default=None)]
MAX_VALUES = 50
FIN = (
    "of the latest financial statement (major units, in that statement's `currency`: combine with `currency` "
    "or `country` to compare like with like)"
)


def _f(description: str, group: str, **kwargs: Any) -> Any:
    return Field(default=None, description=description, json_schema_extra={"x-filter-group": group}, **kwargs)


class CompanyFilters(BaseModel):
    model_config = ConfigDict(extra="forbid")

    country: Codes = _f("ISO 3166-1 alpha-2 countries, any case", "identity")
    status: Codes = _f("Register status: `active`, `dissolved`, `inactive`", "identity")
    legal_form: Codes = _f(
        "National legal-form codes as the register writes them (`112`, `5710`, `AS`, `ltd`)", "identity"
    )
    name_contains: str | None = _f(
        "Part of the name, ignoring case, diacritics, punctuation and legal-form words "
        "(`stavby` finds `STAVBY Žilina s.r.o.`); at least 2 letters",
        "identity",
        min_length=2,
        max_length=100,
    )
    source: Codes = _f("Data-source ids the company was seen in (`/public/data-sources`)", "identity")
    in_bankruptcy: Flag = _f("1: in bankruptcy now; 0: not", "insolvency")
    in_restructuring: Flag = _f("1: in restructuring now; 0: not", "insolvency")
    in_liquidation: Flag = _f(
        "1: in liquidation now (a normal way to close, not an insolvency); 0: not", "insolvency"
    )
    insolvent: Flag = _f("1: in bankruptcy or restructuring; 0: in neither", "insolvency")
    nace: Codes = _f(
        "NACE activity at any level: section letter (`J`), division (`62`), group (`62.0`), "
        "class (`62.01`) or national subclass prefix (`62010`); dots optional. The company's primary "
        "activity when it has one; any of its listed activities when its register names no primary one "
        "(ONRC)",
        "activity",
    )
    size_class: Codes = _f(
        "Headcount bands as published (`10-19`) or EU size classes `micro`, `small`, "
        "`medium`, `large` (by headcount)",
        "activity",
    )
    employees_min: int | None = _f(
        "At least this many employees (the register's headcount)", "activity", ge=0
    )
    employees_max: int | None = _f("At most this many employees (the register's headcount)", "activity", ge=0)
    region: Codes = _f(
        "Region codes as the register writes them (Slovak kraj `1`-`8`, Czech kraj, …)", "location"
    )
    district: Codes = _f("District codes (Slovak okres, …)", "location")
    municipality: Codes = _f("Municipality codes (Slovak/Czech/French commune codes, …)", "location")
    nuts2: Codes = _f("NUTS 2 regions (`SK01`)", "location")
    nuts3: Codes = _f("NUTS 3 regions (`SK010`)", "location")
    postal_code: str | None = _f(
        "Postal code prefix as the register writes it (`811`, `SW1A 1`), any case",
        "location",
        min_length=1,
        max_length=16,
    )
    city: str | None = _f(
        "City, exact but ignoring case (`bratislava`)", "location", min_length=1, max_length=100
    )
    founded_from: Day | None = _f("Founded on or after (YYYY-MM-DD)", "dates")
    founded_to: Day | None = _f("Founded on or before", "dates")
    dissolved_from: Day | None = _f("Dissolved on or after", "dates")
    dissolved_to: Day | None = _f("Dissolved on or before", "dates")
    updated_since: Moment | None = _f(
        "Record changed at or after: a date (midnight UTC) or an RFC 3339 date-time with its zone", "dates"
    )
    has_financials: Flag = _f("1: at least one financial statement; 0: none", "financials")
    financial_year_min: int | None = _f(
        "Latest financial statement is for this year or later", "financials", ge=1900, le=2100
    )
    currency: str | None = _f(
        "Currency of the latest financial statement (`EUR`, `CZK`)", "financials", pattern=r"^[A-Za-z]{3}$"
    )
    revenue_min: Amount = _f(f"Revenue at least, {FIN}", "financials")
    revenue_max: Amount = _f(f"Revenue at most, {FIN}", "financials")
    profit_min: Amount = _f(f"Profit (loss negative) at least, {FIN}", "financials")
    profit_max: Amount = _f(f"Profit at most, {FIN}", "financials")
    equity_min: Amount = _f(f"Equity at least, {FIN}", "financials")
    equity_max: Amount = _f(f"Equity at most, {FIN}", "financials")
    total_assets_min: Amount = _f(f"Total assets at least, {FIN}", "financials")
    total_assets_max: Amount = _f(f"Total assets at most, {FIN}", "financials")
    has_lei: Flag = _f("1: has an LEI; 0: none", "identifiers")
    lei_status: Codes = _f(
        "GLEIF registration status of its LEI: `ISSUED`, `LAPSED`, `RETIRED`, `DUPLICATE`, "
        "`PENDING_TRANSFER`, `PENDING_ARCHIVAL`, `ANNULLED`, `MERGED`",
        "identifiers",
    )
    vat_registered: Flag = _f("1: has a VAT id; 0: none", "identifiers")
    sanctioned: Flag = _f(
        "1: the company, an officer or an owner matches a sanctions-list entry (hits "
        "precomputed after each list import, docs/screening.md); 0: none",
        "compliance",
    )
    nis2_scope: str | None = _f(
        "NIS2 scoping `essential`, `important`, `out-of-scope`, as last computed by a "
        "sweep or the job `nis2.refresh` (docs/nis2.md); companies never assessed match "
        "none",
        "compliance",
        max_length=16,
    )

    @field_validator("*", mode="before")
    @classmethod
    def _split(cls, value: Any, info: Any) -> Any:
        """List filters take repeated parameters and comma-separated values alike."""
        annotation = cls.model_fields[info.field_name].annotation
        if isinstance(value, list) and "list" in str(annotation):
            if any(not str(v).strip() for v in value):  # `district=`: the document asks for a code
                raise ValueError("an empty value: give a code, or leave the parameter out")
            parts = [p.strip() for v in value for p in str(v).split(",") if p.strip()]
            if not parts:
                return None
            if len(parts) > MAX_VALUES:
                raise ValueError(f"at most {MAX_VALUES} values")
            if any(len(p) > 64 for p in parts):
                raise ValueError("a value is longer than 64 characters")
            return parts
        if value == "":
            # An empty value is refused rather than read as "not given": the document calls it invalid
            # for every typed filter, and a filter must never widen a result silently.
            raise ValueError("empty value: leave the parameter out instead")
        return value

    def active(self) -> dict[str, Any]:
        """The filters that were given."""
        return {k: v for k, v in self.model_dump().items() if v is not None}
