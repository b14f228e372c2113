"""Search latency at scale: p50/p95/p99 of autocomplete and search, and of a 10-query reconcile batch,
per backend, measured server-side (the service calls a request makes, on one pooled connection,
warm caches), plus index build time and size, and recall@5 of the perturbed queries.

    .venv/bin/python bench/bench_search_perf.py --entities 1000000 [--backends tantivy,sqlite_fts]
        [--database-url postgresql://postgres@127.0.0.1:5432/regintel_bench_1m] [--queries 1000]
    .venv/bin/python bench/bench_search_perf.py --existing --entities 10000000 \
        --database-url sqlite:////tmp/regintel-bench/synth-10m.db     # a `regintel synth` build

The corpus is tests/search/corpus.py (seed 42), inserted in bulk once and reused by later runs
(SQLite files under --workdir); with --existing, the companies already in the database (a synth
build: names of 23 markets) and --entities only labels the run. Queries: names of random corpus companies,
40% with one typo, 20% with two, 20% without diacritics, 20% cut short (prefix).
Saves bench/results/search_perf-*.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from make_search_eval import typo
from searchlib import ROOT, bulk_fill, settings_for
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from regintel.areas.search import reconcile
from regintel.areas.search import service as search
from regintel.db.engine import make_engine, normalise_url
from regintel.db.schema import companies as companies_table
from regintel.domain.names import fold, normalise_name
from regintel.search import fuzzy, get_backend, index_root
from tests.search.corpus import companies


def perturbed(name: str, key: str, rng: random.Random) -> dict[str, str]:
    """One query for the company named `name`: 40% with one typo, 20% with two, 20% folded, 20% cut short."""
    words = name.split()
    longs = [j for j, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    kind = rng.choices(["typo1", "typo2", "plain", "prefix"], [40, 20, 20, 20])[0]
    if kind in ("typo1", "typo2") and longs:
        for _ in range(1 if kind == "typo1" else 2):
            j = rng.choice(longs)
            words[j] = typo(words[j], rng)
    elif kind == "prefix":
        words = words[:2]
        words[-1] = words[-1][: max(3, len(words[-1]) // 2)]
    q = " ".join(words)
    return {"q": fold(q) if kind == "plain" else q, "kind": kind, "key": key, "norm": normalise_name(name)}


def queries(n_entities: int, count: int, seed: int = 11) -> list[dict[str, str]]:
    """Queries for random companies of the corpus (tests/search/corpus.py)."""
    rng = random.Random(seed)
    wanted = set(rng.sample(range(n_entities), count))
    out = [
        perturbed(rec.name or "", f"{rec.country}:{rec.national_id}", rng)
        for i, rec in enumerate(companies(max(wanted) + 1))
        if i in wanted
    ]
    rng.shuffle(out)
    return out


def queries_from_database(url: str, count: int, seed: int = 11) -> list[dict[str, str]]:
    """Queries for random companies of an already filled database (a `regintel synth` build, say)."""
    rng = random.Random(seed)
    engine = make_engine(url)
    with engine.connect() as conn:
        top = conn.execute(text("SELECT max(id) FROM companies")).scalar_one()
        ids = rng.sample(range(1, top + 1), min(top, count * 2))
        rows = conn.execute(
            select(
                companies_table.c.id,
                companies_table.c.name,
                companies_table.c.country,
                companies_table.c.national_id,
            ).where(companies_table.c.id.in_(ids))
        ).all()
    engine.dispose()
    rows = sorted(rows)[: count * 2]
    rng.shuffle(rows)
    return [perturbed(r.name, f"{r.country}:{r.national_id}", rng) for r in rows[:count]]


def percentiles(samples: list[float]) -> dict[str, float]:
    qs = statistics.quantiles(samples, n=100, method="inclusive")
    return {
        "p50": round(qs[49], 2),
        "p95": round(qs[94], 2),
        "p99": round(qs[98], 2),
        "mean": round(statistics.fmean(samples), 2),
    }


CPU_MS: dict[int, list[float]] = {}  # process time of each call of a `timed` run, by the id of its times


def timed(fn: Any, items: list[Any]) -> tuple[list[float], list[Any]]:
    """Wall milliseconds of each call, and its results; the process (CPU) milliseconds go to `CPU_MS`,
    which a shared machine's load inflates less than the wall clock."""
    times, results, cpu = [], [], []
    for item in items:
        started, started_cpu = time.perf_counter(), time.process_time()
        results.append(fn(item))
        cpu.append((time.process_time() - started_cpu) * 1000)
        times.append((time.perf_counter() - started) * 1000)
    CPU_MS[id(times)] = cpu
    return times, results


