"""Slovak published debtor lists: Sociálna poisťovňa (social insurance), the three health insurers
(VšZP, Dôvera, Union) and the Financial Administration's tax debtors (Finančná správa, `ds_dsdd`).

Each list is a snapshot of who owes more than the publisher's threshold on one day; the compliance area
imports it (`Source.import_into`) into `debtor_entries` and links each entry to a company
(docs/compliance.md, "Debtor lists").

Formats, as the publishers document them (no real file was available offline, so the fixtures in
tests/fixtures/sk_debtors/ are written from these descriptions and say so):

- Sociálna poisťovňa, "Zoznam dlžníkov" (https://www.socpoist.sk/nastroje-sluzby/zoznam-dlznikov): a
  spreadsheet (XLSX, usually zipped) of employers and self-employed persons owing premiums, with the
  debtor's name, address, IČO and the amount owed; the list's date is in a title line above the header
  ("… k 31.10.2026") or in the file name.
- Health insurers under § 25(1)(f) of Act 581/2004 Coll. (VšZP
  https://www.vszp.sk/platitelia/platenie-poistneho/zoznam-dlznikov.html, Dôvera, Union): payers owing
  premiums, with name, address, IČO and amount, published as a spreadsheet or CSV export.
- Finančná správa, "Zoznam daňových dlžníkov" (https://opendata.financnasprava.sk, dataset `ds_dsdd`,
  `report.financnasprava.sk/ds_dsdd.zip`): XML whose items carry `NAZOV_SUBJEKTU`, `ULICA_CISLO`, `PSC`,
  `OBEC` and `CIASTKA` (the arrears) and whose root gives `DatumAktualizacieZoznamu`. The list has no IČO:
  entries are matched to companies by name and postcode.

The tabular lists are read by their header names (several spellings each, any case and accents), so a
renamed or reordered column does not shift values into the wrong field; a file without a name column or
an amount column is refused whole.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import IO, Any, cast

from lxml import etree

from regintel.domain.identifiers import parse_national_id
from regintel.domain.names import fold
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register

MAX_BYTES = 200 * 1024 * 1024  # the largest list (social insurance) is a few MB


@dataclass(frozen=True)
class DebtorRecord:
    """One entry of a debtor list."""

    kind: str  # social_insurance | health_insurance | tax
    creditor: str
    country: str
    name: str
    national_id: str | None
    address: str | None
    postcode: str | None
    amount: Decimal | None
    currency: str
    listed_on: date

    @property
    def record_key(self) -> str:
        """The entry's identity within its list: the same debtor with the same debt is the same entry."""
        parts = (self.national_id or "", fold(self.name), fold(self.address or ""), str(self.amount or ""))
        return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:40]


# Header spellings, compared folded (lower case, no accents, single spaces).
NAME = (
    "nazov",
    "nazov / meno a priezvisko",
    "nazov/meno a priezvisko",
    "meno a priezvisko",
    "obchodne meno",
    "nazov dlznika",
    "dlznik",
    "nazov platitela",
    "platitel",
    "nazov subjektu",
    "meno / nazov",
    "meno",
)
ICO = ("ico", "ic", "identifikacne cislo", "ico dlznika", "ico platitela")
ADDRESS = ("adresa", "sidlo", "adresa sidla", "adresa / sidlo", "trvale bydlisko / sidlo", "adresa dlznika")
STREET = ("ulica", "ulica a cislo", "ulica cislo")
CITY = ("obec", "mesto", "obec / mesto")
POSTCODE = ("psc",)
AMOUNT = (
    "dlzna suma",
    "dlzna suma v eur",
    "dlzna suma (eur)",
    "dlh",
    "vyska dlhu",
    "vyska dlhu v eur",
    "suma",
    "suma dlhu",
    "nedoplatok",
    "vyska nedoplatku",
    "dlzne poistne",
    "dlzna ciastka",
    "ciastka",
)
DATE = ("stav k", "datum zverejnenia", "zverejnene k", "k datumu")
DATE_TEXT = re.compile(r"(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})|(\d{4})-(\d{2})-(\d{2})|(\d{4})(\d{2})(\d{2})")


