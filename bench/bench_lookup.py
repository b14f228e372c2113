"""Lookup benchmark: server-side latency of the exact lookups, bulk, advanced search and statistics on a
filled database, and HTTP throughput of the exact lookup next to hello-world apps in the same run.

Server-side latency is the use case as a request runs it (a pooled connection taken and returned, the
service functions, the JSON body), timed in-process without HTTP; p50/p95/p99 over many different
companies. HTTP throughput uses the real server (`regintel serve`, 1 uvicorn worker) and wrk with a
rotating list of lookup paths, plus bench_foundation's hello-world apps, all in one run.

    .venv/bin/python bench/bench_lookup.py --database-url sqlite:////tmp/bench/s1m.db [--http]
    .venv/bin/python bench/bench_lookup.py --database-url postgresql://postgres@127.0.0.1:5432/bench1m --http
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine, func, select

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import bench_foundation as foundation  # noqa: E402

from regintel.api.envelope import dumps  # noqa: E402
from regintel.areas.companies import lookup  # noqa: E402
from regintel.areas.companies import service as company_svc  # noqa: E402
from regintel.areas.search import advanced_search  # noqa: E402
from regintel.areas.search import export as company_export  # noqa: E402
from regintel.areas.search.company_filters import CompanyFilters  # noqa: E402
from regintel.areas.stats import service as stats  # noqa: E402
from regintel.areas.stats import snapshots  # noqa: E402
from regintel.db.engine import make_engine  # noqa: E402
from regintel.db.schema import companies, lei_records  # noqa: E402
from regintel.errors import RegintelError  # noqa: E402
from regintel.ingest.seed import seed_reference_data  # noqa: E402
from regintel.result_cache import ResultCache  # noqa: E402

console = Console(width=None if sys.stdout.isatty() else 170)


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]

    return {
        "n": len(ordered),
        "p50": at(50),
        "p95": at(95),
        "p99": at(99),
        "max": ordered[-1],
        "mean": statistics.fmean(ordered),
    }


def timed(engine: Engine, calls: list[Callable[[Any], Any]]) -> dict[str, float]:
    """Run each call on a connection taken from the pool (as a request does). Wall-clock ms per call,
    and the CPU time of the calling thread (`cpu_p50`, `cpu_p99`): on a machine shared with other work
    the wall clock includes waiting for a core, the CPU time does not."""
    wall, cpu = [], []
    for call in calls:
        started, started_cpu = time.perf_counter(), time.thread_time()
        with engine.connect() as conn:
            try:
                dumps(call(conn))
            except RegintelError:
                pass  # 404/409/422 answers are answers too
        cpu.append((time.thread_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    cpu_p = percentiles(cpu)
    return percentiles(wall) | {"cpu_p50": cpu_p["p50"], "cpu_p99": cpu_p["p99"]}


def sample(engine: Engine, n: int, rng: random.Random) -> tuple[list[tuple[str, str]], list[str]]:
    with engine.connect() as conn:
        top = conn.execute(select(func.max(companies.c.id))).scalar_one()
        ids = sorted({rng.randint(1, top) for _ in range(n * 2)})[: n * 2]
        keys = [
            (r.country, r.national_id)
            for r in conn.execute(
                select(companies.c.country, companies.c.national_id).where(companies.c.id.in_(ids))
            )
        ]
        leis = list(conn.execute(select(lei_records.c.lei).limit(50_000)).scalars())
        if len(leis) < 100:
            leis = list(
                conn.execute(
                    select(companies.c.lei).where(companies.c.lei.is_not(None)).limit(50_000)
                ).scalars()
            )
    rng.shuffle(keys)
    rng.shuffle(leis)
    return keys[:n], leis[:n]


def typical_filters(engine: Engine) -> dict[str, dict[str, Any]]:
    """Typical advanced searches, with values taken from the data (the most common country, its most
    common legal form, NUTS 3 region and city)."""
    c = companies.c
    with engine.connect() as conn:
        cc = conn.execute(
            select(c.country).group_by(c.country).order_by(func.count().desc()).limit(1)
        ).scalar_one()

        def common(column: Any) -> Any:
            return conn.execute(
                select(column)
                .where(c.country == cc, column.is_not(None))
                .group_by(column)
                .order_by(func.count().desc())
                .limit(1)
            ).scalar()

        form, nuts3, city = common(c.legal_form), common(c.nuts3), common(c.city)
    return {
        f"country={cc}&in_bankruptcy=1": {"country": [cc], "in_bankruptcy": True},
        f"country={cc}&nace=62": {"country": [cc], "nace": ["62"]},
        "nace=J&status=active": {"nace": ["J"], "status": ["active"]},
        f"country={cc}&legal_form={form}&founded_from=2015-01-01, sort=founded_on": {
            "country": [cc],
            "legal_form": [form],
            "founded_from": "2015-01-01",
            "_sort": "founded_on",
        },
        f"nuts3={nuts3}&size_class=small": {"nuts3": [nuts3], "size_class": ["small"]},
        f"city={city}": {"city": city},
        "revenue_min=1000000&currency=EUR, sort=revenue": {
            "revenue_min": 1_000_000,
            "currency": "EUR",
            "_sort": "revenue",
        },
        f"country={cc}&has_lei=1&vat_registered=1": {
            "country": [cc],
            "has_lei": True,
            "vat_registered": True,
        },
        f"country={cc}, page 50": {"country": [cc], "_page": 50},
        "name_contains=nord": {"name_contains": "nord"},
        "name_contains=bau": {"name_contains": "bau"},
        "name_contains=consulting": {"name_contains": "consulting"},
        f"country={cc}&name_contains=nord": {"country": [cc], "name_contains": "nord"},
        "name_contains=ab (two letters: no trigram)": {"name_contains": "ab"},
    }


def service_rows(engine: Engine, args: argparse.Namespace) -> list[dict[str, Any]]:
    rng = random.Random(args.seed)
    keys, leis = sample(engine, args.samples, rng)
    cache = ResultCache()
    with engine.connect() as conn:
        ref = advanced_search.reference(conn, cache)

    def one(cc: str | None, nid: str) -> Callable[[Any], Any]:
        return lambda conn: company_svc.company_record(conn, company_svc.resolve_ico(conn, nid, cc))

    # As the routes run them: on PostgreSQL the single lookups read without a transaction
    # (api/routers/lookup.py).
    point = (
        engine if engine.dialect.name == "sqlite" else engine.execution_options(isolation_level="AUTOCOMMIT")
    )
    rows = [
        {"case": "lookup ?id&country (full record)", **timed(point, [one(cc, nid) for cc, nid in keys])},
        {"case": "lookup ?id, no country (all markets)", **timed(point, [one(None, nid) for _, nid in keys])},
        {"case": "by-lei", **timed(point, [lambda conn, x=lei: lookup.by_lei(conn, x) for lei in leis])},
        {
            "case": "by-identifier type=lei",
            **timed(point, [lambda conn, x=lei: lookup.by_identifier(conn, "lei", x, None) for lei in leis]),
        },
    ]
    batches = [[nid for _, nid in rng.sample(keys, 100)] for _ in range(max(50, args.samples // 20))]
    rows.append(
        {
            "case": "bulk of 100 (no country)",
            **timed(engine, [lambda conn, b=b: lookup.bulk(conn, b, None) for b in batches]),
        }
    )
    country_batches = [[{"country": cc, "id": nid} for cc, nid in rng.sample(keys, 100)] for _ in batches]
    rows.append(
        {
            "case": "bulk of 100 ({country, id} items)",
            **timed(engine, [lambda conn, b=b: lookup.bulk(conn, b, None) for b in country_batches]),
        }
    )
    for name, params in typical_filters(engine).items():
        sort, page = params.pop("_sort", "name"), params.pop("_page", 1)
        filters = CompanyFilters(**params)
        direction = "asc" if sort == "name" else "desc"
        call = _search(filters, ref, sort, direction, page)
        rows.append({"case": f"advanced-search {name}", **timed(engine, [call] * args.search_repeats)})
    return rows


def _search(filters: CompanyFilters, ref: Any, sort: str, direction: str, page: int) -> Callable[[Any], Any]:
    return lambda conn: advanced_search.search(
        conn, filters, ref, sort=sort, direction=direction, page=page, per_page=20
    )


def _cached(cache: ResultCache, name: str, compute: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda conn: stats.cached(conn, cache, (name,), lambda: compute(conn))


def export_rate(engine: Engine, rows: int) -> dict[str, Any]:
    """The CSV export's row rate over all companies (keyset pages of 1,000, 47 columns, CSV text)."""
    from regintel.render.tabular import iter_csv

    cache = ResultCache()
    with engine.connect() as conn:
        ref = advanced_search.reference(conn, cache)
        cond, _ = advanced_search.export_plan(
            conn, CompanyFilters(), ref, company_export.ROW_CAP, company_export.PAGE
        )
    started = time.perf_counter()
    size = sum(
        len(chunk)
        for chunk in iter_csv(
            company_export.iter_rows(engine, cond, ref, "http://bench", rows), company_export.COLUMNS
        )
    )
    seconds = time.perf_counter() - started
    return {"rows": rows, "seconds": round(seconds, 2), "rows_per_s": round(rows / seconds), "bytes": size}


