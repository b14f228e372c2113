"""What a search and an autocomplete read from the database, what CPU they take, and what they answer,
on an existing database and its tantivy index. Run it once with the code before a change and once
after (the `regintel` package PYTHONPATH names), each with its own index folder, then compare the
two answers query by query:

    PYTHONPATH=/tmp/old/src .venv/bin/python bench/bench_search_rows.py \\
        --database-url sqlite:////tmp/s200k.db --data-dir /tmp/d-before --label before
    .venv/bin/python bench/bench_search_rows.py --database-url sqlite:////tmp/s200k.db \\
        --data-dir /tmp/d-after --label after
    .venv/bin/python bench/bench_search_rows.py --compare bench/results/search_rows-before.json \\
        bench/results/search_rows-after.json

Two tantivy builds of one database may pick different candidates where many tie at the candidate
cut-off (the writer's threads decide the documents' order). `--from-database` ranks the candidates
of the very same index from database rows, as the code did before the index kept them: comparing
that run with a plain one shows whether ranking from the index changed any answer.

Queries: the two labelled sets (tests/fixtures/search_eval.jsonl and search_eval_namesakes.jsonl)
and `--queries` perturbed names of random companies of the database (as bench_search_perf.py asks).
Each is asked of autocomplete (limit 10) and search (limit 20), as bench_search_perf.py asks them.
Rows read are counted where ranking reads them (`search.rows.ranking_rows`: a row per candidate;
`prominence_extras`: a company whose revenue and sources were looked up; `db.search.companies_by_ids`:
the final page), and SQL statements at the engine. CPU is the process time of the call.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench_search_perf import queries_from_database
from searchlib import ROOT, settings_for
from sqlalchemy import event

import regintel
from regintel.areas.search import service as search
from regintel.db import search as db_search
from regintel.db.engine import make_engine
from regintel.search import get_backend
from regintel.search import rows as search_rows

SETS = ("tests/fixtures/search_eval.jsonl", "tests/fixtures/search_eval_namesakes.jsonl")
COUNTED = (
    (search_rows, "ranking_rows", "candidate_rows"),
    (search_rows, "prominence_extras", "extras_rows"),
    (db_search, "companies_by_ids", "page_rows"),
)


class IdsOnly:
    """The index seen as a backend that keeps no ranking rows: ranking reads them from the database,
    as before the index kept them (--from-database), over the very same candidates."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name

    def candidates(self, *args: Any) -> list[int]:
        return list(self.inner.candidates(*args))


class Counter:
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def reset(self) -> dict[str, int]:
        out, self.counts = self.counts, {}
        return out

    def add(self, what: str, n: int) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def wrap(self, module: Any, name: str, what: str) -> None:
        inner = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            out = inner(*args, **kwargs)
            self.add(what, len(out))
            return out

        setattr(module, name, counted)


def load_queries(url: str, perturbed: int) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for rel in SETS:
        for line in (ROOT / rel).read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                out.append({"id": item["id"], "q": item["query"]})
    for i, q in enumerate(queries_from_database(url, perturbed) if perturbed else []):
        out.append({"id": f"perf-{i:04d}-{q['kind']}", "q": q["q"]})
    return out


def answer(items: list[Any]) -> list[list[Any]]:
    return [
        [f"{i['country']}:{i['nationalId']}", i["score"], i.get("highlight"), i["reasons"]] for i in items
    ]