def _fold(text: Any) -> str:
    return " ".join(fold(str(text or "")).replace("_", " ").split())


def _day(text: str) -> date | None:
    """The first date in `text`: 31.10.2026, 2026-10-31 or 20261031."""
    for m in DATE_TEXT.finditer(text or ""):
        g = m.groups()
        try:
            if g[0]:
                return date(int(g[2]), int(g[1]), int(g[0]))
            if g[3]:
                return date(int(g[3]), int(g[4]), int(g[5]))
            return date(int(g[6]), int(g[7]), int(g[8]))
        except ValueError:
            continue
    return None


def amount(text: Any) -> Decimal | None:
    """An amount as Slovak lists write it: "1 234,56", "1234.56", "1.234,56 €"; None when empty."""
    if text is None or text == "":
        return None
    if isinstance(text, int | float | Decimal):
        return Decimal(str(text)).quantize(Decimal("0.01"))
    raw = re.sub(r"[\s\u00a0€]|EUR", "", str(text), flags=re.IGNORECASE)
    if not raw:
        return None
    if "," in raw:
        raw = raw.replace(".", "").replace(",", ".")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise RecordError(f"unreadable amount {text!r}") from None
    if value < 0:
        raise RecordError(f"negative amount {text!r}")
    return value.quantize(Decimal("0.01"))


def _national_id(value: Any) -> str | None:
    raw = re.sub(r"\s", "", str(value or ""))
    if not raw or raw in ("0", "-"):
        return None
    if re.fullmatch(r"\d{6,7}", raw):
        raw = raw.zfill(8)  # spreadsheets drop leading zeros of IČO
    try:
        return parse_national_id("SK", raw)
    except InvalidIdentifier as exc:
        raise RecordError(f"invalid IČO {value!r}: {exc.message}") from None


def _read_all(stream: IO[bytes], name: str) -> tuple[bytes, str]:
    """The file's bytes; a zip (not a workbook) gives its one list member."""
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise SourceAbort(f"{name}: larger than {MAX_BYTES // 1024 // 1024} MB, not a debtor list")
    if not data.strip():
        raise SourceAbort(f"{name}: the file is empty")
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            if "xl/workbook.xml" in names:
                return data, name if name.lower().endswith(".xlsx") else name + ".xlsx"
            members = [n for n in names if n.lower().endswith((".xlsx", ".csv", ".xml"))]
            if len(members) != 1:
                raise SourceAbort(
                    f"{name}: the archive holds {len(members)} list files (xlsx, csv or xml), expected one"
                )
            return archive.read(members[0]), members[0]
    return data, name


def _sheet_rows(data: bytes, name: str) -> list[list[Any]]:
    if data[:4] == b"PK\x03\x04":
        import openpyxl

        try:
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        except Exception as exc:  # openpyxl raises several unrelated types for a broken workbook
            raise SourceAbort(f"{name}: not a readable XLSX workbook: {exc}") from None
        sheet = book.worksheets[0]
        return [list(r) for r in sheet.iter_rows(values_only=True)]
    text = _decode(data)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=";,\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ";"
    return [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)]


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1250", errors="replace")  # older exports of Slovak offices


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    for i, h in enumerate(header):
        if h in names:
            return i
    return None


