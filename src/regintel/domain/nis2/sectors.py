"""NACE Rev. 2 → NIS2 sectors (Annex I and II of Directive (EU) 2022/2555), read from
`regintel/data/nis2/nace_sectors.csv` (one row per NACE code and entity type, each with the Annex point
and a justification; see docs/nis2.md).

A row's NACE code is a division (`26`), a group (`46.3`) or a class (`35.11`); a company's code matches
the rows of its class, its group and its division. `match` says how sure the NACE code
alone makes the sector: `certain` (the class is the listed activity), `likely` (it mostly is), `possible`
(the listed activity is a part of the class)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from regintel.domain.nace import digits

MATCHES = ("certain", "likely", "possible")
ANNEXES = ("I", "II")
_COLUMNS = ("nace", "annex", "sector", "subsector", "entity_type", "match", "annex_ref", "justification")


@dataclass(frozen=True)
class SectorRow:
    nace: str
    annex: str
    sector: str
    subsector: str | None
    entity_type: str
    match: str
    annex_ref: str
    justification: str


@dataclass(frozen=True)
class SectorMatch:
    """A company's NACE code that led to a sector row; `via` is `primary` or `secondary`."""

    code: str
    via: str
    row: SectorRow

    @property
    def match(self) -> str:
        """A secondary activity is never more than `possible`: it may be a minor part of the business."""
        return self.row.match if self.via == "primary" else "possible"


def parse_rows(text: str) -> list[SectorRow]:
    """Rows of the mapping file, checked: unknown annex, match or a malformed code raise ValueError."""
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != _COLUMNS:
        raise ValueError(f"nace_sectors.csv columns must be {_COLUMNS}, not {reader.fieldnames}")
    rows = []
    for n, raw in enumerate(reader, start=2):
        code = raw["nace"].strip()
        compact = code.replace(".", "")
        if not compact.isdigit() or not 2 <= len(compact) <= 4 or (len(compact) > 2 and code[2] != "."):
            raise ValueError(f"line {n}: {code!r} is not a NACE division, group or class")
        if raw["annex"] not in ANNEXES or raw["match"] not in MATCHES:
            raise ValueError(f"line {n}: annex {raw['annex']!r} or match {raw['match']!r} unknown")
        if not (raw["sector"] and raw["entity_type"] and raw["annex_ref"] and raw["justification"]):
            raise ValueError(f"line {n}: sector, entity_type, annex_ref and justification are required")
        rows.append(
            SectorRow(
                code,
                raw["annex"],
                raw["sector"],
                raw["subsector"] or None,
                raw["entity_type"],
                raw["match"],
                raw["annex_ref"],
                raw["justification"],
            )
        )
    return rows


@cache
def sector_rows() -> tuple[SectorRow, ...]:
    text = files("regintel").joinpath("data/nis2/nace_sectors.csv").read_text(encoding="utf-8")
    return tuple(parse_rows(text))


@cache
def _by_digits() -> dict[str, tuple[SectorRow, ...]]:
    out: dict[str, list[SectorRow]] = {}
    for row in sector_rows():
        out.setdefault(row.nace.replace(".", ""), []).append(row)
    return {k: tuple(v) for k, v in out.items()}


def rows_for(code: str | None) -> tuple[SectorRow, ...]:
    """The mapping rows of one stored NACE code in any national spelling (`35.11`, `35110`, `62.01Z`):
    its class's rows, then its group's, then its division's (`26.60` is both a medical-device class and
    part of division 26)."""
    found = digits(code)
    if found is None:
        return ()
    table = _by_digits()
    return tuple(row for width in (4, 3, 2) if len(found) >= width for row in table.get(found[:width], ()))


def match_company(nace_primary: str | None, nace_codes: list[str] | None) -> list[SectorMatch]:
    """Every sector row the company's NACE codes lead to: the primary code's, then the other codes'
    (each row once, the primary's kept when both lead to it)."""
    out: list[SectorMatch] = []
    seen: set[SectorRow] = set()
    codes = [(nace_primary, "primary")] + [(c, "secondary") for c in (nace_codes or []) if c != nace_primary]
    for code, via in codes:
        if not isinstance(code, str):
            continue
        for row in rows_for(code):
            if row not in seen:
                seen.add(row)
                out.append(SectorMatch(code, via, row))
    return out
