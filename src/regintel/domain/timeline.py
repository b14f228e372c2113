"""A company's unified timeline (spec 2.3): gazette notices, register and financial-administration changes
from the change log, founding and dissolution, LEI registration, newest first. Pure: rows in, events out.

Change-log fields map to event types; fields without one (codes, size classes, normalised columns) stay
in `/companies/{ico}/history` only. Changes one source detected at one moment for one kind (a new
address in four columns) make one event listing each field. Flag flips a gazette source wrote are not
repeated: the notice that moved the flag is on the timeline.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

from regintel.domain.rows import Row

# Change-log field -> event type (docs/insolvency.md lists them).
CHANGE_TYPES = {
    "name": "name_change",
    "street": "address_change",
    "city": "address_change",
    "postal_code": "address_change",
    "address_text": "address_change",
    "status": "status_change",
    "legal_form": "legal_form_change",
    "legal_form_name": "legal_form_change",
    "nace_primary": "activity_change",
    "nace_codes": "activity_change",
    "vat_id": "vat_registration",
    "tax_id": "tax_registration",
    "roles": "officers_change",
    "in_bankruptcy": "bankruptcy",
    "in_restructuring": "restructuring",
    "in_liquidation": "liquidation",
}
PREFIX_TYPES = {"financials.": "financial_statement", "owner.": "ownership_change"}
TITLES = {
    "name_change": "Name changed",
    "address_change": "Registered address changed",
    "status_change": "Status changed",
    "legal_form_change": "Legal form changed",
    "activity_change": "Activities (NACE) changed",
    "vat_registration": "VAT registration changed",
    "tax_registration": "Tax number changed",
    "officers_change": "Officers or owners changed",
    "financial_statement": "Financial statement",
    "ownership_change": "Company owner changed",
}
FLAG_TITLES = {
    ("bankruptcy", "start"): "Bankruptcy reported",
    ("bankruptcy", "end"): "Bankruptcy ended",
    ("restructuring", "start"): "Restructuring reported",
    ("restructuring", "end"): "Restructuring ended",
    ("liquidation", "start"): "Liquidation reported",
    ("liquidation", "end"): "Liquidation ended",
}
EVENT_TYPES = (
    "bankruptcy",
    "restructuring",
    "liquidation",
    "contract",
    "founded",
    "dissolved",
    "lei_registered",
    *sorted(set(TITLES)),
)
FLAG_TYPES = ("bankruptcy", "restructuring", "liquidation")
FIELDS = (
    "id",
    "event_type",
    "phase",
    "date",
    "date_kind",
    "source",
    "title",
    "summary",
    "link",
    "court",
    "case_number",
    "reference",
    "published_on",
    "decision_date",
    "trustee",
    "detected_at",
    "changes",
)
# On one day: the founding first, then register changes, notices, the dissolution last.
_RANK = {"founded": 0, "change": 1, "lei": 1, "notice": 2, "dissolved": 3}


def change_type(field: str) -> str | None:
    if field in CHANGE_TYPES:
        return CHANGE_TYPES[field]
    return next((kind for prefix, kind in PREFIX_TYPES.items() if field.startswith(prefix)), None)


def event(key: tuple[str, int, int], **fields: Any) -> dict[str, Any]:
    """An event with every field present (null when it does not apply) and its sort key."""
    base: dict[str, Any] = dict.fromkeys(FIELDS)
    return {**base, **fields, "_key": key}


def from_notice(row: Row) -> dict[str, Any]:
    day: date = row["event_date"]
    return event(
        (day.isoformat(), _RANK["notice"], int(row["id"])),
        id=f"notice:{row['id']}",
        event_type=row["event_type"],
        phase=row["phase"],
        date=day,
        date_kind="effective",
        source=row["source"],
        title=row["title"],
        summary=row["summary"],
        link=row["link"],
        court=row["court"],
        case_number=row["case_number"],
        reference=row["reference"],
        published_on=row["published_on"],
        decision_date=row["decision_date"],
        trustee=row["trustee"],
    )


def from_changes(rows: Iterable[Row], gazette_sources: set[str]) -> list[dict[str, Any]]:
    """Change-log rows (any order) grouped into events: one per (source, detection time, event type,
    and statement year for financials)."""
    groups: dict[tuple[str, datetime, str, str], list[Row]] = {}
    for row in rows:
        kind = change_type(row["field"])
        if kind is None or row["field"] == "created":
            continue
        if kind in FLAG_TYPES and row["source"] in gazette_sources:
            continue
        year = row["field"].split(".")[1] if kind == "financial_statement" else ""
        groups.setdefault((row["source"], row["detected_at"], kind, year), []).append(row)
    return [
        _change_event(kind, year, sorted(members, key=lambda r: r["id"]))
        for (_, _, kind, year), members in groups.items()
    ]


def _change_event(kind: str, year: str, rows: Sequence[Row]) -> dict[str, Any]:
    first = rows[0]
    detected: datetime = first["detected_at"]
    changes = [{"field": r["field"], "from": r["old_value"], "to": r["new_value"]} for r in rows]
    phase, title = None, TITLES.get(kind, kind)
    if kind in FLAG_TYPES:
        phase = "start" if first["new_value"] == "true" else "end"
        title = FLAG_TITLES[(kind, phase)]
    elif kind == "financial_statement":
        title = f"Financial statement {year}"
    return event(
        (detected.date().isoformat(), _RANK["change"], int(first["id"])),
        id=f"change:{first['id']}",
        event_type=kind,
        phase=phase,
        date=detected.date(),
        date_kind="detected",
        source=first["source"],
        title=title,
        changes=changes,
        detected_at=detected,
    )


def from_company(row: Row) -> list[dict[str, Any]]:
    """Founding and dissolution from the company record's dates."""
    out = []
    for kind, column in (("founded", "founded_on"), ("dissolved", "dissolved_on")):
        day = row[column]
        if day is not None:
            out.append(
                event(
                    (day.isoformat(), _RANK[kind], 0),
                    id=kind,
                    event_type=kind,
                    date=day,
                    date_kind="effective",
                    source=row["source"],
                    title="Company founded" if kind == "founded" else "Company dissolved",
                )
            )
    return out


