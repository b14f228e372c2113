"""`/companies/stats/breakdown?by=…`: companies grouped by one dimension, under the advanced-search filters.

Each group: `key`, `label` (from the code lists where one names it), `count`, `share` of the matched
companies, and how many of them are in bankruptcy, in restructuring, in liquidation. Every figure is a
grouped count that an index starting with the dimension answers without reading company rows (the
flags through their partial indexes); dimensions finer than asked (NACE digits, NUTS 3, headcount
bands, legal forms) are rolled up here.
Dimensions whose data is not held answer 501 naming what is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pycountry
from sqlalchemy.engine import Connection

from regintel.areas.regulated.service import licensed_type_groups
from regintel.areas.stats import queries
from regintel.areas.stats.schemas import BreakdownGroup
from regintel.db import stats as db
from regintel.db.company_filters import Conditions, Reference, c
from regintel.db.schema import NACE_DIGITS
from regintel.domain.company_size import CATEGORIES, category
from regintel.domain.entity_types import TYPES, entity_type

FIGURES = ("count", "in_bankruptcy", "in_restructuring", "in_liquidation")
SHELL_BUCKETS = ("1", "2-4", "5-9", "10-49", "50-99", "100+")


@dataclass(frozen=True)
class Dimension:
    description: str
    keys: tuple[Any, ...] = ()
    # Group rows are rolled up in Python (few groups: divisions, bands, legal forms) by this function.
    rollup: Callable[[Mapping[str, Any], Reference], str | None] | None = None
    order: tuple[str, ...] | None = None  # a fixed order of keys instead of biggest first
    code_list: str | None = None
    national: bool = False  # codes mean something only within their country: key is "CC:code"


def _division(row: Mapping[str, Any], ref: Reference) -> str | None:
    key = row["key0"]
    return key[:2] if key and len(key) >= 2 and key[:2].isdigit() else None


def _section(row: Mapping[str, Any], ref: Reference) -> str | None:
    division = _division(row, ref)
    return next((s for s, divisions in ref.nace_divisions.items() if division in divisions), None)


def _class(row: Mapping[str, Any], ref: Reference) -> str | None:
    key = row["key0"]
    return f"{key[:2]}.{key[2:4]}" if key and len(key) >= 4 and key[:4].isdigit() else None


DIMENSIONS: dict[str, Dimension] = {
    "country": Dimension("ISO country of the register", (c.country,)),
    "status": Dimension("Register status (active, dissolved, inactive)", (c.status,)),
    "legal_form": Dimension("National legal-form code (`CC:code`)", (c.country, c.legal_form), national=True),
    "entity_type": Dimension(
        "Entity type derived from the legal form: " + ", ".join(TYPES),
        (c.country, c.legal_form),
        rollup=lambda r, _: entity_type(r["key0"], r["key1"]),
        order=TYPES,
    ),
    "nace": Dimension(
        "EU NACE class (`62.01`) of the primary activity", (NACE_DIGITS,), rollup=_class, code_list="nace"
    ),
    "nace_eu_division": Dimension(
        "NACE division (2 digits)", (NACE_DIGITS,), rollup=_division, code_list="nace"
    ),
    "nace_eu_section": Dimension(
        "NACE section (letter A-U)", (NACE_DIGITS,), rollup=_section, code_list="nace"
    ),
    "region": Dimension(
        "Region code of the register (`CC:code`; Slovak kraje named)",
        (c.country, c.region_code),
        code_list="regions",
        national=True,
    ),
    "district": Dimension(
        "District code (`CC:code`; Slovak okresy named)",
        (c.country, c.district_code),
        code_list="districts",
        national=True,
    ),
    "municipality": Dimension(
        "Municipality code (`CC:code`; Slovak obce named)",
        (c.country, c.municipality_code),
        code_list="municipalities",
        national=True,
    ),
    "nuts2": Dimension(
        "NUTS 2 region",
        (c.nuts3,),
        rollup=lambda r, _: r["key0"][:4] if r["key0"] else None,
        code_list="regions",
    ),
    "nuts3": Dimension("NUTS 3 region", (c.nuts3,), code_list="regions"),
    "size": Dimension(
        "EU size class by headcount band: micro, small, medium, large",
        (c.size_class,),
        rollup=lambda r, _: category(r["key0"]),
        order=(*CATEGORIES, "unknown"),
    ),
    "size_class": Dimension("Headcount band as published", (c.size_class,)),
    "founded_year": Dimension("Year of foundation", (db.year_of(c.founded_on),)),
    "lei_status": Dimension("GLEIF registration status of the company's LEI", ()),
    "source": Dimension("Data source that describes the company (a company may count under several)", ()),
    "shell_density": Dimension(
        "Companies by how many companies share their registered address: " + ", ".join(SHELL_BUCKETS),
        (),
        order=SHELL_BUCKETS,
    ),
    "licensed_type": Dimension(
        "Role of the licensed professionals practising through the company (lawyer, "
        "notary, bailiff, expert, interpreter, translator, tax_adviser; a company counts "
        "under each role it has)",
        (),
    ),
}


def breakdown(
    conn: Connection, by: str, cond: Conditions, ref: Reference, limit: int
) -> list[BreakdownGroup]:
    dim = DIMENSIONS[by]
    if by == "shell_density":
        return _shell_density(conn, cond)
    if by == "source":
        rows = db.grouped_by_source(conn, cond)
    elif by == "licensed_type":
        rows = licensed_type_groups(conn, cond)
    elif by == "lei_status":
        rows = queries.lei_status_groups(conn, cond)
    else:
        rows = db.grouped(conn, cond, dim.keys)
    items = _rolled_up(rows, dim, ref) if dim.rollup else [_item(r, dim) for r in rows]
    items.sort(key=lambda i: (-i["count"], str(i["key"])))
    if by == "founded_year":
        items.sort(key=lambda i: (i["key"] is None, str(i["key"])))
    order = dim.order
    if order:
        items.sort(key=lambda i: order.index(i["key"]) if i["key"] in order else len(order))
    _label(conn, dim, items)
    total = sum(i["count"] for i in items)
    for i in items:
        i["share"] = round(i["count"] / total, 4) if total else 0.0
    return [_group(i) for i in items[:limit]]


def _group(item: Mapping[str, Any]) -> BreakdownGroup:
    group = BreakdownGroup(key=item["key"], count=item["count"], share=item["share"])
    if "country" in item:
        group["country"] = item["country"]
    if "in_bankruptcy" in item:
        group["in_bankruptcy"] = item["in_bankruptcy"]
        group["in_restructuring"] = item["in_restructuring"]
        group["in_liquidation"] = item["in_liquidation"]
    if "label" in item:
        group["label"] = item["label"]
    return group


def _item(row: Mapping[str, Any], dim: Dimension) -> dict[str, Any]:
    key = (
        row["key0"]
        if not dim.national
        else (f"{row['key0']}:{row['key1']}" if row["key1"] is not None else None)
    )
    out: dict[str, Any] = {"key": None if key is None else str(key)}
    if dim.national:
        out["country"] = row["key0"]
    return out | {f: int(row[f]) for f in FIGURES}


def _rolled_up(rows: Sequence[Mapping[str, Any]], dim: Dimension, ref: Reference) -> list[dict[str, Any]]:
    assert dim.rollup is not None
    totals: dict[str | None, dict[str, int]] = {}
    for row in rows:
        key = dim.rollup(row, ref) or ("unknown" if dim.order else None)
        sums = totals.setdefault(key, dict.fromkeys(FIGURES, 0))
        for f in FIGURES:
            sums[f] += int(row[f])
    return [{"key": k} | v for k, v in totals.items()]


def _label(conn: Connection, dim: Dimension, items: list[dict[str, Any]]) -> None:
    if dim.keys and dim.keys[0] is c.country and not dim.national:
        for i in items:
            country = pycountry.countries.get(alpha_2=i["key"] or "")
            i["label"] = country.name if country else None
        return
    if dim.code_list is None:
        return
    codes = {_code(i, dim): i for i in items}
    found = db.labels(conn, dim.code_list, [k for k in codes if k])
    for code, item in codes.items():
        entry = found.get(code or "")
        # National code lists name one country's codes only (Slovak kraje, okresy, obce).
        country = (entry["extra"] or {}).get("country", "SK") if entry else None
        usable = entry is not None and (not dim.national or item.get("country") == country)
        item["label"] = entry["name_en"] if usable and entry is not None else None


def _code(item: Mapping[str, Any], dim: Dimension) -> str | None:
    key: str | None = item["key"]
    return key.split(":", 1)[1] if key and dim.national else key


def _shell_density(conn: Connection, cond: Conditions) -> list[BreakdownGroup]:
    rows = {r["bucket"]: r for r in db.address_density(conn, cond)}
    companies = sum(int(r["companies"]) for r in rows.values())
    return [
        BreakdownGroup(
            key=b,
            addresses=int(rows[b]["addresses"]) if b in rows else 0,
            count=int(rows[b]["companies"]) if b in rows else 0,
            share=round(int(rows[b]["companies"]) / companies, 4) if b in rows and companies else 0.0,
        )
        for b in SHELL_BUCKETS
    ]
