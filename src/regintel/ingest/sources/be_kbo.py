"""Belgian Crossroads Bank for Enterprises (KBO / BCE) Open Data: the published zip of CSV files, a
full monthly extract or a daily update set, read as one import.

The set: `meta.csv` (SnapshotDate, ExtractType full|update, ExtractNumber), `code.csv` (every code
table), and per table `enterprise`, `denomination`, `address`, `activity`, `contact`,
`establishment`, `branch`: in a full extract one `<table>.csv`, in an update set
`<table>_delete.csv` (the keys whose rows must go) and `<table>_insert.csv` (all current rows of
those keys). KBO's update procedure is "delete, then insert" per table; regintel applies it per
enterprise: a table that names an enterprise in its delete or insert file replaces what that table
said about it with the inserted rows. The files are sorted by entity number, so the tables are
merged key by key with flat memory (an unsorted file stops the import: it is not a KBO file).

Identifier: the enterprise number (ondernemingsnummer / numéro d'entreprise), 10 digits written
0123.456.789, first digit 0 or 1, the last two a mod-97 check of the first eight; python-stdnum's
`be.vat` checks it (the Belgian VAT number is "BE" + the same 10 digits). Establishment units
(numbers starting 2–8) and branches are not legal entities: their rows are skipped.

Status: KBO Open Data holds only active entities (Status AC). An enterprise in
`enterprise_delete.csv` and not re-inserted has left the open data: it stopped (dissolved, struck
off, merged) and is marked `dissolved`, with no date (the open data does not give one). The
juridical situation says the rest (`be_kbo_codes`): liquidation (012 voluntary dissolution, 013
judicial dissolution, 112 reopened liquidation) sets `in_liquidation`; opening of bankruptcy (048–050)
sets `in_bankruptcy`; judicial reorganisation and the older suspensions of payment (030, 031, 040,
041, 091) set `in_restructuring`; the situations that end an entity (closure of liquidation or
bankruptcy, mergers, divisions, stops) make it `dissolved`. A full extract says nothing about the
enterprises missing from it.

VAT: an enterprise with activities in KBO's activity group 001 ("VAT activities", those declared to
the VAT administration) is identified for VAT, and its VAT number is BE + the enterprise number.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import PurePosixPath
from typing import IO, Any, TypedDict

from regintel.domain.identifiers import is_valid_national_id
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, join, vat
from regintel.ingest.sources import register
from regintel.ingest.sources.be_kbo_codes import BANKRUPTCY, ELF, ENDED, LIQUIDATION, RESTRUCTURING

INFO = SourceInfo(
    id="be_kbo",
    name="KBO/BCE Open Data (Kruispuntbank van Ondernemingen)",
    publisher="FOD Economie, K.M.O., Middenstand en Energie / SPF Economie",
    country="BE",
    category="register",
    formats="KBO Open Data zip (full extract or daily update set of CSV files)",
    licence="KBO Open Data licence (free re-use, commercial use allowed; no re-use of personal data for "
    "direct marketing)",
    licence_url="https://economie.fgov.be/en/themes/enterprises/crossroads-bank-enterprises/services-everyone/"
    "public-data-available-reuse/cbe-open-data",
    attribution="Source: Crossroads Bank for Enterprises (KBO/BCE), FPS Economy, KBO Open Data",
    url="https://kbopub.economie.fgov.be/kbo-open-data",
    cadence="daily",
)
TABLES = {
    "enterprise": (
        "EnterpriseNumber",
        "Status",
        "JuridicalSituation",
        "TypeOfEnterprise",
        "JuridicalForm",
        "JuridicalFormCAC",
        "StartDate",
    ),
    "denomination": ("EntityNumber", "Language", "TypeOfDenomination", "Denomination"),
    "address": (
        "EntityNumber",
        "TypeOfAddress",
        "CountryNL",
        "CountryFR",
        "Zipcode",
        "MunicipalityNL",
        "MunicipalityFR",
        "StreetNL",
        "StreetFR",
        "HouseNumber",
        "Box",
        "ExtraAddressInfo",
        "DateStrikingOff",
    ),
    "activity": ("EntityNumber", "ActivityGroup", "NaceVersion", "NaceCode", "Classification"),
}
NATURAL_PERSON = "1"
LANGUAGE_CODES = {"FR": "1", "NL": "2", "DE": "3", "EN": "4"}


@dataclass
class Meta:
    update: bool
    snapshot: date | None
    number: str | None


class KboSource:
    info = INFO
    reads_archive = True  # the runner hands over the zip itself, not its largest member

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        try:
            archive = zipfile.ZipFile(stream)
        except (zipfile.BadZipFile, AttributeError, OSError, ValueError):
            raise SourceAbort("not a KBO Open Data zip (give the published KboOpenData_…zip)") from None
        with archive:
            members = {PurePosixPath(i.filename).name: i for i in archive.infolist() if not i.is_dir()}
            if "meta.csv" not in members or "code.csv" not in members:
                raise SourceAbort("not a KBO Open Data zip: meta.csv or code.csv is missing")
            meta = _meta(archive, members)
            codes = _codes(archive, members)
            tables = [
                _Table.open(archive, members, table, suffix)
                for table in TABLES
                for suffix in (("_delete", "_insert") if meta.update else ("",))
            ]
            for table in tables:  # before anything is loaded: an unsorted file cannot be merged
                _check_sorted(archive, members[table.name])
            yield from _merge(tables, meta, codes)


_KEY = re.compile(rb'"([0-9.]+)"')


def _check_sorted(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> None:
    """Stop on a file whose entity numbers go down somewhere (read as bytes, first column only)."""
    last = b""
    with archive.open(member) as fh:
        next(fh, None)
        for line in fh:
            match = _KEY.match(line)
            if match is None:
                continue  # a blank line or the continuation of a quoted value
            if match[1] < last:
                raise SourceAbort(
                    f"{member.filename} is not sorted by entity number "
                    f"({match[1].decode()} after {last.decode()})"
                )
            last = match[1]


def _reader(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> tuple[list[str], Iterator[list[str]], Any]:
    text: IO[str] = io.TextIOWrapper(archive.open(member), encoding="utf-8-sig", errors="replace", newline="")
    reader = csv.reader(text)
    header = next(reader, None)
    if header is None:
        raise SourceAbort(f"{member.filename} is empty")
    return [h.strip() for h in header], reader, text


def _meta(archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo]) -> Meta:
    _, rows, fh = _reader(archive, members["meta.csv"])
    with fh:
        values = {r[0]: r[1] for r in rows if len(r) >= 2}
    kind = values.get("ExtractType", "").lower()
    if kind not in ("full", "update"):
        raise SourceAbort(f"meta.csv ExtractType is {kind!r}, not full or update")
    try:
        snapshot = _dmy(values.get("SnapshotDate", ""), "SnapshotDate")
    except RecordError as exc:
        raise SourceAbort(f"meta.csv: {exc.reason}") from None
    return Meta(kind == "update", snapshot, values.get("ExtractNumber"))


@dataclass
class Codes:
    descriptions: dict[tuple[str, str, str], str]  # (category, code, language) -> description
    situations: frozenset[str]


def _codes(archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo]) -> Codes:
    """The descriptions of the categories regintel reads, from the set's own code table."""
    header, rows, fh = _reader(archive, members["code.csv"])
    if header[:4] != ["Category", "Code", "Language", "Description"]:
        raise SourceAbort("code.csv does not have the KBO columns Category, Code, Language, Description")
    wanted = {"JuridicalForm", "JuridicalSituation", "TypeOfEnterprise"}
    with fh:
        descriptions = {(r[0], r[1], r[2]): r[3] for r in rows if len(r) == 4 and r[0] in wanted}
    return Codes(descriptions, frozenset(c for cat, c, _ in descriptions if cat == "JuridicalSituation"))


