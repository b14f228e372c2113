"""Withholding a natural person named in legal records (court decisions, antitrust cases, IPKZ
installations they operate, Czech collection-of-laws mentions) after a verified erase or object request
the operator matched to them (docs/accounts.md, "Withholding a natural person"). Called by
areas/accounts/privacy.py, which keeps the legal record of the request, and by this area's importer
(`loading.Writer`), so that an import never writes a withheld name back.

Legal records carry no person key: a party is a name as the court or the authority published it (with an
IČO when it is an entrepreneur). A person is therefore named by their name, folded (case and diacritics
aside), and withholding is done at the data, as for register persons: each row naming them is rewritten
(`[withheld]`, its identifier, address and company link cleared), the name (and identifier) leave the
texts around it: a decision's `search_text` (so `q=` cannot find it, and SQLite's trigram table follows by
its triggers), an antitrust case's title and verdict, an act's title and the mention's excerpt, an
installation's name. Every row is kept as it was before in `privacy_withheld_rows`, and `restore` puts them
back."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Table
from sqlalchemy.engine import Connection

from regintel.domain.names import tokens

from . import queries
from .tables import (
    antitrust_cases,
    antitrust_parties,
    court_decision_parties,
    court_decisions,
    ipkz_installations,
    sbirka_acts,
    sbirka_mentions,
)

WITHHELD = "[withheld]"
KEY_PREFIX = "lr:"
MAX_CANDIDATES = 50
_LINK = ("company_id", "match_method", "match_score")


@dataclass(frozen=True)
class Kind:
    """Where legal records name a party: the rows (`table`, keyed by `keys`, the first one the record's
    id), the name and identifier columns, what else of the row is cleared or has the name replaced, and
    the record the rows belong to with its texts (`parent`, None when the row is the record)."""

    label: str
    table: Table
    keys: tuple[str, ...]
    name: str
    national_id: str
    cleared: tuple[str, ...]
    replaced: tuple[str, ...]
    parent: Table | None
    parent_texts: tuple[str, ...]
    ref: str

    @property
    def record(self) -> Table:
        return self.parent if self.parent is not None else self.table


COURT = Kind(
    "court_decision",
    court_decision_parties,
    ("decision_pk", "position"),
    "name",
    "national_id",
    ("national_id", *_LINK),
    (),
    court_decisions,
    ("search_text",),
    "file_ref",
)
ANTITRUST = Kind(
    "antitrust_case",
    antitrust_parties,
    ("case_pk", "position"),
    "name",
    "national_id",
    ("national_id", "address", *_LINK),
    (),
    antitrust_cases,
    ("title", "verdict"),
    "case_ref",
)
IPKZ = Kind(
    "ipkz_installation",
    ipkz_installations,
    ("id",),
    "operator_name",
    "operator_national_id",
    ("operator_national_id", "operator_address", *_LINK),
    ("name",),
    None,
    (),
    "installation_id",
)
ESBIRKA = Kind(
    "esbirka_act",
    sbirka_mentions,
    ("act_pk", "position"),
    "name",
    "national_id",
    ("national_id", *_LINK),
    ("excerpt",),
    sbirka_acts,
    ("title",),
    "iri",
)
KINDS = (COURT, ANTITRUST, IPKZ, ESBIRKA)
_BY_TABLE = {k.table.name: k for k in KINDS}


def named(kept: Mapping[str, Any]) -> str | None:
    """The name a kept row held, when it is a row naming a party (not a record's texts)."""
    kind = _BY_TABLE.get(str(kept["table_name"]))
    return None if kind is None else str(kept["data"][kind.name])


def party_key(name: str) -> str:
    """The key a withheld party is recorded under (no name is stored in the suppression itself)."""
    return KEY_PREFIX + hashlib.sha256(" ".join(tokens(name)).encode()).hexdigest()[:32]


def withheld_keys(conn: Connection) -> frozenset[str]:
    """The party keys withheld now (few: one per upheld request), for an import to honour."""
    return queries.suppressed_keys(conn, KEY_PREFIX)


def _rows_naming(
    conn: Connection, kind: Kind, name: str, record_id: int | None = None
) -> list[dict[str, Any]]:
    """Rows whose name folds to `name`'s words. Names are compared folded, which SQL cannot do on both
    backends alike, so the names are read (the keys and the name; an operator's action, not a request)
    and the matching rows then in full."""
    words = tokens(name)
    if not words:
        return []
    named = queries.names_with_keys(conn, kind.table, kind.keys, kind.name, WITHHELD, record_id)
    hits = [r[:-1] for r in named if tokens(r[-1]) == words]
    return [
        row
        for key in hits
        for row in queries.rows_matching(conn, kind.table, dict(zip(kind.keys, key, strict=True)))
    ]


def candidates(conn: Connection, name: str) -> list[dict[str, Any]]:
    """Rows of legal records with this name (for `regintel privacy show`), each with its record."""
    out: list[dict[str, Any]] = []
    for kind in KINDS:
        for r in _rows_naming(conn, kind, name)[:MAX_CANDIDATES]:
            record = r if kind.parent is None else queries.row_by_id(conn, kind.parent, r[kind.keys[0]])
            out.append(
                {
                    "kind": kind.label,
                    "record": "" if record is None else str(record[kind.ref] or ""),
                    "name": r[kind.name],
                    "role": r.get("role") or ("operator" if kind is IPKZ else "mentioned"),
                    "national_id": r[kind.national_id],
                    "key": party_key(name),
                }
            )
    return out


def withhold(conn: Connection, name: str) -> list[dict[str, Any]]:
    """Rewrite every row and record text naming `name`; returns what was there before, as
    `{"table_name", "row_id", "data"}` rows for the caller to keep (an empty list: nobody by that name)."""
    return [k for kind in KINDS for k in _withhold_rows(conn, kind, _rows_naming(conn, kind, name), name)]


def _withhold_rows(
    conn: Connection, kind: Kind, rows: Sequence[Mapping[str, Any]], name: str
) -> list[dict[str, Any]]:
    kept: list[dict[str, Any]] = []
    t, fk = kind.table, kind.keys[0]
    changed = (kind.name, *kind.cleared, *kind.replaced)
    for r in rows:
        said = [str(r[kind.name]), *([str(r[kind.national_id])] if r[kind.national_id] else [])]
        values: dict[str, Any] = {kind.name: WITHHELD} | {c: None for c in kind.cleared}
        values |= {c: _replace(r[c], said) for c in kind.replaced}
        kept.append(
            {"table_name": t.name, "row_id": int(r[fk]), "data": {c: r[c] for c in (*kind.keys, *changed)}}
        )
        queries.update_matching(conn, t, {k: r[k] for k in kind.keys}, values)
    if kind.parent is not None:
        words, ids = tokens(name), [str(r[kind.national_id]) for r in rows if r[kind.national_id]]
        for record_id in sorted({int(r[fk]) for r in rows}):
            names = [str(r[kind.name]) for r in rows if int(r[fk]) == record_id]
            kept.extend(_redact_record(conn, kind, record_id, words, names, ids))
    return kept


def _redact_record(
    conn: Connection,
    kind: Kind,
    record_id: int,
    words: Sequence[str],
    names: Sequence[str],
    national_ids: Sequence[str],
) -> list[dict[str, Any]]:
    parent = kind.record
    row = queries.row_by_id(conn, parent, record_id)
    if row is None:
        return []
    before = {c: row[c] for c in kind.parent_texts}
    after = {
        c: _drop_words(v, [words, *(tokens(i) for i in national_ids)])
        if c == "search_text"
        else _replace(v, names)
        for c, v in before.items()
    }
    if after == before:
        return []
    queries.update_matching(conn, parent, {"id": record_id}, after)
    return [{"table_name": parent.name, "row_id": record_id, "data": {"id": record_id, **before}}]


def _drop_words(text: str | None, runs: Iterable[Sequence[str]]) -> str | None:
    """`search_text` is folded words separated by spaces: the name's run of words (and the identifier's)
    goes."""
    for words in runs:
        if text is not None and words:
            text = re.sub(rf"(^| ){re.escape(' '.join(words))}(?= |$)", " ", text).strip()
    return text


def _replace(text: str | None, names: Iterable[str]) -> str | None:
    if text is None:
        return None
    for name in sorted(set(names), key=len, reverse=True):  # a longer name first: a shorter one inside stays
        text = text.replace(name, WITHHELD)
    return text


def keep(conn: Connection, key: str, kept: Sequence[Mapping[str, Any]]) -> None:
    """Keep rows as they were before `withhold` rewrote them, under the party's key."""
    if kept:
        queries.insert_kept(
            conn,
            [
                {
                    "person_key": key,
                    "table_name": k["table_name"],
                    "row_id": k["row_id"],
                    "data": orjson.dumps(k["data"], default=str).decode(),
                }
                for k in kept
            ],
        )


def withhold_on_import(conn: Connection, kind: Kind, record_id: int, keys: frozenset[str]) -> int:
    """An import has just written record `record_id` (new, or changed and replaced with the names as
    published): withhold in it every party under a key in `keys` and keep what the import wrote, so the
    name is never served and a lift restores the record as imported. What was kept of the record's older
    version goes: that version is no longer the register's. Returns the rows withheld."""
    parts = (kind.table.name,) if kind.parent is None else (kind.table.name, kind.parent.name)
    queries.drop_kept(conn, KEY_PREFIX, parts, record_id)
    names = {
        str(n)
        for n in queries.column_of_record(conn, kind.table, kind.keys[0], kind.name, record_id)
        if party_key(str(n)) in keys
    }
    withheld = 0
    for name in sorted(names):
        rows = _rows_naming(conn, kind, name, record_id)
        keep(conn, party_key(name), _withhold_rows(conn, kind, rows, name))
        withheld += len(rows)
    return withheld


def restore(conn: Connection, kept: Sequence[Mapping[str, Any]]) -> int:
    """Put kept rows back as they were, oldest first (records deleted since stay deleted, and a row that
    names someone else by now, after an import, stays as it is); returns the rows restored."""
    parents = {k.parent.name: k.parent for k in KINDS if k.parent is not None}
    restored = 0
    for item in kept:
        data = dict(item["data"])
        if (kind := _BY_TABLE.get(str(item["table_name"]))) is not None:
            t, keys = kind.table, kind.keys
            match = {k: data[k] for k in keys} | {kind.name: WITHHELD}
        else:
            t, keys = parents[str(item["table_name"])], ("id",)
            match = {"id": data["id"]}
        values = {k: v for k, v in data.items() if k not in keys}
        restored += queries.update_matching(conn, t, match, values)
    return restored


def reapply(conn: Connection, names: Iterable[str]) -> list[dict[str, Any]]:
    """Withhold again the parties an import wrote back under these names (what it rewrote is returned)."""
    kept: list[dict[str, Any]] = []
    for name in names:
        kept.extend(withhold(conn, name))
    return kept
