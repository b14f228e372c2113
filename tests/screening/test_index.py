"""The per-process index follows list imports: at once when small, in the background when large."""

from __future__ import annotations

import time

from regintel.areas.screening import index as index_mod
from regintel.areas.screening.importer import import_list
from tests.screening.support import EU, OFAC_SMALL, UK


def test_small_index_is_rebuilt_at_once(engine):
    import_list(engine, "sanctions_uk", UK)
    with engine.connect() as conn:
        first, v1 = index_mod.current_index(conn, fresh=True)
        assert index_mod.current_index(conn)[0] is first  # unchanged data: the same index
    import_list(engine, "sanctions_eu_fsf", EU)
    with engine.connect() as conn:
        second, v2 = index_mod.current_index(conn)
    assert v2 != v1 and len(second) == len(first) + 4


def test_large_index_is_rebuilt_in_the_background(engine, monkeypatch):
    monkeypatch.setattr(index_mod, "BACKGROUND_FROM", 1)
    import_list(engine, "sanctions_uk", UK)
    with engine.connect() as conn:
        old, _ = index_mod.current_index(conn, fresh=True)  # (a PostgreSQL test database keeps its URL)
    import_list(engine, "sanctions_ofac", OFAC_SMALL)
    with engine.connect() as conn:
        stale, _ = index_mod.current_index(conn)
        fresh, _ = index_mod.current_index(conn, fresh=True)  # what the company-hits job asks for
        assert stale is old and len(fresh) == len(old) + 153
        deadline = time.monotonic() + 30
        while index_mod.current_index(conn)[0] is old and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(index_mod.current_index(conn)[0]) == len(old) + 153