class _Table:
    """One CSV of the set, read key by key (key = first column, the files are sorted by it)."""

    def __init__(self, name: str, rows: Iterator[list[str]] | None, width: int, fh: Any = None):
        self.name = name
        self.errors: list[RecordError] = []
        self._rows = rows
        self._width = width
        self._fh = fh
        self._last = ""
        self.head: list[str] | None = None
        self._advance()

    @classmethod
    def open(
        cls, archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo], table: str, suffix: str
    ) -> _Table:
        filename = f"{table}{suffix}.csv"
        columns = TABLES[table][:1] if suffix == "_delete" else TABLES[table]
        member = members.get(filename)
        if member is None:
            raise SourceAbort(f"the KBO set has no {filename}")
        header, rows, fh = _reader(archive, member)
        if tuple(header[: len(columns)]) != columns:
            raise SourceAbort(f"{filename} does not have the KBO columns {', '.join(columns)}")
        return cls(filename, rows, len(header), fh)

    def _advance(self) -> None:
        self.head = None
        if self._rows is None:
            return
        for row in self._rows:
            if not row:
                continue
            if len(row) != self._width:
                self.errors.append(
                    RecordError(
                        f"{self.name}: a row has {len(row)} fields, the header {self._width}", row[:20]
                    )
                )
                continue
            key = row[0].strip()
            if key < self._last:
                raise SourceAbort(f"{self.name} is not sorted by entity number ({key} after {self._last})")
            self._last = key
            self.head = row
            return
        self._rows = None
        if self._fh is not None:
            self._fh.close()

    @property
    def key(self) -> str | None:
        return None if self.head is None else self.head[0].strip()

    def take(self, key: str) -> list[list[str]] | None:
        """The rows of `key` (None when the table does not name it)."""
        if self.key != key:
            return None
        rows = []
        while self.head is not None and self.key == key:
            rows.append(self.head)
            self._advance()
        return rows


