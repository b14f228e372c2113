"""Screening latency and throughput at the full size of the four real lists plus synthetic entries.

    .venv/bin/python bench/bench_screening.py                      # 100,000 synthetic entries, 2,000 queries
    .venv/bin/python bench/bench_screening.py --synthetic 20000 --queries 500 --http

Builds a throwaway SQLite database (or uses `--database-url`), imports the UN, OFAC, EU and UK lists
from the repository's fixtures through the real importer, adds `--synthetic` entries (persons and
organisations from Faker's locales, Cyrillic, Arabic and Chinese scripts included, some with birth
dates and countries) through the same writer, then times:

- the per-process index build (first request after a list changes) and the process's memory;
- `service.screen` in this process, one query after another (one core): p50/p95/p99 and requests/s;
- with `--http`, `POST /api/v1/public/screen` on a one-worker `regintel serve` from one keep-alive
  connection (closed loop), so requests/s is per server core.

Queries mix changed listed names (as in eval_screening.py), near misses and random Faker names.
Prints a table and saves bench/results/screening_<n>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from eval_screening import build_set
from screening_lib import LISTS, ROOT

from regintel.areas.screening import service as svc
from regintel.areas.screening.importer import import_list, write_entries
from regintel.areas.screening.index import current_index
from regintel.db.engine import make_engine
from regintel.db.migrate import upgrade
from regintel.domain.screening import DEFAULT_THRESHOLD, Subject
from regintel.ingest.base import SourceInfo
from regintel.ingest.sources.sanctions_common import ListedEntry, ListedName, SanctionSource

LOCALES = (
    "en_US",
    "de_DE",
    "fr_FR",
    "es_ES",
    "it_IT",
    "pl_PL",
    "cs_CZ",
    "tr_TR",
    "ru_RU",
    "uk_UA",
    "ar_AA",
    "fa_IR",
    "zh_CN",
    "ko_KR",
)
RESULTS_LOG = Path(tempfile.gettempdir()) / "bench_screening_server.log"
SYNTH = SanctionSource(
    SourceInfo(
        id="synthetic_sanctions",
        name="Synthetic sanctions entries (benchmark)",
        publisher="regintel bench",
        country=None,
        category="synthetic",
        formats="generated",
        licence="CC0 1.0",
        attribution="Generated",
        url="https://example.invalid",
        cadence="on-demand",
    ),
    parse=lambda _: iter(()),
)


def synthetic_entries(n: int, seed: int) -> list[ListedEntry]:
    from faker import Faker

    fakers = [Faker(loc) for loc in LOCALES]
    for i, f in enumerate(fakers):
        f.seed_instance(seed + i)
    rng = random.Random(seed)
    out = []
    for i in range(n):
        f = rng.choice(fakers)
        if rng.random() < 0.7:
            names = [ListedName(f"{f.first_name()} {f.last_name()}", "primary")]
            names += [
                ListedName(f"{f.first_name()} {f.last_name()}", rng.choice(["alias", "weak"]))
                for _ in range(rng.randrange(3))
            ]
            dobs = (
                [f"{rng.randrange(1940, 2000)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"]
                if rng.random() < 0.6
                else []
            )
            entry = ListedEntry(key=f"S{i}", schema="person", names=names, birth_dates=dobs)
        else:
            entry = ListedEntry(
                key=f"S{i}", schema="organization", names=[ListedName(f.company(), "primary")]
            )
        entry.programmes = [rng.choice(["SYN-A", "SYN-B", "SYN-C"])]
        entry.countries = [(rng.choice(["RU", "IR", "SY", "KP", "BY", "CN", "TR", "AE"]), "nationality")]
        out.append(entry)
    return out


def queries(n: int, seed: int) -> list[Subject]:
    from faker import Faker

    positives, negatives = build_set(seed, max(1, n // 10))
    rng = random.Random(seed)
    f = Faker(["en_US", "de_DE", "sk_SK", "cs_CZ", "pl_PL"])
    f.seed_instance(seed)
    mixed = [Subject.build(c["query"]) for c in positives + negatives]
    while len(mixed) < n:
        mixed.append(Subject.build(f.name() if rng.random() < 0.6 else f.company()))
    rng.shuffle(mixed)
    return mixed[:n]


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {
        "p50_ms": round(pick(0.50) * 1000, 2),
        "p95_ms": round(pick(0.95) * 1000, 2),
        "p99_ms": round(pick(0.99) * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
    }


def fill(url: str, synthetic: int, seed: int) -> dict[str, float]:
    engine = make_engine(url, pool=False)
    upgrade(engine)
    started = time.perf_counter()
    for list_id, path in LISTS.items():
        import_list(engine, list_id, path)
    real_s = time.perf_counter() - started
    started = time.perf_counter()
    entries = synthetic_entries(synthetic, seed)
    gen_s = time.perf_counter() - started
    started = time.perf_counter()
    with engine.begin() as conn:
        write_entries(conn, SYNTH, entries, delta=False, now=datetime.now(UTC))
    engine.dispose()
    return {
        "import_real_s": round(real_s, 1),
        "generate_synthetic_s": round(gen_s, 1),
        "write_synthetic_s": round(time.perf_counter() - started, 1),
    }


def in_process(url: str, subjects: list[Subject]) -> dict[str, object]:
    engine = make_engine(url)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with engine.connect() as conn:
        started = time.perf_counter()
        index, _ = current_index(conn)
        build_s = time.perf_counter() - started
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        for s in subjects[:20]:  # warm the caches of the first queries
            svc.screen(conn, s, DEFAULT_THRESHOLD, 10)
        times, hits = [], 0
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for s in subjects:
            t = time.perf_counter()
            hits += bool(svc.screen(conn, s, DEFAULT_THRESHOLD, 10)["hits"])
            times.append(time.perf_counter() - t)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    engine.dispose()
    return {
        "entries": len(index),
        "index_build_s": round(build_s, 1),
        "index_rss_mb": round((rss1 - rss0) / 1024),
        "queries": len(subjects),
        "with_hits": hits,
        "req_per_s": round(len(subjects) / wall, 1),
        "req_per_cpu_s": round(len(subjects) / cpu, 1),
        **percentiles(times),
    }


def over_http(url: str, subjects: list[Subject], port: int) -> dict[str, object]:
    import httpx

    env = os.environ | {
        "REGINTEL_DATABASE_URL": url,
        "REGINTEL_SHARED_LIMIT_PER_MINUTE": "100000000",
        "REGINTEL_WORKERS": "1",
        "REGINTEL_LOG_LEVEL": "warning",
    }
    log = open(RESULTS_LOG, "w")  # noqa: SIM115 - closed with the server
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "regintel"), "serve", "--port", str(port), "--workers", "1"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=120) as client:
            for _ in range(1200):
                try:
                    if client.get("/api/v1/public/status").status_code < 500:
                        break
                except httpx.TransportError:
                    if server.poll() is not None:
                        raise SystemExit(f"regintel serve exited; see {RESULTS_LOG}") from None
                    time.sleep(0.25)
            started = time.perf_counter()
            client.post("/api/v1/public/screen/name", json={"name": "warm up"}).raise_for_status()
            build_s = time.perf_counter() - started
            times = []
            cpu0, wall0 = _cpu_seconds(server.pid), time.perf_counter()
            for s in subjects:
                t = time.perf_counter()
                client.post("/api/v1/public/screen", json={"name": s.name}).raise_for_status()
                times.append(time.perf_counter() - t)
            wall, cpu = time.perf_counter() - wall0, _cpu_seconds(server.pid) - cpu0
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    return {
        "first_request_s": round(build_s, 1),
        "queries": len(subjects),
        "req_per_s_one_worker": round(len(subjects) / wall, 1),
        "req_per_server_cpu_s": round(len(subjects) / cpu, 1) if cpu else None,
        **percentiles(times),
    }


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children (`regintel serve` runs uvicorn in a child)."""
    total = 0.0
    for p in [pid, *_children(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _children(pid: int) -> list[int]:
    try:
        kids = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
    return kids + [g for k in kids for g in _children(k)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--synthetic", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--database-url")
    ap.add_argument("--http", action="store_true")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--skip-fill", action="store_true", help="--database-url is filled already")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench_screening_")
    url = args.database_url or f"sqlite:///{Path(tmp) / 'screening.db'}"
    result: dict[str, object] = {
        "synthetic": args.synthetic,
        "backend": url.split(":")[0],
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
    }
    out = ROOT / "bench" / "results" / f"screening_{args.synthetic}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    if not args.skip_fill:
        result["fill"] = fill(url, args.synthetic, args.seed)
    print(f"database: {url}", file=sys.stderr)
    subjects = queries(args.queries, args.seed)
    result["in_process"] = in_process(url, subjects)
    out.write_text(json.dumps(result, indent=2))
    if args.http:
        result["http"] = over_http(url, subjects, args.port)
    print(json.dumps(result, indent=2))
    rows = [("in-process (1 core)", result["in_process"])] + (
        [("HTTP, 1 worker", result["http"])] if args.http else []
    )
    print(f"\n{'path':<22} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for label, r in rows:
        rate = r.get("req_per_s") or r.get("req_per_s_one_worker")  # type: ignore[union-attr]
        print(f"{label:<22} {rate:>8} {r['p50_ms']:>8} {r['p95_ms']:>8} {r['p99_ms']:>8}")  # type: ignore[index]
    out.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    sys.exit(main())
