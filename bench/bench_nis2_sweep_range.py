"""The NIS2 sweep over one range of company ids, with the sweep's own batches (`sweep.assess_ids` and
`save_assessed`, as the job runs them), so that a 10M database can be swept by two processes on
two cores and the parts added up (`--combine`). Prints progress and saves the range's totals after every
100,000 companies to bench/results/nis2-sweep-range-<from>-<to>.json (counts per category, certainty and
country, companies, wall and CPU seconds, load average).

    .venv/bin/python bench/bench_nis2_sweep_range.py --db PATH --from-id 0 --to-id 5000000
    .venv/bin/python bench/bench_nis2_sweep_range.py --combine results/nis2-sweep-range-*.json

Ids are taken in order after `--from-id` up to and including `--to-id` (synth builds number companies
1..N).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from regintel.areas.nis2 import queries, sweep
from regintel.db.engine import make_engine

BENCH = Path(__file__).resolve().parent
CATEGORIES = (sweep.ESSENTIAL, sweep.IMPORTANT, sweep.OUT)


def run(db: Path, first: int, last: int) -> None:
    engine = make_engine(f"sqlite:///{db}", pool=False)
    out = BENCH / "results" / f"nis2-sweep-range-{first}-{last}.json"
    out.parent.mkdir(exist_ok=True)
    totals, after, saved = sweep.empty_totals(), first, 0
    started, cpu0, load0 = time.perf_counter(), time.process_time(), os.getloadavg()
    while after < last:
        with engine.connect() as conn:  # as `sweep.run_job` does: the rules on a read, the write locked
            ids = [i for i in queries.id_page(conn, [], after, sweep.BATCH) if i <= last]
            if not ids:
                break
            assessed = sweep.assess_ids(conn, ids)
        with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
            sweep.save_assessed(conn, assessed, totals)
        after = ids[-1]
        if totals["processed"] - saved >= 100_000 or after >= last:
            saved = totals["processed"]
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu0
            record = {
                "from_id": first,
                "to_id": last,
                "after": after,
                "processed": totals["processed"],
                "counts": totals["counts"],
                "certainty": totals["certainty"],
                "by_country": totals["by_country"],
                "seconds": round(seconds, 1),
                "cpu_seconds": round(cpu, 1),
                "load_before": load0,
                "load_now": os.getloadavg(),
                "done": after >= last,
                "at": datetime.now(UTC).isoformat(),
            }
            out.write_text(json.dumps(record, indent=2) + "\n")
            print(
                f"{first}-{last}: {totals['processed']:,} in {seconds:,.0f} s "
                f"({totals['processed'] / seconds:,.0f}/s, CPU {cpu:,.0f} s)",
                flush=True,
            )


def combine(files: list[Path]) -> None:
    parts = [json.loads(f.read_text()) for f in files]
    parts.sort(key=lambda p: p["from_id"])
    for a, b in zip(parts, parts[1:], strict=False):
        if a["to_id"] != b["from_id"]:
            sys.exit(f"ranges do not join: {a['to_id']} and {b['from_id']}")
    counts = {k: sum(p["counts"][k] for p in parts) for k in CATEGORIES}
    certainty = {k: sum(p["certainty"][k] for p in parts) for k in ("certain", "likely", "possible")}
    countries: dict[str, dict[str, int]] = {}
    for p in parts:
        for cc, c in p["by_country"].items():
            row = countries.setdefault(cc, dict.fromkeys(CATEGORIES, 0))
            for k in CATEGORIES:
                row[k] += c[k]
    processed = sum(p["processed"] for p in parts)
    wall = max(p["seconds"] for p in parts)
    cpu = sum(p["cpu_seconds"] for p in parts)
    print(
        f"{processed:,} companies in {len(parts)} ranges, all done: {all(p['done'] for p in parts)}; "
        f"wall {wall:,.0f} s (the ranges ran side by side), CPU {cpu:,.0f} s "
        f"({processed / cpu:,.0f} companies per CPU second)"
    )
    print("| country | essential | important | out of scope |\n|---|---:|---:|---:|")
    for cc in sorted(countries):
        print(f"| {cc} | " + " | ".join(f"{countries[cc][k]:,}" for k in CATEGORIES) + " |")
    print("| all | " + " | ".join(f"{counts[k]:,}" for k in CATEGORIES) + " |")
    print(f"certainty: {certainty}")
    (BENCH / "results" / f"nis2-sweep-combined-{processed}.json").write_text(
        json.dumps(
            {
                "processed": processed,
                "counts": counts,
                "certainty": certainty,
                "by_country": countries,
                "wall_seconds": wall,
                "cpu_seconds": cpu,
                "ranges": [p["from_id"] for p in parts],
                "ruleset_version": sweep.RULESET_VERSION,
            },
            indent=2,
        )
        + "\n"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", type=Path)
    ap.add_argument("--from-id", type=int, default=0)
    ap.add_argument("--to-id", type=int, default=0)
    ap.add_argument("--combine", nargs="*", type=Path)
    args = ap.parse_args()
    if args.combine:
        combine(args.combine)
    else:
        run(args.db, args.from_id, args.to_id)


if __name__ == "__main__":
    main()
