"""Webhook benchmark: deliveries per second and the delay from detection to delivery.

A fresh database (SQLite in a temporary folder, or `--database-url postgresql://…`), N companies
each with one monitoring subscription to a local receiver (uvicorn on 127.0.0.1, in this process,
answering 200 at once), and a real `regintel worker` process. Then every company's bankruptcy flag
flips in one import batch through the real loader (so the outbox rows are written in the import's
transaction), and the receiver notes when each delivery arrives. Reported: the load batch with and
without the monitoring hook, deliveries per second, the detection → arrival delay (p50/p95/max;
`detected_at` is taken when the batch starts, so it includes the batch's own time) and the commit →
arrival delay (p50/p95).
A sample of deliveries is checked with the `standardwebhooks` verifier. Prints a table, saves JSON to
bench/results/webhooks-<backend>-<timestamp>.json.

    .venv/bin/python bench/bench_webhooks.py [--subscriptions 10000] [--concurrency 64] [--workers 1]
        [--database-url postgresql://postgres@127.0.0.1:5432/bench_webhooks]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from statistics import quantiles
from typing import Any

import uvicorn
from rich.console import Console
from rich.table import Table
from sqlalchemy import create_engine, func, select, text
from standardwebhooks.webhooks import Webhook

from regintel.areas.monitoring.subscriptions import make_secret
from regintel.db.engine import make_engine, normalise_url
from regintel.db.keys import create_key
from regintel.db.migrate import upgrade
from regintel.db.schema import deliveries, subscriptions
from regintel.domain.identifiers import is_valid_national_id
from regintel.domain.monitoring import INSOLVENCY_CHANGED
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceInfo
from regintel.ingest.loader import Loader
from regintel.ingest.runner import sync_catalogue

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SOURCE = SourceInfo(
    id="bench",
    name="Benchmark",
    publisher="regintel bench",
    country="SK",
    category="synthetic",
    formats="records",
    licence="CC0 1.0",
    attribution="synthetic",
    url="https://example.invalid",
    cadence="on-demand",
)
console = Console(width=None if sys.stdout.isatty() else 160)
RECEIVED: list[tuple[float, bytes, dict[bytes, bytes]]] = []


async def receiver_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    body, more = b"", True
    while more:
        message = await receive()
        body, more = body + message.get("body", b""), message.get("more_body", False)
    RECEIVED.append((time.time(), body, dict(scope["headers"])))
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_receiver(port: int) -> uvicorn.Server:
    server = uvicorn.Server(
        uvicorn.Config(
            receiver_app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            backlog=4096,
            access_log=False,
            lifespan="off",
        )
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server


def icos(count: int) -> list[str]:
    out, base = [], 3_000_000
    while len(out) < count:
        out += [f"{base:07d}{d}" for d in range(10) if is_valid_national_id("SK", f"{base:07d}{d}")][:1]
        base += 1
    return out


def prepare(url: str, n: int, port: int) -> tuple[Any, list[str], dict[int, str]]:
    """Companies, a key, and one subscription per company; returns (engine, icos, secrets by sub id)."""
    engine = make_engine(url)
    upgrade(engine)
    sync_catalogue(engine, [SOURCE])
    ids = icos(n)
    loader = Loader(engine, SOURCE, batch_size=n + 1, on_changes=[])
    for i in ids:
        loader.add(CompanyRecord(country="SK", national_id=i, name=f"Firma {i} s.r.o."))
    loader.flush()
    now = datetime.now(UTC)
    with engine.begin() as conn:
        key, _ = create_key(conn, "bench", "business")
        company_ids = dict(conn.execute(text("SELECT national_id, id FROM companies")).all())
        rows = [
            {
                "kind": "monitoring",
                "api_key_id": key.id,
                "company_id": company_ids[i],
                "url": f"http://127.0.0.1:{port}/hook/{i}",
                "secret": make_secret(),
                "event_types": [INSOLVENCY_CHANGED],
                "status": "active",
                "created_at": now,
                "updated_at": now,
            }
            for i in ids
        ]
        conn.execute(subscriptions.insert(), rows)
        secrets = dict(conn.execute(select(subscriptions.c.id, subscriptions.c.secret)).all())
    return engine, ids, secrets


def flip(engine: Any, ids: list[str], hooks: bool) -> float:
    """One batch that changes one flag of every company; returns its seconds. With `hooks`, the
    bankruptcy flag and the default monitoring hook (events + deliveries); without, the liquidation
    flag and no hook: the same number of company and change rows, no outbox."""
    loader = Loader(engine, SOURCE, batch_size=len(ids) + 1, on_changes=None if hooks else [])
    flag = "in_bankruptcy" if hooks else "in_liquidation"
    for i in ids:
        loader.add(CompanyRecord(country="SK", national_id=i, name=f"Firma {i} s.r.o.", **{flag: True}))
    started = time.perf_counter()
    loader.flush()
    return time.perf_counter() - started


def start_workers(url: str, count: int, concurrency: int, log_dir: Path) -> list[subprocess.Popen[bytes]]:
    env = os.environ | {
        "REGINTEL_DATABASE_URL": url,
        "REGINTEL_ALLOW_PRIVATE_WEBHOOKS": "1",
        "REGINTEL_WEBHOOK_CONCURRENCY": str(concurrency),
        "REGINTEL_WORKER_POLL_SECONDS": "0.2",
        "REGINTEL_LOG_LEVEL": "WARNING",
        "REGINTEL_DATA_DIR": str(log_dir),
    }
    procs = []
    for n in range(count):
        with (log_dir / f"worker-{n}.log").open("wb") as sink:
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "regintel", "worker"],
                    env=env,
                    cwd=ROOT,
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                )
            )
    return procs


def pct(values: list[float], q: int) -> float:
    return quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def measure(engine: Any, ids: list[str], secrets: dict[int, str], timeout: float) -> dict[str, Any]:
    baseline = flip(engine, ids, hooks=False)
    batch = flip(engine, ids, hooks=True)
    committed = time.time()
    deadline = time.monotonic() + timeout
    while len(RECEIVED) < len(ids) and time.monotonic() < deadline:
        time.sleep(0.05)
    got = list(RECEIVED)
    time.sleep(1)  # the last outcomes are recorded
    detected = [datetime.fromisoformat(json.loads(b)["detected_at"]).timestamp() for _, b, _ in got]
    delays = [t - d for (t, _, _), d in zip(got, detected, strict=True)]
    after_commit = [t - committed for t, _, _ in got]
    span = max(t for t, _, _ in got) - min(t for t, _, _ in got) if got else 0.0
    with engine.connect() as conn:
        states = dict(
            conn.execute(select(deliveries.c.status, func.count()).group_by(deliveries.c.status)).all()
        )
        by_message = dict(conn.execute(select(deliveries.c.message_id, deliveries.c.subscription_id)).all())
    verified = sum(
        1
        for _, body, h in got[:: max(1, len(got) // 200)]
        if Webhook(secrets[by_message[h[b"webhook-id"].decode()]]).verify(
            body, {k.decode(): v.decode() for k, v in h.items()}
        )
    )
    first_detected = min(detected) if detected else 0.0
    return {
        "deliveries": len(got),
        "unique_ids": len({h[b"webhook-id"] for _, _, h in got}),
        "states": states,
        "load_batch_s_without_hook": round(baseline, 3),
        "load_batch_s_with_outbox": round(batch, 3),
        "deliveries_per_s": round(len(got) / span, 1) if span else None,
        "drain_s_from_detection": round(max(t for t, _, _ in got) - first_detected, 2) if got else None,
        "delay_p50_s": round(pct(delays, 50), 3),
        "delay_p95_s": round(pct(delays, 95), 3),
        "delay_max_s": round(max(delays), 3),
        "after_commit_p50_s": round(pct(after_commit, 50), 3),
        "after_commit_p95_s": round(pct(after_commit, 95), 3),
        "signatures_checked": verified,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--subscriptions", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--database-url", default=None, help="an EMPTY PostgreSQL database (created if missing)"
    )
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-webhooks-"))
    url = args.database_url or f"sqlite:///{tmp / 'bench.db'}"
    if args.database_url:
        reset_postgres(args.database_url)
    port = free_port()
    server = start_receiver(port)
    engine, ids, secrets = prepare(url, args.subscriptions, port)
    workers = start_workers(url, args.workers, args.concurrency, tmp)
    try:
        time.sleep(2)  # workers up and polling
        result = measure(engine, ids, secrets, args.timeout)
    finally:
        for proc in workers:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
        server.should_exit = True
    report(args, engine.dialect.name, result)


def reset_postgres(url: str) -> None:
    target = normalise_url(url)
    name = target.rsplit("/", 1)[1]
    admin = create_engine(target.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()


def report(args: argparse.Namespace, backend: str, result: dict[str, Any]) -> None:
    table = Table(
        title=f"Webhooks: {args.subscriptions} subscriptions, {args.workers} worker(s) x "
        f"{args.concurrency} concurrent, {backend}"
    )
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in result.items():
        table.add_row(key, json.dumps(value) if isinstance(value, dict) else str(value))
    console.print(table)
    out = {
        "benchmark": "webhooks",
        "at": datetime.now(UTC).isoformat(),
        "backend": backend,
        "subscriptions": args.subscriptions,
        "workers": args.workers,
        "concurrency": args.concurrency,
        "machine": {
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "result": result,
    }
    path = BENCH / "results" / f"webhooks-{backend}-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    console.print(f"saved {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
