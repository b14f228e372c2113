"""`Prepared` reads give exactly what SQLAlchemy's own execution gives for the same statements."""

from __future__ import annotations

from sqlalchemy import bindparam, select

from regintel.db import companies as db
from regintel.db import lookup as lookup_db
from regintel.db.prepared import Prepared
from regintel.db.schema import companies, financial_statements, lei_records
from regintel.ingest.demo import load_demo
from tests.builders import make_company

STATEMENTS = {"find": db._FIND, "identifiers": db._IDENTIFIERS, "sources": db._SOURCES, "latest": db._LATEST}


def test_same_rows_as_sqlalchemy_on_the_demo_data(engine, settings):
    load_demo(engine, settings.data_dir)
    with engine.connect() as conn:
        rows = conn.execute(select(companies.c.id, companies.c.country, companies.c.national_id)).all()
        assert len(rows) > 50
        with_statements = 0
        for company_id, country, national_id in rows:
            params = {"find": {"country": country, "national_id": national_id}}
            for name, prepared in STATEMENTS.items():
                values = params.get(name, {"company_id": company_id})
                expected = [dict(r) for r in conn.execute(prepared.statement, values).mappings()]
                assert prepared.all(conn, **values) == expected
                assert prepared.first(conn, **values) == (expected[0] if expected else None)
            with_statements += db.latest_financials(conn, company_id) is not None
            fin, sources, ids = db.record_parts(conn, company_id)  # pipelined on PostgreSQL
            assert (fin, sources, ids) == (
                db._LATEST.first(conn, company_id=company_id),
                db._SOURCES.all(conn, company_id=company_id),
                db._IDENTIFIERS.all(conn, company_id=company_id),
            )
        assert with_statements  # the dates and amounts of real statements were compared too
        leis = list(conn.execute(select(lei_records.c.lei)).scalars()) + ["529900T8BM49AURSDO55"]
        assert len(leis) > 10
        for lei in leis:
            for prepared in (lookup_db._LEI_READ, lookup_db._COMPANY_BY_LEI):
                expected = [dict(r) for r in conn.execute(prepared.statement, {"lei": lei}).mappings()]
                assert prepared.all(conn, lei=lei) == expected


def test_no_row_and_bound_limit(engine):
    query = Prepared(
        select(financial_statements).where(financial_statements.c.company_id == bindparam("cid")).limit(1)
    )
    with engine.connect() as conn:
        assert query.first(conn, cid=-1) is None
        assert query.all(conn, cid=-1) == []


def test_the_private_sqlalchemy_attributes_the_shortcuts_read_still_exist():
    # db/prepared.py and db/engine.py read compiled statements' bind processors and result columns and
    # the types' cached result processors (SQLAlchemy 2.0-2.1, pinned in pyproject.toml). If an upgrade
    # moves them, this fails by name instead of the hot paths failing in production.
    from sqlalchemy import Integer, column, select, table
    from sqlalchemy.dialects import postgresql, sqlite

    stmt = select(table("t", column("a", Integer))).where(column("a", Integer) == 1)
    for dialect in (sqlite.dialect(), postgresql.dialect()):
        compiled = stmt.compile(dialect=dialect)
        assert isinstance(compiled._bind_processors, dict)
        assert all(len(col) >= 4 for col in compiled._result_columns)
        assert callable(Integer()._cached_result_processor)


class _Counting:
    """A DB-API connection whose cursors count the statements they send (the reads of db/prepared.py go
    straight to the driver, past SQLAlchemy's events)."""

    def __init__(self, driver, sent: list[str]):
        self._driver, self._sent = driver, sent

    def cursor(self, *args, **kwargs):
        inner, sent = self._driver.cursor(*args, **kwargs), self._sent

        class Cursor:
            def execute(self, sql, *rest):
                sent.append(sql)
                return inner.execute(sql, *rest)

            def __getattr__(self, name):
                return getattr(inner, name)

        return Cursor()

    def __getattr__(self, name):
        return getattr(self._driver, name)


