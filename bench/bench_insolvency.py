"""Insolvency benchmark: gazette import throughput, then feed, timeline and change-feed latencies.

1. writes N notices with bench/gen_sk_obchodny_vestnik.py (a PodanieExport answer) and imports them into
   a fresh database (SQLite in a temporary folder, or `--database-url postgresql://…`) through the real
   runner and loader, twice (the second run changes nothing): notices/s and peak memory;
2. serves that database with `regintel serve` (1 uvicorn worker, limits lifted) and measures sequential
   request latencies of the public feeds at their maximum sizes, `/public/stats/bankrupt`, timelines of
   random companies and the change feeds: the first request (feeds and statistics are computed then and
   cached per data version) and p50/p95/max over `--requests` more.

Prints tables, saves JSON to bench/results/insolvency-<backend>-<notices>-<timestamp>.json.

    .venv/bin/python bench/bench_insolvency.py [--notices 200000] [--requests 100]
        [--database-url postgresql://postgres@127.0.0.1:5432/bench_insolvency]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from statistics import quantiles
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from sqlalchemy import func, select

from regintel.db.engine import make_engine
from regintel.db.keys import create_key
from regintel.db.migrate import upgrade
from regintel.db.schema import companies, company_changes, insolvency_events
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_obchodny_vestnik import SOURCE

BENCH = Path(__file__).resolve().parent
console = Console(width=None if sys.stdout.isatty() else 160)


def generate(path: Path, notices: int, seed: int) -> float:
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            str(BENCH / "gen_sk_obchodny_vestnik.py"),
            "--count",
            str(notices),
            "--seed",
            str(seed),
            "--out",
            str(path),
        ],
        check=True,
    )
    return time.perf_counter() - started


def do_import(engine: Any, path: Path, data_dir: Path) -> dict[str, Any]:
    started = time.perf_counter()
    _, stats, _ = run_import(engine, SOURCE, str(path), data_dir)
    seconds = time.perf_counter() - started
    return {"seconds": round(seconds, 2), "notices_per_s": round(stats.read / seconds), **stats.as_dict()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(database_url: str, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = os.environ | {
        "REGINTEL_DATABASE_URL": database_url,
        "REGINTEL_DATA_DIR": str(workdir / "data"),
        "REGINTEL_SHARED_LIMIT_PER_MINUTE": "1000000000",
        "REGINTEL_BASE_URL": base,
        "REGINTEL_LOG_LEVEL": "WARNING",
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "regintel",
            "serve",
            "--port",
            str(port),
            "--workers",
            "1",
            "--log-level",
            "warning",
        ],
        env=env,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            httpx.get(f"{base}/api/v1/public/status", timeout=1)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("server did not come up")


def measure(http: httpx.Client, paths: list[str], requests: int) -> dict[str, Any]:
    """Sequential requests cycling through `paths`: the first one's time (`first_ms`: the feeds and
    statistics are computed then and served from the result cache afterwards, until the data changes)
    and latency percentiles of the rest, in ms."""
    started = time.perf_counter()
    http.get(paths[0])
    first_ms = (time.perf_counter() - started) * 1000
    times, sizes = [], []
    for n in range(requests):
        started = time.perf_counter()
        resp = http.get(paths[n % len(paths)])
        times.append((time.perf_counter() - started) * 1000)
        assert resp.status_code == 200, (resp.status_code, resp.text[:300])
        sizes.append(len(resp.content))
    cuts = quantiles(times, n=100)
    return {
        "first_ms": round(first_ms, 1),
        "p50_ms": round(cuts[49], 1),
        "p95_ms": round(cuts[94], 1),
        "max_ms": round(max(times), 1),
        "bytes": round(sum(sizes) / len(sizes)),
    }


def targets(engine: Any, seed: int) -> dict[str, list[str]]:
    rng = random.Random(seed)
    with engine.connect() as conn:
        icos = list(
            conn.execute(select(companies.c.national_id).order_by(companies.c.id).limit(20_000)).scalars()
        )
    sample = [f"/api/v1/companies/{ico}/timeline?country=sk" for ico in rng.sample(icos, min(200, len(icos)))]
    public = "/api/v1/public"
    return {
        "recent-bankruptcies.json limit=200": [f"{public}/recent-bankruptcies.json?limit=200&scope=any"],
        "recent-bankruptcies.rss limit=200": [f"{public}/recent-bankruptcies.rss?limit=200&scope=any"],
        "recent-bankruptcies.atom limit=200": [f"{public}/recent-bankruptcies.atom?limit=200&scope=any"],
        "recent-bankruptcies.csv limit=500": [
            f"{public}/recent-bankruptcies.csv?limit=500&scope=any&phase=any"
        ],
        "recent-bankruptcies.json country=SK": [f"{public}/recent-bankruptcies.json?country=SK"],
        "stats/bankrupt": [f"{public}/stats/bankrupt?months=120"],
        "companies/{ico}/timeline (random)": sample,
        "companies/changes limit=1000": ["/api/v1/companies/changes?limit=1000"],
        "companies/changes field=in_bankruptcy": ["/api/v1/companies/changes?field=in_bankruptcy&limit=100"],
        "companies/changes/feed limit=200": ["/api/v1/companies/changes/feed?limit=200"],
    }


def counts(engine: Any) -> dict[str, int]:
    with engine.connect() as conn:
        return {
            name: int(conn.execute(select(func.count()).select_from(table)).scalar_one())
            for name, table in (
                ("companies", companies),
                ("insolvency_events", insolvency_events),
                ("company_changes", company_changes),
            )
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notices", type=int, default=200_000)
    parser.add_argument("--requests", type=int, default=100, help="requests per latency target")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--database-url", help="a fresh, empty database instead of a temporary SQLite file")
    parser.add_argument("--out", type=Path, default=BENCH / "results")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-insolvency-"))
    database_url = args.database_url or f"sqlite:///{workdir / 'regintel.db'}"
    engine = make_engine(database_url, pool=False)
    upgrade(engine)
    path = workdir / "ov.xml.gz"
    generated = generate(path, args.notices, args.seed)
    first = do_import(engine, path, workdir / "data")
    second = do_import(engine, path, workdir / "data")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sizes = counts(engine)
    with engine.begin() as conn:
        _, key = create_key(conn, "bench", "business")
    proc, base = serve(database_url, workdir)
    try:
        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60) as http:
            latency = {
                name: measure(http, paths, args.requests)
                for name, paths in targets(engine, args.seed).items()
            }
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    report(args, generated, first, second, peak_mb, sizes, latency, database_url)
    return 0


def report(
    args: argparse.Namespace,
    generated: float,
    first: dict[str, Any],
    second: dict[str, Any],
    peak_mb: float,
    sizes: dict[str, int],
    latency: dict[str, Any],
    database_url: str,
) -> None:
    backend = "postgresql" if database_url.startswith("postgres") else "sqlite"
    table = Table(title=f"Gazette import, {args.notices:,} notices ({backend})")
    for col in ("run", "seconds", "notices/s", "inserted", "updated", "unchanged", "skipped", "rejected"):
        table.add_column(col, justify="right")
    for name, run in (("first", first), ("again", second)):
        table.add_row(
            name,
            f"{run['seconds']:.1f}",
            f"{run['notices_per_s']:,}",
            f"{run['inserted']:,}",
            f"{run['updated']:,}",
            f"{run['unchanged']:,}",
            f"{run['skipped']:,}",
            f"{run['rejected']:,}",
        )
    console.print(table)
    console.print(f"generated in {generated:.1f} s; peak RSS {peak_mb:.0f} MB; rows: {sizes}")
    lat = Table(title=f"Latency, {args.requests} sequential requests each (1 uvicorn worker)")
    for col in ("endpoint", "first ms", "p50 ms", "p95 ms", "max ms", "bytes"):
        lat.add_column(col, justify="right" if col != "endpoint" else "left")
    for name, figures in latency.items():
        lat.add_row(
            name,
            f"{figures['first_ms']:.1f}",
            f"{figures['p50_ms']:.1f}",
            f"{figures['p95_ms']:.1f}",
            f"{figures['max_ms']:.1f}",
            f"{figures['bytes']:,}",
        )
    console.print(lat)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    args.out.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=BENCH.parent, capture_output=True, text=True
    ).stdout.strip()
    result = {
        "notices": args.notices,
        "requests": args.requests,
        "backend": backend,
        "commit": commit,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "generate_seconds": round(generated, 1),
        "import": first,
        "reimport": second,
        "peak_rss_mb": round(peak_mb),
        "rows": sizes,
        "latency": latency,
    }
    out = args.out / f"insolvency-{backend}-{args.notices}-{stamp}.json"
    out.write_text(json.dumps(result, indent=2, default=str))
    console.print(f"saved {out}")


if __name__ == "__main__":
    raise SystemExit(main())
