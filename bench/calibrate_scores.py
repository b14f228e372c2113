"""Calibration of the credit model (docs/scores.md, "Calibration"): the grade distribution per country of a
database, and whether better grades are followed by fewer insolvencies.

Every company is scored with the pure model (`regintel.domain.scores`) on its data, read in bulk; the
same facts and statements as `areas.scores.service.credit` reads one company at a time.

- **today**: the grade as the API answers it now, per country.
- **before the flags**: the grade the model gave on the company's latest and on its earliest statement
  year (points of the grade history, which see only the statements up to that year and the dated
  insolvency notices, not today's register flags), against the share of those companies that are in
  bankruptcy, restructuring or liquidation today: in a synthetic database (`regintel synth`) this is the
  "synthetic future" of the grades.

    .venv/bin/python bench/calibrate_scores.py --database-url sqlite:////tmp/scores/synth100k.db
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from itertools import groupby
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine, select

from regintel.areas.scores.service import to_statement
from regintel.db.engine import make_engine
from regintel.db.schema import companies, financial_statements, insolvency_events
from regintel.domain.scores.credit import GRADES, credit_score
from regintel.domain.scores.facts import CompanyFacts, InsolvencyEvent
from regintel.domain.scores.limits import grade_history

BENCH = Path(__file__).resolve().parent
console = Console(width=None if sys.stdout.isatty() else 170)
ORDER = [g for g, _ in GRADES] + ["withheld"]


def _by_company(engine: Engine, stmt: Any) -> Iterator[tuple[int, list[Mapping[str, Any]]]]:
    with engine.connect() as conn:
        rows = conn.execution_options(stream_results=True, yield_per=20_000).execute(stmt).mappings()
        for key, group in groupby(rows, key=lambda r: r["company_id"]):
            yield key, list(group)


def iter_companies(
    engine: Engine,
) -> Iterator[tuple[Mapping[str, Any], list[Any], tuple[InsolvencyEvent, ...]]]:
    fs, ie = financial_statements, insolvency_events
    stmts = _by_company(engine, select(fs).order_by(fs.c.company_id, fs.c.year, fs.c.id))
    events = dict(_by_company(engine, select(ie).order_by(ie.c.company_id, ie.c.event_date)))
    next_stmt = next(stmts, None)
    with engine.connect() as conn:
        rows = (
            conn.execution_options(stream_results=True, yield_per=20_000)
            .execute(select(companies).order_by(companies.c.id))
            .mappings()
        )
        for row in rows:
            while next_stmt is not None and next_stmt[0] < row["id"]:
                next_stmt = next(stmts, None)
            own = next_stmt[1] if next_stmt is not None and next_stmt[0] == row["id"] else []
            evs = tuple(
                InsolvencyEvent(e["event_type"], e["phase"], e["event_date"], e["source"])
                for e in events.get(row["id"], [])
            )
            yield row, [to_statement(s) for s in own], evs


def facts_of(row: Mapping[str, Any], events: tuple[InsolvencyEvent, ...]) -> CompanyFacts:
    return CompanyFacts(
        source=row["source"],
        status=row["status"] or "active",
        founded_on=row["founded_on"],
        dissolved_on=row["dissolved_on"],
        in_bankruptcy=bool(row["in_bankruptcy"]),
        in_restructuring=bool(row["in_restructuring"]),
        in_liquidation=bool(row["in_liquidation"]),
        employees=row["employees"],
        size_class=row["size_class"],
        events=events,
    )


def calibrate(engine: Engine) -> dict[str, Any]:
    as_of = datetime.now(UTC).date()
    today: dict[str, Counter[str]] = defaultdict(Counter)
    earlier: dict[str, Counter[str]] = {"latest": Counter(), "earliest": Counter()}
    insolvent_later: dict[str, Counter[str]] = {"latest": Counter(), "earliest": Counter()}
    confidence: list[float] = []
    for row, stmts, events in iter_companies(engine):
        facts = facts_of(row, events)
        r = credit_score(facts, stmts, as_of)
        today[row["country"]][r.grade or "withheld"] += 1
        confidence.append(r.confidence)
        history = grade_history(facts, stmts)
        insolvent = row["in_bankruptcy"] or row["in_restructuring"] or row["in_liquidation"]
        for name, point in (("latest", history[0]), ("earliest", history[-1])) if history else ():
            grade = point.result.grade or "withheld"
            earlier[name][grade] += 1
            insolvent_later[name][grade] += bool(insolvent)
    total: Counter[str] = Counter()
    for counts in today.values():
        total.update(counts)
    return {
        "as_of": as_of.isoformat(),
        "per_country": {cc: dict(c) for cc, c in sorted(today.items())},
        "total": dict(total),
        "grade_before_flags": {k: dict(v) for k, v in earlier.items()},
        "insolvent_today": {k: dict(v) for k, v in insolvent_later.items()},
        "mean_confidence": sum(confidence) / len(confidence) if confidence else None,
    }


def show(result: dict[str, Any]) -> None:
    table = Table(title="Credit grades today, per country (share of companies, %)")
    table.add_column("country")
    table.add_column("companies", justify="right")
    for g in ORDER:
        table.add_column(g, justify="right")
    rows = [*result["per_country"].items(), ("all", result["total"])]
    for cc, counts in rows:
        n = sum(counts.values())
        table.add_row(cc, f"{n:,}", *(f"{100 * counts.get(g, 0) / n:.1f}" for g in ORDER))
    console.print(table)
    for point in ("latest", "earliest"):
        mono = Table(
            title=f"Grade on the {point} statement year → in bankruptcy, restructuring or liquidation today"
        )
        for name in ("grade", "companies", "insolvent today", "share %"):
            mono.add_column(name, justify="right")
        for g in ORDER:
            n = result["grade_before_flags"][point].get(g, 0)
            k = result["insolvent_today"][point].get(g, 0)
            mono.add_row(g, f"{n:,}", f"{k:,}", f"{100 * k / n:.2f}" if n else "-")
        console.print(mono)
    console.print(f"mean confidence {result['mean_confidence']:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", required=True)
    parser.add_argument(
        "--label", default=None, help="Name of the JSON result (default: the database file name)"
    )
    args = parser.parse_args()
    engine = make_engine(args.database_url)
    started = time.perf_counter()
    result = calibrate(engine) | {"database": args.database_url.rsplit("/", 1)[-1]}
    result["seconds"] = round(time.perf_counter() - started, 1)
    show(result)
    out = BENCH / "results" / f"calibrate_scores_{args.label or result['database'].split('.')[0]}.json"
    out.write_text(json.dumps(result, indent=2, sort_keys=True))
    console.print(f"{result['seconds']} s; saved {out.relative_to(BENCH.parent)}")


if __name__ == "__main__":
    main()