def _merge(tables: list[_Table], meta: Meta, codes: Codes) -> Iterator[CompanyRecord | RecordError | Skipped]:
    while True:
        for table in tables:
            yield from table.errors
            table.errors.clear()
        keys = [t.key for t in tables if t.key is not None]
        if not keys:
            return
        key = min(keys)
        found = {t.name: t.take(key) for t in tables}
        parts = {table: _current(found, table, meta.update) for table in TABLES}
        try:
            yield _record(key, parts, meta, codes)
        except RecordError as exc:
            exc.raw = {"entity": key, **{t: rows for t, rows in parts.items() if rows is not None}}
            yield exc


def _current(found: dict[str, list[list[str]] | None], table: str, update: bool) -> list[list[str]] | None:
    """The current rows of `table` for the key, or None when the table says nothing about it."""
    if not update:
        return found[f"{table}.csv"]
    deleted, inserted = found[f"{table}_delete.csv"], found[f"{table}_insert.csv"]
    if deleted is None and inserted is None:
        return None
    return inserted or []


def _record(
    key: str, parts: dict[str, list[list[str]] | None], meta: Meta, codes: Codes
) -> CompanyRecord | Skipped:
    if key[:1] not in ("0", "1"):
        return Skipped("establishment unit or branch (not a legal entity)")
    if all(rows is None for rows in parts.values()):
        return Skipped("only contact details, establishments or branches changed (not imported)")
    address, language = _address(parts["address"])
    enterprise = _enterprise(parts["enterprise"], codes, language)
    names = parts["denomination"]
    return CompanyRecord(
        country="BE",
        national_id=key,
        source_record_id=key,
        published_on=meta.snapshot,
        name=_name(names, language) if names is not None else None,
        **address,
        **enterprise,
        **_activities(key, parts["activity"]),
    )


class _Enterprise(TypedDict, total=False):
    status: str
    founded_on: date | None
    legal_form: str
    legal_form_name: str | None
    identifiers: tuple[tuple[str, str], ...]
    in_liquidation: bool
    in_bankruptcy: bool
    in_restructuring: bool


def _enterprise(rows: list[list[str]] | None, codes: Codes, language: str) -> _Enterprise:
    if rows is None:
        return {}
    if not rows:  # deleted and not inserted again: the enterprise left the open data (it stopped)
        return {"status": "dissolved"}
    _, status, situation, kind, form, form_cac, start = (v.strip() for v in rows[-1])
    if status != "AC":
        raise RecordError(f"Status is {status!r}, not AC (KBO Open Data publishes active entities)")
    out: _Enterprise = {"founded_on": _dmy(start, "StartDate")}
    form = form_cac or form
    if kind == NATURAL_PERSON:
        out["legal_form_name"] = _describe(codes, "TypeOfEnterprise", kind, language)
    elif form:
        out["legal_form"] = form
        out["legal_form_name"] = _describe(codes, "JuridicalForm", form, language)
        if form in ELF:
            out["identifiers"] = (("elf", ELF[form]),)
    if situation not in codes.situations:
        raise RecordError(f"JuridicalSituation {situation!r} is not in code.csv")
    out["status"] = "dissolved" if situation in ENDED else "active"
    out["in_liquidation"] = situation in LIQUIDATION
    out["in_bankruptcy"] = situation in BANKRUPTCY
    out["in_restructuring"] = situation in RESTRUCTURING
    return out