def test_read_ahead_answers_the_same_reads_from_one_round_trip(engine, monkeypatch):
    from regintel.db.prepared import read_ahead, run_together

    make_company(engine, national_id="31322832", name="SLOVNAFT, a.s.")
    make_company(engine, national_id="35763469", name="Slovak Telekom, a.s.")
    name = Prepared(select(companies.c.name).where(companies.c.national_id == bindparam("n")))
    reads = [(name, {"n": "31322832"}, True), (name, {"n": "35763469"}, False)]
    with engine.connect() as conn:
        sent: list[str] = []
        counting = _Counting(conn.connection.driver_connection, sent)
        with monkeypatch.context() as patch:
            patch.setattr(type(conn.connection), "driver_connection", property(lambda _self: counting))
            with read_ahead(conn, reads):
                ahead = len(sent)
                assert name.first(conn, n="31322832") == {"name": "SLOVNAFT, a.s."}
                assert name.all(conn, n="35763469") == [{"name": "Slovak Telekom, a.s."}]
                assert name.all(conn, n="35763469") == [{"name": "Slovak Telekom, a.s."}]  # as often as asked
                assert run_together(conn, [(name, {"n": "31322832"}, True)]) == [[{"name": "SLOVNAFT, a.s."}]]
                assert len(sent) == ahead  # none of these reached the database
                assert name.first(conn, n="00000000") is None  # not read ahead: asked
                assert len(sent) == ahead + 1
                with read_ahead(conn, [(name, {"n": "00000000"}, True)]):
                    assert name.all(conn, n="35763469") == [{"name": "Slovak Telekom, a.s."}]  # the outer's
                assert name.all(conn, n="35763469") == [{"name": "Slovak Telekom, a.s."}]
                assert len(sent) == ahead + 2
            assert ahead == 2  # one pipeline on PostgreSQL: one round trip for both
        conn.execute(companies.update().where(companies.c.national_id == "31322832").values(name="Renamed"))
        assert name.first(conn, n="31322832") == {"name": "Renamed"}  # outside the block: asked again
        conn.rollback()


def test_read_ahead_answers_only_the_connection_it_read_on(engine):
    from regintel.db.prepared import read_ahead

    make_company(engine, national_id="35763469", name="Slovak Telekom, a.s.")
    name = Prepared(select(companies.c.name).where(companies.c.national_id == bindparam("n")))
    with engine.connect() as conn, read_ahead(conn, [(name, {"n": "35763469"}, True)]):
        with engine.begin() as other:
            other.execute(
                companies.update().where(companies.c.national_id == "35763469").values(name="Other")
            )
        assert name.first(conn, n="35763469") == {"name": "Slovak Telekom, a.s."}  # held
        with engine.connect() as other:
            assert name.first(other, n="35763469") == {"name": "Other"}  # another connection asks


def test_a_block_has_the_rows_as_read_and_says_when_a_read_went_past_them(engine):
    from regintel.db.prepared import read_ahead

    make_company(engine, national_id="31322832", name="SLOVNAFT, a.s.")
    name = Prepared(select(companies.c.name).where(companies.c.national_id == bindparam("n")))
    reads = [(name, {"n": "31322832"}, True), (name, {"n": "00000000"}, False)]
    with engine.connect() as conn:
        with read_ahead(conn, reads) as block:
            assert block.rows == ((("SLOVNAFT, a.s.",),), ())  # the driver's tuples, in the reads' order
            assert name.first(conn, n="31322832") == {"name": "SLOVNAFT, a.s."}
            assert not block.missed
            with engine.connect() as other:  # another connection's reads are not this block's
                other.execute(select(companies.c.id)).all()
                assert name.first(other, n="31322832") == {"name": "SLOVNAFT, a.s."}
            assert not block.missed
            assert name.first(conn, n="99999999") is None  # not read ahead: asked
            assert block.missed
        with read_ahead(conn, reads) as outer:
            with read_ahead(conn, [(name, {"n": "31322832"}, True)]) as inner:
                assert inner.rows == ((("SLOVNAFT, a.s.",),),)  # the outer's rows
                conn.execute(select(companies.c.id)).all()  # a read past Prepared, through SQLAlchemy
            assert inner.missed and outer.missed  # inside both
        with read_ahead(conn, reads) as after:
            pass
        assert not after.missed
        conn.execute(select(companies.c.id)).all()  # after the block: nobody's miss
        assert not after.missed
        conn.rollback()
