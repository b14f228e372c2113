"""Alembic environment: runs on the connection handed in by `regintel.db.migrate`."""

from __future__ import annotations

from alembic import context

from regintel.db.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - alembic CLI use
    from regintel.config import load_settings
    from regintel.db.engine import make_engine

    connectable = make_engine(load_settings().database_url, pool=False)
    with connectable.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(
        connection=connection, target_metadata=metadata, render_as_batch=connection.dialect.name == "sqlite"
    )
    with context.begin_transaction():
        context.run_migrations()
