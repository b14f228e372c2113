"""TED contract award notices, the Publications Office's CSV export (data.europa.eu dataset `ted-csv`,
"TED - Contract award notices", legacy forms 2006-2023). See docs/sources/ted_csv.md.

One row per award of a notice (in some years one per award and award criterion, repeating the award's
facts), the rows of a notice together, identified by `ID_NOTICE_CAN`. A notice becomes the same
`TedNotice` the eForms importer builds: the buyer from the `CAE_*` columns, one award per `ID_AWARD`
with its winner(s) from the `WIN_*` columns (a group's members joined by `---`, the codebook's
multi-value separator), values in euro (`VALUE_EURO`, `AWARD_VALUE_EURO`). So the same tables, the same
company linking and the same routes serve both formats.

Read with the stdlib `csv` module as a stream (a notice at a time). A header without the key columns, a
row with more or fewer fields than the header, bad quoting or bytes that are not UTF-8 stop the import
(`SourceAbort`: the file is cut short or not this export, nothing of it is written). A notice with an
unreadable date, value or CPV code is rejected alone; a cancelled notice (`CANCELLED` 1) is skipped.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import IO, Any, cast

from regintel.domain.public_money import Org, TedAward, TedLot, TedNotice
from regintel.ingest.base import RecordError, Skipped, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register
from regintel.ingest.sources.gleif_stream import buffered

INFO = SourceInfo(
    id="ted_csv",
    name="TED – contract award notices (CSV export)",
    publisher="Publications Office of the European Union",
    country=None,
    category="public_money",
    formats="CSV (UTF-8, comma), one row per award: ID_NOTICE_CAN, CAE_*, WIN_*, VALUE_EURO, CPV, "
    "DT_DISPATCH …",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Source: TED – Tenders Electronic Daily, © European Union, CC BY 4.0",
    url="https://data.europa.eu/data/datasets/ted-csv",
    cadence="yearly",
    snapshots=False,
)
REQUIRED = ("ID_NOTICE_CAN", "ISO_COUNTRY_CODE", "CAE_NAME", "DT_DISPATCH", "ID_AWARD", "WIN_NAME")
MULTI = "---"  # the codebook's separator of several values in one cell
NATURE = {"W": "works", "U": "supplies", "S": "services"}
COUNTRY = {"UK": "GB", "EL": "GR"}  # TED writes the EU's codes for these two
_ID = re.compile(r"\d{6,12}")
_PUB = re.compile(r"NOTICE:(\d{1,8}-\d{4})", re.IGNORECASE)
_DATE_FORMATS = ("%d/%m/%y", "%d-%b-%y", "%Y-%m-%d", "%d/%m/%Y")
MAX_TEXT = 4_000


class TedCsvSource:
    info = INFO
    suffixes: tuple[str, ...] = (".csv", ".csv.gz", ".zip")

    def parse(self, stream: IO[bytes], name: str) -> Iterator[TedNotice | RecordError | Skipped]:
        text = io.TextIOWrapper(buffered(stream), encoding="utf-8-sig", newline="")
        reader = csv.reader(text, strict=True)
        try:
            header = next(reader, None)
            if header is None:
                raise SourceAbort(f"{name}: empty file")
            missing = [c for c in REQUIRED if c not in header]
            if missing:
                raise SourceAbort(f"{name}: not a TED contract award CSV (no column {', '.join(missing)})")
            yield from _notices(reader, header, name)
        except csv.Error as exc:
            raise SourceAbort(f"{name}: malformed CSV at line {reader.line_num}: {exc}") from None
        except UnicodeDecodeError as exc:
            raise SourceAbort(f"{name}: not UTF-8 text: {exc}") from None

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        """Written by the public-money area's section loader, not the company loader."""
        from regintel.areas.public_money.importing import run_section_import

        return run_section_import(engine, self, location, data_dir)


def _notices(reader: Any, header: list[str], name: str) -> Iterator[TedNotice | RecordError | Skipped]:
    """The rows grouped by notice, one notice at a time (the export keeps a notice's rows together)."""
    done: set[str] = set()
    group: list[dict[str, str]] = []
    for fields in reader:
        if len(fields) != len(header):
            raise SourceAbort(
                f"{name}: line {reader.line_num} has {len(fields)} fields, the header {len(header)} "
                "(the file is cut short or not this export)"
            )
        row = dict(zip(header, (f.strip() for f in fields), strict=True))
        if group and row["ID_NOTICE_CAN"] != group[0]["ID_NOTICE_CAN"]:
            yield _notice(group, done)
            group = []
        group.append(row)
    if group:
        yield _notice(group, done)


def _notice(rows: list[dict[str, str]], done: set[str]) -> TedNotice | RecordError | Skipped:
    first = rows[0]
    key = first["ID_NOTICE_CAN"]
    if key in done:
        return RecordError(f"rows of notice {key} are not together in the file", {"ID_NOTICE_CAN": key})
    done.add(key)
    if first.get("CANCELLED") == "1":
        return Skipped("cancelled notices")
    try:
        return parse_notice(rows)
    except (ValueError, InvalidOperation) as exc:
        return RecordError(f"notice {key}: {exc}", first)