def _describe(codes: Codes, category: str, code: str, language: str) -> str | None:
    found = codes.descriptions
    return (
        found.get((category, code, language))
        or found.get((category, code, "NL"))
        or found.get((category, code, "FR"))
    )


def _name(rows: list[list[str]], language: str) -> str | None:
    """The legal name (type 001) in the seat's language when there is one, else the first."""
    names = [(lang, text.strip()) for _, lang, kind, text in rows if kind == "001" and text.strip()]
    wanted = LANGUAGE_CODES.get(language)
    return next((t for lang, t in names if lang == wanted), names[0][1] if names else None)


def _region_language(zipcode: str) -> str:
    """The language the address is written in: Dutch in Flanders, French in Wallonia and (its majority
    language) Brussels; the German-speaking community's addresses are written in French here."""
    if not zipcode.isdigit() or len(zipcode) != 4:
        return "NL"
    number = int(zipcode)
    return "NL" if 1500 <= number <= 3999 or number >= 8000 else "FR"


def _address(rows: list[list[str]] | None) -> tuple[Address, str]:
    """The registered seat, and the language it is written in."""
    seats = [r for r in rows or [] if r[1] == "REGO" and not r[12].strip()]
    if not seats:
        return {}, "NL"
    (_, _, country_nl, country_fr, zipcode, city_nl, city_fr, street_nl, street_fr, house, box, extra, _) = (
        v.strip() for v in seats[0]
    )
    language = _region_language(zipcode) if not (country_nl or country_fr) else "FR"
    nl = language == "NL"
    street = (street_nl or street_fr) if nl else (street_fr or street_nl)
    city = (city_nl or city_fr) if nl else (city_fr or city_nl)
    number = join([house, box and ("bus " if nl else "bte ") + box], " ")
    line = join([street, number], " ")
    country = (country_nl or country_fr) if nl else (country_fr or country_nl)
    address: Address = {
        "street": line,
        "city": city or None,
        "postal_code": zipcode or None,
        "address_text": join([line, extra, join([zipcode, city], " "), country]),
    }
    return address, language


class _Activities(TypedDict, total=False):
    nace_codes: tuple[str, ...]
    nace_primary: str | None
    vat_id: str | None


def _activities(key: str, rows: list[list[str]] | None) -> _Activities:
    """NACE-BEL 2008 codes (NACE Rev. 2 + a national fifth digit); the 2025 codes when an entity has
    no 2008 code. The primary is the MAIN activity, VAT activities (group 001) first."""
    if not rows:
        return {}
    version = "2008" if any(r[2] == "2008" for r in rows) else "2025"
    chosen = [r for r in rows if r[2] == version]
    for r in chosen:
        if not (r[3].isdigit() and 2 <= len(r[3]) <= 5):
            raise RecordError(f"NaceCode is not a NACE-BEL code: {r[3]!r}")
    order = sorted(chosen, key=lambda r: (r[4] != "MAIN", r[1] != "001", r[1] != "003"))
    codes = tuple(dict.fromkeys(r[3] for r in order))
    out: _Activities = {"nace_codes": codes, "nace_primary": codes[0] if order[0][4] == "MAIN" else None}
    if any(r[1] == "001" for r in rows) and is_valid_national_id("BE", key):
        out["vat_id"] = vat("BE" + key.replace(".", ""))[0]
    return out


def _dmy(value: str, name: str) -> date | None:
    value = value.strip()
    if not value:
        return None
    try:
        day, month, year = value.split(" ")[0].split("-")
        return date(int(year), int(month), int(day))
    except ValueError:
        raise RecordError(f"{name} is not a dd-mm-yyyy date: {value!r}") from None


SOURCE = register(KboSource())
