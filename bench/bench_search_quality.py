"""Search quality: recall@1 and recall@5 of autocomplete, search, resolve and reconcile over the
labelled queries of tests/fixtures/search_eval.jsonl, on the 20,000-company corpus they were drawn
from (tests/search/corpus.py, seed 42). Run by hand:

    .venv/bin/python bench/bench_search_quality.py [--backend tantivy|sqlite_fts|pg_trgm]
        [--database-url postgresql://postgres@127.0.0.1:5432/regintel_bench_quality]

Prints a table and saves bench/results/search_quality[-<backend>-<dialect>].json. Goal: recall@5 ≥ 0.95.

The namesake-heavy set (tests/fixtures/search_eval_namesakes.jsonl, bench/make_search_eval.py
--namesakes) runs against an existing `regintel synth` database and its index folder:

    .venv/bin/python bench/bench_search_quality.py --namesakes --database-url sqlite:////tmp/s1m.db
        --data-dir /tmp/d1m [--label before]

and prints recall@1 / recall@5 per kind and endpoint.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from searchlib import ROOT, bulk_fill, make_key, settings_for

from regintel.api.app import create_app
from regintel.db.engine import make_engine
from regintel.search import refresh_index
from tests.search.evaluate import ENDPOINTS, NAMESAKES, evaluate, load_queries


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="tantivy")
    ap.add_argument("--database-url")
    ap.add_argument("--corpus", type=int, default=20_000)
    ap.add_argument(
        "--namesakes", action="store_true", help="the namesake set, on an existing synth database"
    )
    ap.add_argument("--data-dir", type=Path, help="index folder of that database (REGINTEL_DATA_DIR)")
    ap.add_argument("--label", default="", help="added to the result file name (before, after)")
    args = ap.parse_args()
    if args.namesakes:
        namesakes(args)
        return
    work = Path(tempfile.mkdtemp(prefix="regintel-quality-"))
    url = args.database_url or f"sqlite:///{work}/quality.db"
    print("filling", url, bulk_fill(url, args.corpus))
    from fastapi.testclient import TestClient

    settings = settings_for(url, work / "data", args.backend)
    started = time.perf_counter()
    print("index:", refresh_index(make_engine(url), settings), f"in {time.perf_counter() - started:.1f} s")
    client = TestClient(create_app(settings))
    params = {"api_key": make_key(url)}
    report = evaluate(client, params, load_queries())
    kinds = sorted({k for r in report.values() for k in r["kinds"]})
    print(
        f"\n{'endpoint':<13}{'n':>5}{'r@1':>7}{'r@5':>7}{'r@5eq':>7}   "
        + " ".join(f"{k[:11]:>11}" for k in kinds)
    )
    for endpoint in ENDPOINTS:
        r = report[endpoint]
        per = " ".join(
            f"{r['kinds'][k]['recall@5']:>11.2f}" if k in r["kinds"] else f"{'-':>11}" for k in kinds
        )
        print(
            f"{endpoint:<13}{r['queries']:>5}{r['recall@1']:>7.3f}{r['recall@5']:>7.3f}"
            f"{r['recall@5_equiv']:>7.3f}   {per}"
        )
    print("(r@5eq: one of the top 5 has the target's normalised name; per-kind columns: recall@5)")
    dialect = url.split(":")[0].split("+")[0]
    out = ROOT / "bench" / "results" / f"search_quality-{args.backend}-{dialect}-{args.corpus}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {"backend": args.backend, "database": dialect, "corpus": args.corpus, "report": report}, indent=2
        ),
        encoding="utf-8",
    )
    print(f"saved {out}")


def namesakes(args: argparse.Namespace) -> None:
    from fastapi.testclient import TestClient

    from regintel.db.engine import make_engine as engine_for

    url = args.database_url
    settings = settings_for(url, args.data_dir, args.backend)
    started = time.perf_counter()
    print("index:", refresh_index(engine_for(url), settings), f"in {time.perf_counter() - started:.1f} s")
    client = TestClient(create_app(settings))
    params = {"api_key": make_key(url)}
    with engine_for(url).connect() as conn:
        from sqlalchemy import text

        size = int(conn.execute(text("SELECT COUNT(*) FROM companies")).scalar_one())
    started = time.perf_counter()
    report = evaluate(client, params, load_queries(path=NAMESAKES))
    took = time.perf_counter() - started
    kinds = list(dict.fromkeys(k for r in report.values() for k in r["kinds"]))
    print(f"\n{size:,} companies, {args.backend}; recall@1 / recall@5 per kind ({took:.0f} s)")
    print(f"{'kind':<14}" + "".join(f"{e:>15}" for e in ENDPOINTS))
    for kind in kinds:
        cells = [
            f"{report[e]['kinds'][kind]['recall@1']:.2f} / {report[e]['kinds'][kind]['recall@5']:.2f}"
            if kind in report[e]["kinds"]
            else "-"
            for e in ENDPOINTS
        ]
        print(f"{kind:<14}" + "".join(f"{c:>15}" for c in cells))
    print(
        f"{'all':<14}"
        + "".join(f"{report[e]['recall@1']:.2f} / {report[e]['recall@5']:.2f}".rjust(15) for e in ENDPOINTS)
    )
    dialect = url.split(":")[0].split("+")[0]
    label = f"-{args.label}" if args.label else ""
    out = ROOT / "bench" / "results" / f"search_quality_namesakes-{args.backend}-{dialect}-{size}{label}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "backend": args.backend,
                "database": dialect,
                "companies": size,
                "seconds": round(took, 1),
                "report": report,
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    print(f"saved {out}")


if __name__ == "__main__":
    main()
