"""The loader's company inserts (ingest/company_inserts.py): on SQLite the name trigram rows of a batch
are written in one pass with the insert trigger set aside for that batch only. Answers through HTTP
are the substring test's across batches, the trigger is back after each batch (so other writers keep
the table in step), and a batch that fails leaves neither rows nor a missing trigger."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import insert, select

from regintel.db.engine import is_sqlite
from regintel.db.schema import companies
from regintel.domain.names import normalise_name
from regintel.domain.types import CompanyRecord
from regintel.ingest.company_inserts import INSERT_TRIGGER, insert_companies
from regintel.synth.ids import national_id
from tests.builders import load_companies
from tests.helpers import assert_envelope

URL = "/api/v1/companies/advanced-search"


def record(i: int, name: str) -> CompanyRecord:
    return CompanyRecord(country="SK", national_id=national_id("SK", 500 + i), name=name)


def row(i: int, name: str) -> dict[str, object]:
    now = datetime.now(UTC)
    return {
        "country": "SK",
        "national_id": national_id("SK", i),
        "name": name,
        "name_norm": normalise_name(name),
        "source": "test",
        "created_at": now,
        "updated_at": now,
    }


def trigger_present(engine) -> bool:
    with engine.connect() as conn:
        return (
            conn.exec_driver_sql(
                "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?", (INSERT_TRIGGER,)
            ).scalar()
            == 1
        )


def found(client, auth, term: str) -> set[str]:
    resp = client.get(URL, params={"name_contains": term, "per_page": 100}, headers=auth)
    return {c["name"] for c in assert_envelope(resp)}


def test_names_of_many_batches_are_found_and_the_trigger_stays(engine, client, auth):
    # 4,500 companies: three batches of the loader's 2,000.
    names = [f"Firma {'nordwind' if i % 450 == 0 else 'alfa'} {i:05d} s.r.o." for i in range(4_500)]
    stats = load_companies(engine, *(record(i, n) for i, n in enumerate(names)))
    assert stats.inserted == 4_500
    assert found(client, auth, "nordwind") == {n for n in names if "nordwind" in n}
    assert len(found(client, auth, "01350")) == 1
    if is_sqlite(engine):
        assert trigger_present(engine)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM companies_name_trgm").scalar() == 4_500
    # A writer outside the loader still goes through the trigger.
    with engine.begin() as conn:
        conn.execute(insert(companies).values(row(9_999, "Mimo Nordwind")))
    assert "Mimo Nordwind" in found(client, auth, "nordwind")


@pytest.mark.parametrize("bad_id", [1 << 27])
def test_an_id_beyond_the_trigram_key_is_refused_and_rolled_back(engine, bad_id):
    if not is_sqlite(engine):
        pytest.skip("the trigram key is SQLite's")
    with engine.begin() as conn:
        conn.execute(insert(companies).values({**row(6, "Posledna"), "id": bad_id - 1}))
    with pytest.raises(OverflowError), engine.begin() as conn:
        insert_companies(conn, [row(7, "Velka")])
    assert trigger_present(engine)
    with engine.connect() as conn:
        assert conn.execute(select(companies.c.id).where(companies.c.name == "Velka")).first() is None
