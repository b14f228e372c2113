"""Latency of the pages area's routes on a filled database, in-process (TestClient, no network).

    .venv/bin/python bench/bench_pages.py --database-url sqlite:////tmp/p100k.db [--requests 200]

The database is migrated to the latest schema first (use a copy). Views are added to 2,000 companies so
that `most-viewed` has rows. Prints a table (p50, p95, max in ms, and the CPU ms of the process per request,
which a loaded machine inflates less than wall time) and saves JSON to bench/results/. og.png and the sitemap
page are timed twice: the first request (rendered, streamed live) and then as stored (renders.py)."""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from regintel.api.app import create_app
from regintel.areas import load_tables
from regintel.areas.pages import queries
from regintel.config import Settings
from regintel.db.engine import make_engine
from regintel.db.migrate import upgrade
from regintel.db.schema import companies
from regintel.render import svg

BENCH = Path(__file__).parent


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[int(len(ordered) * 0.95) - 1], 2),
        "max": round(ordered[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    load_tables()
    engine = make_engine(args.database_url)
    upgrade(engine)
    rng = random.Random(7)
    with engine.begin() as conn:
        total = conn.execute(select(func.count()).select_from(companies)).scalar() or 0
        sample = [
            tuple(r)
            for r in conn.execute(
                select(companies.c.id, companies.c.country, companies.c.national_id).limit(20000)
            )
        ]
        rng.shuffle(sample)
        queries.add_views(conn, {cid: rng.randint(1, 500) for cid, _, _ in sample[:2000]}, datetime.now(UTC))
    settings = Settings(
        database_url=args.database_url, rate_limit_storage="memory", shared_limit_per_minute=10**9
    )
    client = TestClient(create_app(settings))
    picks = sample[: args.requests]
    routes = {
        "check JSON": lambda c, n: f"/api/v1/public/check/{n}.json?country={c}",
        "credit badge SVG": lambda c, n: f"/api/v1/public/check/{n}/credit-badge.svg?country={c}",
        "og.svg": lambda c, n: f"/api/v1/public/check/{n}/og.svg?country={c}",
        "og.png (first: rendered)": lambda c, n: f"/api/v1/public/check/{n}/og.png?country={c}",
        "og.png (stored)": lambda c, n: f"/api/v1/public/check/{n}/og.png?country={c}",
        "company page /firma": lambda c, n: f"/firma/{c.lower()}/{n}",
        "most-viewed (100)": lambda c, n: "/api/v1/public/most-viewed?limit=100",
        "rankings largest (100)": lambda c, n: "/api/v1/public/rankings/largest.json",
        "landing /": lambda c, n: "/",
        "rankings public-contracts": lambda c, n: "/api/v1/public/rankings/public-contracts.json",
        "map nuts3.geojson": lambda c, n: "/maps/nuts3.geojson",
        "heatmap": lambda c, n: "/heatmap",
        "regions /firmy-kraj": lambda c, n: "/firmy-kraj",
        "technologies": lambda c, n: "/technologies",
        "topic page": lambda c, n: "/api/v1/public/nis2-checker",
        "country landing": lambda c, n: "/api/v1/public/firmy-sk",
        "policy page": lambda c, n: "/api/v1/public/privacy",
        "sitemap index": lambda c, n: "/sitemap-firma.xml",
        "sitemap page (first: live)": lambda c, n: "/sitemap-firma-1.xml",
        "sitemap page (stored, gzip)": lambda c, n: "/sitemap-firma-1.xml",
        "sitemap page (stored, plain)": lambda c, n: "/sitemap-firma-1.xml",
    }
    counts = {
        "sitemap page (first: live)": 1,
        "sitemap page (stored, gzip)": 20,
        "sitemap page (stored, plain)": 10,
    }
    plain = {"Accept-Encoding": "identity"}
    results = {}
    started = time.perf_counter()
    with engine.begin() as conn:  # what the job pages.contract-totals does
        totals = queries.refresh_contract_totals(conn, datetime.now(UTC))
    results["job contract-totals"] = {
        "p50": round((time.perf_counter() - started) * 1000, 1),
        "p95": 0,
        "max": 0,
        "requests": 1,
        "bytes": totals,
    }
    with client:
        # Synthetic sets may hold identifiers whose check digit the resolver refuses (422): time valid
        # ones only.
        picks = [
            p
            for p in sample[: args.requests * 3]
            if client.get(f"/api/v1/public/check/{p[2]}.json?country={p[1]}").status_code == 200
        ][: args.requests]
        for name, path in routes.items():
            count = counts.get(name, args.requests)
            if "(stored" in name:
                time.sleep(3)  # the renders of the pass before are written by a thread after each answer
                svg.to_png.cache_clear()  # so that a stored answer cannot come from the process's LRU
            times, cpu = [], []
            for _, cc, nid in picks[:count]:
                start, start_cpu = time.perf_counter(), time.process_time()
                resp = client.get(path(cc, nid), headers=plain if "plain" in name else None)
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                assert resp.status_code == 200, (name, resp.status_code, resp.text[:200])
            results[name] = (
                percentiles(times)
                | {"cpu_p50": round(statistics.median(cpu), 2), "cpu_p95": percentiles(cpu)["p95"]}
                | {"requests": count, "bytes": len(resp.content)}
            )
    print(f"pages area, {total:,} companies, {engine.dialect.name}, in-process")
    print(
        f"{'route':30} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cpu p50':>8} {'cpu p95':>8} {'bytes':>10}"
    )
    for name, r in results.items():
        cpu = f"{r.get('cpu_p50', '-'):>8} {r.get('cpu_p95', '-'):>8}"
        print(f"{name:30} {r['p50']:>8} {r['p95']:>8} {r['max']:>8} {cpu} {r['bytes']:>10}")
    out = BENCH / "results" / f"pages-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    out.parent.mkdir(exist_ok=True)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    out.write_text(
        json.dumps(
            {"companies": total, "dialect": engine.dialect.name, "routes": results, "loadavg": load}, indent=2
        )
    )
    print(f"saved {out}")


if __name__ == "__main__":
    main()
