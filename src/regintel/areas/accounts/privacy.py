"""The operator's side of data-protection requests (`regintel privacy list|show|answer`, docs/accounts.md
"Privacy requests"): open requests with their one-month deadline, the register's natural-person records a
request may be about, and the answer, which for a verified `erase` or `object` can withhold the records the
operator matched to the requester.

Withholding is done at the data, once, rather than by a check in every reader: the person's roles and
person row are taken out of the served tables (so no endpoint, export, feed, graph or brief can show them,
whatever query it runs), the names in the company change log are replaced, and the person key is kept in
`privacy_person_suppressions` so re-imports skip the person (`ingest/sections.py::load_roles`). Nothing of
the register is lost: every row taken out or rewritten is kept as it was in `privacy_withheld_rows`, in the
same transaction, and `lift_person` (`regintel privacy lift`) puts it back, e.g. when an objection is
overruled (GDPR art. 21(1): compelling legitimate grounds) or a match turns out wrong."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

import orjson
from sqlalchemy import Date, DateTime, Table
from sqlalchemy.engine import Connection

from regintel.areas.accounts import jobs, outbox, traders
from regintel.areas.accounts import queries as q
from regintel.areas.enrich import privacy as enrich
from regintel.areas.legal_records import privacy as legal_records
from regintel.areas.reports import service as reports
from regintel.areas.screening import privacy as screening
from regintel.db.schema import company_changes, people, roles
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
    out = []
    for p in q.people_named(conn, keys, name, MAX_CANDIDATES):
        held = q.roles_of_person(conn, int(p["id"]))
        out.append(
            {
                "person_key": p["person_key"],
                "name": p["name"],
                "birth_date": p["birth_date"],
                "nationality": p["nationality"],
                "country_of_residence": p["country_of_residence"],
                "source": p["source"],
                "named_by_key": p["person_key"] in keys,
                "roles": [f"{r['role']} of {r['name']} ({r['country']} {r['national_id']})" for r in held],
            }
        )
    return out


def show_request(conn: Connection, request_id: int) -> dict[str, Any]:
    row = _request(conn, request_id)
    return {
        "request": request_out(row, datetime.now(UTC)),
        "candidates": candidates(conn, row),
        "legal_record_candidates": legal_records.candidates(conn, str(row["person_name"] or "")),
        "withheld": [
            {k: _aware(v) if isinstance(v, datetime) else v for k, v in s.items()}
            for s in q.person_suppressions_of(conn, request_id)
        ],
    }


def withhold_person(
    conn: Connection, person_key: str, request_id: int | None, reason: str, now: datetime
) -> int:
    """Remove one natural person from the register data and keep them out; returns the roles removed."""
    person_key = person_key.removeprefix("p:")
    if q.is_person_suppressed(conn, person_key):
        return 0
    person = q.person_by_key(conn, person_key)
    if person is None:
        raise NotFound(f"No register person with key p:{person_key}")
    person_id, person_name = person
    held_rows = q.roles_held(conn, person_id, f"p:{person_key}")
    names = {str(r["holder_name"]) for r in held_rows} | {person_name}
    company_ids = sorted({int(r["company_id"]) for r in held_rows})
    _keep(conn, person_key, people, q.people_rows(conn, person_id))
    _keep(conn, person_key, roles, held_rows)
    _keep(conn, person_key, screening.TABLE, screening.withhold_hits(conn, company_ids, names))
    removed = q.delete_roles_held(conn, person_id, f"p:{person_key}")
    _redact_changes(conn, person_key, company_ids, names)
    for table, rows in outbox.redact_queued(conn, company_ids, lambda v: _redact(v, names)).items():
        _keep(conn, person_key, table, rows)
    q.delete_person(conn, person_id)
    q.insert_person_suppression(
        conn,
        person_key=person_key,
        request_id=request_id,
        reason=reason,
        roles_removed=removed,
        created_at=now,
    )
    if company_ids:  # the companies' documents change: search indexes and caches see them as updated
        q.touch_companies(conn, company_ids, now)
    reports.render_again(conn, company_ids, now)  # stored reports named the person
    enrich.withdraw(conn, f"p:{person_key}", names, q.national_ids_of(conn, company_ids), now)  # and answers
    jobs.queue_search_sync(conn, now, people_ids=[person_id])
    q.record_action(conn, f"p:{person_key}", "withhold", request_id, now)
    return removed


def withhold_party(conn: Connection, name: str, request_id: int | None, reason: str, now: datetime) -> int:
    """Withhold a natural person named in legal records (court decisions, antitrust cases, IPKZ operators,
    e-Sbírka mentions) under `lr:` + a hash of the folded name; returns the party rows rewritten. Imports
    withhold the key in what they write from then on (`legal_records.loading`); run again (or `reapply`),
    it rewrites what was written otherwise (e.g. by an importer of an older release)."""
    key = legal_records.party_key(name)
    if key == legal_records.party_key(""):
        raise ValidationFailed("A party's name is needed")
    kept = legal_records.withhold(conn, name)
    known = q.is_person_suppressed(conn, key)
    if not kept and not known:
        raise NotFound(f"No party named {name!r} in the legal records")
    legal_records.keep(conn, key, kept)
    reports.render_again(conn, _companies_of(kept), now)  # a report's timeline may name the party
    q.record_action(conn, key, "withhold", request_id, now)
    parties = sum(1 for k in kept if legal_records.named(k) is not None)
    if not known:
        q.insert_person_suppression(
            conn, person_key=key, request_id=request_id, reason=reason, roles_removed=parties, created_at=now
        )
    return parties


def _companies_of(kept: Sequence[Mapping[str, Any]]) -> list[int]:
    return sorted({int(c) for k in kept if isinstance(c := k["data"].get("company_id"), int)})


def _kept_of(conn: Connection, key: str) -> list[dict[str, Any]]:
    return [
        {"table_name": r["table_name"], "row_id": r["row_id"], "data": orjson.loads(r["data"])}
        for r in q.withheld_rows_of(conn, key)  # oldest first: a row kept again after a re-import wins
    ]


def lift_party(conn: Connection, key: str) -> dict[str, int]:
    """Put a withheld party's legal-record rows back and end the suppression (the request stays)."""
    if not key.startswith(legal_records.KEY_PREFIX) or not q.is_person_suppressed(conn, key):
        raise NotFound(f"{key} is not a withheld party of legal records")
    kept = _kept_of(conn, key)
    restored = legal_records.restore(conn, kept)
    reports.render_again(conn, _companies_of(kept), datetime.now(UTC))
    q.record_action(conn, key, "lift", None, datetime.now(UTC))
    q.end_withholding(conn, key)
    return {"rows": restored}