def parse_notice(rows: list[dict[str, str]]) -> TedNotice:
    """One notice from its rows (ValueError for a value the codebook does not allow)."""
    first = rows[0]
    key = first["ID_NOTICE_CAN"]
    if not _ID.fullmatch(key):
        raise ValueError(f"ID_NOTICE_CAN {key!r} is not a notice number")
    issued = _date(first["DT_DISPATCH"], "DT_DISPATCH")
    if issued is None:
        raise ValueError("no DT_DISPATCH")
    country = _country(first["ISO_COUNTRY_CODE"])
    cpv_main = _cpv(first.get("CPV"))
    extra = [_cpv(c) for c in (first.get("ADDITIONAL_CPVS") or "").split(MULTI)]
    awards, lots = _awards(rows)
    buyer = Org(
        ref="CAE",
        name=first["CAE_NAME"],
        country=country,
        national_id=first.get("CAE_NATIONALID") or None,
        city=first.get("CAE_TOWN") or None,
        address=first.get("CAE_ADDRESS") or None,
    )
    total = _money(first.get("VALUE_EURO"), "VALUE_EURO")
    return TedNotice(
        notice_id=key,
        version=None,
        publication_number=_publication(first),
        form="ContractAwardNotice",
        notice_type=None,
        subtype=None,
        issue_date=issued,
        language=None,
        title=_text(first.get("TITLE")),
        description=None,
        procedure=first.get("TOP_TYPE") or None,
        nature=NATURE.get(first.get("TYPE_OF_CONTRACT", "")),
        cpv_main=cpv_main,
        cpv_codes=tuple(dict.fromkeys(c for c in (cpv_main, *extra) if c)),
        country=country,
        estimated_value=None,
        estimated_currency=None,
        total_value=total,
        total_currency="EUR" if total is not None else None,
        buyer_legal_type=first.get("CAE_TYPE") or None,
        buyers=(buyer,) if buyer.name else (),
        lots=lots,
        awards=awards,
    )


def _awards(rows: list[dict[str, str]]) -> tuple[tuple[TedAward, ...], tuple[TedLot, ...]]:
    """One award per `ID_AWARD` (repeated rows of the same award add nothing), one award per winner of a
    group; the lots awarded, titled by their award's title."""
    awards: dict[tuple[str, str], TedAward] = {}
    lots: dict[str, TedLot] = {}
    for row in rows:
        award_id = row["ID_AWARD"]
        if not award_id or not row["WIN_NAME"]:
            continue  # an unsuccessful lot (INFO_ON_NON_AWARD) or a row of criteria only
        lot_id = row.get("ID_LOT_AWARDED") or award_id
        title = _text(row.get("TITLE"))
        lots.setdefault(lot_id, TedLot(lot_id, title, None, None, None))
        value = _money(row.get("AWARD_VALUE_EURO"), "AWARD_VALUE_EURO")
        names = row["WIN_NAME"].split(MULTI)
        columns = {c: (row.get(c) or "").split(MULTI) for c in ("WIN_NATIONALID", "WIN_TOWN", "WIN_ADDRESS")}
        countries = (row.get("WIN_COUNTRY_CODE") or "").split(MULTI)
        for i, winner in enumerate(n.strip() for n in names):
            if not winner:
                continue
            org = Org(
                ref=f"W{award_id}-{i + 1}"[:32],
                name=winner,
                country=_country(_at(countries, i) or ""),
                national_id=_at(columns["WIN_NATIONALID"], i),
                city=_at(columns["WIN_TOWN"], i),
                address=_at(columns["WIN_ADDRESS"], i),
            )
            awards.setdefault(
                (lot_id, org.ref),
                TedAward(
                    lot_id=lot_id,
                    winner=org,
                    contract_ref=row.get("CONTRACT_NUMBER") or None,
                    contract_title=title,
                    signed_on=_date(row.get("DT_AWARD"), "DT_AWARD"),
                    value=value,
                    currency="EUR" if value is not None else None,
                    group_lead=(i == 0) if len(names) > 1 else None,
                ),
            )
    return tuple(awards.values()), tuple(lots.values())


def _at(values: list[str], i: int) -> str | None:
    return (values[i].strip() or None) if i < len(values) else None


def _publication(row: dict[str, str]) -> str:
    """The publication number: from the notice URL when given, else from `ID_NOTICE_CAN` (year, then the
    number of the notice in that year's Official Journal S series: 2018123456 is 123456-2018)."""
    found = _PUB.search(row.get("TED_NOTICE_URL") or "")
    if found:
        return found.group(1)
    key = row["ID_NOTICE_CAN"]
    return f"{int(key[4:])}-{key[:4]}"


def _date(value: str | None, column: str) -> date | None:
    if not value:
        return None
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    raise ValueError(f"{column} {value!r} is not a date")


def _money(value: str | None, column: str) -> Decimal | None:
    if not value:
        return None
    try:
        amount = Decimal(value)
    except InvalidOperation:
        amount = Decimal("NaN")
    if not amount.is_finite() or amount < 0:
        raise ValueError(f"{column} {value!r} is not an amount")
    return amount if amount else None  # 0: not stated, as the codebook warns


def _cpv(value: str | None) -> str | None:
    """An 8-digit CPV code (spreadsheet exports drop the leading zero of divisions 03)."""
    digits = (value or "").split("-")[0].strip()
    if not digits:
        return None
    if not digits.isdigit() or len(digits) > 8:
        raise ValueError(f"CPV {value!r} is not a CPV code")
    return digits.zfill(8)


def _country(value: str) -> str | None:
    code = value.strip().upper()
    if not code:
        return None
    if len(code) != 2 or not code.isalpha():
        raise ValueError(f"country {value!r} is not an alpha-2 code")
    return COUNTRY.get(code, code)


def _text(value: str | None) -> str | None:
    return " ".join(value.split())[:MAX_TEXT] or None if value else None


# A section source: the runner hands it to its area (`import_into`), never to the company loader.
SOURCE = register(cast(Source, TedCsvSource()))