def stats_rows(engine: Engine) -> list[dict[str, Any]]:
    """Each aggregate computed cold (no cache), then answered from the process cache, then as a new
    API process answers it: an empty process cache, from the snapshot stored for the data version."""
    from regintel.db.company_filters import conditions

    with engine.connect() as conn:
        ref = advanced_search.reference(conn, ResultCache())
    everything = conditions(CompanyFilters(), ref)
    cases: dict[str, tuple[str, Callable[[Any], Any]]] = {
        "stats (overview)": ("overview", stats.overview),
        "stats/freshness": ("freshness", stats.freshness),
        "public/stats": ("public-stats", stats.public_stats),
        "public/shell-addresses": (
            snapshots.PUBLIC_SHELL_KEY,
            lambda conn: stats.shell_addresses(
                conn, everything, snapshots.SHELL_MIN_COMPANIES, snapshots.SHELL_LIMIT, public=True
            ),
        ),
    }
    for by in ("country", "nace_eu_section", "nace", "region", "size", "entity_type", "shell_density"):
        cases[f"stats/breakdown?by={by}"] = (
            snapshots.breakdown_key(by),
            lambda conn, by=by: stats.breakdown(conn, by, everything, ref, snapshots.BREAKDOWN_LIMIT),
        )
    out = []
    for name, (key, compute) in cases.items():
        cache = ResultCache()
        call = _cached(cache, name, compute)
        cold = timed(engine, [call])
        warm = timed(engine, [call] * 200)
        with engine.connect() as conn:  # the snapshot, as a request would store it
            snapshots.answer(conn, ResultCache(), key, lambda c=conn, f=compute: f(c))
        stored = timed(
            engine,
            [
                lambda conn, key=key, compute=compute: snapshots.answer(
                    conn, ResultCache(), key, lambda: compute(conn)
                )
            ]
            * 200,
        )
        out.append(
            {
                "case": name,
                "cold_ms": cold["p50"],
                "cold_cpu_ms": cold["cpu_p50"],
                "cached_p50": warm["p50"],
                "cached_p99": warm["p99"],
                "snapshot_p50": stored["p50"],
                "snapshot_p99": stored["p99"],
            }
        )
    return out


