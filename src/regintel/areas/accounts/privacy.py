"""The operator's side of data-protection requests (`regintel privacy list|show|answer`, docs/accounts.md
"Privacy requests"): open requests with their one-month deadline, the register's natural-person records a
request may be about, and the answer, which for a verified `erase` or `object` can withhold the records the
operator matched to the requester.

Withholding is done at the data, once, rather than by a check in every reader: the person's roles and
person row are deleted (so no endpoint, export, feed, graph or brief can show them, whatever query it runs),
the names in the company change log are replaced, and the person key is kept in
`privacy_person_suppressions` so re-imports skip the person (`ingest/sections.py::load_roles`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from regintel.areas.accounts import queries as q
from regintel.db.schema import companies, company_changes, people, roles
from regintel.domain.names import normalise_name
from regintel.errors import Conflict, NotFound, ValidationFailed

WITHHELD = "[withheld]"  # what the change log says instead of a withheld person's name
MAX_CANDIDATES = 50


def _aware(value: datetime | None) -> datetime | None:
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def request_out(row: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    due = _aware(row["due_at"])
    out = {k: _aware(v) if isinstance(v, datetime) else v for k, v in row.items() if k != "person_keys"}
    out["person_keys"] = json.loads(row["person_keys"]) if row["person_keys"] else []
    out["days_left"] = None if due is None or row["status"] == "done" else (due - now).days
    out["overdue"] = bool(due is not None and row["status"] != "done" and due < now)
    return out


def list_requests(conn: Connection, open_only: bool = True) -> list[dict[str, Any]]:
    """Requests by deadline (the soonest first; unverified ones, which have none, last)."""
    now = datetime.now(UTC)
    return [request_out(r, now) for r in q.all_requests(conn, open_only)]


def _request(conn: Connection, request_id: int) -> Mapping[str, Any]:
    row = q.get_request(conn, request_id)
    if row is None:
        raise NotFound(f"No privacy request {request_id}")
    return row


def candidates(conn: Connection, row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Register persons the request may be about: those it names by key, and those with the name it gives
    (the operator compares birth date and companies with the requester before withholding any)."""
    keys = json.loads(row["person_keys"]) if row["person_keys"] else []
    name = normalise_name(row["person_name"] or "")
    clauses: list[ColumnElement[bool]] = [people.c.person_key.in_(keys)] if keys else []
    if name:
        clauses.append(people.c.name_norm == name)
    if not clauses:
        return []
    found = conn.execute(select(people).where(or_(*clauses)).order_by(people.c.name, people.c.id)
                         .limit(MAX_CANDIDATES)).mappings().all()
    out = []
    for p in found:
        held = conn.execute(select(companies.c.country, companies.c.national_id, companies.c.name, roles.c.role)
                            .join(companies, companies.c.id == roles.c.company_id)
                            .where(roles.c.person_id == p["id"]).order_by(companies.c.name)).mappings().all()
        out.append({"person_key": p["person_key"], "name": p["name"], "birth_date": p["birth_date"],
                    "nationality": p["nationality"], "country_of_residence": p["country_of_residence"],
                    "source": p["source"], "named_by_key": p["person_key"] in keys,
                    "roles": [f"{r['role']} of {r['name']} ({r['country']} {r['national_id']})" for r in held]})
    return out


def show_request(conn: Connection, request_id: int) -> dict[str, Any]:
    row = _request(conn, request_id)
    return {"request": request_out(row, datetime.now(UTC)), "candidates": candidates(conn, row),
            "withheld": [{k: _aware(v) if isinstance(v, datetime) else v for k, v in s.items()}
                         for s in q.person_suppressions_of(conn, request_id)]}


def withhold_person(conn: Connection, person_key: str, request_id: int | None, reason: str,
                    now: datetime) -> int:
    """Remove one natural person from the register data and keep them out; returns the roles removed."""
    person_key = person_key.removeprefix("p:")
    if q.is_person_suppressed(conn, person_key):
        return 0
    person = conn.execute(select(people.c.id, people.c.name).where(people.c.person_key == person_key)).first()
    if person is None:
        raise NotFound(f"No register person with key p:{person_key}")
    held = or_(roles.c.person_id == person.id, roles.c.holder_key == f"p:{person_key}")
    names = {str(n) for n in conn.execute(select(roles.c.holder_name).where(held)).scalars()} | {str(person.name)}
    company_ids = sorted({int(c) for c in conn.execute(select(roles.c.company_id).where(held)).scalars()})
    removed = int(conn.execute(delete(roles).where(held)).rowcount)
    _redact_changes(conn, company_ids, names)
    conn.execute(delete(people).where(people.c.id == person.id))
    q.insert_person_suppression(conn, person_key=person_key, request_id=request_id, reason=reason,
                                roles_removed=removed, created_at=now)
    if company_ids:  # the companies' documents change: search indexes and caches see them as updated
        conn.execute(update(companies).where(companies.c.id.in_(company_ids)).values(updated_at=now))
    return removed


def _redact_changes(conn: Connection, company_ids: Sequence[int], names: set[str]) -> None:
    """The change log keeps that roles changed, not the withheld person's name (old and new values are
    `role: name; …` summaries, ingest/sections.py)."""
    if not company_ids:
        return
    rows = conn.execute(select(company_changes.c.id, company_changes.c.old_value, company_changes.c.new_value)
                        .where(company_changes.c.company_id.in_(list(company_ids)))).all()
    for change_id, old, new in rows:
        fixed = [_redact(v, names) for v in (old, new)]
        if fixed != [old, new]:
            conn.execute(update(company_changes).where(company_changes.c.id == change_id)
                         .values(old_value=fixed[0], new_value=fixed[1]))


def _redact(value: str | None, names: set[str]) -> str | None:
    if value is None:
        return None
    for name in sorted(names, key=len, reverse=True):  # a longer name first, so a shorter one inside it stays
        value = value.replace(name, WITHHELD)
    return value


def answer_request(conn: Connection, request_id: int, outcome: str, withhold: Sequence[str] = ()) -> dict[str, Any]:
    """Close a verified request with the operator's answer; for erase/object, withhold the person records
    the operator matched to the requester first."""
    row = _request(conn, request_id)
    if row["status"] == "unverified":
        raise Conflict(f"Request {request_id} is not verified: the requester has not confirmed the address")
    if not outcome.strip():
        raise ValidationFailed("Say what was done (the answer is kept with the request)")
    if withhold and row["kind"] not in ("erase", "object"):
        raise ValidationFailed(f"Only erase and object requests withhold register records, not {row['kind']}")
    now = datetime.now(UTC)
    removed = {key.removeprefix("p:"): withhold_person(conn, key, request_id, str(row["kind"]), now)
               for key in withhold}
    text = outcome.strip()
    if removed:
        text += f" [withheld register persons: {', '.join(f'p:{k}' for k in sorted(removed))}]"
    previous = row["outcome"]
    q.update_request(conn, request_id, status="done", done_at=now,
                     outcome=f"{previous}; operator: {text}" if previous else f"operator: {text}")
    return {**show_request(conn, request_id), "roles_removed": sum(removed.values())}
