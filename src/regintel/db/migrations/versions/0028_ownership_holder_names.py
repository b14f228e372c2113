"""ownership: role holders known only by name, findable by normalised name and register number

Revision ID: 0028_ownership_holder_names
Revises: 0012_jobs

A Companies House PSC can be a company registered abroad (an SK s.r.o., a US insurer): the snapshot
names it and often gives its `identification` (country registered, registration number), but it has
no UK company key, so `/uk-connections` could not find it from the foreign company's side. Three
columns on `roles` for holders without a person record or company key (`holder_key` `n:...`): the
normalised name, and the country and register number the source gives; each with a partial index
(only such holders have them). Existing rows get their normalised name here; the country and number
come with the next import of a source that gives them (the loader compares them, so a re-import
rewrites those rows once).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from regintel.domain.names import normalise_name

revision = "0028_ownership_holder_names"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

BATCH = 5000


def upgrade() -> None:
    # Plain ADD COLUMNs (nullable, no default) on both backends: a batch copy of `roles` on SQLite would
    # rebuild the whole table.
    op.add_column("roles", sa.Column("holder_name_norm", sa.Text(), nullable=True))
    op.add_column("roles", sa.Column("holder_reg_country", sa.String(length=2), nullable=True))
    op.add_column("roles", sa.Column("holder_reg_number", sa.String(length=64), nullable=True))
    _fill_names()
    name_set = sa.text("holder_name_norm IS NOT NULL")
    number_set = sa.text("holder_reg_number IS NOT NULL")
    op.create_index(
        "ix_roles_holder_name_norm",
        "roles",
        ["holder_name_norm"],
        sqlite_where=name_set,
        postgresql_where=name_set,
    )
    op.create_index(
        "ix_roles_holder_reg_number",
        "roles",
        ["holder_reg_number", "holder_reg_country"],
        sqlite_where=number_set,
        postgresql_where=number_set,
    )


def _fill_names() -> None:
    """The loader's normalisation (`domain.names.normalise_name`, as for `companies.name_norm`) is
    Python, so the existing holders are read and written back in batches, keyset by id."""
    conn = op.get_bind()
    roles = sa.table("roles", sa.column("id"), sa.column("holder_key"), sa.column("holder_name"))
    update = sa.text("UPDATE roles SET holder_name_norm = :norm WHERE id = :rid")
    last = 0
    while True:
        rows = conn.execute(
            sa.select(roles.c.id, roles.c.holder_name)
            .where(roles.c.holder_key.like("n:%"), roles.c.id > last)
            .order_by(roles.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        # A name normalisation leaves empty (Cyrillic, Greek) can match no company's `name_norm`.
        values = [{"rid": rid, "norm": normalise_name(name)} for rid, name in rows if normalise_name(name)]
        if values:
            conn.execute(update, values)
        last = rows[-1][0]


def downgrade() -> None:
    op.drop_index("ix_roles_holder_reg_number", table_name="roles")
    op.drop_index("ix_roles_holder_name_norm", table_name="roles")
    with op.batch_alter_table("roles") as batch:
        batch.drop_column("holder_reg_number")
        batch.drop_column("holder_reg_country")
        batch.drop_column("holder_name_norm")
