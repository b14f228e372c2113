"""ownership: role holders' names looked up by their spelling key (umlaut digraphs folded)

Revision ID: 0033_ownership_holder_spelling
Revises: 0028_ownership_holder_names

`roles.holder_name_norm` (a corporate PSC registered abroad, known only by name) is now
`domain.names.spelling_key` of the normalised name, which `/uk-connections` compares with the company's:
"Draeger Finanz AG" in a PSC entry meets "Dräger Finanz AG" in a register. The stored values are
rewritten here, so the next import compares like with like and logs no change.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from regintel.domain.names import normalise_name, spelling_key

revision = "0033_ownership_holder_spelling"
down_revision = "0028_ownership_holder_names"
branch_labels = None
depends_on = None

BATCH = 5_000


def upgrade() -> None:
    _rewrite(lambda name: spelling_key(normalise_name(name)))


def downgrade() -> None:
    _rewrite(normalise_name)


def _rewrite(key: Callable[[str], str]) -> None:
    conn = op.get_bind()
    roles = sa.table("roles", sa.column("id"), sa.column("holder_name"), sa.column("holder_name_norm"))
    update = sa.text("UPDATE roles SET holder_name_norm = :norm WHERE id = :rid")
    last = 0
    while True:
        rows = conn.execute(
            sa.select(roles.c.id, roles.c.holder_name, roles.c.holder_name_norm)
            .where(roles.c.holder_name_norm.is_not(None), roles.c.id > last)
            .order_by(roles.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        values = [{"rid": rid, "norm": new} for rid, name, old in rows if (new := key(name) or None) != old]
        if values:
            conn.execute(update, values)
        last = rows[-1][0]
