"""Import throughput per register format: generate a file of N records in the publisher's format,
import it with `regintel import` in a separate process, and report records per second and per CPU
second (with and without the CPU of a 10-record import: start-up), peak memory and the database
size (SQLite file, or PostgreSQL pg_database_size of a throwaway database).

    python bench/bench_import.py --count 1000000 [--backend sqlite|postgresql] [--sources gleif,no_brreg]
        [--files DIR] [--reimport-count N | --no-reimport]

--files keeps the generated files in DIR (generated only when missing), so runs on SQLite and
PostgreSQL share them. --reimport-count measures the idempotent re-import on a file of the first N
records (generated the same way, so they are a prefix of the full file's companies) after a full
import; --no-reimport skips it.

Run by hand (never in CI). Prints a table and saves JSON to bench/results/.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg

BENCH = Path(__file__).resolve().parent
# source id -> (generator script, how it takes the output path, file suffix)
FORMATS: dict[str, tuple[str, str, str]] = {
    "gleif": ("gen_gleif.py", "--out", ".xml"),
    "sk_rpo": ("gen_sk_rpo.py", "positional", ".jsonl"),
    "sk_registeruz": ("gen_sk_registeruz.py", "positional", ".jsonl"),
    "cz_ares": ("gen_cz_ares.py", "--out", ".jsonl"),
    "gb_companies_house": ("gen_gb_companies_house.py", "--out", ".csv"),
    "fr_sirene": ("gen_fr_sirene.py", "--out", ".csv"),
    "no_brreg": ("gen_no_brreg.py", "--out", ".json.gz"),
    "sk_obchodny_vestnik": ("gen_sk_obchodny_vestnik.py", "--out", ".xml"),
    "lv_ur": ("gen_lv_ur.py", "--out", ".csv"),
    "ua_edr": ("gen_ua_edr.py", "--out", ".xml"),
    "ro_onrc": ("gen_ro_onrc.py", "--out", ".csv"),
    "cy_drcor": ("gen_cy_drcor.py", "--out", ".csv"),
    "gr_gemi": ("gen_gr_gemi.py", "--out", ".jsonl"),
    "at_firmenbuch": ("gen_at_firmenbuch.py", "--out", ".xml"),
    "si_ajpes": ("gen_si_ajpes.py", "--out", ".csv"),
    "it_registro_imprese": ("gen_it_registro_imprese.py", "--out", ".csv"),
    "ee_ariregister": ("gen_ee_ariregister.py", "--out", ".csv"),
    "lt_jar": ("gen_lt_jar.py", "--out", ".csv"),
    "gb_ch_streaming": ("gen_gb_ch_streaming.py", "--out", ".jsonl"),
}
STARTUP_RECORDS = 10
# `regintel import` ends by refreshing the search index and the statistics snapshots and prints each
# one's time, "search index updated (1.2 s)".
REFRESH_LINE = re.compile(r"^(?:search index|statistics snapshots).*\(([\d.]+) s\)\s*$", re.MULTILINE)
PG_SERVER = os.environ.get("REGINTEL_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


def generate(source: str, count: int, folder: Path) -> Path:
    """The file of `count` records, generated unless `folder` already holds it."""
    script, style, suffix = FORMATS[source]
    out = folder / f"{source}-{count}{suffix}"
    if out.exists():
        return out
    args = [sys.executable, str(BENCH / script), "--count", str(count)]
    partial = out.with_name("partial-" + out.name)  # the suffix tells the generator the format
    args += [str(partial)] if style == "positional" else ["--out", str(partial)]
    subprocess.run(args, check=True)
    partial.rename(out)  # an interrupted generation never passes for a finished file
    return out


def run_import(source: str, path: Path, env: dict[str, str]) -> tuple[float, float, int, str, float]:
    """(wall seconds, CPU seconds, peak RSS in MB, summary line, wall seconds of the search-index and
    statistics refreshes the command runs after loading) of one `regintel import` process.

    CPU is user + system time of the process and the parse-ahead child it waits for (`/usr/bin/time`
    counts waited-for children): what a loaded machine does not stretch the way it stretches wall
    time, so records per CPU second compare runs made at different loads."""
    started = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%M %U %S", sys.executable, "-m", "regintel", "import", source, str(path)],
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(proc.stdout[-2000:] + proc.stderr[-2000:])
    peak_kb, user, system = proc.stderr.strip().splitlines()[-1].split()
    summary = next(
        (line for line in proc.stdout.splitlines() if "│" in line and line.strip("│ ")[0].isdigit()), ""
    )
    refresh = sum(float(m[1]) for m in REFRESH_LINE.finditer(proc.stdout))
    cpu = float(user) + float(system)
    return seconds, cpu, int(peak_kb) // 1024, " ".join(summary.replace("│", " ").split()), refresh


def database(backend: str, folder: Path) -> tuple[str, object]:
    if backend == "sqlite":
        path = folder / "bench.db"
        return f"sqlite:///{path}", path
    name = f"regintel_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return PG_SERVER.rsplit("/", 1)[0] + "/" + name, name


def size_mb(backend: str, handle: object) -> float:
    if backend == "sqlite":
        path = Path(str(handle))
        return sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 1e6
    with psycopg.connect(PG_SERVER) as conn:
        return conn.execute("SELECT pg_database_size(%s)", (handle,)).fetchone()[0] / 1e6  # type: ignore[index]


def drop(backend: str, handle: object) -> None:
    if backend == "postgresql":
        with psycopg.connect(PG_SERVER, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{handle}" WITH (FORCE)')


def startup_cpu(source: str, backend: str, files: Path, folder: Path) -> float:
    """CPU seconds of importing STARTUP_RECORDS records into an empty database: the interpreter, the
    modules, the migrations and the end-of-import refreshes, which a per-record rate leaves out."""
    path = generate(source, STARTUP_RECORDS, files)
    work = folder / f"{source}-startup"
    work.mkdir(exist_ok=True)
    url, handle = database(backend, work)
    try:
        env = os.environ | {"REGINTEL_DATABASE_URL": url, "REGINTEL_DATA_DIR": str(work), "COLUMNS": "1000"}
        return run_import(source, path, env)[1]
    finally:
        drop(backend, handle)


def loader_cpu(source: str, backend: str, path: Path, again: Path | None, folder: Path) -> dict[str, object]:
    """The loader alone on one core: `ingest.runner.run_import` in this process with the parse-ahead
    process off (parsing and loading share one core), CPU by `time.process_time` around that call
    only, so start-up and the command's end-of-import refreshes are left out; then the re-import of
    `again` the same way."""
    from regintel.db.engine import make_engine
    from regintel.db.migrate import upgrade
    from regintel.ingest.runner import run_import as load
    from regintel.ingest.sources import get_source

    work = folder / f"{source}-loader"
    work.mkdir(exist_ok=True)
    url, handle = database(backend, work)
    out: dict[str, object] = {}
    try:
        engine = make_engine(url, pool=False)
        upgrade(engine)
        for label, file in (("load", path), ("reload", again)):
            if file is None:
                continue
            cpu = time.process_time()
            _, stats, _ = load(engine, get_source(source), str(file), work, parse_ahead=False)
            cpu = time.process_time() - cpu
            out[f"{label}_cpu_s"] = round(cpu, 2)
            out[f"{label}_records_per_cpu_s"] = round(stats.read / cpu)
            out[f"{label}_stats"] = stats.as_dict()
        engine.dispose()
    finally:
        drop(backend, handle)
    return out


def _n(value: object) -> str:
    return "-" if value is None else format(value, ",")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--sources", default=",".join(FORMATS))
    ap.add_argument("--files", type=Path, help="keep generated files here and reuse them")
    ap.add_argument("--reimport-count", type=int, help="re-import a file of this many records (default: all)")
    ap.add_argument("--no-reimport", action="store_true", help="skip the idempotent re-import")
    ap.add_argument(
        "--loader-cpu", action="store_true", help="also measure the loader alone in this process (one core)"
    )
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="regintel-bench-") as tmp:
        folder = Path(tmp)
        files = args.files or folder
        files.mkdir(parents=True, exist_ok=True)
        for source in args.sources.split(","):
            t0 = time.perf_counter()
            path = generate(source, args.count, files)
            again_path, again_count = None, 0
            if not args.no_reimport:
                again_count = min(args.reimport_count or args.count, args.count)
                again_path = generate(source, again_count, files)
            gen_s = time.perf_counter() - t0
            url, handle = database(args.backend, folder / source)
            (folder / source).mkdir(exist_ok=True)
            env = os.environ | {
                "REGINTEL_DATABASE_URL": url,
                "REGINTEL_DATA_DIR": str(folder / source),
                "COLUMNS": "1000",
            }
            start_cpu = startup_cpu(source, args.backend, files, folder)
            serial = loader_cpu(source, args.backend, path, again_path, folder) if args.loader_cpu else {}
            try:
                seconds, cpu, peak_mb, summary, refresh = run_import(source, path, env)
                size = size_mb(args.backend, handle)
                again, again_cpu, summary2 = None, None, ""
                if again_path is not None:
                    again, again_cpu, _, summary2, _ = run_import(source, again_path, env)
            finally:
                drop(args.backend, handle)
            row = {
                "source": source,
                "records": args.count,
                "file_mb": round(path.stat().st_size / 1e6, 1),
                "generate_s": round(gen_s, 1),
                "import_s": round(seconds, 1),
                "records_per_s": round(args.count / seconds),
                "import_cpu_s": round(cpu, 1),
                "records_per_cpu_s": round(args.count / cpu),
                "startup_cpu_s": round(start_cpu, 2),
                "refresh_wall_s": round(refresh, 1),
                "records_per_cpu_s_net": round(args.count / max(cpu - start_cpu, 1e-3)),
                "reimport_records": again_count,
                "reimport_s": None if again is None else round(again, 1),
                "reimport_per_s": None if again is None else round(again_count / again),
                "reimport_cpu_s": None if again_cpu is None else round(again_cpu, 1),
                "reimport_per_cpu_s": None if again_cpu is None else round(again_count / again_cpu),
                "peak_rss_mb": peak_mb,
                "db_mb": round(size, 1),
                "db_mb_per_million": round(size * 1e6 / args.count, 1),
                "loader_serial": serial,
                "summary": summary,
                "reimport_summary": summary2,
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.files is None:
                path.unlink()
    print(f"\nimport throughput, {args.backend}, load average {os.getloadavg()[0]:.1f}")
    print(
        "| source | records | file MB | import s | records/s | CPU s | records/CPU-s "
        "| records/CPU-s less start-up | re-import records/s | re-import records/CPU-s "
        "| peak RSS MB | DB MB/M |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['source']} | {r['records']:,} | {r['file_mb']} | {r['import_s']} | {r['records_per_s']:,} "
            f"| {r['import_cpu_s']} | {r['records_per_cpu_s']:,} | {r['records_per_cpu_s_net']:,} "
            f"| {_n(r['reimport_per_s'])} "
            f"| {_n(r['reimport_per_cpu_s'])} | {r['peak_rss_mb']} | {r['db_mb_per_million']} |"
        )
    if args.loader_cpu:
        print("\nthe loader alone, parsing and loading on one core (records per CPU second)")
        print("| source | records | CPU s | records/CPU-s | re-import CPU s | re-import records/CPU-s |")
        print("|---|---:|---:|---:|---:|---:|")
        for r in rows:
            ls = r["loader_serial"]
            print(
                f"| {r['source']} | {r['records']:,} | {ls['load_cpu_s']} "
                f"| {_n(ls['load_records_per_cpu_s'])} "
                f"| {ls.get('reload_cpu_s', '-')} | {_n(ls.get('reload_records_per_cpu_s'))} |"
            )
    out = BENCH / "results" / f"import-{args.backend}-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    out.write_text(
        json.dumps(
            {
                "backend": args.backend,
                "count": args.count,
                "reimport_count": None if args.no_reimport else args.reimport_count or args.count,
                "rows": rows,
            },
            indent=2,
        )
    )
    print(f"saved {out}")


if __name__ == "__main__":
    main()