def with_cpu(times: list[float]) -> dict[str, Any]:
    return percentiles(times) | {"cpu": percentiles(CPU_MS.pop(id(times)))}


def run_backend(
    url: str, workdir: Path, name: str, qs: list[dict[str, str]], reuse: bool = False
) -> dict[str, Any]:
    settings = settings_for(url, workdir / "data", name)
    engine = make_engine(url)
    backend = get_backend(engine, settings, name)
    started = time.perf_counter()
    with engine.begin() as conn:
        if not reuse or backend.status(conn).documents == 0:
            backend.rebuild(conn)
            build: float | None = round(time.perf_counter() - started, 1)
        else:
            build = None  # an index of an earlier run, brought up to date
            backend.ensure_current(conn)
    out: dict[str, Any] = {"backend": name, "build_seconds": build, "index_mb": _size(engine, settings, name)}
    warm(url, engine, [index_root(engine, settings)])
    with engine.connect() as conn:
        for q in qs[:50]:  # warm-up
            search.autocomplete(conn, backend, q["q"], None, 10, False)
        ac_times, ac = timed(lambda q: search.autocomplete(conn, backend, q["q"], None, 10, False), qs)
        se_times, se = timed(lambda q: search.search(conn, backend, q["q"], None, 20, 1)[0], qs)
        batches = [qs[i : i + 10] for i in range(0, len(qs), 10)]

        def batch(items: list[dict[str, str]]) -> Any:
            parsed = {f"q{i}": reconcile.ReconQuery(query=q["q"], limit=5) for i, q in enumerate(items)}
            return reconcile.reconcile_batch(conn, backend, parsed)

        rc_times, _ = timed(batch, batches)
        conn.rollback()
    out["autocomplete"] = with_cpu(ac_times) | _recall(qs, ac)
    out["search"] = with_cpu(se_times) | _recall(qs, se)
    out["reconcile_10"] = with_cpu(rc_times)
    engine.dispose()
    return out


def _recall(qs: list[dict[str, str]], results: list[list[dict[str, Any]]]) -> dict[str, float]:
    """recall@5 by key, and "equivalent" recall@5: a hit when one of the top 5 has the target's
    normalised name (the corpus repeats names, as registers do; notes/search-baseline.md)."""
    hits = [
        q["key"] in {f"{i['country']}:{i['nationalId']}" for i in r[:5]}
        for q, r in zip(qs, results, strict=True)
    ]
    equiv = [
        q["norm"] in {normalise_name(i["name"]) for i in r[:5]} for q, r in zip(qs, results, strict=True)
    ]
    kinds = {
        k: [e for q, e in zip(qs, equiv, strict=True) if q["kind"] == k] for k in {q["kind"] for q in qs}
    }
    return {
        "recall@5": round(sum(hits) / len(hits), 4),
        "recall@5_equiv": round(sum(equiv) / len(equiv), 4),
        "recall@5_equiv_by_kind": {k: round(sum(v) / len(v), 4) for k, v in sorted(kinds.items())},
    }


def warm(url: str, engine: Any, paths: list[Path]) -> None:
    """Warm caches as a long-running server has them: read the database (and index) files once."""
    if url.startswith("sqlite"):
        paths = [Path(make_url(url).database or "")] + paths
    else:
        with engine.connect() as conn:
            conn.execute(text("SELECT count(*), max(name_norm), max(address_norm) FROM companies")).all()
    for path in paths:
        for file in [path] if path.is_file() else path.rglob("*"):
            if file.is_file():
                with open(file, "rb") as fh:
                    while fh.read(1 << 24):
                        pass


def _size(engine: Any, settings: Any, name: str) -> float:
    if name == "tantivy":
        root = index_root(engine, settings)
        return round(sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) / 2**20, 1)
    with engine.connect() as conn:
        if name == "pg_trgm":
            size = conn.execute(
                text(
                    "SELECT sum(pg_relation_size(indexrelid)) FROM pg_index i JOIN pg_class c "
                    "ON c.oid = i.indexrelid WHERE c.relname LIKE '%_trgm'"
                )
            ).scalar()
        else:
            size = conn.execute(text("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'search_%'")).scalar()
    return round(float(size or 0) / 2**20, 1)


