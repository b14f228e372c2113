"""The properties reconciliation clients can match on and fetch (data extension), and how each
company value is written in the 0.2 value forms (`str`, `int`, `float`, `date`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from regintel.areas.search.schemas import PropertyValue, ReconType
from regintel.areas.search.service import address_text

TYPE: ReconType = {"id": "company", "name": "Company"}

Getter = Callable[[Mapping[str, Any]], list[PropertyValue]]


def _str(column: str) -> Getter:
    def get(row: Mapping[str, Any]) -> list[PropertyValue]:
        value = row[column]
        return [{"str": str(value)}] if value not in (None, "") else []

    return get


def _flag(column: str) -> Getter:
    # 0.2 has no boolean value form: flags are written "true"/"false"
    return lambda row: [{"str": "true" if row[column] else "false"}]


def _date(column: str) -> Getter:
    def get(row: Mapping[str, Any]) -> list[PropertyValue]:
        value = row[column]
        if isinstance(value, str):
            value = date.fromisoformat(value[:10])
        return [{"date": f"{value.isoformat()}T00:00:00Z"}] if isinstance(value, date) else []

    return get


def _address(row: Mapping[str, Any]) -> list[PropertyValue]:
    text = address_text(row)
    return [{"str": text}] if text else []


# id → (name, description, getter); ids are also the `pid`s accepted as query constraints
PROPERTIES: dict[str, tuple[str, str, Getter]] = {
    "name": ("Name", "Registered name", _str("name")),
    "country": ("Country", "ISO 3166-1 alpha-2 country of registration", _str("country")),
    "national_id": ("National identifier", "Register number (IČO in SK and CZ)", _str("national_id")),
    "ico": ("IČO", "Same as national_id", _str("national_id")),
    "legal_form": ("Legal form", "Legal form code", _str("legal_form")),
    "legal_form_name": ("Legal form name", "Legal form in words", _str("legal_form_name")),
    "status": ("Status", "active, dissolved or inactive", _str("status")),
    "address": ("Address", "Registered address", _address),
    "city": ("City", "Town of the registered address", _str("city")),
    "postal_code": ("Postal code", "Postal code of the registered address", _str("postal_code")),
    "nace": ("NACE", "Primary NACE activity code", _str("nace_primary")),
    "lei": ("LEI", "Legal Entity Identifier (ISO 17442)", _str("lei")),
    "vat": ("VAT id", "VAT identification number with country prefix", _str("vat_id")),
    "tax_id": ("Tax id", "Tax identification number (DIČ)", _str("tax_id")),
    "founded_on": ("Founded on", "Date of registration", _date("founded_on")),
    "inBankruptcy": ("In bankruptcy", "Bankruptcy declared (true/false)", _flag("in_bankruptcy")),
    "inRestructuring": (
        "In restructuring",
        "Restructuring under way (true/false)",
        _flag("in_restructuring"),
    ),
    "inLiquidation": ("In liquidation", "Liquidation under way (true/false)", _flag("in_liquidation")),
}


def property_values(pid: str, row: Mapping[str, Any]) -> list[PropertyValue]:
    entry = PROPERTIES.get(pid)
    return entry[2](row) if entry else []
