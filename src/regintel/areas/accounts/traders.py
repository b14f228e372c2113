"""Withholding a sole trader (docs/accounts.md, "Withholding a natural person"): when the requester is
registered as a sole trader, the register entry is a company row, so that row is what is set aside.

As for register persons, it is done at the data: the company row and every row that hangs on it (found
by walking the foreign keys of the schema, so a table added later is covered without a change here) are
kept as they were in `privacy_withheld_rows` under `c:COUNTRY:ID` and taken out in one transaction; rows
of other tables that only point at the company (`ON DELETE SET NULL`: contracts, legal-record parties, …)
keep existing and lose the link, which is kept too. Lookups then answer 404 and search, lists and feeds
omit it, whatever query they run. `lift` puts everything back under the same ids
(under new ones where SQLite gave an id to another row meanwhile). Only a company whose
legal form is a sole trader's can be withheld: the tool must not hide companies."""

from __future__ import annotations

import ast
import base64
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import orjson
from sqlalchemy import Date, DateTime, LargeBinary, Numeric, Table
from sqlalchemy.engine import Connection

from regintel.areas.accounts import jobs, outbox
from regintel.areas.accounts import queries as q
from regintel.areas.enrich import privacy as enrich
from regintel.db.schema import companies, metadata, people
from regintel.domain.entity_types import entity_type
from regintel.errors import NotFound, ValidationFailed

KEY_PREFIX = "c:"


def company_key(country: str, national_id: str) -> str:
    return f"{KEY_PREFIX}{country.upper()}:{national_id}"


def parse_key(text: str) -> tuple[str, str]:
    """`SK:12345678` or `c:SK:12345678` → ("SK", "12345678")."""
    country, _, national_id = text.removeprefix(KEY_PREFIX).partition(":")
    if len(country) != 2 or not national_id:
        raise ValidationFailed(f"Name the company as COUNTRY:NATIONAL_ID (e.g. SK:12345678), not {text!r}")
    return country.upper(), national_id


def _referring(table: Table) -> list[tuple[Table, str, str | None]]:
    """(table, column, ondelete) of every foreign key pointing at `table.id`."""
    out = []
    for other in metadata.sorted_tables:
        for fk in other.foreign_keys:
            if fk.column.table is table and fk.column.name == "id":
                out.append((other, fk.parent.name, fk.ondelete))
    return out


def _walk(conn: Connection, table: Table, ids: Sequence[int], kept: list[dict[str, Any]]) -> None:
    """Keep the rows that a delete of `ids` in `table` removes (cascades, recursively) or unlinks."""
    for other, column, ondelete in _referring(table):
        rows = q.rows_where_in(conn, other, column, ids)
        if not rows:
            continue
        cascade = (ondelete or "").upper() == "CASCADE"
        kept.extend(
            {"table_name": other.name, "row_id": int(r.get("id") or 0), "unlink": None if cascade else column}
            | {"data": {str(k): v for k, v in r.items()}}
            for r in rows
        )
        if cascade and "id" in other.c:
            _walk(conn, other, [int(r["id"]) for r in rows], kept)


def withhold_company(
    conn: Connection, country: str, national_id: str, request_id: int | None, reason: str, now: datetime
) -> int:
    """Set a sole trader's company row and what hangs on it aside; returns the rows kept."""
    row = q.company_row(conn, country, national_id)
    key = company_key(country, national_id)
    if row is None:
        raise NotFound(f"No company {country}:{national_id}")
    if entity_type(country, row["legal_form"]) != "sole_trader":
        raise ValidationFailed(
            f"{country}:{national_id} is not a sole trader (legal form {row['legal_form']!r}): only the "
            "register entry of a natural person is withheld"
        )
    kept: list[dict[str, Any]] = [
        {"table_name": "companies", "row_id": int(row["id"]), "unlink": None, "data": dict(row)}
    ]
    # the register persons of the entry who hold nothing else (the trader as owner of their business):
    # kept before the roles, so that a lift puts them back before the roles that point at them
    own = q.own_people(conn, int(row["id"]))
    kept += [{"table_name": "people", "row_id": int(p["id"]), "unlink": None, "data": p} for p in own]
    # roles the entry holds in other companies (a `c:` holder) name the trader there: set aside too, before
    # the walk would only unlink them (the name stays); re-imports skip the key (ingest/sections.py)
    holdings = q.roles_held_elsewhere(conn, int(row["id"]), key)
    kept += [{"table_name": "roles", "row_id": int(r["id"]), "unlink": None, "data": r} for r in holdings]
    if holdings:
        q.delete_roles(conn, [int(r["id"]) for r in holdings])
    # Withheld before and brought back by an import: the register's entry as imported now replaces the
    # one kept then (two entries of one key could not both be put back).
    q.delete_withheld(conn, key)
    _walk(conn, companies, [int(row["id"])], kept)
    q.insert_withheld(
        conn,
        [
            {
                "person_key": key,
                "table_name": k["table_name"],
                "row_id": k["row_id"],
                "data": orjson.dumps(
                    {"unlink": k["unlink"], "row": {str(c): v for c, v in k["data"].items()}}, default=_text
                ).decode(),
            }
            for k in kept
        ],
    )
    outbox.cancel_queued(conn, int(row["id"]))  # before the delete unlinks them from the changes
    q.delete_company(conn, int(row["id"]))  # the cascades take the rest
    if own:
        q.delete_people(conn, [int(p["id"]) for p in own])
    jobs.queue_search_sync(conn, now, company_ids=[int(row["id"])], people_ids=[int(p["id"]) for p in own])
    # stored enrichment answers of the entry (or naming the trader) are answered again without it
    enrich.withdraw(conn, key, {str(row["name"])} | {str(p["name"]) for p in own}, [national_id], now)
    q.record_action(conn, key, "withhold", request_id, now)
    if not q.is_person_suppressed(conn, key):
        q.insert_person_suppression(
            conn,
            person_key=key,
            request_id=request_id,
            reason=reason,
            roles_removed=len(kept),
            created_at=now,
        )
    return len(kept)