def ensure_pg_database(url: str) -> None:
    parsed = make_url(normalise_url(url))
    admin = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if not conn.execute(
            text("SELECT 1 FROM pg_database WHERE datname = :d"), {"d": parsed.database}
        ).first():
            conn.execute(text(f'CREATE DATABASE "{parsed.database}"'))
    admin.dispose()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entities", type=int, default=1_000_000)
    ap.add_argument("--database-url")
    ap.add_argument("--backends", default="tantivy")
    ap.add_argument("--queries", type=int, default=1_000)
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/regintel-bench"))
    ap.add_argument("--fill-only", action="store_true")
    ap.add_argument(
        "--existing",
        action="store_true",
        help="use the companies already in --database-url (e.g. a `regintel synth` build): no corpus "
        "fill, queries from random rows of the database",
    )
    ap.add_argument(
        "--reuse-index",
        action="store_true",
        help="keep an index an earlier run built for this database (brought up to date) instead of "
        "rebuilding it; the build column is then empty",
    )
    ap.add_argument(
        "--known-distance",
        type=int,
        choices=(0, 1, 2),
        default=None,
        help="edits forgiven in a word the index holds (search.fuzzy.KNOWN_DISTANCE), to compare rules",
    )
    ap.add_argument("--label", default="", help="added to the result file name (before, after)")
    ap.add_argument(
        "--candidates",
        type=int,
        default=None,
        help="candidates a search re-ranks (areas.search.service.CANDIDATES), to compare settings",
    )
    args = ap.parse_args()
    if args.known_distance is not None:
        fuzzy.KNOWN_DISTANCE = args.known_distance
    if args.candidates is not None:
        search.CANDIDATES = args.candidates
    args.workdir.mkdir(parents=True, exist_ok=True)
    url = args.database_url or f"sqlite:///{args.workdir}/search-{args.entities}.db"
    if url.startswith("postgres"):
        ensure_pg_database(url)
    if args.existing:
        qs = queries_from_database(url, args.queries)
    else:
        print("corpus:", bulk_fill(url, args.entities))
        if args.fill_only:
            return
        qs = queries(args.entities, args.queries)
    dialect = url.split(":")[0].split("+")[0]
    results = [run_backend(url, args.workdir, b, qs, args.reuse_index) for b in args.backends.split(",")]
    load = os.getloadavg()[0]
    print(
        f"\n{args.entities:,} entities, {dialect}, {len(qs)} queries (server-side ms; r@5 = equivalent "
        f"recall; load average {load:.1f} on {os.cpu_count()} cores)"
    )
    print(
        f"{'backend':<12}{'build s':>9}{'MB':>8} | {'autocomplete p50/p95/p99':>26} r@5 | "
        f"{'search p50/p95/p99':>22} r@5 | {'reconcile×10 p50/p95/p99':>26}"
    )
    for r in results:
        ac, se, rc = r["autocomplete"], r["search"], r["reconcile_10"]
        build = "-" if r["build_seconds"] is None else r["build_seconds"]
        print(
            f"{r['backend']:<12}{build:>9}{r['index_mb']:>8} | "
            f"{ac['p50']:>8}/{ac['p95']:>7}/{ac['p99']:>8} {ac['recall@5_equiv']:.2f} | "
            f"{se['p50']:>6}/{se['p95']:>7}/{se['p99']:>7} {se['recall@5_equiv']:.2f} | "
            f"{rc['p50']:>8}/{rc['p95']:>7}/{rc['p99']:>8}"
        )
        print(
            f"{'  CPU ms':<29} | {ac['cpu']['p50']:>8}/{ac['cpu']['p95']:>7}/{ac['cpu']['p99']:>8}      | "
            f"{se['cpu']['p50']:>6}/{se['cpu']['p95']:>7}/{se['cpu']['p99']:>7}      | "
            f"{rc['cpu']['p50']:>8}/{rc['cpu']['p95']:>7}/{rc['cpu']['p99']:>8}"
        )
    rule = (
        ("" if args.known_distance is None else f"-known{args.known_distance}")
        + ("" if args.candidates is None else f"-cand{args.candidates}")
        + (f"-{args.label}" if args.label else "")
    )
    out = ROOT / "bench" / "results" / f"search_perf-{args.entities}-{dialect}{rule}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "entities": args.entities,
                "database": dialect,
                "queries": len(qs),
                "load": load,
                "known_distance": fuzzy.KNOWN_DISTANCE,
                "candidates": search.CANDIDATES,
                "results": results,
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    print(f"saved {out}")


if __name__ == "__main__":
    main()
