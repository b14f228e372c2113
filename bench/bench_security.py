"""Security area benchmark: how long one passive check of a host takes against loopback servers (DNS on
127.0.0.1, HTTPS with a test CA, plain HTTP; the network cost of a real host comes on top), and the
server-side latency of the reads: a company's posture (3 domains) and the brand-signal list with and
without filters, over N stored checks on a fresh SQLite (or PostgreSQL) database. Prints a table, saves
JSON to bench/results/security-<N>-<timestamp>.json. Run by hand, never as a test.

    .venv/bin/python bench/bench_security.py --checks 20000
    .venv/bin/python bench/bench_security.py --checks 20000 --database-url postgresql://postgres@127.0.0.1:5432/bench_sec
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import insert

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from bench_lookup import percentiles  # noqa: E402

from regintel.areas.security import service  # noqa: E402
from regintel.areas.security.check import ProbeSettings, check_host  # noqa: E402
from regintel.areas.security.tables import company_domains, security_checks, security_signals  # noqa: E402
from regintel.config import Settings  # noqa: E402
from regintel.db.engine import make_engine  # noqa: E402
from regintel.db.migrate import upgrade  # noqa: E402
from tests.security.servers import Authority, DnsServer, WebServer, well_configured  # noqa: E402

TECHS = ["WordPress", "Nginx", "PHP", "jQuery", "Drupal", "Microsoft IIS", "Cloudflare"]


def timed(fn: Callable[[], Any], runs: int) -> dict[str, float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return percentiles(samples)


def bench_checks(runs: int) -> dict[str, dict[str, float]]:
    dns, folder = DnsServer(), Path(tempfile.mkdtemp())
    ca = Authority(folder)
    out = {}
    for label, versions in (
        ("check: modern TLS host", None),
        ("check: TLS 1.0-only host", ("TLSv1", "TLSv1")),
    ):
        host = f"www.{'legacy' if versions else 'modern'}.test"
        well_configured(dns, host.split(".", 1)[1], host)
        https = WebServer(
            {"Strict-Transport-Security": "max-age=31536000"},
            body="<html></html>",
            cert=ca.leaf([host]),
            versions=versions,
        )
        http = WebServer({"Location": f"https://{host}/"}, status=301)
        cfg = ProbeSettings((dns.address,), True, https.port, http.port, str(ca.ca_file), 5.0)
        out[label] = timed(lambda host=host, cfg=cfg: check_host(host, cfg), runs)
        https.close()
        http.close()
    return out


def fill(engine: Any, n: int) -> None:
    now = datetime.now(UTC)
    with engine.begin() as conn:
        for start in range(0, n, 5_000):
            hosts = [f"www.firma{i}.sk" for i in range(start, min(n, start + 5_000))]
            conn.execute(
                insert(company_domains),
                [
                    {
                        "country": "SK",
                        "national_id": f"{i:08d}",
                        "host": h,
                        "registered_domain": h[4:],
                        "kind": "website",
                        "value": h,
                        "source": "bench",
                        "retrieved_at": now,
                    }
                    for i, h in enumerate(hosts, start)
                ],
            )
            conn.execute(
                insert(security_checks),
                [
                    {
                        "host": h,
                        "status": "done",
                        "score": (i * 7) % 101,
                        "findings": [],
                        "facts": {},
                        "checked_at": now,
                        "duration_ms": 300,
                    }
                    for i, h in enumerate(hosts, start)
                ],
            )
            conn.execute(
                insert(security_signals),
                [
                    {
                        "host": h,
                        "kind": "technology",
                        "name": TECHS[(i + k) % len(TECHS)],
                        "category": "x",
                        "evidence": "bench",
                    }
                    for i, h in enumerate(hosts, start)
                    for k in range(2)
                ],
            )


def bench_reads(url: str, n: int, runs: int) -> dict[str, dict[str, float]]:
    engine = make_engine(url)
    upgrade(engine)
    fill(engine, n)
    settings = Settings(database_url=url)
    out = {}
    with engine.connect() as conn:
        row = {"country": "SK", "national_id": f"{n // 2:08d}", "name": "x"}
        out["posture (stored, 1 domain)"] = timed(
            lambda: (service.posture(conn, row, settings), conn.rollback()), runs
        )
        for label, filters in (
            ("brand-signals, no filter", {}),
            ("brand-signals, technology=Drupal", {"technology": "Drupal"}),
            ("brand-signals, max_score=10", {"max_score": 10}),
            ("brand-signals, domain=firma123.sk", {"domain": "firma123.sk"}),
        ):
            out[label] = timed(lambda f=filters: service.signal_list(conn, f, 1, 20), runs)
    engine.dispose()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--checks", type=int, default=20_000, help="stored checks for the read benchmarks")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--database-url", default=None, help="an empty database (default: a temporary SQLite)"
    )
    args = parser.parse_args()
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    load = os.getloadavg()
    results = bench_checks(args.runs) | bench_reads(url, args.checks, args.runs)
    table = Table(
        title=f"security: {args.checks:,} stored checks, {url.split(':')[0]}, {args.runs} runs (ms)"
    )
    for col in ("case", "p50", "p95", "p99"):
        table.add_column(col, justify="right" if col != "case" else "left")
    for case, p in results.items():
        table.add_row(case, f"{p['p50']:.2f}", f"{p['p95']:.2f}", f"{p['p99']:.2f}")
    Console().print(table)
    out = ROOT / "bench" / "results" / f"security-{args.checks}-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "checks": args.checks,
                "backend": url.split(":")[0],
                "runs": args.runs,
                "load_before": load,
                "load_after": os.getloadavg(),
                "results": results,
            },
            indent=2,
        )
    )
    print(out)


if __name__ == "__main__":
    main()
