"""Slovak Register of Public Sector Partners (Register partnerov verejného sektora, RPVS): the beneficial
owners (koneční užívatelia výhod) that a company must register before it may receive public money.

Input: answers of the register's open-data OData v4 service (`rpvs.gov.sk/opendatav2`), entity set
`PartneriVerejnehoSektora` expanded with `Partner` and `KonecniUzivateliaVyhod`: one page
(`{"@odata.context": …, "value": [...], "@odata.nextLink": …}`), JSON lines of pages, or a JSON array of
entries. An entry is one registration (`Id`, `CisloVlozky` = the register's entry number, `PlatnostOd`,
`PlatnostDo`); `Partner` is the registered partner (one object, or a list of its versions, each with
`ObchodneMeno`, `Ico`, `FormaOsoby`, `PlatnostOd`, `PlatnostDo`); `KonecniUzivateliaVyhod` are its beneficial
owners (`Meno`, `Priezvisko`, `TitulPred`, `TitulZa`, `DatumNarodenia`, `JeVerejnyCinitel`, `PlatnostOd`,
`PlatnostDo`). Timestamps are ISO 8601 with an offset; only their date is kept.

What the register means: an entry with `PlatnostDo` set was struck off (deleted) from the register; an
owner with `PlatnostDo` set is a former owner (kept, with `until`, so the ownership history is complete).
`JeVerejnyCinitel` marks an owner who is a public official (a politically exposed person in the AML sense):
it becomes the role's `title` "verejný činiteľ (public official)". Academic titles are not part of the name.

The partner is named by its IČO (validated with python-stdnum's `sk.ico` rules through
`parse_national_id`). Partners without an IČO (foreign partners, some natural persons) are skipped. A
record carries no company name or status, so the register's own data (RPO) stays authoritative: an entry
for a company regintel does not hold yet is rejected ("unknown company and the record has no name"); import
`sk_rpo` first. An entry's record replaces the beneficial owners this source gave the company before.
Natural persons are served only under regintel's purpose gate.

No real answer was available offline: `tests/fixtures/sk_rpvs/` is written from the service's documented
entity layout (labelled so in its README).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import IO, Any

from regintel.domain.identifiers import parse_national_id
from regintel.domain.types import CompanyRecord, PersonRecord, Record, RoleRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.fields import iso_date
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="sk_rpvs",
    name="Register partnerov verejného sektora (RPVS): koneční užívatelia výhod",
    publisher="Ministerstvo spravodlivosti Slovenskej republiky",
    country="SK",
    category="register",
    formats="RPVS open data OData v4 JSON (PartneriVerejnehoSektora with Partner and "
    "KonecniUzivateliaVyhod): pages, JSON lines of pages, or an array of entries",
    licence="Open data of the Ministry of Justice SR (free re-use with attribution; verify on rpvs.gov.sk)",
    attribution="Zdroj: Register partnerov verejného sektora, Ministerstvo spravodlivosti SR",
    url="https://rpvs.gov.sk/opendatav2",
    cadence="daily",
)
PUBLIC_OFFICIAL = "verejný činiteľ (public official)"


class RpvsSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError | Skipped]:
        first = True
        for item in json_objects(stream, ["value.item"]):
            if isinstance(item, RecordError):
                yield item
                continue
            if first and not (isinstance(item, dict) and "KonecniUzivateliaVyhod" in item):
                raise SourceAbort(
                    f"{name} is not RPVS data: its first entry has no KonecniUzivateliaVyhod "
                    "(expand PartneriVerejnehoSektora with Partner and KonecniUzivateliaVyhod)"
                )
            first = False
            try:
                yield to_record(item)
            except RecordError as exc:
                exc.raw = item
                yield exc


def _current_partner(entry: dict[str, Any]) -> dict[str, Any]:
    partner = entry.get("Partner")
    versions = partner if isinstance(partner, list) else [partner] if isinstance(partner, dict) else []
    versions = [v for v in versions if isinstance(v, dict)]
    if not versions:
        raise RecordError("the entry has no Partner")
    # The version in force has no end date; else the one that ended last.
    return max(
        versions,
        key=lambda v: (
            v.get("PlatnostDo") is None,
            str(v.get("PlatnostDo") or ""),
            str(v.get("PlatnostOd") or ""),
        ),
    )


def to_record(entry: Any) -> CompanyRecord | Skipped:
    if not isinstance(entry, dict):
        raise RecordError("an RPVS entry is not an object")
    partner = _current_partner(entry)
    raw_ico = str(partner.get("Ico") or "").strip()
    if not raw_ico:
        return Skipped("a partner without an IČO (foreign partner or natural person)")
    try:
        ico = parse_national_id("SK", raw_ico)
    except InvalidIdentifier as exc:
        raise RecordError(f"invalid IČO {raw_ico!r}: {exc.message}") from None
    owners = entry.get("KonecniUzivateliaVyhod")
    if not isinstance(owners, list):
        raise RecordError("KonecniUzivateliaVyhod is not a list")
    entry_end = iso_date(entry.get("PlatnostDo"), "PlatnostDo")
    roles = [to_role(o, entry_end) for o in owners]
    dates = [d for r in roles for d in (r.since, r.until) if d is not None]
    published = max(
        [*dates, *filter(None, (iso_date(entry.get("PlatnostOd"), "PlatnostOd"), entry_end))], default=None
    )
    return CompanyRecord(
        country="SK",
        national_id=ico,
        source_record_id=str(entry.get("Id") or "") or None,
        published_on=published,
        roles=tuple(roles),
    )


def to_role(owner: Any, entry_end: date | None) -> RoleRecord:
    if not isinstance(owner, dict):
        raise RecordError("a beneficial owner is not an object")
    name = " ".join(str(owner.get(k) or "").strip() for k in ("Meno", "Priezvisko")).strip()
    if not name:
        raise RecordError("a beneficial owner without a name")
    until = iso_date(owner.get("PlatnostDo"), "PlatnostDo") or entry_end
    birth = iso_date(owner.get("DatumNarodenia"), "DatumNarodenia")
    public_official = owner.get("JeVerejnyCinitel")
    if public_official is not None and not isinstance(public_official, bool):
        raise RecordError(f"JeVerejnyCinitel is not true or false: {public_official!r}")
    return RoleRecord(
        "beneficial_owner",
        name,
        person=PersonRecord(name, birth_date=birth.isoformat() if birth else None),
        title=PUBLIC_OFFICIAL if public_official else None,
        since=iso_date(owner.get("PlatnostOd"), "PlatnostOd"),
        until=until,
    )


SOURCE = register(RpvsSource())
