"""Schema migrations (Alembic) run programmatically: `regintel db upgrade` and `serve` call these."""

from __future__ import annotations

import functools
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from regintel.db.engine import begin_write

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(engine: Engine, revision: str = "heads") -> None:
    """Bring the schema to `revision` (default: every head, so independent feature branches of the
    migration tree need no merge revision). Safe to run on every start."""
    cfg = alembic_config()
    with begin_write(engine) as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def current_revision(engine: Engine) -> str | None:
    """The applied revision(s), comma-separated and sorted when the tree has several heads."""
    with engine.connect() as conn:
        heads = MigrationContext.configure(conn).get_current_heads()
    return ",".join(sorted(heads)) or None


def head_revision() -> str | None:
    """The code's head revision(s), in the same form as `current_revision`."""
    return ",".join(sorted(ScriptDirectory.from_config(alembic_config()).get_heads())) or None


@functools.cache
def code_head() -> str | None:
    """`head_revision`, read once per process: the code's migrations do not change while it runs, and
    reading the script directory parses every migration file (most of a status request's 90 ms)."""
    return head_revision()


def applied_revision(conn: Connection) -> str | None:
    """`current_revision` on a connection the caller holds (one indexed read of `alembic_version`)."""
    try:
        rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except SQLAlchemyError:
        return None
    return ",".join(sorted(rows)) or None
