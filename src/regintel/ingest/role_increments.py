"""Roles published as increments (a gazette's appointments and cessations, BORME's Nombramientos and
Ceses) applied on top of the roles a source already gave, for `SourceInfo.roles_increments`.

A row is keyed as the roles table is, by (role, holder): an appointment is a row without `until`, a
cessation one with it. Applying the same increments twice gives the same rows, so re-importing an
issue changes nothing; an increment dated before what is stored (an older issue read late) leaves
the stored row as it is.
"""

from __future__ import annotations

from typing import Any

from regintel.domain.types import RoleRecord

Row = dict[str, Any]
# The fields a role is compared on when the loader decides whether a company's roles changed.
ROLE_COMPARED = (
    "role",
    "holder_key",
    "holder_name",
    "title",
    "share_pct",
    "voting_pct",
    "natures_of_control",
    "since",
    "until",
    "holder_reg_country",
    "holder_reg_number",
)
# What a stored row carries over when no increment touches it: its compared fields, what follows from
# them and the ids the loader resolved when it was written.
CARRIED = (*ROLE_COMPARED, "holder_name_norm", "person_id", "holder_company_id")


def accumulate(
    current: list[Row], increments: list[tuple[Row, RoleRecord]]
) -> dict[tuple[str, str], tuple[Row, RoleRecord | None]]:
    """The rows after `increments` (in the order inscribed) are applied to the stored `current` ones.

    Each value pairs a row with the record it came from (None: a stored row, whose person and holder
    company ids it keeps)."""
    rows: dict[tuple[str, str], tuple[Row, RoleRecord | None]] = {
        (r["role"], r["holder_key"]): ({k: r[k] for k in CARRIED}, None) for r in current
    }
    for row, role in increments:
        key = (row["role"], row["holder_key"])
        old = rows.get(key)
        if old is None:
            rows[key] = (row, role)
        elif row["until"] is not None:
            rows[key] = (_ended(old[0], row), old[1])
        else:
            rows[key] = _appointed(old, row, role)
    return rows


def _ended(old: Row, cessation: Row) -> Row:
    """A cessation ends the post unless it predates the stored appointment or a later cessation."""
    until = cessation["until"]
    if (old["since"] is not None and until < old["since"]) or (
        old["until"] is not None and until <= old["until"]
    ):
        return old
    return {**old, "until": until}


def _appointed(
    old: tuple[Row, RoleRecord | None], row: Row, role: RoleRecord
) -> tuple[Row, RoleRecord | None]:
    """An appointment on or after the stored cessation starts the post again (the new row); one of a
    post still held keeps the earliest known start and takes the latest title."""
    stored, stored_role = old
    since = row["since"]
    if stored["until"] is not None:
        if since is None or since < stored["until"]:
            return stored, stored_role  # re-elected or appointed before the cessation we know of
        return row, role
    earliest = min((d for d in (stored["since"], since) if d is not None), default=None)
    return {**stored, "since": earliest, "title": row["title"] or stored["title"]}, stored_role
