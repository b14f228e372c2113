"""OFAC Specially Designated Nationals list, legacy delimited files (`dat_spec.txt`).

A set of four headerless CSV files, latin-1, `-0-` for empty, ending with a Ctrl-Z byte: `sdn.csv`
(ent_num, name, type, programmes `A] [B`, …, remarks), `alt.csv` (aka/fka/nka aliases), `add.csv`
(addresses) and `sdn_comments.csv` (remarks overflow). The input is the `sdn.csv` file (its siblings are
found beside it, with or without an `ofac_` prefix) or the folder holding them. The remarks carry the
birth dates, nationalities and identity documents (`DOB 10 Dec 1948; nationality Iran; Passport A1`).
The legacy files do not flag weak aliases (the advanced XML does): every alias is kept as an alias.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from regintel.ingest.base import SourceAbort, SourceInfo
from regintel.ingest.sources.sanctions_common import (
    ListedEntry,
    ListedIdentifier,
    ListedName,
    SanctionSource,
    clean,
    country_code,
    register_list,
)

INFO = SourceInfo(
    id="sanctions_ofac",
    name="OFAC Specially Designated Nationals (SDN) list",
    publisher="US Department of the Treasury, Office of Foreign Assets Control",
    country="US",
    category="sanctions",
    formats="CSV (legacy SDN set: sdn, add, alt, sdn_comments)",
    licence="US Government work, public domain",
    attribution="Source: U.S. Treasury OFAC SDN list",
    url="https://sanctionslist.ofac.treas.gov/",
    cadence="daily",
)
_SCHEMAS = {"individual": "person", "vessel": "vessel", "aircraft": "aircraft"}
_DOB = re.compile(
    r"^(?:circa |approximately )?(?:(\d{1,2}) )?(?:([A-Z][a-z]{2}) )?(\d{4})"
    r"(?: to (?:\d{1,2} )?(?:[A-Z][a-z]{2} )?(\d{4}))?$"
)
_IDS = (
    ("Passport", "passport"),
    ("National ID No.", "national_id"),
    ("Tax ID No.", "tax_id"),
    ("Registration ID", "registration"),
    ("Cedula No.", "cedula"),
    ("NIT #", "nit"),
    ("RFC", "rfc"),
    ("SSN", "ssn"),
    ("Vessel Registration Identification IMO", "imo"),
    ("SWIFT/BIC", "swift"),
    ("Identification Number", "id"),
    ("C.U.I.T.", "cuit"),
    ("D.N.I.", "dni"),
    ("CURP #", "curp"),
)
_NUMBER = re.compile(r"^\s*([A-Z0-9][A-Z0-9./-]{2,})\s*(?:\(([^)]*)\))?", re.IGNORECASE)


def _value(cell: str) -> str | None:
    value = cell.strip()
    return None if value in ("", "-0-") else value


def _rows(path: Path) -> Iterator[list[str]]:
    text = path.read_bytes().decode("latin-1").rstrip("\x1a\r\n ")
    for row in csv.reader(io.StringIO(text)):
        if row:
            yield row


def _sibling(folder: Path, stem: str) -> Path | None:
    for name in (f"{stem}.csv", f"ofac_{stem}.csv", f"{stem.upper()}.CSV"):
        if (folder / name).is_file():
            return folder / name
    return None


def _dob(text: str) -> list[str]:
    m = _DOB.match(text.strip())
    if not m:
        return []
    day, month, year, to_year = m.groups()
    if to_year:
        return [str(y) for y in range(int(year), int(to_year) + 1)][:11]
    if month:
        mm = datetime.strptime(month, "%b").month
        return [f"{year}-{mm:02d}-{int(day):02d}" if day else f"{year}-{mm:02d}"]
    return [year]


def _remarks(entry: ListedEntry, remarks: str) -> None:
    for part in (p.strip() for p in remarks.split(";")):
        part = part.removeprefix("alt. ").strip()
        if part.startswith("DOB "):
            entry.birth_dates.extend(_dob(part[4:]))
        elif part.startswith(("nationality ", "citizen ")):
            if code := country_code(part.split(" ", 1)[1]):
                entry.countries.append((code, part.split(" ", 1)[0]))
        else:
            for label, kind in _IDS:
                if part.startswith(label + " ") and (m := _NUMBER.match(part[len(label) + 1 :])):
                    entry.identifiers.append(ListedIdentifier(kind, m.group(1), country_code(m.group(2))))
                    break


def parse(path: Path) -> Iterator[ListedEntry]:
    folder, sdn = (path, _sibling(path, "sdn")) if path.is_dir() else (path.parent, path)
    if sdn is None or not sdn.is_file():
        raise SourceAbort(f"{path}: no sdn.csv (OFAC SDN legacy CSV) found")
    aliases: dict[str, list[ListedName]] = defaultdict(list)
    if alt := _sibling(folder, "alt"):
        for row in _rows(alt):
            if len(row) >= 4 and (name := _value(row[3])):
                aliases[row[0].strip()].append(ListedName(name, "alias"))
    countries: dict[str, list[tuple[str, str]]] = defaultdict(list)
    if add := _sibling(folder, "add"):
        for row in _rows(add):
            if len(row) >= 5 and (code := country_code(_value(row[4]))):
                countries[row[0].strip()].append((code, "address"))
    overflow = (
        {row[0].strip(): row[1] for row in _rows(c) if len(row) >= 2}
        if (c := _sibling(folder, "sdn_comments"))
        else {}
    )
    for n, row in enumerate(_rows(sdn), 1):
        if len(row) < 12 or not row[0].strip().isdigit() or not _value(row[1]):
            raise SourceAbort(f"{sdn.name} line {n}: not an OFAC SDN row (12 fields, ent_num first)")
        key = row[0].strip()
        entry = ListedEntry(
            key=key,
            schema=_SCHEMAS.get((_value(row[2]) or "").lower(), "organization"),
            names=[ListedName(row[1].strip(), "primary"), *aliases.get(key, [])],
            programmes=[p.strip() for p in (_value(row[3]) or "").split("] [") if p.strip()],
            countries=list(countries.get(key, [])),
        )
        remarks = (_value(row[11]) or "") + (overflow.get(key) or "")
        entry.remarks = clean(remarks)
        _remarks(entry, remarks)
        yield entry


SOURCE = register_list(SanctionSource(INFO, parse))
