"""Withholding a natural person named as a party in legal records (court decisions, antitrust cases) after
a verified erase or object request the operator matched to them (docs/accounts.md, "Withholding a natural
person"). Called by areas/accounts/privacy.py, which keeps the legal record of the request.

Legal records carry no person key: a party is a name as the court or the authority published it (with an
IČO when it is an entrepreneur). A person is therefore named by their name, folded (case and diacritics
aside), and withholding is done at the data, as for register persons: each party row naming them is
rewritten (`[withheld]`, its identifier, address and company link cleared), the words of the name leave
the decision's `search_text` (so `q=` cannot find it, and SQLite's trigram table follows by its triggers),
and the name leaves an antitrust case's title and verdict. Every row is returned as it was before, for the
caller to keep, and `restore` puts them back. `reapply` rewrites the rows an import wrote again (a changed
record replaces its parties with the published names)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Table, select, update
from sqlalchemy.engine import Connection

from regintel.domain.names import tokens

from .tables import antitrust_cases, antitrust_parties, court_decision_parties, court_decisions

WITHHELD = "[withheld]"
KEY_PREFIX = "lr:"
MAX_CANDIDATES = 50
_PARTIES: tuple[tuple[Table, str, Table], ...] = (
    (court_decision_parties, "decision_pk", court_decisions),
    (antitrust_parties, "case_pk", antitrust_cases),
)


def party_key(name: str) -> str:
    """The key a withheld party is recorded under (no name is stored in the suppression itself)."""
    return KEY_PREFIX + hashlib.sha256(" ".join(tokens(name)).encode()).hexdigest()[:32]


def _rows_naming(conn: Connection, table: Table, name: str) -> list[dict[str, Any]]:
    """Party rows whose name folds to `name`'s words. Names are compared folded, which SQL cannot do on
    both backends alike, so the names are read (two narrow columns and the name; an operator's action,
    not a request) and the matching rows then in full."""
    words = tokens(name)
    if not words:
        return []
    fk = "decision_pk" if table is court_decision_parties else "case_pk"
    hits = [
        (r[0], r[1])
        for r in conn.execute(
            select(table.c[fk], table.c.position, table.c.name).where(table.c.name != WITHHELD)
        )
        if tokens(r[2]) == words
    ]
    return [
        {str(k): v for k, v in row.items()}  # plain str keys (column names may be a str subclass)
        for pk, position in hits
        for row in conn.execute(
            select(table).where(table.c[fk] == pk, table.c.position == position)
        ).mappings()
    ]


def candidates(conn: Connection, name: str) -> list[dict[str, Any]]:
    """Parties of legal records with this name (for `regintel privacy show`), each with its record."""
    out: list[dict[str, Any]] = []
    for table, fk, parent in _PARTIES:
        for r in _rows_naming(conn, table, name)[:MAX_CANDIDATES]:
            record = conn.execute(select(parent).where(parent.c.id == r[fk])).mappings().first()
            ref = "" if record is None else str(record.get("file_ref") or record.get("case_ref") or "")
            out.append(
                {
                    "kind": "court_decision" if table is court_decision_parties else "antitrust_case",
                    "record": ref,
                    "name": r["name"],
                    "role": r["role"],
                    "national_id": r["national_id"],
                    "key": party_key(name),
                }
            )
    return out


def withhold(conn: Connection, name: str) -> list[dict[str, Any]]:
    """Rewrite every party row and record text naming `name`; returns what was there before, as
    `{"table_name", "row_id", "data"}` rows for the caller to keep (an empty list: nobody by that name)."""
    kept: list[dict[str, Any]] = []
    words = tokens(name)
    for table, fk, parent in _PARTIES:
        rows = _rows_naming(conn, table, name)
        for r in rows:
            kept.append({"table_name": table.name, "row_id": int(r[fk]), "data": dict(r)})
            conn.execute(
                update(table)
                .where(table.c[fk] == r[fk], table.c.position == r["position"])
                .values(_redacted(table))
            )
        for record_id in sorted({int(r[fk]) for r in rows}):
            kept.extend(_redact_record(conn, parent, record_id, words, [r["name"] for r in rows]))
    return kept


def _redacted(table: Table) -> dict[str, Any]:
    values: dict[str, Any] = {
        "name": WITHHELD,
        "national_id": None,
        "company_id": None,
        "match_method": None,
        "match_score": None,
    }
    if "address" in table.c:
        values["address"] = None
    return values


def _redact_record(
    conn: Connection, parent: Table, record_id: int, words: Sequence[str], names: Iterable[str]
) -> list[dict[str, Any]]:
    row = conn.execute(select(parent).where(parent.c.id == record_id)).mappings().first()
    if row is None:
        return []
    columns = ["search_text"] if parent is court_decisions else ["title", "verdict"]
    before = {c: row[c] for c in columns}
    after = {
        c: _drop_words(v, words) if c == "search_text" else _replace(v, names) for c, v in before.items()
    }
    if after == before:
        return []
    conn.execute(update(parent).where(parent.c.id == record_id).values(after))
    return [{"table_name": parent.name, "row_id": record_id, "data": {"id": record_id, **before}}]


def _drop_words(text: str | None, words: Sequence[str]) -> str | None:
    """`search_text` is folded words separated by spaces: the name's run of words goes."""
    if text is None or not words:
        return text
    return re.sub(rf"(^| ){re.escape(' '.join(words))}(?= |$)", " ", text).strip()


def _replace(text: str | None, names: Iterable[str]) -> str | None:
    if text is None:
        return None
    for name in sorted(set(names), key=len, reverse=True):
        text = text.replace(name, WITHHELD)
    return text


def restore(conn: Connection, kept: Sequence[Mapping[str, Any]]) -> int:
    """Put kept rows back as they were (records deleted since stay deleted); returns the rows restored."""
    tables = {t.name: (t, fk) for t, fk, _ in _PARTIES} | {p.name: (p, "id") for _, _, p in _PARTIES}
    restored = 0
    for item in kept:
        table, fk = tables[str(item["table_name"])]
        data = dict(item["data"])
        where = [table.c[fk] == data[fk]] + ([table.c.position == data["position"]] if fk != "id" else [])
        values = {k: v for k, v in data.items() if k not in (fk, "position")}
        restored += int(conn.execute(update(table).where(*where).values(values)).rowcount)
    return restored


def reapply(conn: Connection, names: Iterable[str]) -> list[dict[str, Any]]:
    """Withhold again the parties an import wrote back under these names (what it rewrote is returned)."""
    kept: list[dict[str, Any]] = []
    for name in names:
        kept.extend(withhold(conn, name))
    return kept
