"""First and warm renders of every public page type, each in a fresh process (docs/pages.md, "Measured").

    .venv/bin/python bench/bench_pages_first.py --database-url sqlite:////tmp/copy.db [--warm 20]
    .venv/bin/python bench/bench_pages_first.py --database-url ... --one "landing /" --profile

A "first render" is the first request a new server process answers for a page type (after start-up, which
the server does before it listens): it pays what a process does once (template compilation, the message
catalogs, the process caches) and what the data does once (an aggregate not yet stored for the current data
version). "Warm" is the same page type again in the same process, for other companies where the page is a
company's. Each page type runs in its own process, so one page's first render does not warm another's.
Every run starts with no stored render (og.png, sitemap pages) and no views, as right after an import; the
page types "… after pages.sitemaps" and "… after pages.og-ahead" first run that job of the worker (not
timed), which is what a request meets once the worker caught up with the data. The app is started with
`warm_start` (REGINTEL_WARM_START) on, as a deployment that cares about first requests runs it; `--cold`
measures without it. The statistics snapshots are brought up to date first (`stats refresh`, as the end of
an import and the worker do). `--only "og.png,sitemap page 1"` picks page types. The bench writes to the
database (renders, views, a key for the dashboard): give it a copy.
`--profile` prints a CPU profile of the first request of `--one`, over every thread (the handler runs in
the server's thread pool): it needs yappi (`pip install yappi`, not a dependency). Results go to
bench/results/ (JSON)."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCH = Path(__file__).parent

# name -> path template; {cc} {ico} are a company's country (lower case) and identifier
ROUTES: dict[str, str] = {
    "landing /": "/",
    "company page /firma": "/firma/{cc}/{ico}",
    "check JSON": "/api/v1/public/check/{ico}.json?country={cc}",
    "status badge": "/api/v1/public/check/{ico}/badge.svg?country={cc}",
    "credit badge": "/api/v1/public/check/{ico}/credit-badge.svg?country={cc}",
    "og.svg": "/api/v1/public/check/{ico}/og.svg?country={cc}",
    "og.png": "/api/v1/public/check/{ico}/og.png?country={cc}",
    "directory /firmy/sk": "/firmy/sk",
    "largest /najvacsie-firmy": "/najvacsie-firmy",
    "ranking public-contracts": "/rebricky/public-contracts",
    "ranking shell-addresses": "/rebricky/shell-addresses",
    "ranking most-viewed": "/rebricky/most-viewed",
    "coverage": "/coverage",
    "heatmap": "/heatmap",
    "regions /firmy-kraj": "/firmy-kraj",
    "map nuts3.geojson": "/maps/nuts3.geojson",
    "technologies": "/technologies",
    "topic page": "/api/v1/public/nis2-checker",
    "country landing": "/api/v1/public/firmy-sk",
    "policy page": "/api/v1/public/privacy",
    "badge generator": "/badge-generator?cc={cc}&ico={ico}",
    "compare": "/api/v1/public/compare?companies={pair}",
    "dashboard": "/dashboard?api_key={key}",
    "sitemap index": "/sitemap-firma.xml",
    "sitemap hot": "/sitemap-firma-hot.xml",
    "sitemap page 1": "/sitemap-firma-1.xml",
    "sitemap page 1 after pages.sitemaps": "/sitemap-firma-1.xml",
    "og.png after pages.og-ahead": "/api/v1/public/check/{ico}/og.png?country={cc}",
    "topic og.png after pages.og-ahead": "/api/v1/public/nis2-checker/og.png",
}
# page types measured after a job of the worker ran (the job is not timed): what a request meets once the
# worker has caught up with the data version. The others start with no stored render, as after an import.
AFTER_JOB = {
    "sitemap page 1 after pages.sitemaps": "pages.sitemaps",
    "og.png after pages.og-ahead": "pages.og-ahead",
    "topic og.png after pages.og-ahead": "pages.og-ahead",
}
PER_COMPANY = ("{ico}", "{pair}")


def _companies(engine: Any, n: int, with_id: bool = False) -> list[Any]:
    from sqlalchemy import select

    from regintel.db.schema import companies

    with engine.connect() as conn:
        rows = conn.execute(
            select(companies.c.id, companies.c.country, companies.c.national_id)
            .where(companies.c.country.in_(("SK", "CZ")))
            .order_by(companies.c.id)
            .limit(n * 5)
        ).all()
    return [tuple(r) if with_id else (r[1].lower(), r[2]) for r in rows]


def _prepare(engine: Any, settings: Any, name: str) -> Any:
    """No stored render at start (as right after an import), then the job of an AFTER_JOB page type; for
    og.png after pages.og-ahead, the companies picked are made the most viewed ones first."""
    from sqlalchemy import delete

    from regintel.areas.pages import jobs, queries
    from regintel.areas.pages.tables import page_renders, page_views
    from regintel.areas.stats.snapshots import refresh
    from regintel.jobs.registry import JobContext

    with engine.begin() as conn:
        conn.execute(delete(page_renders))
        conn.execute(delete(page_views))
    refresh(engine)
    kind = AFTER_JOB.get(name)
    if kind is None:
        return None
    if "{ico}" in ROUTES[name]:
        ids = [r[0] for r in _companies(engine, 60, with_id=True)]
        with engine.begin() as conn:
            queries.add_views(conn, {cid: 1 for cid in ids}, datetime.now(UTC))
    handler = jobs.sitemaps if kind == "pages.sitemaps" else jobs.og_ahead
    started = time.process_time()
    result = handler(JobContext(engine=engine, settings=settings, job_id=0, attempt=0), {})
    return dict(result or {}) | {"cpu_seconds": round(time.process_time() - started, 2)}


@contextlib.contextmanager
def _client(app: Any, read_only: bool) -> Iterator[Any]:
    """A TestClient; on a read-only database the views the app writes when it stops fail, after the timing."""
    from fastapi.testclient import TestClient

    client = TestClient(app)
    client.__enter__()
    yield client
    try:
        client.__exit__(None, None, None)
    except Exception:
        if not read_only:
            raise


def one(
    url: str, name: str, warm: int, profile: bool, warm_start: bool, read_only: bool = False
) -> dict[str, object]:
    """Start an app on `url`, time the first request of page type `name`, then `warm` more."""

    from regintel.api.app import create_app
    from regintel.areas import load_tables
    from regintel.config import Settings
    from regintel.db.engine import make_engine
    from regintel.db.keys import create_key

    load_tables()
    settings = Settings(
        database_url=url,
        rate_limit_storage="memory",
        shared_limit_per_minute=10**9,
        base_url="http://testserver",
        warm_start=warm_start,
    )
    engine = make_engine(url)
    job = None if read_only else _prepare(engine, settings, name)
    key = ""
    if name == "dashboard":
        with engine.begin() as conn:
            key = create_key(conn, "bench", "business", duration_days=None)[1]
    with _client(create_app(settings), read_only) as client:
        picks = _companies(engine, warm + 1)  # identifiers the resolver refuses are skipped below
        template = ROUTES[name]
        times: list[tuple[float, float, int, int]] = []
        i = 0
        while len(times) < warm + 1 and i < len(picks):
            cc, ico = picks[i]
            pair = f"{cc}:{ico},{picks[(i + 1) % len(picks)][0]}:{picks[(i + 1) % len(picks)][1]}"
            path = template.format(cc=cc, ico=ico, pair=pair, key=key)
            i += 1 if any(p in template for p in PER_COMPANY) else 0
            prof = importlib.import_module("yappi") if profile and not times else None
            if prof:
                prof.set_clock_type("cpu")
                prof.start()
            start, cpu = time.perf_counter(), time.process_time()
            resp = client.get(path)
            wall, used = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
            if resp.status_code == 422 and "{ico}" in template:
                continue  # a synthetic identifier the resolver refuses: take the next company
            assert resp.status_code == 200, (name, path, resp.status_code, resp.text[:300])
            times.append((wall, used, len(resp.content), resp.status_code))
            if prof:
                prof.stop()
                stats = prof.get_func_stats()
                stats.sort("ttot").print_all(
                    out=sys.stderr, columns={0: ("name", 90), 1: ("ncall", 8), 3: ("ttot", 8), 2: ("tsub", 8)}
                )
                prof.clear_stats()
    warm_wall = sorted(t[0] for t in times[1:]) or [0.0]
    warm_cpu = sorted(t[1] for t in times[1:]) or [0.0]
    return {
        "first_ms": round(times[0][0], 1),
        "first_cpu_ms": round(times[0][1], 1),
        "warm_p50_ms": round(statistics.median(warm_wall), 1),
        "warm_p95_ms": round(warm_wall[max(0, int(len(warm_wall) * 0.95) - 1)], 1),
        "warm_cpu_p50_ms": round(statistics.median(warm_cpu), 1),
        "bytes": times[0][2],
        "requests": len(times),
        "job": job,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--one", help="run one page type in this process and print its JSON")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--only", help="comma-separated page types (default: all)")
    parser.add_argument(
        "--cold", action="store_true", help="without REGINTEL_WARM_START's start-up work (its default: off)"
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="for a database that must not be written (open it as sqlite:///file:PATH?mode=ro&uri=true): "
        "no migration, nothing cleared or refreshed, no job; renders and snapshots found stay as they are",
    )
    args = parser.parse_args()
    if args.one:
        found = one(args.database_url, args.one, args.warm, args.profile, not args.cold, args.read_only)
        print(json.dumps(found))
        return
    from regintel.areas import load_tables
    from regintel.db.engine import make_engine
    from regintel.db.migrate import upgrade

    load_tables()
    if not args.read_only:
        upgrade(make_engine(args.database_url))
    results: dict[str, object] = {}
    print(f"{'page type':36} {'first':>8} {'cpu':>8} {'warm p50':>9} {'p95':>8} {'cpu p50':>8} {'bytes':>10}")
    names = args.only.split(",") if args.only else list(ROUTES)
    if args.read_only:  # no job runs, no key is made; the app's own writes fail and are logged
        names = [n for n in names if n not in AFTER_JOB and n != "dashboard"]
    for name in names:
        cmd = [sys.executable, __file__, "--database-url", args.database_url, "--one", name]
        cmd += ["--cold"] if args.cold else []
        cmd += ["--read-only"] if args.read_only else []
        out = subprocess.run([*cmd, "--warm", str(args.warm)], capture_output=True, text=True, check=False)
        if out.returncode:
            print(f"{name:36} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        results[name] = r
        print(
            f"{name:36} {r['first_ms']:>8} {r['first_cpu_ms']:>8} {r['warm_p50_ms']:>9} "
            f"{r['warm_p95_ms']:>8} {r['warm_cpu_p50_ms']:>8} {r['bytes']:>10}"
        )
        if r.get("job"):
            print(f"{'':36}   (job before it, not timed above: {r['job']})")
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    dest = BENCH / "results" / f"pages-first-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    dest.parent.mkdir(exist_ok=True)
    doc = {"database": args.database_url, "warm_start": not args.cold, "routes": results, "loadavg": load}
    dest.write_text(json.dumps(doc, indent=2))
    print(f"saved {dest}")


if __name__ == "__main__":
    main()