def _text(value: Any) -> str:
    """A kept value JSON cannot hold: bytes (a stored report's document) as base64, others as text."""
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode()
    return str(value)


def _bytes(value: str) -> bytes:
    # rows kept before base64 hold the bytes' repr (`b'...'`, never base64's alphabet)
    return bytes(ast.literal_eval(value)) if value[:2] in ("b'", 'b"') else base64.b64decode(value)


def _typed(table: Table, data: Mapping[str, Any]) -> dict[str, Any]:
    out = {}
    for name, value in data.items():
        kind = table.c[name].type
        if isinstance(value, str) and isinstance(kind, LargeBinary):
            value = _bytes(value)
        elif isinstance(value, str) and isinstance(kind, DateTime):
            value = datetime.fromisoformat(value)
        elif isinstance(value, str) and isinstance(kind, Date):
            value = date.fromisoformat(value)
        elif isinstance(value, str) and isinstance(kind, Numeric) and kind.asdecimal:
            value = Decimal(value)
        out[name] = value
    return out


def lift_company(conn: Connection, key: str) -> dict[str, int]:
    """Put a withheld sole trader back: the company row under its id, the rows that hung on it, the links of
    rows that pointed at it; the suppression ends (the request stays). Refused while the register has a
    company of that key again (an import brought it back: withhold it again with `reapply`, then lift)."""
    country, national_id = parse_key(key)
    key = company_key(country, national_id)
    if not q.is_person_suppressed(conn, key):
        raise NotFound(f"{key} is not withheld")
    if q.company_present(conn, country, national_id):
        raise ValidationFailed(f"{key} is in the register again: run `regintel privacy reapply` first")
    tables = {t.name: t for t in metadata.sorted_tables}
    restored = 0
    # SQLite gives a new row the highest id + 1, so the id of a withheld newest row may belong to another
    # row by now (PostgreSQL's sequences never reuse one): such a row comes back under a new id, and the
    # rows kept after it that point at it follow (`moved`: (table, old id) → new id).
    moved: dict[tuple[str, int], int] = {}
    back: list[tuple[str, int]] = []
    names: set[str] = set()
    for r in q.withheld_rows_of(conn, key):  # parents were kept before their children
        item = orjson.loads(r["data"])
        table, data = tables[str(r["table_name"])], _typed(tables[str(r["table_name"])], item["row"])
        for fk in table.foreign_keys:
            target = (fk.column.table.name, data.get(fk.parent.name))
            if fk.column.name == "id" and target in moved:
                data[fk.parent.name] = moved[target]
        if item["unlink"]:  # the row still exists, without its link
            column = item["unlink"]
            restored += q.relink_row(conn, table, data["id"], column, data[column])
            continue
        if table is people and (
            same := q.person_id_by_key(conn, data["person_key"])
        ):  # the register lists the person again by now (a role imported since): their roles join that row
            moved[("people", int(data["id"]))] = same
            continue
        old_id = data.get("id")
        if old_id is not None and q.row_exists(conn, table, old_id):
            new_id = q.insert_row_new_id(conn, table, {k: v for k, v in data.items() if k != "id"})
            moved[(table.name, int(old_id))] = new_id
        else:
            q.insert_row(conn, table, data)
        if table is companies or table is people:
            back.append((table.name, moved.get((table.name, int(data["id"])), int(data["id"]))))
            names.add(str(data["name"]))
        restored += 1
    q.end_withholding(conn, key)
    # restored as it was, so behind the index's watermark: the index is told
    jobs.queue_search_sync(
        conn,
        datetime.now(UTC),
        company_ids=[i for t, i in back if t == "companies"],
        people_ids=[i for t, i in back if t == "people"],
    )
    enrich.withdraw(conn, key, names, [national_id], datetime.now(UTC), lift=True)
    q.record_action(conn, key, "lift", None, datetime.now(UTC))
    return {"rows": restored}


def reapply_companies(conn: Connection, now: datetime) -> dict[str, int]:
    """Withhold again the sole traders an import wrote back into the register since."""
    out: dict[str, int] = {}
    for key in q.suppressed_keys(conn, KEY_PREFIX):
        country, national_id = parse_key(key)
        back = q.company_present(conn, country, national_id)
        out[key] = withhold_company(conn, country, national_id, None, "reapply", now) if back else 0
    return out
