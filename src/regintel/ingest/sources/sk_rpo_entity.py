"""One RPO entity (a search result or a full `/rpo/v1/entity/{id}` object) as a CompanyRecord.

Only values in force are mapped (see `sk_rpo_values.current`); the change history the register
keeps is not copied, because our change log records changes from the imports on.
"""

from __future__ import annotations

import re

from regintel.domain.names import fold
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError
from regintel.ingest.fields import Address, seat
from regintel.ingest.sources.sk_rpo_roles import roles
from regintel.ingest.sources.sk_rpo_values import Json, current, day, in_force, item, text

SLOVAKIA = "703"  # ISO 3166-1 numeric, as RPO codes countries (code list CL000086)

# The Commercial Code makes a company in liquidation trade with the suffix "v likvidácii", and the
# Bankruptcy Act one in bankruptcy with "v konkurze"; RPO keeps them in the registered name.
_LIQUIDATION = re.compile(r"\bv\s+likvidacii\b")
_BANKRUPTCY = re.compile(r"\bv\s+konkurze\b")


def to_company(entity: Json) -> CompanyRecord:
    """The company record of one entity; `RecordError` when it has no IČO or no name in force."""
    ico = text(current(entity, "identifiers"), "value", "identifiers.value")
    if not ico:
        raise RecordError("no IČO in force in identifiers")
    name = text(current(entity, "fullNames"), "value", "fullNames.value")
    if not name:
        raise RecordError(f"{ico}: no name in force in fullNames")
    terminated = day(entity.get("termination"), "termination")
    record_id = text(entity, "id")
    published_on = day(entity.get("dbModificationDate"), "dbModificationDate")
    founded_on = day(entity.get("establishment"), "establishment")
    held = roles(entity)
    form = item(current(entity, "legalForms"), "value")
    legal_form = text(form, "code", "legalForms.value.code")  # ŠÚ SR code list CL000056
    legal_form_name = text(form, "value", "legalForms.value.value")
    nace = _activity(entity)
    in_liquidation, in_bankruptcy, in_restructuring = _insolvency(entity, name)
    return CompanyRecord(
        country="SK",
        national_id=ico,
        name=name,
        source_record_id=record_id,
        published_on=published_on,
        legal_form=legal_form,
        legal_form_name=legal_form_name,
        status="dissolved" if terminated else "active",
        founded_on=founded_on,
        dissolved_on=terminated,
        nace_primary=nace,
        nace_codes=(nace,) if nace else None,
        in_bankruptcy=in_bankruptcy,
        in_restructuring=in_restructuring,
        in_liquidation=in_liquidation,
        identifiers=_register_numbers(entity),
        roles=None if held is None else tuple(held),
        **_address(current(entity, "addresses")),
    )


def _address(address: Json | None) -> Address:
    """The seat in force: street line, postcode, city, municipality and district codes, and its text."""
    if address is None:
        return {}
    municipality = item(address, "municipality")
    city = text(municipality, "value", "municipality.value")
    street = text(address, "street")
    reg = text(address, "regNumber")
    reg = None if reg in ("0", None) else reg  # 0 = no súpisné číslo
    building = text(address, "buildingNumber")
    number = f"{reg}/{building}" if reg and building else building or reg
    # Villages without street names number their houses after the village ("Jakubov 123").
    line = " ".join(p for p in (street or (city if number else None), number) if p) or None
    postal = series_first(address, "postalCodes")
    postal_code = postal.replace(" ", "") if postal else None
    municipality_code = text(municipality, "code", "municipality.code")
    district_code = text(item(address, "district"), "code", "district.code")
    country = item(address, "country")
    abroad = (
        text(country, "value", "country.value") if text(country, "code") not in (None, SLOVAKIA) else None
    )
    return seat(
        line, postal_code, city, abroad, municipality_code=municipality_code, district_code=district_code
    )


def series_first(node: Json, key: str) -> str | None:
    values = node.get(key)
    if values is None:
        return None
    if not isinstance(values, list) or not all(isinstance(v, (str, int)) for v in values):
        raise RecordError(f"{key} is not a list of codes")
    if not values:
        return None
    return str(values[0]).strip() or None


def _activity(entity: Json) -> str | None:
    """SK NACE Rev. 2 (5 digits, code list CL005205) of the main activity the Statistical Office
    assigned; kept as published."""
    codes = entity.get("statisticalCodes")
    if codes is None:
        return None
    if not isinstance(codes, dict):
        raise RecordError("statisticalCodes is not an object")
    return text(item(codes, "mainActivity"), "code", "statisticalCodes.mainActivity.code") or None


def _insolvency(entity: Json, name: str) -> tuple[bool | None, bool | None, bool | None]:
    """(liquidation, bankruptcy, restructuring) from the name suffixes and the legal statuses in
    force. RPO only ever states that a proceeding is on; it never states that none is, so no flag is
    cleared here (None)."""
    statuses = [
        fold(text(item(s, "value"), "value", "legalStatuses.value") or "")
        for s in in_force(entity, "legalStatuses")
    ]
    folded = fold(name)
    liquidation = True if _LIQUIDATION.search(folded) or any("likvidaci" in s for s in statuses) else None
    bankruptcy = True if _BANKRUPTCY.search(folded) or any("konkurz" in s for s in statuses) else None
    # A declared bankruptcy ends a restructuring, so the restructuring flag is only set alone.
    restructuring = True if not bankruptcy and any("restrukturaliz" in s for s in statuses) else None
    return liquidation, bankruptcy, restructuring


def _register_numbers(entity: Json) -> tuple[tuple[str, str], ...]:
    """The number in the source register (Commercial Register file "Sa/426/B", trade licence
    number …), searchable as identifier type `register_number`."""
    register = entity.get("sourceRegister")
    if register is None:
        return ()
    if not isinstance(register, dict):
        raise RecordError("sourceRegister is not an object")
    number = text(current(register, "registrationNumbers"), "value", "registrationNumbers.value")
    return (("register_number", number[:64]),) if number else ()
