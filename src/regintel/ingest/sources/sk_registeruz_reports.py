"""The figures of a RÚZ report (`/api/uctovny-vykaz`): which cells of which template we read.

A report's `obsah.tabulky[i].data` is the flat list of its table's cells, row after row, as the
template `idSablony` lays them out (`/api/sablona?id=`): a balance sheet of assets ("Strana aktív"),
of equity and liabilities ("Strana pasív") and an income statement ("Výkaz ziskov a strát"). Empty
cells are "". Only templates listed here are read; docs/sources/sk_registeruz.md explains each cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from regintel.domain.names import fold
from regintel.ingest.base import RecordError

Json = dict[str, Any]


@dataclass(frozen=True)
class Table:
    name: str  # the table's name, folded ("strana aktiv"), checked against `nazov.sk`
    first_row: int  # the number (riadok) of its first row
    columns: int  # data columns per row; the current period's value is in `Cell.column`


@dataclass(frozen=True)
class Cell:
    table: int
    row: int
    column: int = 0


@dataclass(frozen=True)
class Template:
    id: int
    name: str
    tables: tuple[Table, ...]
    cells: dict[str, Cell]


_BALANCE_SHEETS = ("strana aktiv", "strana pasiv", "vykaz ziskov a strat")

TEMPLATES = {
    t.id: t
    for t in (
        # Úč POD: individual statements of entrepreneurs in double-entry bookkeeping (small and large
        # entities, the 2014 form). Assets r. 001-078 with 4 columns (gross, adjustment, net, previous
        # period net): the current net value is column 3. Equity and liabilities r. 079-145 and the
        # income statement r. 01-61, with 2 columns (current, previous period).
        Template(
            699,
            "Úč POD",
            (
                Table(_BALANCE_SHEETS[0], 1, 4),
                Table(_BALANCE_SHEETS[1], 79, 2),
                Table(_BALANCE_SHEETS[2], 1, 2),
            ),
            {
                "total_assets": Cell(0, 1, 2),  # r. 001 SPOLU MAJETOK (net)
                "equity": Cell(1, 80),  # r. 080 A. Vlastné imanie
                "liabilities": Cell(1, 101),  # r. 101 B. Záväzky
                "revenue": Cell(2, 1),  # r. 01 Čistý obrat (net turnover)
                "profit": Cell(2, 61),
            },
        ),  # r. 61 Výsledok hospodárenia za účtovné obdobie po zdanení
        # Úč MUJ: micro entities (MF/15464/2013-74). Assets r. 01-23, equity and liabilities r. 24-45,
        # income statement r. 01-38, all with 2 columns (current, previous period).
        Template(
            687,
            "Úč MUJ",
            (
                Table(_BALANCE_SHEETS[0], 1, 2),
                Table(_BALANCE_SHEETS[1], 24, 2),
                Table(_BALANCE_SHEETS[2], 1, 2),
            ),
            {
                "total_assets": Cell(0, 1),  # r. 01 SPOLU MAJETOK
                "equity": Cell(1, 25),  # r. 25 A. Vlastné imanie
                "liabilities": Cell(1, 34),  # r. 34 B. Záväzky
                "revenue": Cell(2, 1),  # r. 01 Čistý obrat
                "profit": Cell(2, 38),
            },
        ),  # r. 38 Výsledok hospodárenia za účtovné obdobie po zdanení
    )
}


def template_of(report: Json) -> Template | None:
    value = report.get("idSablony")
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).isdigit():
        return None
    return TEMPLATES.get(int(value))


def tables(report: Json) -> list[Json]:
    """The report's tables; empty when the report publishes no figures (non-public reports)."""
    content = report.get("obsah")
    if content is None:
        return []
    found = content.get("tabulky") if isinstance(content, dict) else None
    if not isinstance(found, list) or not all(isinstance(t, dict) for t in found):
        raise RecordError("obsah.tabulky is not a list of tables")
    return found


def figures(report: Json, template: Template) -> dict[str, Decimal | None]:
    """The mapped figures of a report laid out by `template`."""
    found = tables(report)
    if len(found) < len(template.tables):
        raise RecordError(
            f"template {template.id} has {len(template.tables)} tables, the report {len(found)}"
        )
    cells = [_cells(found[i], spec, template.id) for i, spec in enumerate(template.tables)]
    out = {}
    for name, cell in template.cells.items():
        spec = template.tables[cell.table]
        index = (cell.row - spec.first_row) * spec.columns + cell.column
        values = cells[cell.table]
        if index >= len(values):
            raise RecordError(f"template {template.id}: table {spec.name!r} has no row {cell.row}")
        out[name] = _number(values[index], f"{spec.name} r. {cell.row}")
    return out


def _cells(table: Json, spec: Table, template_id: int) -> list[Any]:
    name = table.get("nazov")
    label = name.get("sk") if isinstance(name, dict) else name
    if isinstance(label, str) and not fold(label).startswith(spec.name):
        raise RecordError(f"template {template_id}: expected table {spec.name!r}, found {label[:60]!r}")
    data = table.get("data")
    if not isinstance(data, list) or len(data) % spec.columns:
        raise RecordError(
            f"template {template_id}: table {spec.name!r} is not a list of {spec.columns}-column rows"
        )
    return data


def _number(value: Any, where: str) -> Decimal | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise RecordError(f"{where} is not a number: {str(value)[:40]!r}")
    try:
        number = Decimal(str(value).strip().replace(" ", "").replace(",", "."))
    except InvalidOperation:
        raise RecordError(f"{where} is not a number: {str(value)[:40]!r}") from None
    if not number.is_finite():
        raise RecordError(f"{where} is not a finite number: {value!r}")
    return number