def reapply_parties(conn: Connection, now: datetime) -> dict[str, int]:
    """Withhold again, for every withheld party, what was written back since without withholding (imports
    withhold by themselves; a restore of a backup or an older importer do not); returns the party rows
    rewritten per key."""
    out: dict[str, int] = {}
    for key in q.suppressed_keys(conn, legal_records.KEY_PREFIX):
        names = {n for k in _kept_of(conn, key) if (n := legal_records.named(k)) is not None}
        out[key] = sum(withhold_party(conn, n, None, "reapply", now) for n in sorted(names)) if names else 0
    return out


def person_records(conn: Connection, person_key: str) -> dict[str, Any]:
    """A register person's records as this service holds them (GDPR art. 15): the person row, every role with
    its company, dates, shares and source, and the change-log entries naming the person."""
    person_key = person_key.removeprefix("p:")
    person = q.person_row(conn, person_key)
    if person is None:
        raise NotFound(f"No register person with key p:{person_key}")
    held = q.person_roles(conn, int(person["id"]), f"p:{person_key}")
    names = {str(r["holder_name"]) for r in held} | {str(person["name"])}
    company_ids = sorted({int(r["id"]) for r in held})
    changes = (
        []
        if not company_ids
        else [
            {
                "company": f"{r['country']}:{r['national_id']}",
                "field": r["field"],
                "old_value": r["old_value"],
                "new_value": r["new_value"],
                "source": r["source"],
                "detected_at": _aware(r["detected_at"]),
            }
            for r in q.changes_of_companies(conn, company_ids)
            if any(n in (r["old_value"] or "") or n in (r["new_value"] or "") for n in names)
        ]
    )
    return {
        "person_key": f"p:{person_key}",
        "person": {
            k: person[k] for k in ("name", "birth_date", "nationality", "country_of_residence", "source")
        },
        "roles": [
            {
                "role": r["role"],
                "title": r["title"],
                "name_as_listed": r["holder_name"],
                "company": {
                    "country": r["country"],
                    "national_id": r["national_id"],
                    "name": r["company_name"],
                },
                "share_pct": r["share_pct"],
                "voting_pct": r["voting_pct"],
                "natures_of_control": r["natures_of_control"],
                "since": r["since"],
                "until": r["until"],
                "source": r["source"],
            }
            for r in held
        ],
        "change_log": changes,
    }


