"""Parse-only throughput per register format: the source's parser over a generated file of N records
in this process, no database, so the parser's own cost is seen apart from the loader's.

    python bench/bench_parse.py --count 100000 --sources ro_onrc,cy_drcor --files /tmp/bench-files

Files come from bench_import's generators (and are reused from --files). Reports wall and CPU
seconds (`time.process_time`, which a loaded machine does not inflate the way it does wall time) and
records per CPU second. Run by hand; prints a table and saves JSON to bench/results/.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path

from bench_import import FORMATS, generate

from regintel.ingest.base import RecordError, Skipped
from regintel.ingest.inputs import open_input

BENCH = Path(__file__).resolve().parent


def measure(source_id: str, path: Path) -> dict[str, object]:
    source = importlib.import_module(f"regintel.ingest.sources.{source_id}").SOURCE
    records = errors = skipped = 0
    wall, cpu = time.perf_counter(), time.process_time()
    with open_input(str(path), path.parent, whole_archive=getattr(source, "reads_archive", False)) as inp:
        for item in source.parse(inp.stream, inp.name):
            if isinstance(item, RecordError):
                errors += 1
            elif isinstance(item, Skipped):
                skipped += 1
            else:
                records += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "source": source_id,
        "records": records,
        "errors": errors,
        "skipped": skipped,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "records_per_cpu_s": round(records / cpu),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--sources", default=",".join(FORMATS))
    ap.add_argument("--files", type=Path, default=Path("/tmp/regintel-bench-files"))
    args = ap.parse_args()
    args.files.mkdir(parents=True, exist_ok=True)
    rows = [measure(s, generate(s, args.count, args.files)) for s in args.sources.split(",")]
    load = os.getloadavg()[0]
    print(f"\nparse-only throughput, load average {load:.1f}")
    print("| source | records | rejected | skipped | wall s | CPU s | records per CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['source']} | {r['records']:,} | {r['errors']} | {r['skipped']:,} | {r['wall_s']} "
            f"| {r['cpu_s']} "
            f"| {r['records_per_cpu_s']:,} |"
        )
    out = BENCH / "results" / f"parse-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    out.write_text(json.dumps({"count": args.count, "load_average": load, "rows": rows}, indent=2))
    print(f"saved {out}")


if __name__ == "__main__":
    main()
