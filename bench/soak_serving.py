"""Soak: a mix of lookups, autocompletes and searches at 80% of the measured maximum for 10 minutes
(issue 13). Reports, per minute, requests/s, errors and p50/p95/p99; the RSS of every worker process
at the start and after each minute (it must stay flat); and the database connections still open when
the load stops. Prints a table and saves JSON under bench/results/.

    python bench/soak_serving.py --database-url sqlite:////tmp/demo/data/regintel.db [--minutes 10]

Needs `wrk`. The database must hold data (`regintel demo` or `regintel synth`). Loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_serving import UNLIMITED, _port, _start, _tree  # noqa: E402

HERE = Path(__file__).resolve().parent


def mix(database_url: str, count: int = 600) -> list[str]:
    """Paths of real companies: a third lookups, a third autocompletes of a name's start, a third
    searches of a whole name."""
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT country, national_id, name FROM companies ORDER BY id LIMIT :n"), {"n": count}
        ).all()
    engine.dispose()
    rng = random.Random(7)
    paths = []
    for i, (country, nid, name) in enumerate(rows):
        words = (name or "x").split()
        if i % 3 == 0:
            paths.append(f"/api/v1/companies/{country.lower()}/{nid}")
        elif i % 3 == 1:
            paths.append(
                "/api/v1/companies/autocomplete?q=" + quote(words[0][: max(3, len(words[0]) * 2 // 3)])
            )
        else:
            paths.append("/api/v1/companies/search?q=" + quote(" ".join(words[:3])))
    rng.shuffle(paths)
    return paths


def wrk(url: str, script_args: list[str], connections: int, seconds: int, key: str) -> dict[str, object]:
    out = subprocess.run(
        [
            "wrk",
            "-H",
            f"Authorization: Bearer {key}",
            "-t",
            "2",
            "-c",
            str(connections),
            "-d",
            f"{seconds}s",
            "--timeout",
            "10s",
            "-s",
            str(HERE / "wrk_paths.lua"),
            url,
            "--",
            *script_args,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(x for x in out.splitlines() if x.startswith("WRKJSON "))
    return json.loads(line[len("WRKJSON ") :])  # type: ignore[no-any-return]


def rss_mb(pid: int) -> dict[int, float]:
    out = {}
    for p in _tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    out[p] = int(line.split()[1]) / 1024
        except FileNotFoundError:
            pass
    return out


def open_connections(database_url: str, pid: int) -> int:
    if database_url.startswith("sqlite"):
        target = database_url.split("///", 1)[1]
        count = 0
        for p in _tree(pid):
            for fd in Path(f"/proc/{p}/fd").iterdir():
                try:
                    if os.readlink(fd) == target:
                        count += 1
                except OSError:
                    pass
        return count
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        n = conn.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND "
                "pid <> pg_backend_pid()"
            )
        ).scalar()
    engine.dispose()
    return int(n or 0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--database-url", required=True)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--minutes", type=int, default=10)
    ap.add_argument("--connections", type=int, default=32)
    ap.add_argument("--share", type=float, default=0.8, help="share of the measured maximum to hold")
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="soak-"))
    env = os.environ | {
        "REGINTEL_DATABASE_URL": args.database_url,
        "REGINTEL_PLANS": UNLIMITED,
        "REGINTEL_DEFAULT_PLAN": "bench",
        "REGINTEL_SHARED_LIMIT_PER_MINUTE": "1000000000",
        "REGINTEL_DATA_DIR": os.environ.get("REGINTEL_DATA_DIR", str(work)),
        "REGINTEL_LOG_LEVEL": "WARNING",
    }
    key = (
        subprocess.run(
            [sys.executable, "-m", "regintel", "keys", "create", "--name", "soak", "--plan", "bench"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    paths_file = work / "paths.txt"
    paths_file.write_text("\n".join(mix(args.database_url)) + "\n")
    port = _port()
    proc = _start(
        [
            sys.executable,
            "-m",
            "regintel",
            "serve",
            "--workers",
            str(args.workers),
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env,
        f"http://127.0.0.1:{port}/livez",
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wrk(url, [str(paths_file), "0"], args.connections, 5, key)  # warm the caches and the index
        peak = wrk(url, [str(paths_file), "0"], args.connections, 20, key)
        peak_rps = peak["requests"] / (peak["duration_us"] / 1e6)  # type: ignore[operator]
        target = peak_rps * args.share
        # Each connection waits `pause` before a request: the cycle a connection needs for the target rate,
        # less the time a request took at the peak (requests are quicker below the peak, so the rate
        # comes out a little above the target; the table shows what was held).
        pause_ms = max(0, int(1000 * args.connections / target - peak["latency_us"]["mean"] / 1000))  # type: ignore[index]
        start_rss = rss_mb(proc.pid)
        print(
            f"maximum {peak_rps:.0f} req/s at {args.connections} connections; holding {target:.0f} req/s "
            f"({args.share:.0%}) for {args.minutes} min; RSS at start (MB): "
            + ", ".join(f"{v:.0f}" for v in start_rss.values()),
            flush=True,
        )
        print(
            f"{'minute':>6}{'req/s':>8}{'errors':>8}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}  RSS MB per "
            "process"
        )
        minutes = []
        for minute in range(1, args.minutes + 1):
            res = wrk(url, [str(paths_file), str(pause_ms)], args.connections, 60, key)
            errors = sum(res["errors"].values())  # type: ignore[union-attr]
            lat = res["latency_us"]
            rss = rss_mb(proc.pid)
            rps = res["requests"] / (res["duration_us"] / 1e6)  # type: ignore[operator]
            minutes.append(
                {
                    "minute": minute,
                    "rps": rps,
                    "errors": errors,
                    # status = non-2xx/3xx answers (the shed 503s), timeout = no answer in wrk's 10 s
                    "errors_by_kind": {k: v for k, v in res["errors"].items() if v},  # type: ignore[union-attr]
                    "latency_us": lat,
                    "rss_mb": list(rss.values()),
                }
            )
            print(
                f"{minute:>6}{rps:>8.0f}{errors:>8}{lat['p50'] / 1000:>8.1f}{lat['p95'] / 1000:>8.1f}"  # type: ignore[index]
                f"{lat['p99'] / 1000:>8.1f}  " + ", ".join(f"{v:.0f}" for v in rss.values()),
                flush=True,
            )
        time.sleep(2)
        conns = open_connections(args.database_url, proc.pid)
        print(
            f"database connections open after the load: {conns} "
            f"(pools keep up to DB_CONCURRENCY + 4 per process)"
        )
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = HERE / "results" / f"soak-{args.label or 'run'}-{stamp}.json"
    out.write_text(
        json.dumps(
            {
                "database_url": args.database_url.split("@")[-1],
                "workers": args.workers,
                "connections": args.connections,
                "peak_rps": peak_rps,
                "target_rps": target,
                "rss_start_mb": list(start_rss.values()),
                "minutes": minutes,
                "open_connections_after": conns,
            },
            indent=1,
        )
    )
    print(f"saved {out}")


if __name__ == "__main__":
    main()
