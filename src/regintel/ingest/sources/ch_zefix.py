"""Swiss central business name index (Zefix) of the Federal Registry of Commerce: company records as
ZefixPublicREST answers them (`CompanyFull` / `CompanyShort`, one object, a search result array or
JSON lines) and the older ZefixREST `firm` detail the Zefix web application reads (`{"list": [...]}`
search answers too).

Identifier: the UID (Unternehmens-Identifikationsnummer) `CHE-279.438.550`: CHE + 8 digits + a mod-11
check digit, given to every enterprise in Switzerland; python-stdnum's `ch.uid` checks it. The old
CH-ID (`chid`) and the internal `ehraid` are not national identifiers. The VAT number is the UID
with "MWST"/"TVA"/"IVA", but only for enterprises in the VAT register, which Zefix does not say: no
VAT id is derived.

Status: ACTIVE / EXISTIEREND is a registered company; BEING_CANCELLED / AUFGELOEST is a company that
has been dissolved and is being liquidated (the API describes it as "in liquidation"), so it is
active with `in_liquidation`; CANCELLED / GELOESCHT is deleted from the register (`dissolved`, with
the deletion date). Zefix does not tell a bankruptcy from another liquidation, so `in_bankruptcy`
and `in_restructuring` are never set.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, integer, iso_date, join, text
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.ch_zefix_codes import LEGAL_FORMS, STATUSES

INFO = SourceInfo(
    id="ch_zefix",
    name="Zefix – Central Business Name Index (Federal Registry of Commerce)",
    publisher="Eidgenössisches Amt für das Handelsregister (EHRA), Bundesamt für Justiz",
    country="CH",
    category="register",
    formats="ZefixPublicREST company JSON (CompanyFull/CompanyShort, arrays, JSON lines) and ZefixREST "
    "firm JSON",
    licence="OGD Switzerland: open use, must provide the source (opendata.swiss terms_by)",
    licence_url="https://opendata.swiss/en/terms-of-use#terms_by",
    attribution="Source: Zefix, Federal Registry of Commerce (EHRA), Federal Office of Justice",
    url="https://www.zefix.admin.ch/ZefixPublicREST",
    cadence="daily",
)
LIST_PATHS = ("list.item",)


class ZefixSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        first = True
        for obj in json_objects(stream, LIST_PATHS):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if first:
                if isinstance(obj, dict) and "error" in obj and "uid" not in obj:
                    raise SourceAbort(f"Zefix answered an error: {str(obj.get('error'))[:200]}")
                if not isinstance(obj, dict) or not {"uid", "ehraid"} <= obj.keys():
                    raise SourceAbort("not a Zefix company file (no uid / ehraid in the first record)")
                first = False
            if not isinstance(obj, dict):
                yield RecordError("a Zefix item is not an object", obj)
                continue
            try:
                yield to_record(obj)
            except RecordError as exc:
                exc.raw = obj
                yield exc


def to_record(obj: dict[str, Any]) -> CompanyRecord:
    uid = text(obj.get("uid"), "uid")
    if uid is None:
        raise RecordError(f"company without a UID (ehraid {obj.get('ehraid')!r})")
    raw_status = text(obj.get("status"), "status")
    if raw_status not in STATUSES:
        raise RecordError(f"status is not a Zefix status: {raw_status!r}")
    status, liquidating = STATUSES[raw_status]
    form_id, form_name = _legal_form(obj)
    known = LEGAL_FORMS.get(form_id) if form_id is not None else None
    municipality_code = text(obj.get("legalSeatId"), "legalSeatId")
    region_code = text(obj.get("canton"), "canton") or _canton_of_publications(obj)
    address = _address(obj.get("address"), text(obj.get("legalSeat"), "legalSeat"))
    address["municipality_code"], address["region_code"] = municipality_code, region_code
    record = CompanyRecord(
        country="CH",
        national_id=uid,
        name=text(obj.get("name"), "name"),
        source_record_id=uid,
        published_on=iso_date(obj.get("sogcDate") or obj.get("shabDate"), "sogcDate"),
        legal_form=str(form_id) if form_id is not None else None,
        legal_form_name=form_name or (known[0] if known else None),
        status=status,
        in_liquidation=liquidating and status == "active",
        dissolved_on=iso_date(obj.get("deletionDate") or obj.get("deleteDate"), "deletionDate"),
        identifiers=(("elf", known[1]),) if known else (),
        **address,
    )
    return record


def _legal_form(obj: dict[str, Any]) -> tuple[int | None, str | None]:
    form = obj.get("legalForm")
    if isinstance(form, dict):  # PublicREST: {id, uid, name {de, fr, it, en}, shortName}
        names = form.get("name")
        name = text(names.get("de"), "legalForm.name.de") if isinstance(names, dict) else None
        return integer(form.get("id"), "legalForm.id"), name
    if form is not None:
        raise RecordError(f"legalForm is not an object: {form!r}")
    return integer(obj.get("legalFormId"), "legalFormId"), None


def _canton_of_publications(obj: dict[str, Any]) -> str | None:
    """ZefixREST has no canton field; the cantonal registry office of its SOGC notices is the seat's."""
    pubs = obj.get("shabPub") or obj.get("sogcPub") or []
    if not isinstance(pubs, list):
        raise RecordError(f"shabPub is not a list: {pubs!r}"[:200])
    cantons = {
        p.get("registryOfficeCanton") or p.get("registryOfCommerceCanton")
        for p in pubs
        if isinstance(p, dict)
    }
    cantons.discard(None)
    return text(cantons.pop(), "registryOfficeCanton") if len(cantons) == 1 else None


def _address(address: Any, seat: str | None) -> Address:
    if address is None:
        return {"city": seat}
    if not isinstance(address, dict):
        raise RecordError(f"address is not an object: {address!r}")

    def get(key: str) -> str | None:
        return text(address.get(key), key)

    box = get("poBox")
    street = join([join([get("street"), get("houseNumber")], " "), get("addon")]) or (
        f"Postfach {box}" if box else None
    )
    postal_code = get("swissZipCode")
    city = get("city") or get("town") or seat
    country = get("country")
    # careOf is left out: it names a person or an agent, not a place.
    address_text = join(
        [
            street,
            box and street and f"Postfach {box}",
            join([postal_code, city], " "),
            country if country and country != "CH" else None,
        ]
    )
    return {"street": street, "city": city, "postal_code": postal_code, "address_text": address_text}


SOURCE = register(ZefixSource())
