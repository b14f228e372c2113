"""Code-list use cases behind `/api/v1/code-lists` (spec 4.3): lists, filtered items, one item."""

from __future__ import annotations

from dataclasses import replace

import pycountry
from sqlalchemy.engine import Connection

from regintel.db import code_lists as db
from regintel.domain.code_lists import CATALOGUE, CodeListInfo, CodeListItem
from regintel.errors import NotFound, ValidationFailed


def list_code_lists(conn: Connection) -> list[CodeListInfo]:
    """The stored lists in catalogue order, with the list their parents belong to."""
    stored = {info.name: info for info in db.list_code_lists(conn)}
    return [
        replace(stored[name], parent_list=CATALOGUE[name].parent_list) for name in CATALOGUE if name in stored
    ]


def get_code_list(conn: Connection, name: str) -> CodeListInfo:
    info = db.find_code_list(conn, name.strip().lower())
    if info is None:
        raise NotFound(f"No code list {name!r}", details={"lists": list(CATALOGUE)})
    return info


def list_items(
    conn: Connection, name: str, *, parent: str | None, q: str | None, limit: int
) -> tuple[list[CodeListItem], int]:
    """Items of list `name` in code order, with the number of matches (404 for an unknown list)."""
    info = get_code_list(conn, name)
    parent = parent.strip().upper() if parent and parent.strip() else None
    return db.list_items(conn, info.name, parent=parent, q=q, limit=limit)


def get_item(conn: Connection, name: str, code: str) -> CodeListItem:
    """One item; codes are upper case, so any case is accepted ("sk:0900")."""
    info = get_code_list(conn, name)
    item = db.find_item(conn, info.name, code.strip().upper())
    if item is None:
        raise NotFound(f"No code {code!r} in code list {info.name!r}")
    return item


def parse_country(value: str) -> str:
    """An ISO 3166-1 alpha-2 code in any case → upper case; anything else is a validation error."""
    code = value.strip().upper()
    if len(code) != 2 or pycountry.countries.get(alpha_2=code) is None:
        raise ValidationFailed(
            f"Unknown country {value!r}: give an ISO 3166-1 alpha-2 code such as SK",
            details=[{"field": "country", "in": "query", "message": "not an ISO 3166-1 alpha-2 code"}],
        )
    return code