def access_export(conn: Connection, request_id: int, persons: Sequence[str]) -> dict[str, Any]:
    """The answer to a verified access request: what the service holds about the address (account, keys'
    metadata, watches, form entries, requests) and the register records of the persons the operator matched
    to the requester (from `show`), for the operator to send."""
    from regintel.areas.accounts.public import export

    row = _request(conn, request_id)
    if row["kind"] != "access":
        raise ValidationFailed(f"Request {request_id} is a {row['kind']} request, not an access request")
    if row["status"] == "unverified":
        raise Conflict(f"Request {request_id} is not verified: the requester has not confirmed the address")
    return {
        "request_id": request_id,
        "generated_at": datetime.now(UTC),
        **export(conn, str(row["email"])),
        "register_persons": [person_records(conn, key) for key in persons],
    }


def _keep(conn: Connection, person_key: str, table: Table | str, rows: Sequence[Mapping[Any, Any]]) -> None:
    """Keep rows as they are before they are taken out or rewritten (dates as ISO text, amounts as text)."""
    if rows:
        q.insert_withheld(
            conn,
            [
                {
                    "person_key": person_key,
                    "table_name": table if isinstance(table, str) else table.name,
                    "row_id": int(r["id"]),
                    "data": orjson.dumps({str(k): v for k, v in r.items()}, default=str).decode(),
                }
                for r in rows
            ],
        )


def _typed(table: Table, data: Mapping[str, Any]) -> dict[str, Any]:
    """A kept row's values in the column types (JSON gave back dates as text)."""
    out = {}
    for name, value in data.items():
        kind = table.c[name].type
        if isinstance(value, str) and isinstance(kind, DateTime):
            value = datetime.fromisoformat(value)
        elif isinstance(value, str) and isinstance(kind, Date):
            value = date.fromisoformat(value)
        out[name] = value
    return out


def lift_person(conn: Connection, person_key: str, now: datetime) -> dict[str, int]:
    """Put a withheld person's kept rows back and end the suppression (the request record stays). Roles of
    companies deleted since are dropped; the change log gets its original values back."""
    person_key = person_key.removeprefix("p:")
    if not q.is_person_suppressed(conn, person_key):
        raise NotFound(f"p:{person_key} is not withheld")
    kept: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in q.withheld_rows_of(conn, person_key):
        kept[str(r["table_name"])].append(orjson.loads(r["data"]))
    new_ids: dict[int, int] = {}
    for row in kept["people"]:
        values = _typed(people, {k: v for k, v in row.items() if k != "id"})
        new_ids[int(row["id"])] = q.insert_person(conn, values)
    present = (
        q.existing_company_ids(conn, {int(r["company_id"]) for r in kept["roles"]})
        if kept["roles"]
        else set()
    )
    restored = [
        _typed(roles, {k: v for k, v in r.items() if k != "id"})
        | {"person_id": new_ids.get(int(r["person_id"])) if r["person_id"] is not None else None}
        for r in kept["roles"]
        if int(r["company_id"]) in present
    ]
    if restored:
        q.insert_roles(conn, restored)
    hits = screening.restore_hits(conn, [h for h in kept[screening.TABLE] if int(h["company_id"]) in present])
    for change in kept["company_changes"]:
        q.set_change_values(conn, change["id"], change["old_value"], change["new_value"])
    outbox.restore_queued(conn, kept)
    q.end_withholding(conn, person_key)
    if present:
        q.touch_companies(conn, sorted(present), now)
    reports.render_again(conn, sorted(present), now)
    names = {str(p["name"]) for p in kept["people"]} | {str(r["holder_name"]) for r in kept["roles"]}
    enrich.withdraw(conn, f"p:{person_key}", names, q.national_ids_of(conn, sorted(present)), now, lift=True)
    jobs.queue_search_sync(conn, now, people_ids=new_ids.values())
    q.record_action(conn, f"p:{person_key}", "lift", None, now)
    return {
        "people": len(new_ids),
        "roles": len(restored),
        "changes": len(kept["company_changes"]),
        "sanction_hits": hits,
    }


