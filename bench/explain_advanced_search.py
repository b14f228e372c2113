"""Where an advanced search spends its time: for each typical filter of bench_lookup.py, the search's
wall and CPU time (warm, median of --repeats) and the plan of every statement it ran.

    .venv/bin/python bench/explain_advanced_search.py --database-url sqlite:///bench/results/synth-10000000.db
        [--only 'country=FR&in_bankruptcy=1'] [--repeats 5] [--no-plans] [--pragma mmap_size=68719476736]

Run by hand to choose indexes and read plans; bench_lookup.py is the benchmark of record.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lookup import typical_filters  # noqa: E402

from regintel.areas.search import advanced_search  # noqa: E402
from regintel.areas.search.company_filters import CompanyFilters  # noqa: E402
from regintel.db.engine import make_engine  # noqa: E402
from regintel.result_cache import ResultCache  # noqa: E402


def plan(conn: Any, sql: str, params: Any) -> list[str]:
    if conn.dialect.name == "sqlite":
        rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + sql, params).all()
        return [f"{'  ' * (r[1] and 1)}{r[3]}" for r in rows]
    return [r[0] for r in conn.exec_driver_sql("EXPLAIN " + sql, params).all()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--database-url", required=True)
    ap.add_argument("--only", help="run only the filters whose name contains this text")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-plans", action="store_true")
    ap.add_argument("--pragma", action="append", default=[], help="SQLite: a PRAGMA run on each connection")
    args = ap.parse_args()
    engine = make_engine(args.database_url)
    for pragma in args.pragma:
        event.listen(engine, "connect", lambda dbapi, _record, p=pragma: dbapi.execute(f"PRAGMA {p}"))
    with engine.connect() as conn:
        ref = advanced_search.reference(conn, ResultCache())
    for name, params in typical_filters(engine).items():
        if args.only and args.only not in name:
            continue
        sort, page = params.pop("_sort", "name"), params.pop("_page", 1)
        filters = CompanyFilters(**params)
        direction = "asc" if sort == "name" else "desc"
        statements: list[tuple[str, Any]] = []
        with engine.connect() as conn:

            def note(
                _conn: Any,
                _cursor: Any,
                sql: str,
                parameters: Any,
                _context: Any,
                _many: bool,
                out: list[tuple[str, Any]] = statements,
            ) -> None:
                out.append((sql, parameters))

            walls, cpus = [], []
            for i in range(args.repeats):
                if i == args.repeats - 1:
                    event.listen(engine, "before_cursor_execute", note)
                started, cpu = time.perf_counter(), time.thread_time()
                items, total, exact = advanced_search.search(
                    conn, filters, ref, sort=sort, direction=direction, page=page, per_page=20
                )
                walls.append((time.perf_counter() - started) * 1000)
                cpus.append((time.thread_time() - cpu) * 1000)
            event.remove(engine, "before_cursor_execute", note)
            print(
                f"\n== {name}: {statistics.median(walls):.1f} ms (CPU {statistics.median(cpus):.1f}), "
                f"{len(items)} items, total {total}{'' if exact else '+'}"
            )
            if not args.no_plans:
                for sql, parameters in statements:
                    if not sql.lstrip().upper().startswith("SELECT"):
                        continue
                    started = time.perf_counter()
                    conn.exec_driver_sql(sql, parameters).all()
                    ms = (time.perf_counter() - started) * 1000
                    print(f"   {ms:8.1f} ms  " + " ".join(sql.split())[:220])
                    for line in plan(conn, sql, parameters):
                        print("      " + line)


if __name__ == "__main__":
    main()
