"""A withheld natural person's company hits (docs/accounts.md, "Withholding a natural person"): the
precomputed hits keep the name of the officer or owner who matched a list entry, and they make the
company `sanctioned` in the advanced search, in `/public/stats/sanctions` and in the scores' sanctions
factor. When the accounts area withholds a register person, it takes their hits out here (and keeps them,
so a lift puts them back); the `screening.company_hits` job does not make them again, as it screens the
roles served, which no longer hold the person. The lists' own entries stay: they are the authorities'
publications, which screening exists to match against."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, delete, select
from sqlalchemy.engine import Connection

from .tables import company_sanction_hits, sanction_entries

TABLE = company_sanction_hits.name


def withhold_hits(conn: Connection, company_ids: Sequence[int], names: set[str]) -> list[dict[str, Any]]:
    """Take out the natural-person hits of these companies under any of these names; returns the rows as
    they were, for the caller to keep."""
    if not company_ids or not names:
        return []
    h = company_sanction_hits.c
    where = (
        h.company_id.in_(list(company_ids)),
        h.natural_person.is_(True),
        h.subject_name.in_(sorted(names)),
    )
    rows = [
        {str(k): v for k, v in r.items()}
        for r in conn.execute(select(company_sanction_hits).where(*where).order_by(h.id)).mappings()
    ]
    if rows:
        conn.execute(delete(company_sanction_hits).where(*where))
    return rows


def restore_hits(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> int:
    """Put kept hits back (under new ids) where their company and list entry still exist and the job has
    not made the same hit again since; returns the hits restored."""
    h = company_sanction_hits.c
    restored = 0
    for r in rows:
        entry = select(sanction_entries.c.id).where(sanction_entries.c.id == r["entry_id"])
        if conn.execute(entry).first() is None:
            continue  # the entry left its list since: the next screening decides
        same = (
            h.company_id == r["company_id"],
            h.entry_id == r["entry_id"],
            h.subject == r["subject"],
            h.subject_name == r["subject_name"],
        )
        if conn.execute(select(h.id).where(*same)).first() is None:
            conn.execute(company_sanction_hits.insert().values(_typed(r)))
            restored += 1
    return restored


def _typed(row: Mapping[str, Any]) -> dict[str, Any]:
    """A kept hit's values in the column types (kept as JSON, the time came back as text)."""
    out = {}
    for name, value in row.items():
        if name == "id":
            continue
        if isinstance(value, str) and isinstance(company_sanction_hits.c[name].type, DateTime):
            value = datetime.fromisoformat(value)
        out[name] = value
    return out
