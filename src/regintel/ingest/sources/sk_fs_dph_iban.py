"""Slovak financial administration's list of VAT payers with the bank accounts they use for business
(Zoznam platiteľov DPH s číslami bankových účtov, ktoré používajú na podnikanie, § 52 ods. 16 of the Tax
Procedure Act, dataset `ds_dph_iban`), published since 2022-01-01.

Written from the publisher's documented layout, not from a real file (docs/sources/sk_fs_dph_iban.md):
none is in `shared/data` and the machine has no internet access. Two forms are read:

- the daily export `ds_dph_iban.zip` (one XML file): like the other information-list exports, a root
  element holding `DatumAktualizacieZoznamu` (DDMMYYYY) and one `ITEM` per (payer, account) with the
  fields `IC_DPH` and `IBAN`. It is the complete list: payers it no longer names are removed, and a list
  older than the one imported is refused;
- an answer of the OpenData API search (`/api/data/ds_dph_iban/search?column=ic_dph&search=…`):
  `{"page", "pages", "itemsCount", "itemsPerPage", "data": [{"ic_dph", "iban"}, …]}`, a partial list.

Rows are grouped by IČ DPH (checked with python-stdnum) into one payer record; each IBAN is parsed with
schwifty, and one that does not parse is kept as published with no IBAN. Optional `ICO` and `NAZOV_DS`
fields are read when an export carries them; the payer is otherwise linked to its company through the
company's stored IČ DPH or DIČ (`Linker.by_vat_id`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date, datetime
from typing import IO, Any, cast

from lxml import etree
from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from regintel.domain.identifiers import parse_ic_dph, parse_national_id
from regintel.domain.public_money import BankAccountRecord, PayerList
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="sk_fs_dph_iban",
    name="Zoznam platiteľov DPH s číslami bankových účtov, ktoré používajú na podnikanie",
    publisher="Finančné riaditeľstvo Slovenskej republiky (Finančná správa SR)",
    country="SK",
    category="public_money",
    formats="ds_dph_iban information-list export (ZIP of XML) and OpenData API search answers (JSON)",
    licence="CC BY-NC-ND, the licence the financial administration gave this list (attribution; no "
    "commercial use; no derivatives): a commercial deployment needs the publisher's permission",
    attribution="Zdroj: Finančná správa SR, zoznam platiteľov DPH s číslami bankových účtov",
    url="https://report.financnasprava.sk/ds_dph_iban.zip",
    cadence="daily",
    licence_url="https://creativecommons.org/licenses/by-nc-nd/4.0/",
)
Account = tuple[str | None, str, date | None, date | None]


class FsIbanListSource:
    info = INFO
    suffixes: tuple[str, ...] = (".xml", ".zip", ".json")  # the files of a folder import that are inputs

    def parse(self, stream: IO[bytes], name: str) -> Iterator[BankAccountRecord | RecordError | PayerList]:
        head = stream.read(1)
        while head[-1:].isspace():  # the JSON answer and the XML export differ in their first character
            head += stream.read(1)
        if head[-1:] in (b"{", b"["):
            yield from _api_answer(head + stream.read(), name)
        else:
            yield from _export(_Prefixed(head, stream), name)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.public_money.importing import run_section_import

        return run_section_import(engine, self, location, data_dir)


class _Prefixed:
    """The stream with its first bytes (read to tell the formats apart) put back in front."""

    def __init__(self, head: bytes, rest: IO[bytes]):
        self.head, self.rest = head, rest

    def read(self, size: int = -1) -> bytes:
        if not self.head:
            return self.rest.read(size)
        if size < 0:
            out, self.head = self.head + self.rest.read(), b""
            return out
        out, self.head = self.head[:size], self.head[size:]
        return out + (self.rest.read(size - len(out)) if len(out) < size else b"")


def _export(stream: Any, name: str) -> Iterator[BankAccountRecord | RecordError | PayerList]:
    """The daily export. Every row is read before any payer is yielded: the list's rows of one payer need
    not be next to each other, and a file cut short must give no payer at all."""
    payers: dict[str, _Payer] = {}
    errors: list[RecordError] = []
    as_of: date | None = None
    items = 0
    events = etree.iterparse(
        stream,
        events=("end",),
        tag=("ITEM", "DatumAktualizacieZoznamu"),
        resolve_entities=False,
        no_network=True,
        huge_tree=True,
    )
    try:
        for _, node in events:
            if node.tag == "DatumAktualizacieZoznamu":
                as_of = _list_day(node.text, name)
                continue
            items += 1
            fields = {child.tag: (child.text or "").strip() for child in node if isinstance(child.tag, str)}
            if "IBAN" not in fields or "IC_DPH" not in fields:
                raise SourceAbort(
                    f"{name}: an ITEM without IC_DPH or IBAN: not the list of VAT payers' bank accounts "
                    f"(ds_dph_iban); its fields are {', '.join(sorted(fields)) or 'none'}"
                )
            _add(payers, errors, fields, fields["IC_DPH"], fields["IBAN"])
            node.clear()
    except etree.XMLSyntaxError as exc:
        raise SourceAbort(f"{name}: not well-formed XML: {exc}") from None
    if as_of is None:
        raise SourceAbort(f"{name}: no DatumAktualizacieZoznamu: not an information-list export")
    if items == 0:
        # The list names several hundred thousand payers; an export without rows is a failed export,
        # and reading it as complete would remove every payer.
        raise SourceAbort(f"{name}: the export lists no payer")
    yield PayerList(country="SK", as_of=as_of, vat_ids=frozenset(payers))
    yield from errors
    for vat_id in sorted(payers):
        yield payers[vat_id].record(as_of)


def _api_answer(data: bytes, name: str) -> Iterator[BankAccountRecord | RecordError]:
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SourceAbort(f"{name}: not JSON: {exc}") from None
    rows = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(rows, list) or "itemsCount" not in doc:
        raise SourceAbort(f"{name}: not an OpenData API search answer (no `data` list and `itemsCount`)")
    payers: dict[str, _Payer] = {}
    errors: list[RecordError] = []
    for row in rows:
        if not isinstance(row, dict):
            errors.append(RecordError("a data row that is not an object", row))
            continue
        fields = {str(k).upper(): str(v).strip() for k, v in row.items() if v is not None}
        _add(payers, errors, fields, fields.get("IC_DPH", ""), fields.get("IBAN", ""))
    yield from errors
    for vat_id in sorted(payers):
        yield payers[vat_id].record(None)  # the answer carries no list date


class _Payer:
    def __init__(self, vat_id: str, fields: dict[str, str]):
        self.vat_id = vat_id
        self.national_id = _ico(fields.get("ICO"))
        self.name = fields.get("NAZOV_DS") or fields.get("NAZOV") or None
        self.accounts: dict[str, Account] = {}

    def record(self, as_of: date | None) -> BankAccountRecord:
        return BankAccountRecord(
            country="SK",
            vat_id=self.vat_id,
            national_id=self.national_id,
            status="active",  # the list names VAT payers only
            status_since=None,
            tax_office=None,
            name=self.name,
            answered_on=as_of,
            accounts=tuple(self.accounts[k] for k in sorted(self.accounts)),
        )


def _add(
    payers: dict[str, _Payer], errors: list[RecordError], fields: dict[str, str], ic_dph: str, written: str
) -> None:
    try:
        vat_id = parse_ic_dph(ic_dph)
    except InvalidIdentifier as exc:
        errors.append(RecordError(f"not a valid IČ DPH: {exc}", fields))
        return
    if not written:
        errors.append(RecordError(f"{vat_id}: a row without an account", fields))
        return
    payer = payers.setdefault(vat_id, _Payer(vat_id, fields))
    try:
        iban: str | None = IBAN(re.sub(r"\s", "", written), validate_bban=True).compact
    except SchwiftyException:
        iban = None  # kept as published: `iban` null says it is not a valid IBAN
    payer.accounts[iban or written] = (iban, written, None, None)


def _ico(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return parse_national_id("SK", value)
    except InvalidIdentifier:
        return None


def _list_day(value: str | None, name: str) -> date:
    try:
        return datetime.strptime((value or "").strip(), "%d%m%Y").date()
    except ValueError:
        raise SourceAbort(f"{name}: DatumAktualizacieZoznamu {value!r} is not a DDMMYYYY date") from None


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, FsIbanListSource()))
