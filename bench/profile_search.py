"""Where a search request's time goes: the stages of `areas.search.service.rank_companies` timed one by one
for the perturbed queries of bench_search_perf.py on an existing database and its current index.

    .venv/bin/python bench/profile_search.py --database-url sqlite:////tmp/regintel-bench/synth-10m.db \
        --workdir /tmp/regintel-bench/s10m [--queries 400] [--mode search|autocomplete] [--slowest 15]

Stages: `candidates` (the backend's query), `light` (the ranking columns of the candidates),
`score` (name_score of each), `rows` (the whole rows of the top). Prints p50/p95/p99 per stage and the
slowest queries with their stage times, words, kind and candidate count. Not a benchmark of record
(bench_search_perf.py is); a tool for finding what to change.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from bench_search_perf import percentiles, queries_from_database
from searchlib import settings_for

from regintel.areas.search.service import CANDIDATES, MIN_SCORE, query_words
from regintel.db import search as db
from regintel.db.engine import make_engine
from regintel.domain.matching import name_score
from regintel.search import get_backend
from regintel.search.base import Filters, QueryWords

STAGES = ("candidates", "light", "score", "rows")


def profile(conn: Any, backend: Any, q: str, prefix: bool, candidates: int, limit: int) -> dict[str, Any]:
    """The stages of rank_companies for one query (identifier matching left out: it is one index read)."""
    words = query_words(q, prefix)
    t0 = time.perf_counter()
    ids = backend.candidates(conn, "companies", QueryWords(tuple(words), prefix), Filters(), candidates)
    t1 = time.perf_counter()
    light = db.light_by_ids(conn, ids)
    t2 = time.perf_counter()
    scored = [(name_score(words, (c.name_norm or "").split(), prefix), c) for c in light]
    top = sorted((s for s in scored if s[0].score >= MIN_SCORE), key=lambda s: -s[0].score)[:limit]
    t3 = time.perf_counter()
    db.companies_by_ids(conn, [int(c.id) for _, c in top])
    t4 = time.perf_counter()
    ms = [(b - a) * 1000 for a, b in ((t0, t1), (t1, t2), (t2, t3), (t3, t4))]
    return {"q": q, "words": words, "n": len(ids), "total": sum(ms)} | dict(zip(STAGES, ms, strict=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--database-url", required=True)
    ap.add_argument(
        "--workdir", type=Path, required=True, help="the --workdir of bench_search_perf (its index)"
    )
    ap.add_argument("--queries", type=int, default=400)
    ap.add_argument("--mode", choices=("search", "autocomplete"), default="search")
    ap.add_argument("--slowest", type=int, default=15)
    args = ap.parse_args()
    qs = queries_from_database(args.database_url, args.queries)
    engine = make_engine(args.database_url)
    backend = get_backend(
        engine, settings_for(args.database_url, args.workdir / "data", "tantivy"), "tantivy"
    )
    prefix = args.mode == "autocomplete"
    candidates, limit = (100, 10) if prefix else (CANDIDATES, 20)
    with engine.connect() as conn:
        for q in qs[:50]:
            profile(conn, backend, q["q"], prefix, candidates, limit)
        runs = [profile(conn, backend, q["q"], prefix, candidates, limit) | {"kind": q["kind"]} for q in qs]
    print(f"{args.mode}, {len(runs)} queries (ms)")
    for stage in (*STAGES, "total"):
        p = percentiles([r[stage] for r in runs])
        print(f"  {stage:<11} p50 {p['p50']:>7}  p95 {p['p95']:>7}  p99 {p['p99']:>7}  mean {p['mean']:>7}")
    print("slowest:")
    for r in sorted(runs, key=lambda r: -r["total"])[: args.slowest]:
        stages = " ".join(f"{s} {r[s]:.1f}" for s in STAGES)
        print(f"  {r['total']:6.1f}  {stages}  n={r['n']:<4} {r['kind']:<7} {r['words']}")


if __name__ == "__main__":
    main()
