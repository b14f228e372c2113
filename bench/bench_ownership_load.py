"""Ownership load benchmark: N synthetic ownership edges written through the real loader.

For each backend (a temporary SQLite file, and PostgreSQL with `--database-url`), a database migrated
once is copied fresh for every run; the run loads `--companies` companies (a third with an LEI), then
times three loads of the same `--edges` edges (a third named by LEI at both ends, the rest by national
key) through `Loader`: the first (every edge inserted), the same file again (every edge unchanged) and
one with every share changed (every edge updated). Each load is timed in wall and CPU seconds and its
SQL statements are counted (an executemany is one), per loader batch.

`--compare-src DIR` runs the same loads with the `regintel` package found in DIR (e.g. the tree of an
earlier commit: `git archive <commit> src | tar -x -C /tmp/before`) in alternating rounds, so both
are measured under the same machine load. Each run is its own process (PYTHONPATH decides the code).

Prints a table (median over `--rounds`), saves JSON to bench/results/ownership-load-<timestamp>.json.

    .venv/bin/python bench/bench_ownership_load.py [--edges 20000] [--companies 10000] [--rounds 3]
        [--batch-size 2000] [--database-url postgresql://postgres@127.0.0.1:5432/postgres]
        [--no-sqlite] [--compare-src /tmp/before/src]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, date, datetime
from pathlib import Path
from statistics import median
from typing import Any

BENCH = Path(__file__).resolve().parent
SRC = BENCH.parent / "src"
PHASES = ("insert", "unchanged", "update")


# -- the child: one run of the three loads on a fresh copy ---------------------------------------------


def child(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(BENCH))
    from genlib import ico
    from sqlalchemy import event, func, select

    import regintel
    from regintel.db.engine import make_engine
    from regintel.db.schema import ownerships
    from regintel.domain.types import CompanyKey, CompanyRecord, OwnershipRecord
    from regintel.ingest.base import SourceInfo
    from regintel.ingest.loader import Loader

    source = SourceInfo(
        "bench_ownership",
        "Bench",
        "bench",
        None,
        "synthetic",
        "records",
        "-",
        "-",
        "http://127.0.0.1/",
        "on-demand",
    )
    engine = make_engine(args.child, pool=False)
    statements = [0]

    @event.listens_for(engine, "before_cursor_execute")
    def count(*_: Any) -> None:
        statements[0] += 1

    def lei(i: int) -> str:
        return f"BENCH{i:015d}"

    with_lei = set(range(0, args.companies, 3))
    loader = Loader(engine, source, batch_size=args.batch_size)
    for i in range(args.companies):
        loader.add(
            CompanyRecord("SK", ico(i), name=f"Bench company {i}", lei=lei(i) if i in with_lei else None)
        )
    loader.flush()
    rng = random.Random(args.seed)
    pairs: dict[tuple[int, int], bool] = {}  # (parent, child) -> both ends named by LEI
    lei_holders = sorted(with_lei)
    while len(pairs) < args.edges:
        named_by_lei = len(pairs) % 3 == 0  # a third of the edges
        pool = lei_holders if named_by_lei else range(args.companies)
        pair = rng.choice(pool), rng.choice(pool)
        if pair[0] != pair[1] and pair not in pairs:
            pairs[pair] = named_by_lei
    by_lei = {pair for pair, named_by_lei in pairs.items() if named_by_lei}

    def edge(parent: int, child_: int, share: float) -> OwnershipRecord:
        if (parent, child_) in by_lei:
            return OwnershipRecord(parent_lei=lei(parent), child_lei=lei(child_), share_pct=share)
        return OwnershipRecord(
            parent=CompanyKey("SK", ico(parent)),
            child=CompanyKey("SK", ico(child_)),
            share_pct=share,
            since=date(2020, 1, 1),
        )

    out: dict[str, Any] = {"regintel": str(Path(regintel.__file__).parent), "by_lei": len(by_lei)}
    for phase in PHASES:
        offset = 1.0 if phase == "update" else 0.0
        records = [edge(p, c, 10.0 + (p + c) % 80 + offset) for p, c in pairs]
        loader = Loader(engine, source, batch_size=args.batch_size)
        statements[0] = 0
        wall, cpu = time.perf_counter(), time.process_time()
        with loader.holding_connection():
            for rec in records:
                loader.add(rec)
            loader.flush()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        batches = -(-len(records) // args.batch_size)
        out[phase] = {
            "seconds": round(wall, 3),
            "cpu_seconds": round(cpu, 3),
            "edges_per_s": round(len(records) / wall),
            "statements": statements[0],
            "statements_per_batch": round(statements[0] / batches, 1),
            **{k: v for k, v in loader.stats.as_dict().items() if k in ("inserted", "updated", "unchanged")},
        }
    with engine.connect() as conn:
        out["edges_stored"] = conn.execute(select(func.count()).select_from(ownerships)).scalar_one()
    engine.dispose()
    print(json.dumps(out))


# -- the parent: templates, rounds, table ------------------------------------------------------------------


def sqlite_template(folder: Path) -> Path:
    from regintel.db.engine import make_engine
    from regintel.db.migrate import upgrade

    path = folder / "template.db"
    engine = make_engine(f"sqlite:///{path}", pool=False)
    upgrade(engine)
    engine.dispose()
    return path


def sqlite_copy(template: Path, folder: Path) -> tuple[str, Path]:
    path = folder / f"run-{uuid.uuid4().hex[:8]}.db"
    with sqlite3.connect(template) as src, sqlite3.connect(path) as dst:
        src.backup(dst)
    return f"sqlite:///{path}", path


def pg_admin(url: str) -> Any:
    from sqlalchemy import create_engine

    return create_engine(
        url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )


def pg_url(url: str, name: str) -> str:
    return url.rsplit("/", 1)[0] + "/" + name


def pg_template(url: str, name: str) -> None:
    from regintel.db.engine import make_engine
    from regintel.db.migrate import upgrade

    admin = pg_admin(url)
    with admin.connect() as conn:
        conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {name}")
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    engine = make_engine(pg_url(url, name), pool=False)
    upgrade(engine)
    engine.dispose()
    admin.dispose()


def pg_exec(url: str, sql: str) -> None:
    admin = pg_admin(url)
    with admin.connect() as conn:
        conn.exec_driver_sql(sql)
    admin.dispose()


def run_child(args: argparse.Namespace, url: str, src: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [
        sys.executable,
        __file__,
        "--child",
        url,
        "--edges",
        str(args.edges),
        "--companies",
        str(args.companies),
    ]
    cmd += ["--batch-size", str(args.batch_size), "--seed", str(args.seed)]
    done = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(result["regintel"]).resolve() != (src / "regintel").resolve():
        raise SystemExit(f"the run imported {result['regintel']}, not {src}")
    return result


def commit() -> str:
    found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=BENCH, capture_output=True, text=True)
    return found.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--edges", type=int, default=20_000)
    parser.add_argument("--companies", type=int, default=10_000)
    parser.add_argument("--batch-size", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--database-url", help="a PostgreSQL server (its database is used to create others)")
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--compare-src", type=Path, help="a src/ folder of the code to compare with")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    sys.path.insert(0, str(SRC))
    variants = {"current": SRC}
    if args.compare_src:
        variants = {"compared": args.compare_src.resolve(), **variants}
    backends = ([] if args.no_sqlite else ["sqlite"]) + (["postgresql"] if args.database_url else [])
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-ownership-load-") as tmp:
        folder = Path(tmp)
        template = sqlite_template(folder) if "sqlite" in backends else None
        pg_name = f"bench_ownload_tmpl_{os.getpid()}"
        if "postgresql" in backends:
            pg_template(args.database_url, pg_name)
        try:
            for round_ in range(args.rounds):
                order = list(variants) if round_ % 2 == 0 else list(reversed(variants))
                for backend in backends:
                    for variant in order:
                        if backend == "sqlite":
                            assert template is not None
                            url, path = sqlite_copy(template, folder)
                            try:
                                result = run_child(args, url, variants[variant])
                            finally:
                                for suffix in ("", "-wal", "-shm"):
                                    Path(f"{path}{suffix}").unlink(missing_ok=True)
                        else:
                            name = f"bench_ownload_{os.getpid()}_{round_}_{variant}"
                            pg_exec(args.database_url, f"CREATE DATABASE {name} TEMPLATE {pg_name}")
                            try:
                                result = run_child(args, pg_url(args.database_url, name), variants[variant])
                            finally:
                                pg_exec(args.database_url, f"DROP DATABASE IF EXISTS {name}")
                        runs.append({"round": round_, "backend": backend, "variant": variant, **result})
                        print(
                            f"round {round_ + 1} {backend:10} {variant:8} "
                            + "  ".join(f"{p} {result[p]['seconds']:.2f} s" for p in PHASES),
                            flush=True,
                        )
        finally:
            if "postgresql" in backends:
                pg_exec(args.database_url, f"DROP DATABASE IF EXISTS {pg_name}")
    report(args, variants, backends, runs)


def report(
    args: argparse.Namespace, variants: dict[str, Path], backends: list[str], runs: list[dict[str, Any]]
) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{args.edges:,} ownership edges, batches of {args.batch_size:,} (median of {args.rounds})"
    )
    for column in (
        "backend",
        "code",
        "load",
        "wall s",
        "CPU s",
        "edges/s",
        "statements/batch",
        "ins/upd/same",
    ):
        table.add_column(column, justify="left" if column in ("backend", "code", "load") else "right")
    summary: dict[str, Any] = {}
    for backend in backends:
        for variant in variants:
            mine = [r for r in runs if r["backend"] == backend and r["variant"] == variant]
            for phase in PHASES:
                values = [r[phase] for r in mine]
                row = {
                    "seconds": median(v["seconds"] for v in values),
                    "cpu_seconds": median(v["cpu_seconds"] for v in values),
                    "edges_per_s": median(v["edges_per_s"] for v in values),
                    "statements_per_batch": median(v["statements_per_batch"] for v in values),
                    "counts": [values[0][k] for k in ("inserted", "updated", "unchanged")],
                }
                summary[f"{backend}/{variant}/{phase}"] = row
                table.add_row(
                    backend,
                    variant,
                    phase,
                    f"{row['seconds']:.2f}",
                    f"{row['cpu_seconds']:.2f}",
                    f"{row['edges_per_s']:,}",
                    f"{row['statements_per_batch']:g}",
                    "/".join(map(str, row["counts"])),
                )
    Console(width=160).print(table)
    results = BENCH / "results"
    results.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = results / f"ownership-load-{stamp}.json"
    path.write_text(
        json.dumps(
            {
                "parameters": {k: v for k, v in vars(args).items() if k != "child"}
                | {"compare_src": str(args.compare_src)},
                "variants": {k: str(v) for k, v in variants.items()},
                "environment": {
                    "commit": commit(),
                    "python": platform.python_version(),
                    "cpus": os.cpu_count(),
                    "load": os.getloadavg(),
                },
                "summary": summary,
                "runs": runs,
            },
            indent=1,
            default=str,
        )
    )
    print(f"saved {path}")


if __name__ == "__main__":
    main()