def _redact_changes(conn: Connection, person_key: str, company_ids: Sequence[int], names: set[str]) -> None:
    """The change log keeps that roles changed, not the withheld person's name (old and new values are
    `role: name; …` summaries, ingest/sections.py)."""
    if not company_ids:
        return
    for change_id, old, new in q.change_values_of(conn, company_ids):
        fixed = [_redact(v, names) for v in (old, new)]
        if fixed != [old, new]:
            _keep(conn, person_key, company_changes, [{"id": change_id, "old_value": old, "new_value": new}])
            q.set_change_values(conn, change_id, fixed[0], fixed[1])


def _redact(value: str | None, names: set[str]) -> str | None:
    if value is None:
        return None
    for name in sorted(names, key=len, reverse=True):  # a longer name first, so a shorter one inside it stays
        value = value.replace(name, WITHHELD)
    return value


def answer_request(
    conn: Connection,
    request_id: int,
    outcome: str,
    withhold: Sequence[str] = (),
    withhold_parties: Sequence[str] = (),
    withhold_companies: Sequence[str] = (),
) -> dict[str, Any]:
    """Close a verified request with the operator's answer; for erase/object, withhold the person records
    the operator matched to the requester first."""
    row = _request(conn, request_id)
    if row["status"] == "unverified":
        raise Conflict(f"Request {request_id} is not verified: the requester has not confirmed the address")
    if not outcome.strip():
        raise ValidationFailed("Say what was done (the answer is kept with the request)")
    if (withhold or withhold_parties or withhold_companies) and row["kind"] not in ("erase", "object"):
        raise ValidationFailed(f"Only erase and object requests withhold register records, not {row['kind']}")
    now = datetime.now(UTC)
    removed = {
        key.removeprefix("p:"): withhold_person(conn, key, request_id, str(row["kind"]), now)
        for key in withhold
    }
    parties = {
        legal_records.party_key(n): withhold_party(conn, n, request_id, str(row["kind"]), now)
        for n in withhold_parties
    }
    traders_out = {
        traders.company_key(*traders.parse_key(c)): traders.withhold_company(
            conn, *traders.parse_key(c), request_id, str(row["kind"]), now
        )
        for c in withhold_companies
    }
    text = outcome.strip()
    if traders_out:
        text += f" [withheld sole traders: {', '.join(sorted(traders_out))}]"
    if removed:
        text += f" [withheld register persons: {', '.join(f'p:{k}' for k in sorted(removed))}]"
    if parties:
        text += f" [withheld parties of legal records: {', '.join(sorted(parties))}]"
    previous = row["outcome"]
    q.update_request(
        conn,
        request_id,
        status="done",
        done_at=now,
        outcome=f"{previous}; operator: {text}" if previous else f"operator: {text}",
    )
    return {
        **show_request(conn, request_id),
        "roles_removed": sum(removed.values()),
        "parties_withheld": sum(parties.values()),
        "sole_traders_withheld": sorted(traders_out),
    }