def run(args: argparse.Namespace) -> None:
    url = args.database_url
    settings = settings_for(url, args.data_dir, "tantivy")
    engine = make_engine(url)
    backend = get_backend(engine, settings, "tantivy")
    with engine.connect() as conn:
        status = backend.status(conn)
    if not status.documents:
        sys.exit(f"no tantivy index for {url} under {args.data_dir}: build it with `regintel search rebuild`")
    if args.from_database:
        backend = IdsOnly(backend)
    counter = Counter()
    for module, name, what in COUNTED:
        counter.wrap(module, name, what)
    event.listen(engine, "before_cursor_execute", lambda *a: counter.add("statements", 1))
    qs = load_queries(url, args.queries)
    calls = {
        "autocomplete": lambda conn, q: search.autocomplete(conn, backend, q, None, 10, False),
        "search": lambda conn, q: search.search(conn, backend, q, None, 20, 1)[0],
    }
    out: dict[str, Any] = {
        "regintel": str(Path(regintel.__file__).parent),
        "database": url,
        "index": status.location,
        "from_database": args.from_database,
        "queries": len(qs),
        "endpoints": {},
    }
    with engine.connect() as conn:
        for endpoint, call in calls.items():
            for q in qs[:50]:  # warm-up
                call(conn, q["q"])
            counter.reset()
            answers, cpu, wall, counts = {}, [], [], []
            for q in qs:
                started, started_cpu = time.perf_counter(), time.process_time()
                found = call(conn, q["q"])
                cpu.append((time.process_time() - started_cpu) * 1000)
                wall.append((time.perf_counter() - started) * 1000)
                counts.append(counter.reset())
                answers[q["id"]] = answer(found)
            out["endpoints"][endpoint] = {
                "cpu_ms": summary(cpu),
                "wall_ms": summary(wall),
                "per_query": {
                    what: summary([float(c.get(what, 0)) for c in counts])
                    for what in ("statements", "candidate_rows", "extras_rows", "page_rows")
                },
                "answers": answers,
            }
        conn.rollback()
    target = ROOT / "bench" / "results" / f"search_rows-{args.label or 'run'}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"{out['regintel']}, {len(qs)} queries, index {status.location}")
    for endpoint, e in out["endpoints"].items():
        per = e["per_query"]
        print(
            f"{endpoint:<13} cpu p50/p95 {e['cpu_ms']['p50']}/{e['cpu_ms']['p95']} ms, wall p50/p95 "
            f"{e['wall_ms']['p50']}/{e['wall_ms']['p95']} ms; per query (mean): "
            + ", ".join(f"{what} {per[what]['mean']}" for what in per)
        )
    print(f"saved {target}")


def summary(samples: list[float]) -> dict[str, float]:
    qs = statistics.quantiles(samples, n=100, method="inclusive")
    return {"p50": round(qs[49], 2), "p95": round(qs[94], 2), "mean": round(statistics.fmean(samples), 2)}


def compare(before_path: Path, after_path: Path) -> None:
    """Same companies in the same order with the same scores, highlights and reasons, per query."""
    before = json.loads(before_path.read_text(encoding="utf-8"))
    after = json.loads(after_path.read_text(encoding="utf-8"))
    differ = 0
    for endpoint, b in before["endpoints"].items():
        a = after["endpoints"][endpoint]["answers"]
        ids = same_ids = same_all = 0
        for qid, was in b["answers"].items():
            now = a.get(qid)
            ids += 1
            same_ids += now is not None and [x[0] for x in now] == [x[0] for x in was]
            same_all += now == was
            if now != was and differ < 10:
                differ += 1
                print(f"  {endpoint} {qid}:\n    before {was[:5]}\n    after  {now[:5] if now else now}")
        print(f"{endpoint}: {same_ids}/{ids} same companies in the same order, {same_all}/{ids} identical")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--database-url")
    ap.add_argument("--data-dir", type=Path, help="the index folder (REGINTEL_DATA_DIR) of that database")
    ap.add_argument("--queries", type=int, default=500, help="perturbed names of random companies")
    ap.add_argument("--label", default="", help="names the result file (before, after)")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    ap.add_argument(
        "--from-database",
        action="store_true",
        help="rank from database rows even where the index keeps them (same candidates, same index)",
    )
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
    elif not args.database_url or not args.data_dir:
        ap.error("--database-url and --data-dir (or --compare)")
    else:
        run(args)


if __name__ == "__main__":
    main()