class TabularDebtors:
    """A social-insurance or health-insurer list: CSV or XLSX (zipped or not), read by header names."""

    suffixes: tuple[str, ...] = (".csv", ".xlsx", ".zip")

    def __init__(self, info: SourceInfo, kind: str, creditor: str):
        self.info, self.kind, self.creditor = info, kind, creditor

    def parse(self, stream: IO[bytes], name: str) -> Iterator[DebtorRecord | RecordError]:
        data, member = _read_all(stream, name)
        rows = _sheet_rows(data, member)
        head = next(
            (i for i, r in enumerate(rows[:20]) if _column([_fold(c) for c in r], NAME) is not None), None
        )
        if head is None:
            raise SourceAbort(
                f"{name}: not a debtor list: no name column (one of {', '.join(NAME[:4])} …) "
                "in the first 20 rows"
            )
        header = [_fold(c) for c in rows[head]]
        cols = {
            field: _column(header, names)
            for field, names in (
                ("name", NAME),
                ("ico", ICO),
                ("address", ADDRESS),
                ("street", STREET),
                ("city", CITY),
                ("postcode", POSTCODE),
                ("amount", AMOUNT),
                ("date", DATE),
            )
        }
        if cols["amount"] is None:
            raise SourceAbort(
                f"{name}: not a debtor list: no amount column (one of {', '.join(AMOUNT[:4])} …)"
            )
        preamble = " ".join(str(c) for r in rows[:head] for c in r if c is not None)
        listed_on = _day(preamble) or _day(member) or _day(name)
        if listed_on is None and cols["date"] is None:
            raise SourceAbort(
                f"{name}: the list's date is unknown (no date above the header, in a column or in "
                "the file name, e.g. socpoist_2026-10-31.xlsx)"
            )
        for line, row in enumerate(rows[head + 1 :], start=head + 2):
            if not any(c not in (None, "") for c in row):
                continue
            try:
                yield self._record(row, cols, listed_on, line)
            except RecordError as exc:
                exc.raw = {"line": line, "row": [None if c is None else str(c) for c in row][:20]}
                yield exc

    def _record(
        self, row: list[Any], cols: dict[str, int | None], listed_on: date | None, line: int
    ) -> DebtorRecord:
        def get(field: str) -> str:
            i = cols[field]
            value = row[i] if i is not None and i < len(row) else None
            if isinstance(value, datetime | date):
                return value.isoformat()
            return "" if value is None else str(value).strip()

        name = get("name")
        if not name:
            raise RecordError(f"line {line}: an entry without a name")
        if len(name) > 500:
            raise RecordError(f"line {line}: a name longer than 500 characters")
        on = _day(get("date")) if cols["date"] is not None else None
        on = on or listed_on
        if on is None:
            raise RecordError(f"line {line}: no date")
        postcode = re.sub(r"\s", "", get("postcode")) or None
        address = (
            get("address")
            or ", ".join(
                p for p in (get("street"), " ".join(p for p in (get("postcode"), get("city")) if p)) if p
            )
            or None
        )
        i = cols["amount"]
        raw_amount = row[i] if i is not None and i < len(row) else None
        return DebtorRecord(
            kind=self.kind,
            creditor=self.creditor,
            country="SK",
            name=name,
            national_id=_national_id(get("ico")),
            address=address,
            postcode=postcode,
            amount=amount(raw_amount),
            currency="EUR",
            listed_on=on,
        )

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.compliance.debtor_import import run_debtor_import

        return run_debtor_import(engine, self, location, data_dir)


