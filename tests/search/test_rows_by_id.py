"""`db.search.companies_by_ids`, the read every search answer makes for its page: compiled once per
list length rounded up to a power of two, the list padded with its last id. Every length must give
exactly the companies asked for, with typed columns, on both backends."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import Engine, select

from regintel.db import search as db
from regintel.db.schema import companies
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies


@pytest.fixture
def ids(engine: Engine) -> list[int]:
    records = [
        CompanyRecord(
            country="SK",
            national_id=f"{10_000_000 + n}",
            name=f"Rows Test {n} s.r.o.",
            founded_on=dt.date(2000, 1, 1) + dt.timedelta(days=n),
        )
        for n in range(600)
    ]
    load_companies(engine, *records, finish_index=False)
    with engine.connect() as conn:
        return [int(i) for i in conn.execute(select(companies.c.id).order_by(companies.c.id)).scalars()]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, 9, 100, 511, 512, 513, 600])
def test_every_length_reads_exactly_the_ids_asked(engine: Engine, ids: list[int], n: int) -> None:
    wanted = ids[::-1][:n]  # not in id order, to show order does not matter
    with engine.connect() as conn:
        rows = db.companies_by_ids(conn, wanted + wanted[:3])  # repeats are read once
    assert sorted(rows) == sorted(wanted)
    for company_id, row in rows.items():
        assert row["id"] == company_id
        assert isinstance(row["founded_on"], dt.date)  # the column's result processor ran (SQLite)
        assert row["in_bankruptcy"] in (False, 0)


def test_unknown_ids_are_left_out(engine: Engine, ids: list[int]) -> None:
    with engine.connect() as conn:
        rows = db.companies_by_ids(conn, [ids[0], -1, ids[-1] + 1_000])
    assert list(rows) == [ids[0]]
