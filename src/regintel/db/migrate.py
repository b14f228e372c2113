"""Schema migrations (Alembic) run programmatically: `regintel db upgrade` and `serve` call these."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(engine: Engine, revision: str = "heads") -> None:
    """Bring the schema to `revision` (default: every head, so independent feature branches of the
    migration tree need no merge revision). Safe to run on every start."""
    cfg = alembic_config()
    with engine.begin() as conn:
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
