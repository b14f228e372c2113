"""The DBAPI driver's own connection under a SQLAlchemy one, for what SQLAlchemy does not expose:
psycopg's pipelined executemany and COPY, and prepared statements executed without a compile step."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection


def driver_cursor(conn: Connection) -> Any:
    """A new cursor of the driver connection (the caller closes it); same transaction as `conn`."""
    driver = conn.connection.driver_connection
    if driver is None:  # only once the connection was invalidated, which ends its transaction too
        raise RuntimeError("the database connection was invalidated")
    return driver.cursor()
