"""Latency of `GET /companies/{ico}/report.pdf` and of the due-diligence preview, in process.

Builds a database with `regintel synth --entities N` (or uses `--database-url`), then times `--calls`
requests of each through FastAPI's TestClient (in process: the figures are the server's work, without
network), on companies picked at random with a fixed seed. Besides the wall-clock percentiles it gives
the process CPU time per call (client and server share the process), which the other work on a shared
machine disturbs far less. Prints a table, the load average, and saves JSON to
bench/results/reports-<timestamp>.json.

    .venv/bin/python bench/bench_reports.py [--entities 10000] [--calls 200] [--database-url URL]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient
from rich.console import Console
from rich.table import Table
from sqlalchemy import select

BENCH = Path(__file__).resolve().parent
PLANS = {"bench": {"title": "Bench", "rate_per_minute": 1_000_000_000, "monthly_quota": 1_000_000_000_000}}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-reports-"))
    url = args.database_url or f"sqlite:///{tmp / 'regintel.db'}"
    if not args.database_url:
        env = os.environ | {"REGINTEL_DATABASE_URL": url, "REGINTEL_DATA_DIR": str(tmp)}
        for cmd in (
            ["db", "upgrade"],
            ["synth", "--entities", str(args.entities), "--seed", "7", "--no-stats"],
        ):
            subprocess.run([sys.executable, "-m", "regintel", *cmd], env=env, check=True, capture_output=True)

    from regintel.api.app import create_app
    from regintel.config import Settings
    from regintel.db.engine import make_engine
    from regintel.db.keys import create_key
    from regintel.db.schema import companies

    engine = make_engine(url, pool=False)
    with engine.begin() as conn:
        _, raw = create_key(conn, "bench-reports", "bench")
        ids = [(c, n) for c, n in conn.execute(select(companies.c.country, companies.c.national_id))]
    engine.dispose()
    rng = random.Random(7)
    picks = [rng.choice(ids) for _ in range(args.calls)]
    settings = Settings(database_url=url, data_dir=tmp, plans=PLANS, rate_limit_storage="sqlite")
    rows = []
    with TestClient(create_app(settings)) as client:
        auth = {"Authorization": f"Bearer {raw}"}
        for name, method, path in (
            ("GET report.pdf", "GET", "/api/v1/companies/{n}/report.pdf?country={c}"),
            ("POST ai-dd/preview", "POST", "/api/v1/companies/{n}/report/ai-dd/preview?country={c}"),
        ):
            times, cpu, sizes = [], [], []
            for c, n in picks:
                start, start_cpu = time.perf_counter(), time.process_time()
                resp = client.request(method, path.format(c=c, n=n), headers=auth)
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                assert resp.status_code == 200, resp.text
                sizes.append(len(resp.content))
            rows.append(
                {
                    "operation": name,
                    "calls": len(times),
                    "p50_ms": round(percentile(times, 0.5), 1),
                    "p95_ms": round(percentile(times, 0.95), 1),
                    "p99_ms": round(percentile(times, 0.99), 1),
                    "cpu_p50_ms": round(percentile(cpu, 0.5), 1),
                    "cpu_p95_ms": round(percentile(cpu, 0.95), 1),
                    "mean_bytes": round(sum(sizes) / len(sizes)),
                }
            )
    load = os.getloadavg()
    table = Table(
        title=f"reports ({engine.dialect.name}, {args.entities:,} entities, in process, "
        f"load average {load[0]:.1f})"
    )
    for col in rows[0]:
        table.add_column(col)
    for r in rows:
        table.add_row(*(str(v) for v in r.values()))
    Console().print(table)
    out = BENCH / "results" / f"reports-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "backend": engine.dialect.name,
                "entities": args.entities,
                "python": sys.version,
                "machine": platform.machine(),
                "load_average": load,
                "rows": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
