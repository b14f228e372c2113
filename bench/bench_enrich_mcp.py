"""Enrichment-job throughput and MCP tool-call latency next to the REST call it wraps.

Builds a database with `regintel synth` (or uses `--database-url`), then
1. queues an enrichment job of `--identifiers` identifiers (country + id of stored companies, plus 10%
   malformed or unknown ones) and runs it with the worker's runner: identifiers answered per second;
2. serves the app with uvicorn on 127.0.0.1 and times, one after another, `--calls` REST calls
   `GET /companies/{cc}/{id}` and the same number of MCP `tools/call get_company` POSTs to `/mcp`
   (stateless JSON-RPC, as the SDK client sends them): p50/p95/p99 in ms.
With `--sections` (comma-separated, `all`, or `each`: every section alone, then all of them), the same
number of identifiers is enriched again with those sections added (issue 22), after a discarded warm-up
job (the first job of a process pays for imports and cold caches), so the sections' cost is seen next to
the plain job; `--calls 0` skips the latency part.
Prints a table and saves JSON to bench/results/enrich-mcp-<timestamp>.json.

    .venv/bin/python bench/bench_enrich_mcp.py [--entities 100000] [--identifiers 100000] [--calls 500]
        [--database-url URL] [--sections all]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from rich.console import Console
from rich.table import Table
from sqlalchemy import func, select

BENCH = Path(__file__).resolve().parent
PLANS = {"bench": {"title": "Bench", "rate_per_minute": 1_000_000_000, "monthly_quota": 1_000_000_000_000}}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def build(url: str, data_dir: Path, entities: int) -> None:
    env = os.environ | {"REGINTEL_DATABASE_URL": url, "REGINTEL_DATA_DIR": str(data_dir)}
    subprocess.run(
        [sys.executable, "-m", "regintel", "db", "upgrade"], env=env, check=True, capture_output=True
    )
    subprocess.run(
        [sys.executable, "-m", "regintel", "synth", "--entities", str(entities), "--seed", "7", "--no-stats"],
        env=env,
        check=True,
        capture_output=True,
    )


def _filled(url: str) -> bool:
    from regintel.db.engine import make_engine
    from regintel.db.schema import companies

    engine = make_engine(url, pool=False)
    try:
        with engine.connect() as conn:
            return bool(conn.execute(select(func.count()).select_from(companies)).scalar())
    except Exception:  # no schema yet
        return False
    finally:
        engine.dispose()


def enrich(settings: Any, engine: Any, n: int, sections: list[str] | None = None) -> dict[str, Any]:
    from regintel.areas.enrich import service
    from regintel.db.keys import create_key
    from regintel.db.schema import companies
    from regintel.jobs.runner import run_due

    with engine.connect() as conn:
        rows = conn.execute(
            select(companies.c.country, companies.c.national_id).order_by(func.random()).limit(n)
        ).all()
    ids: list[Any] = [{"country": cc, "id": nid} for cc, nid in rows]
    ids += [f"BAD{i}" for i in range(n // 20)] + [{"country": "SK", "id": f"{i:08d}"} for i in range(n // 20)]
    ids = ids[:n]
    with engine.begin() as conn:
        key, _ = create_key(conn, "bench", "bench")
        job = service.create(conn, key.id, ids, None, options=service.Options(sections=sections or []))
    started = time.perf_counter()
    ran = run_due(engine, settings, "bench-worker", limit=1)
    seconds = time.perf_counter() - started
    with engine.connect() as conn:
        status = service.status(conn, key.id, job["id"])
    assert ran == 1 and status["status"] == "done" and status["processed"] == len(ids), status
    return {
        "identifiers": len(ids),
        "seconds": round(seconds, 2),
        "per_second": round(len(ids) / seconds),
        "counts": status["counts"],
        "sections": sections or [],
    }


def serve(settings: Any) -> tuple[str, uvicorn.Server, threading.Thread]:
    from regintel.api.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{sock.getsockname()[1]}", server, thread


def latency(settings: Any, engine: Any, calls: int) -> dict[str, Any]:
    from regintel.db.keys import create_key
    from regintel.db.schema import companies

    with engine.begin() as conn:
        _, raw = create_key(conn, "bench-http", "bench")
        rows = conn.execute(
            select(companies.c.country, companies.c.national_id).order_by(func.random()).limit(calls)
        ).all()
    base, server, thread = serve(settings)
    headers = {
        "Authorization": f"Bearer {raw}",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
    }
    out: dict[str, Any] = {}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
        for name, send in (
            ("REST GET /companies/{cc}/{id}", lambda cc, nid, i: http.get(f"/api/v1/companies/{cc}/{nid}")),
            (
                "MCP tools/call get_company",
                lambda cc, nid, i: http.post(
                    "/mcp",
                    json={
                        "jsonrpc": "2.0",
                        "id": i,
                        "method": "tools/call",
                        "params": {"name": "get_company", "arguments": {"national_id": nid, "country": cc}},
                    },
                ),
            ),
        ):
            times = []
            for i, (cc, nid) in enumerate(rows):
                t0 = time.perf_counter()
                resp = send(cc, nid, i)
                times.append((time.perf_counter() - t0) * 1000)
                assert resp.status_code == 200, resp.text
                assert 'isError":true' not in resp.text, resp.text
            out[name] = {
                "calls": len(times),
                "p50_ms": round(percentile(times, 0.5), 2),
                "p95_ms": round(percentile(times, 0.95), 2),
                "p99_ms": round(percentile(times, 0.99), 2),
            }
    server.should_exit = True
    thread.join(10)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--identifiers", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--sections", help="also run the job with these sections (comma-separated, or `all`)")
    parser.add_argument(
        "--database-url",
        help="a database (synthesised first when it holds no company; default: a new SQLite file)",
    )
    args = parser.parse_args()

    from regintel.config import Settings
    from regintel.db.engine import make_engine

    tmp = Path(tempfile.mkdtemp(prefix="regintel-bench-enrich-"))
    url = args.database_url or f"sqlite:///{tmp / 'regintel.db'}"
    if not args.database_url or not _filled(url):
        started = time.perf_counter()
        build(url, tmp, args.entities)
        print(
            f"synthesised {args.entities:,} entities in {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
        )
    settings = Settings(database_url=url, data_dir=tmp, plans=PLANS, rate_limit_storage="sqlite")
    engine = make_engine(url)
    from regintel.areas.enrich import sections as enrich_sections

    every = list(enrich_sections.NAMES)
    runs = (
        [[name] for name in every] + [every]
        if args.sections == "each"
        else [every]
        if args.sections == "all"
        else [enrich_sections.parse(args.sections.split(","))]
        if args.sections
        else []
    )
    if runs:
        enrich(settings, engine, min(args.identifiers, 500))  # warm-up, not reported
    result: dict[str, Any] = {"enrich": enrich(settings, engine, args.identifiers)}
    if runs:
        result["enrich_sections"] = [enrich(settings, engine, args.identifiers, names) for names in runs]
    result["latency"] = latency(settings, engine, args.calls) if args.calls else {}
    engine.dispose()

    console = Console(width=160)
    table = Table(title=f"enrichment job and MCP ({engine.dialect.name}, {args.entities:,} entities)")
    for col in ("measure", "value"):
        table.add_column(col)
    for e in [result["enrich"], *result.get("enrich_sections", [])]:
        label = "enrichment job" + (f" + {', '.join(e['sections'])}" if e["sections"] else "")
        table.add_row(label, f"{e['identifiers']:,} identifiers in {e['seconds']} s = {e['per_second']:,}/s")
    for name, figures in result["latency"].items():
        table.add_row(
            name,
            f"p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, p99 {figures['p99_ms']} ms "
            f"({figures['calls']} sequential calls)",
        )
    console.print(table)
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()), file=sys.stderr)
    out = BENCH / "results" / f"enrich-mcp-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    out.parent.mkdir(exist_ok=True)
    meta = {
        "backend": engine.dialect.name,
        "entities": args.entities,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "at": datetime.now(UTC).isoformat(),
        "load_average_1_5_15": os.getloadavg(),
    }  # the machine is shared: say how loaded it was
    out.write_text(json.dumps(meta | result, indent=2), encoding="utf-8")
    print(f"saved {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
