"""`Prepared` reads give exactly what SQLAlchemy's own execution gives for the same statements."""

from __future__ import annotations

from sqlalchemy import bindparam, select

from regintel.db import companies as db
from regintel.db import lookup as lookup_db
from regintel.db.prepared import Prepared
from regintel.db.schema import companies, financial_statements, lei_records
from regintel.ingest.demo import load_demo

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
