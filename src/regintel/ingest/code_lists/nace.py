"""NACE Rev. 2 (Eurostat, four levels) with the Slovak 5-digit SK NACE subclasses as a fifth level."""

from __future__ import annotations

from collections import defaultdict

from regintel.domain.code_lists import CodeListItem
from regintel.ingest.code_lists.files import read_csv


def subclass_code(ruz_code: str) -> str:
    """RÚZ writes SK NACE subclasses as five digits ("01110"); the notation of SK NACE is "01.11.0"."""
    if len(ruz_code) != 5 or not ruz_code.isdigit():
        raise ValueError(f"not an SK NACE subclass: {ruz_code!r}")
    return f"{ruz_code[:2]}.{ruz_code[2:4]}.{ruz_code[4]}"


def class_of(subclass: str) -> str:
    return subclass[:5]


def build_nace() -> list[CodeListItem]:
    """Sections, divisions, groups and classes with parents, then the SK subclasses under their class."""
    subclasses = read_csv("sk_nace.csv")
    by_class: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in subclasses:
        by_class[class_of(subclass_code(row["code"]))].append(row)
    labels: dict[str, str] = {}
    items = []
    for row in read_csv("nace_rev2_eurostat.csv"):
        labels[row["code"]] = row["label"]
        items.append(_eurostat_item(row, by_class.get(row["code"], [])))
    for row in subclasses:
        items.append(_subclass_item(row, by_class, labels))
    return items


def _sole_subclass(rows: list[dict[str, str]]) -> dict[str, str] | None:
    """The subclass that is the whole class ("x0" and alone), whose Slovak title is the class's."""
    if len(rows) == 1 and rows[0]["code"].endswith("0"):
        return rows[0]
    return None


def _eurostat_item(row: dict[str, str], subclasses: list[dict[str, str]]) -> CodeListItem:
    sole = _sole_subclass(subclasses)
    extra = {"isic": row["isic"], "section": row["section"], "level_name": row["level_name"]}
    return CodeListItem(
        code=row["code"],
        name_en=row["label"],
        name_sk=sole["name_sk"] if sole else row["label"],
        name_sk_fallback=sole is None,
        parent=row["parent"] or None,
        level=int(row["level"]),
        extra=extra,
    )


def _subclass_item(
    row: dict[str, str], by_class: dict[str, list[dict[str, str]]], labels: dict[str, str]
) -> CodeListItem:
    code = subclass_code(row["code"])
    parent = class_of(code)
    if parent not in labels:
        raise ValueError(f"SK NACE subclass {code} has no NACE class {parent}")
    # RÚZ's English titles are abbreviated to 24 characters; a subclass that is its whole class
    # takes the class's full Eurostat title instead.
    sole = _sole_subclass(by_class[parent]) is not None
    return CodeListItem(
        code=code,
        name_sk=row["name_sk"],
        name_en=labels[parent] if sole else row["name_en"],
        parent=parent,
        level=5,
        extra={"scheme": "SK NACE Rev. 2", "ruz_code": row["code"]},
    )
