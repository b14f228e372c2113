"""Estonian e-Business Register open data: `ettevotja_rekvisiidid__osanikud.json`, the shareholders
(osanikud) of each entity; the layout, the roles it gives and the purpose gate are described in
`ee_ariregister_owners`, which reads the beneficial owners the same way."""

from __future__ import annotations

from typing import Any

from stdnum.ee import registrikood

from regintel.domain.types import CompanyKey, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError
from regintel.ingest.fields import text
from regintel.ingest.sources import register
from regintel.ingest.sources.ee_ariregister import dotted_date
from regintel.ingest.sources.ee_ariregister_owners import (
    OwnerListSource,
    birth_month,
    country_code,
    owner_file_info,
    owner_name,
)

INFO = owner_file_info(
    "ee_ariregister_shareholders",
    "e-äriregister – osanikud (shareholders)",
    "ettevotja_rekvisiidid__osanikud.json",
)


def shareholder(entry: dict[str, Any]) -> RoleRecord:
    kind = text(entry.get("isiku_tyyp"), "isiku_tyyp")
    if kind not in ("F", "J"):
        raise RecordError(f"isiku_tyyp is not F or J: {kind!r}")
    name = owner_name(entry, "nimi_arinimi")
    number = text(entry.get("isikukood_registrikood"), "isikukood_registrikood")
    person, holder, reg_country, reg_number = None, None, None, None
    if kind == "F":
        person = PersonRecord(name, birth_date=birth_month(entry, number))
    elif number and registrikood.is_valid(number):
        holder = CompanyKey("EE", registrikood.compact(number))
    elif text(entry.get("valis_kood"), "valis_kood"):
        reg_country = country_code(entry.get("valis_kood_riik"), "valis_kood_riik")
        reg_number = text(entry.get("valis_kood"), "valis_kood")
    return RoleRecord(
        "shareholder",
        name,
        person=person,
        holder_company=holder,
        title="Osanik",
        share_pct=_percent(entry.get("osaluse_protsent")),
        since=dotted_date(entry.get("algus_kpv"), "algus_kpv"),
        until=dotted_date(entry.get("lopp_kpv"), "lopp_kpv"),
        holder_reg_country=reg_country,
        holder_reg_number=reg_number,
    )


def _percent(value: Any) -> float | None:
    raw = text(value, "osaluse_protsent")
    if raw is None:
        return None
    try:
        share = float(raw.replace(",", "."))
    except ValueError:
        share = -1.0
    if not 0 <= share <= 100:
        raise RecordError(f"osaluse_protsent is not a percentage: {raw!r}")
    return share


SOURCE = register(OwnerListSource(INFO, "osanikud", shareholder))
