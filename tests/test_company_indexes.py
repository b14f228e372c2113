"""The company indexes the migrations build are the ones `db/schema.py` declares (names and columns),
and a page of advanced search in name order is read from the covering name index."""

from __future__ import annotations

import warnings

from sqlalchemy import Column, inspect

from regintel.areas.search import advanced_search
from regintel.areas.search.company_filters import CompanyFilters
from regintel.db.schema import NAME_SORT_COLUMNS, companies
from regintel.domain.types import CompanyRecord
from regintel.result_cache import ResultCache
from regintel.synth.ids import national_id
from tests.builders import load_companies


def _index_names(conn) -> set[str]:  # noqa: ANN001
    if conn.dialect.name == "sqlite":
        sql = (
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'companies' "
            "AND sql IS NOT NULL"
        )
    else:
        sql = "SELECT indexname FROM pg_indexes WHERE tablename = 'companies'"
    return {r[0] for r in conn.exec_driver_sql(sql)}


def test_migrated_company_indexes_match_the_schema(engine):
    """Every declared index exists under its name; those with plain columns have exactly those columns
    (SQLAlchemy does not reflect SQLite's expression indexes, so those are checked by name)."""
    with engine.connect() as conn:
        names = _index_names(conn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "skipped unsupported reflection of expression-based index"
        reflected = {i["name"]: i["column_names"] for i in inspect(engine).get_indexes("companies")}
    for index in companies.indexes:
        assert index.name in names
        declared = [e.name if isinstance(e, Column) else None for e in index.expressions]
        if None not in declared and index.name in reflected:
            assert reflected[index.name] == declared
    assert "ix_companies_name_norm" not in names
    assert reflected["ix_companies_name_sort"] == list(NAME_SORT_COLUMNS)


def test_name_page_walks_the_covering_index(engine):
    """A walk (more matches than the count cap) in name order tests the filters on the index and
    needs no sort: the plan names the covering index and no temporary B-tree for the ORDER BY."""
    load_companies(
        engine,
        *(
            CompanyRecord(
                country=cc,
                national_id=national_id(cc, i),
                name=f"Firma {40 - i:02d} s.r.o.",
                in_bankruptcy=i % 7 == 0,
            )
            for i in range(1, 40)
            for cc in ["SK" if i % 3 else "CZ"]
        ),
    )
    from sqlalchemy import event

    statements: list[tuple[str, object]] = []
    listener = lambda _c, _cur, sql, params, *_: statements.append((sql, params))  # noqa: E731
    with engine.connect() as conn:
        ref = advanced_search.reference(conn, ResultCache())
        filters = CompanyFilters(country=["SK"], in_bankruptcy=False, status=["active"])
        original = advanced_search.COUNT_CAP
        advanced_search.COUNT_CAP, advanced_search.WALK_MIN = 5, 1  # make these 39 companies "many"
        event.listen(engine, "before_cursor_execute", listener)
        try:
            items, total, exact = advanced_search.search(
                conn, filters, ref, sort="name", direction="asc", page=1, per_page=3
            )
        finally:
            event.remove(engine, "before_cursor_execute", listener)
            advanced_search.COUNT_CAP, advanced_search.WALK_MIN = original, 2_000
        assert len(items) == 3 and not exact
        names = [i["name"] for i in items]
        assert names == sorted(names)
        page_sql, params = next((s, p) for s, p in statements if "ORDER BY" in s and "coalesce" in s)
        if engine.dialect.name == "sqlite":
            plan = " | ".join(r[3] for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + page_sql, params))
            assert "ix_companies_name_sort" in plan and "TEMP B-TREE" not in plan
        else:
            conn.exec_driver_sql("SET enable_seqscan = off")  # 39 rows: the planner would rather scan
            plan = " | ".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + page_sql, params))
            assert "ix_companies_name_sort" in plan and "Sort" not in plan
