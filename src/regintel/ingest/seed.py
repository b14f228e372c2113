"""Reference data every installation needs, loaded at start-up after the schema upgrade.

The code-list loader, behind the one function that the CLI and the test fixtures call.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine

from regintel.db.engine import begin_write

log = logging.getLogger("regintel.ingest.seed")


def seed_reference_data(engine: Engine) -> None:
    """Load the code lists unless they are already at the current data version (a read when current)."""
    from regintel.db.code_lists import is_current
    from regintel.domain.code_lists import CATALOGUE
    from regintel.ingest.code_lists import data_version, load_code_lists

    with engine.connect() as conn:
        if is_current(conn, CATALOGUE, data_version()):
            return
    with begin_write(engine) as conn:
        if load_code_lists(conn):
            log.info("Loaded code lists, data version %s", data_version())