def from_lei(row: Row) -> dict[str, Any] | None:
    registered = row["initial_registration"]
    if registered is None:
        return None
    return event(
        (registered.date().isoformat(), _RANK["lei"], 0),
        id=f"lei:{row['lei']}",
        event_type="lei_registered",
        date=registered.date(),
        date_kind="effective",
        source=row["source"],
        title=f"LEI {row['lei']} registered (now {row['registration_status']})",
        link=f"https://search.gleif.org/#/record/{row['lei']}",
    )


def page(
    events: list[dict[str, Any]], cursor: tuple[str, int, int] | None, limit: int, types: set[str] | None
) -> tuple[list[dict[str, Any]], tuple[str, int, int] | None]:
    """Newest first; events strictly older than `cursor`; (page, cursor of the next page or None)."""
    ordered = sorted(
        (e for e in events if types is None or e["event_type"] in types),
        key=lambda e: e["_key"],
        reverse=True,
    )
    if cursor is not None:
        ordered = [e for e in ordered if e["_key"] < cursor]
    chunk = ordered[:limit]
    next_key = chunk[-1]["_key"] if len(ordered) > limit else None
    return [{k: v for k, v in e.items() if k != "_key"} for e in chunk], next_key


def encode_cursor(key: tuple[str, int, int]) -> str:
    return base64.urlsafe_b64encode(f"t:{key[0]}:{key[1]}:{key[2]}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, int, int]:
    """ValueError for anything this module did not write."""
    text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    kind, day, rank, number = text.split(":")
    if kind != "t":
        raise ValueError(cursor)
    date.fromisoformat(day)
    return day, int(rank), int(number)