# -- HTTP ------------------------------------------------------------------------------------------


def http_rows(args: argparse.Namespace, workdir: Path, keys: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Hello-world apps and regintel's exact lookup under wrk in one run: three servers up at once,
    `--rounds` rounds loading each target in turn; the row of each target is its median round."""
    env = foundation.server_env(workdir, args.database_url, "http://127.0.0.1") | {
        "REGINTEL_RATE_LIMIT_STORAGE": args.rate_limit_storage,
        "REGINTEL_AUTO_MIGRATE": "0",
    }
    key = foundation.create_key(env)
    servers, targets = [], []
    for name, app_ref, app_env in (
        ("hello (raw ASGI)", "hello_app:app", dict(os.environ)),
        ("hello (Starlette)", "hello_app:starlette_app", dict(os.environ)),
        ("regintel", "lookup_async_app:app", env),
    ):
        port = foundation.free_port()
        cmd = [
            sys.executable,
            "-m",
            "uvicorn",
            "--app-dir",
            str(BENCH),
            app_ref,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "--log-level",
            "warning",
            "--no-proxy-headers",
        ]
        ready = f"http://127.0.0.1:{port}" + ("/api/v1/public/status" if name == "regintel" else "/")
        servers.append(foundation.start(cmd, app_env, ready, workdir / f"{port}.log"))
        base = f"http://127.0.0.1:{port}"
        if name != "regintel":
            targets.append((name, "/", base, None))
            continue
        variants = {
            "def": ("def handler (thread pool)", "/bench/lookup-def"),
            "async": ("async def handler (inline)", "/bench/lookup-async"),
            "route": ("the /companies/lookup route", "/api/v1/companies/lookup"),
        }
        for label, route in (variants[v] for v in args.variants):
            paths = workdir / f"paths-{len(targets)}.txt"
            paths.write_text(
                "".join(f"{route}?id={nid}&country={cc.lower()}&api_key={key}\n" for cc, nid in keys),
                encoding="utf-8",
            )
            targets.append((f"regintel lookup, {label}", route, base, paths))
    rounds: dict[str, list[dict[str, Any]]] = {}
    try:
        for _ in range(args.rounds):
            for name, path, base, paths in targets:
                result = (
                    wrk_paths(base, paths, args) if paths else foundation.load("wrk", base + "/", {}, args)
                )
                rounds.setdefault(name, []).append(
                    {"target": name, "path": path, "auth": "key" if paths else "public", **result}
                )
    finally:
        for proc in servers:
            foundation.stop(proc)
    rows = []
    for runs in rounds.values():
        ordered = sorted(runs, key=lambda r: r["rps"])
        rows.append(ordered[len(ordered) // 2] | {"rounds_rps": [r["rps"] for r in runs]})
    return rows


def wrk_paths(base: str, paths: Path, args: argparse.Namespace) -> dict[str, Any]:
    script = str(BENCH / "wrk_paths.lua")
    cmd = ["wrk", "-t1", f"-c{args.connections}", "--timeout", "10s", "-s", script]
    subprocess.run([*cmd, f"-d{args.warmup}s", base, "--", str(paths)], check=True, capture_output=True)
    out = subprocess.run(
        [*cmd, f"-d{args.duration}s", base, "--", str(paths)], check=True, capture_output=True, text=True
    ).stdout
    raw = json.loads(next(line for line in out.splitlines() if line.startswith("WRKJSON "))[8:])
    if not raw["requests"]:
        console.print(f"[red]no answers from {base} with {paths}:\n{out}")
    seconds = raw["duration_us"] / 1e6
    return {
        "connections": args.connections,
        "duration_s": round(seconds, 3),
        "requests": raw["requests"],
        "errors": sum(raw["errors"].values()),
        "rps": round(raw["requests"] / seconds, 1),
        "latency_ms": {k: v / 1000 for k, v in raw["latency_us"].items()},
    }


# -- output ----------------------------------------------------------------------------------------


def print_latency(rows: list[dict[str, Any]], title: str) -> None:
    table = Table(title=title)
    for column in ("case", "n", "p50 ms", "p95 ms", "p99 ms", "max ms", "CPU p50 ms", "CPU p99 ms"):
        table.add_column(column, justify="left" if column == "case" else "right")
    for r in rows:
        table.add_row(
            r["case"],
            str(r["n"]),
            f"{r['p50']:.2f}",
            f"{r['p95']:.2f}",
            f"{r['p99']:.2f}",
            f"{r['max']:.1f}",
            f"{r['cpu_p50']:.2f}",
            f"{r['cpu_p99']:.2f}",
        )
    console.print(table)


def print_stats(rows: list[dict[str, Any]], title: str) -> None:
    table = Table(title=title)
    for column in (
        "aggregate",
        "cold ms",
        "cold CPU ms",
        "cached p50 ms",
        "cached p99 ms",
        "snapshot p50 ms",
        "snapshot p99 ms",
    ):
        table.add_column(column, justify="left" if column == "aggregate" else "right")
    for r in rows:
        table.add_row(
            r["case"],
            f"{r['cold_ms']:.0f}",
            f"{r['cold_cpu_ms']:.0f}",
            f"{r['cached_p50']:.2f}",
            f"{r['cached_p99']:.2f}",
            f"{r['snapshot_p50']:.2f}",
            f"{r['snapshot_p99']:.2f}",
        )
    console.print(table)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url", required=True, help="a filled database (bench/lookup_data.py, regintel synth)"
    )
    parser.add_argument("--samples", type=int, default=2000, help="companies / LEIs per lookup case")
    parser.add_argument("--search-repeats", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--http", action="store_true", help="also measure HTTP throughput (starts servers)")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--tool", choices=("wrk",), default="wrk")
    parser.add_argument(
        "--rate-limit-storage", default="sqlite", help="REGINTEL_RATE_LIMIT_STORAGE of the server"
    )
    parser.add_argument("--rounds", type=int, default=3, help="HTTP rounds (targets alternate; median kept)")
    parser.add_argument("--skip-latency", action="store_true", help="only the HTTP part (with --http)")
    parser.add_argument("--variants", default="async,def", help="lookup handlers to load: async, def, route")
    parser.add_argument("--skip-stats", action="store_true")
    parser.add_argument("--out", type=Path, default=BENCH / "results")
    args = parser.parse_args()
    args.variants = [v for v in args.variants.split(",") if v]
    if args.http and shutil.which(args.tool) is None:  # before the latency part, not after it
        parser.error(f"--http needs {args.tool} on the PATH (Debian: apt install {args.tool})")
    engine = make_engine(args.database_url)
    seed_reference_data(engine)  # the code lists, as `regintel serve` loads them at start-up
    with engine.connect() as conn:
        entities = conn.execute(select(func.count()).select_from(companies)).scalar_one()
    load_before = os.getloadavg()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    backend = engine.dialect.name
    result: dict[str, Any] = {"benchmark": "lookup", "at": stamp, "entities": entities, "backend": backend}
    if not args.skip_latency:
        result["latency"] = service_rows(engine, args)
        print_latency(
            result["latency"], f"lookup {stamp}: server-side latency, {entities:,} entities, {backend}"
        )
        result["export"] = export_rate(engine, 20_000)
        console.print(f"CSV export: {result['export']}")
    if not args.skip_stats and not args.skip_latency:
        result["aggregates"] = stats_rows(engine)
        print_stats(result["aggregates"], f"aggregates {stamp}: {entities:,} entities, {backend}")
    if args.http:
        keys, _ = sample(engine, 5000, random.Random(args.seed + 1))
        with tempfile.TemporaryDirectory(prefix="regintel-bench-") as tmp:
            rows = http_rows(args, Path(tmp), keys)
        hello = rows[0]["rps"]
        for r in rows:
            r["rps_ratio_to_hello"] = round(r["rps"] / hello, 4)
        result["http"] = rows
        foundation.print_table(
            rows,
            hello,
            f"HTTP {stamp}: {args.connections} connections, {args.duration} s, wrk, "
            f"1 uvicorn worker, {entities:,} entities, {backend}",
        )
    result["load_average"] = {"before": load_before, "after": os.getloadavg()}
    result["environment"] = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=BENCH.parent, capture_output=True, text=True
        ).stdout.strip(),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / f"lookup-{backend}-{entities}-{stamp}.json"
    out.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    console.print(f"load average before {load_before}, after {os.getloadavg()}; saved {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