class TaxDebtors:
    """The Financial Administration's tax debtors (`ds_dsdd.xml`, or the zip it comes in)."""

    suffixes: tuple[str, ...] = (".xml", ".zip")
    kind, creditor = "tax", "Finančná správa SR"

    def __init__(self, info: SourceInfo):
        self.info = info

    def parse(self, stream: IO[bytes], name: str) -> Iterator[DebtorRecord | RecordError]:
        data, member = _read_all(stream, name)
        try:
            root = etree.fromstring(
                data, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
            )
        except etree.XMLSyntaxError as exc:
            raise SourceAbort(f"{name}: not well-formed XML: {exc}") from None
        stamp = root.find(".//{*}DatumAktualizacieZoznamu")
        listed_on = _day(stamp.text or "") if stamp is not None else None
        listed_on = listed_on or _day(member)
        if listed_on is None:
            raise SourceAbort(f"{name}: no DatumAktualizacieZoznamu and no date in the file name")
        items = [
            el for el in root.iter() if isinstance(el.tag, str) and el.find("{*}NAZOV_SUBJEKTU") is not None
        ]
        if not items and root.find(".//{*}NAZOV_SUBJEKTU") is None:
            raise SourceAbort(f"{name}: not a tax debtor list (no NAZOV_SUBJEKTU element)")
        for el in items:
            fields = {etree.QName(c).localname: (c.text or "").strip() for c in el if isinstance(c.tag, str)}
            try:
                yield self._record(fields, listed_on)
            except RecordError as exc:
                exc.raw = fields
                yield exc

    def _record(self, f: dict[str, str], listed_on: date) -> DebtorRecord:
        name = f.get("NAZOV_SUBJEKTU", "")
        if not name:
            raise RecordError("an entry without NAZOV_SUBJEKTU")
        postcode = re.sub(r"\s", "", f.get("PSC", "")) or None
        address = (
            ", ".join(
                p
                for p in (
                    f.get("ULICA_CISLO", ""),
                    " ".join(p for p in (f.get("PSC", ""), f.get("OBEC", "")) if p),
                )
                if p
            )
            or None
        )
        return DebtorRecord(
            kind=self.kind,
            creditor=self.creditor,
            country="SK",
            name=name,
            national_id=_national_id(f.get("ICO")),
            address=address,
            postcode=postcode,
            amount=amount(f.get("CIASTKA")),
            currency="EUR",
            listed_on=listed_on,
        )

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.compliance.debtor_import import run_debtor_import

        return run_debtor_import(engine, self, location, data_dir)


_PUBLIC = (
    "Published by law for anyone to consult; no licence text is stated (reuse of the public list, "
    "with the source named)"
)
SOCIAL = SourceInfo(
    id="sk_socpoist_debtors",
    name="Zoznam dlžníkov Sociálnej poisťovne",
    publisher="Sociálna poisťovňa",
    country="SK",
    category="debtors",
    formats="XLSX or CSV (zipped or not)",
    licence=_PUBLIC + "; § 170(15) of Act 461/2003 Coll.",
    attribution="Zdroj: Sociálna poisťovňa",
    url="https://www.socpoist.sk/nastroje-sluzby/zoznam-dlznikov",
    cadence="monthly",
)
HEALTH = {
    "vszp": (
        "Všeobecná zdravotná poisťovňa",
        "https://www.vszp.sk/platitelia/platenie-poistneho/zoznam-dlznikov.html",
    ),
    "dovera": ("Dôvera zdravotná poisťovňa", "https://www.dovera.sk/platitelia/zoznam-dlznikov"),
    "union": ("Union zdravotná poisťovňa", "https://portal.unionzp.sk/pub/dlznici"),
}
TAX = SourceInfo(
    id="sk_fs_tax_debtors",
    name="Zoznam daňových dlžníkov",
    publisher="Finančná správa SR",
    country="SK",
    category="debtors",
    formats="ds_dsdd XML (zipped or not)",
    licence="Open data of the Financial Administration (opendata.financnasprava.sk); § 52 of Act "
    "563/2009 Coll.",
    attribution="Zdroj: Finančná správa SR",
    url="https://opendata.financnasprava.sk/mi/opendata/show/zoznam-danovych-dlznikov",
    cadence="monthly",
)

SOCIAL_SOURCE = register(cast(Source, TabularDebtors(SOCIAL, "social_insurance", "Sociálna poisťovňa")))
HEALTH_SOURCES = {
    key: register(
        cast(
            Source,
            TabularDebtors(
                SourceInfo(
                    id=f"sk_{key}_debtors",
                    name=f"Zoznam dlžníkov – {creditor}",
                    publisher=creditor,
                    country="SK",
                    category="debtors",
                    formats="XLSX or CSV (zipped or not)",
                    licence=_PUBLIC + "; § 25(1)(f) of Act 581/2004 Coll.",
                    attribution=f"Zdroj: {creditor}",
                    url=url,
                    cadence="monthly",
                ),
                "health_insurance",
                creditor,
            ),
        )
    )
    for key, (creditor, url) in HEALTH.items()
}
TAX_SOURCE = register(cast(Source, TaxDebtors(TAX)))
