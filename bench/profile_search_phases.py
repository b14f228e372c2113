"""Where a search's time goes, by query kind: the index's query (tantivy's candidate search, which
includes the fuzzy expansion of the words) against the rest of the request (parsing, judging and
ordering the candidates, reading the page of rows), for autocomplete and search on an existing
database (a `regintel synth` build), with the same perturbed queries as `bench_search_perf.py`.

    .venv/bin/python bench/profile_search_phases.py --database-url sqlite:////path/synth.db \
        --workdir /path --queries 500 [--known-distance 0] [--one-step | --enough N --fill exact|fuzzy] \
        [--label after]

`--workdir W` reads the index under `W/data`, as `bench_search_perf.py` does; the URL may name a
PostgreSQL database (`postgresql://…`), spelt as for the index's rebuild. Prints per kind the
CPU p50/p95 of the whole call and of the index part, and saves bench/results/search_phases-*.json.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench_search_perf import _recall, percentiles, queries_from_database
from searchlib import ROOT, settings_for

from regintel.areas.search import service as search
from regintel.db.engine import make_engine
from regintel.search import fuzzy, get_backend, tantivy_index

PATHS = {
    "autocomplete": lambda conn, b, q: search.autocomplete(conn, b, q, None, 10, False),
    "search": lambda conn, b, q: search.search(conn, b, q, None, 20, 1)[0],
}


def timed_index(backend: Any) -> list[float]:
    """Wrap the backend's candidate search so that the CPU milliseconds spent in it are recorded."""
    spent: list[float] = []
    inner = backend.candidate_rows

    def candidate_rows(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            spent.append((time.process_time() - started) * 1000)

    backend.candidate_rows = candidate_rows
    return spent


def run(url: str, workdir: Path, qs: list[dict[str, str]]) -> dict[str, Any]:
    engine = make_engine(url)
    backend = get_backend(engine, settings_for(url, workdir / "data", "tantivy"), "tantivy")
    spent = timed_index(backend)
    out: dict[str, Any] = {}
    with engine.connect() as conn:
        for q in qs[:50]:
            PATHS["search"](conn, backend, q["q"])
        for path, call in PATHS.items():
            total: dict[str, list[float]] = defaultdict(list)
            index: dict[str, list[float]] = defaultdict(list)
            results = []
            for q in qs:
                spent.clear()
                started = time.process_time()
                results.append(call(conn, backend, q["q"]))
                for kind in (q["kind"], "all"):
                    total[kind].append((time.process_time() - started) * 1000)
                    index[kind].append(sum(spent))
            out[path] = {
                "kinds": {k: {"total": percentiles(total[k]), "index": percentiles(index[k])} for k in total},
            } | _recall(qs, results)
    engine.dispose()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--database-url", required=True)
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--known-distance", type=int, choices=(0, 1, 2), default=None)
    ap.add_argument("--label", default="")
    ap.add_argument(
        "--one-step",
        action="store_true",
        help="ask the index once, for names missing at most one word (the rule before the every-word step)",
    )
    ap.add_argument(
        "--enough",
        type=int,
        default=None,
        help="names holding every word that make the second question unnecessary "
        "(search.tantivy_index.EVERY_WORD_ENOUGH)",
    )
    ap.add_argument(
        "--fill",
        choices=("exact", "fuzzy"),
        default=None,
        help="how names missing a word fill the page when some hold every word: as written (default) "
        "or within the typo rules (the rule before; search.tantivy_index.FILL)",
    )
    args = ap.parse_args()
    if args.fill is not None:
        tantivy_index.FILL = args.fill
    if args.enough is not None:
        tantivy_index.EVERY_WORD_ENOUGH = args.enough
    if args.one_step:
        tantivy_index.every_word_first = lambda query: False
    if args.known_distance is not None:
        fuzzy.KNOWN_DISTANCE = args.known_distance
    qs = queries_from_database(args.database_url, args.queries)
    result = run(args.database_url, args.workdir, qs)
    load = os.getloadavg()[0]
    print(f"{len(qs)} queries, CPU ms (whole call / index part), load average {load:.1f}")
    print(f"{'path':<13}{'kind':<8}{'n':>5} | {'total p50':>9} {'p95':>7} | {'index p50':>9} {'p95':>7}")
    for path, r in result.items():
        for kind, k in sorted(r["kinds"].items()):
            t, i = k["total"], k["index"]
            n = sum(1 for q in qs if q["kind"] == kind) if kind != "all" else len(qs)
            print(f"{path:<13}{kind:<8}{n:>5} | {t['p50']:>9} {t['p95']:>7} | {i['p50']:>9} {i['p95']:>7}")
        kinds = r["recall@5_equiv_by_kind"]
        print(f"{path:<13}recall@5 (equivalent) {r['recall@5_equiv']:.3f}, by kind {kinds}")
    name = "search_phases" + (f"-{args.label}" if args.label else "") + ".json"
    path = ROOT / "bench" / "results" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"load": load, "queries": len(qs)} | result, indent=1))
    print("saved", path)


if __name__ == "__main__":
    main()
