"""names: normalised names of companies and people written in other scripts (Cyrillic, Greek)

Revision ID: 0032_names_other_scripts
Revises: 0012_jobs

`domain.names.tokens` kept Latin letters and digits only, so a name in Cyrillic or Greek letters (the
Ukrainian EDR's, a Greek or Cypriot company's) was normalised to an empty `name_norm` and no search found
it. `tokens` now transliterates other scripts first. The rows whose normalised name is empty are
recomputed here, with their address; a company's `updated_at` moves so that the search index takes it
up again. Names that mixed scripts kept their Latin part and are recomputed by
`regintel search rebuild --renormalise`, which also re-indexes people (docs/search.md).
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from regintel.domain.names import normalise_address, normalise_name

revision = "0032_names_other_scripts"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

BATCH = 5_000


def upgrade() -> None:
    conn = op.get_bind()
    now = datetime.now(UTC).replace(tzinfo=None) if conn.dialect.name == "sqlite" else datetime.now(UTC)
    companies = sa.table(
        "companies",
        sa.column("id"),
        sa.column("name"),
        sa.column("name_norm"),
        sa.column("address_text"),
        sa.column("street"),
        sa.column("postal_code"),
        sa.column("city"),
    )
    last = 0
    while True:
        rows = conn.execute(
            sa.select(companies)
            .where(
                companies.c.id > last,
                sa.func.coalesce(companies.c.name_norm, "") == "",
                companies.c.name != "",
            )
            .order_by(companies.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            break
        last = rows[-1].id
        values = [
            {
                "rid": r.id,
                "norm": normalise_name(r.name),
                "address": normalise_address(_address(r)),
                "now": now,
            }
            for r in rows
            if normalise_name(r.name)
        ]
        if values:
            conn.execute(
                sa.text(
                    "UPDATE companies SET name_norm = :norm, address_norm = :address, updated_at = :now "
                    "WHERE id = :rid"
                ),
                values,
            )
    people = sa.table("people", sa.column("id"), sa.column("name"), sa.column("name_norm"))
    last = 0
    while True:
        found = conn.execute(
            sa.select(people.c.id, people.c.name)
            .where(people.c.id > last, sa.func.coalesce(people.c.name_norm, "") == "", people.c.name != "")
            .order_by(people.c.id)
            .limit(BATCH)
        ).all()
        if not found:
            return
        last = found[-1][0]
        named = [{"rid": pid, "norm": normalise_name(name)} for pid, name in found if normalise_name(name)]
        if named:
            conn.execute(sa.text("UPDATE people SET name_norm = :norm WHERE id = :rid"), named)


def _address(row: sa.Row[tuple[object, ...]]) -> str:
    if row.address_text:
        return str(row.address_text)
    return " ".join(str(v) for v in (row.street, row.postal_code, row.city) if v)


def downgrade() -> None:
    """Nothing to undo: the older code reads the recomputed names as it reads any other."""
