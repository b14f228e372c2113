"""A withheld natural person's company hits (docs/accounts.md, "Withholding a natural person"): the
precomputed hits keep the name of the officer or owner who matched a list entry, and they make the
company `sanctioned` in the advanced search, in `/public/stats/sanctions` and in the scores' sanctions
factor. When the accounts area withholds a register person, it takes their hits out here (and keeps them,
so a lift puts them back); the `screening.company_hits` job does not make them again, as it screens the
roles served, which no longer hold the person. The lists' own entries stay: they are the authorities'
publications, which screening exists to match against."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from . import queries
from .tables import company_sanction_hits

TABLE = company_sanction_hits.name


def withhold_hits(conn: Connection, company_ids: Sequence[int], names: set[str]) -> list[dict[str, Any]]:
    """Take out the natural-person hits of these companies under any of these names; returns the rows as
    they were, for the caller to keep."""
    if not company_ids or not names:
        return []
    return queries.take_person_hits(conn, company_ids, names)


def restore_hits(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> int:
    """Put kept hits back (under new ids) where their company and list entry still exist and the job has
    not made the same hit again since; returns the hits restored."""
    restored = 0
    for r in rows:
        if not queries.entry_exists(conn, r["entry_id"]):
            continue  # the entry left its list since: the next screening decides
        if not queries.hit_exists(conn, r):
            queries.insert_kept_hit(conn, r)
            restored += 1
    return restored
