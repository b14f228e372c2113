"""Storage of the code lists: replace them whole, read lists and items, match `q` the same on every backend.

`code_lists.description` ends with the data version the list was loaded from ("…\\n\\ndata-version:
<hex>"); the schema has no column of its own for it, and readers get it split off into
`CodeListInfo.version`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import ColumnElement, delete, false, func, insert, select, text, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.driver import driver_cursor
from regintel.db.engine import is_sqlite
from regintel.db.schema import code_list_items, code_lists
from regintel.domain.code_lists import CodeListInfo, CodeListItem

_VERSION_MARK = "\n\ndata-version: "
# pg_advisory_xact_lock key for loading the lists ("codelist" in ASCII, as an int64).
_PG_LOCK_KEY = 0x636F64656C697374
# Letters that NFKD does not split into a base letter and a combining mark.
_SPECIAL = str.maketrans(
    {
        "ß": "ss",
        "æ": "ae",
        "ø": "o",
        "đ": "d",
        "ł": "l",
        "þ": "th",
        "ð": "d",
        "œ": "oe",
        "ı": "i",
        "ħ": "h",
        "ŀ": "l",
    }
)
# The combining-diacritics blocks, removed in one pass (a per-character check is 10x slower).
_MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_ITEM_COLUMNS = [
    code_list_items.c[name]
    for name in (
        "code",
        "name_sk",
        "name_en",
        "name_sk_fallback",
        "name_en_fallback",
        "parent",
        "level",
        "extra",
    )
]


def fold(value: str) -> str:
    """Lower case without diacritics and with single spaces: "Žilinský  KRAJ" -> "zilinsky kraj"."""
    value = value.casefold()
    if not value.isascii():
        value = _MARKS.sub("", unicodedata.normalize("NFKD", value.translate(_SPECIAL)))
        if not value.isascii():  # other scripts: drop whatever combining marks remain
            value = "".join(ch for ch in value if not unicodedata.combining(ch))
    return " ".join(value.split())


def search_text(item: CodeListItem) -> str:
    """What `q` is matched against: code, code without punctuation ("6201" finds "62.01"), both names.

    Parts are joined by a newline, which a folded `q` never contains, so no match spans two parts.
    """
    compact = "".join(ch for ch in item.code if ch.isalnum())
    raw = dict.fromkeys(p for p in (item.code, compact, item.name_sk, item.name_en) if p)
    return "\n".join(dict.fromkeys(fold(p) for p in raw))


def lock_code_lists(conn: Connection) -> None:
    """Serialise loaders: an advisory lock on PostgreSQL; on SQLite a no-op write takes the write lock."""
    if is_sqlite(conn):
        conn.execute(update(code_lists).where(false()).values(item_count=0))
    else:
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})


def is_current(conn: Connection, catalogue: Mapping[str, CodeListInfo], version: str) -> bool:
    """True when exactly the catalogue's lists are stored at `version` with all their items."""
    stored = {
        r.name: r
        for r in conn.execute(select(code_lists.c.name, code_lists.c.description, code_lists.c.item_count))
    }
    if set(stored) != set(catalogue):
        return False
    counts = {
        name: n
        for name, n in conn.execute(
            select(code_list_items.c.list_name, func.count()).group_by(code_list_items.c.list_name)
        )
    }
    return all(
        _split_version(r.description)[1] == version and counts.get(name, 0) == r.item_count
        for name, r in stored.items()
    )


def replace_code_lists(
    conn: Connection, lists: Sequence[tuple[CodeListInfo, list[CodeListItem]]], version: str
) -> None:
    """Replace every list and item with `lists`, in the caller's transaction."""
    conn.execute(delete(code_list_items))
    conn.execute(delete(code_lists))
    conn.execute(insert(code_lists), [_list_row(info, len(items), version) for info, items in lists])
    rows = [row for info, items in lists for row in _item_rows(info.name, items)]
    if is_sqlite(conn):
        conn.execute(insert(code_list_items), rows)
    else:
        _copy_items(conn, rows)


def _copy_items(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """COPY on PostgreSQL: psycopg's executemany sends one INSERT per row, ten times slower for the
    ~36,000 items, and this load runs at start-up. Same connection, so same transaction."""
    names = [c.name for c in code_list_items.columns]
    cursor = driver_cursor(conn)
    with cursor.copy(f"COPY code_list_items ({', '.join(names)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(
                [json.dumps(row[n]) if n == "extra" and row[n] is not None else row[n] for n in names]
            )


def _list_row(info: CodeListInfo, count: int, version: str) -> dict[str, Any]:
    return {
        "name": info.name,
        "title": info.title,
        "description": info.description + _VERSION_MARK + version,
        "hierarchical": info.hierarchical,
        "source": info.source,
        "licence": info.licence,
        "item_count": count,
    }


def _item_rows(list_name: str, items: Iterable[CodeListItem]) -> Iterable[dict[str, Any]]:
    for item in items:
        yield {
            "list_name": list_name,
            "code": item.code,
            "name_sk": item.name_sk,
            "name_en": item.name_en,
            "name_sk_fallback": item.name_sk_fallback,
            "name_en_fallback": item.name_en_fallback,
            "parent": item.parent,
            "level": item.level,
            "extra": item.extra,
            "search_text": search_text(item),
        }


def _split_version(description: str | None) -> tuple[str, str | None]:
    text_, _, version = (description or "").partition(_VERSION_MARK)
    return text_, version or None


def list_code_lists(conn: Connection) -> list[CodeListInfo]:
    return [_info(r) for r in conn.execute(select(code_lists).order_by(code_lists.c.name)).mappings()]


def find_code_list(conn: Connection, name: str) -> CodeListInfo | None:
    row = conn.execute(select(code_lists).where(code_lists.c.name == name)).mappings().first()
    return _info(row) if row else None


def _info(row: RowMapping) -> CodeListInfo:
    description, version = _split_version(row["description"])
    return CodeListInfo(
        name=row["name"],
        title=row["title"],
        description=description,
        hierarchical=row["hierarchical"],
        source=row["source"] or "",
        licence=row["licence"] or "",
        item_count=row["item_count"],
        version=version,
    )


def list_items(
    conn: Connection, list_name: str, *, parent: str | None = None, q: str | None = None, limit: int
) -> tuple[list[CodeListItem], int]:
    """Items of one list in code order, filtered by parent and by `q`; also the number of matches."""
    where: list[ColumnElement[bool]] = [code_list_items.c.list_name == list_name]
    if parent is not None:
        where.append(code_list_items.c.parent == parent)
    needle = fold(q or "")
    if needle:
        # contains(autoescape=True) escapes % and _ (and its escape character) in the needle.
        where.append(code_list_items.c.search_text.contains(needle, autoescape=True))
    total = conn.execute(select(func.count()).select_from(code_list_items).where(*where)).scalar_one()
    # Byte order of the code on both backends (PostgreSQL's default collation ignores punctuation).
    order = code_list_items.c.code if is_sqlite(conn) else code_list_items.c.code.collate("C")
    rows = conn.execute(select(*_ITEM_COLUMNS).where(*where).order_by(order).limit(limit)).mappings()
    return [CodeListItem(**row) for row in rows], total


def find_item(conn: Connection, list_name: str, code: str) -> CodeListItem | None:
    row = (
        conn.execute(
            select(*_ITEM_COLUMNS).where(
                code_list_items.c.list_name == list_name, code_list_items.c.code == code
            )
        )
        .mappings()
        .first()
    )
    return CodeListItem(**row) if row else None
