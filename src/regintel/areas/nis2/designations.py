"""Load regulated-activity designations (the size-independent cases of NIS2) from a CSV the operator
assembles from the registers that publish them: the EU trusted lists (qualified trust service
providers), the national electronic-communications registers, the national lists of essential and
important entities or critical entities, IANA's TLD managers.

Columns: `country,national_id,kind,source,reference` (`kind` one of
`regintel.domain.nis2.scope.DESIGNATIONS`).
A row whose company is not in the database or whose identifier or kind is invalid is reported, not loaded.
Loading a (company, kind, source) again replaces it. The trusted-list importers (`regintel import sk_tsl`,
docs/regulated.md) write their providers' designations through `replace_source`.

    python -m regintel.areas.nis2.designations designations.csv
"""

from __future__ import annotations

import csv
import io
import sys
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.nis2 import queries
from regintel.areas.nis2.sweep import KIND as sweep_kind
from regintel.db import jobs as jobs_db
from regintel.db.engine import begin_write
from regintel.domain.identifiers import parse_country, parse_national_id
from regintel.domain.nis2.scope import DESIGNATIONS
from regintel.errors import ValidationFailed

COLUMNS = ("country", "national_id", "kind", "source", "reference")


def load(engine: Engine, text: str) -> dict[str, Any]:
    reader = csv.DictReader(io.StringIO(text))
    if tuple(reader.fieldnames or ()) != COLUMNS:
        raise ValidationFailed(f"designation CSV columns must be {','.join(COLUMNS)}")
    rows, rejected = [], []
    for n, raw in enumerate(reader, start=2):
        try:
            country = parse_country(raw["country"] or "")
            national_id = parse_national_id(country, raw["national_id"] or "")
        except ValidationFailed as exc:
            rejected.append({"line": n, "error": str(exc)})
            continue
        kind, source = (raw["kind"] or "").strip(), (raw["source"] or "").strip()
        if kind not in DESIGNATIONS or not source or len(source) > 64:
            rejected.append({"line": n, "error": f"unknown kind {kind!r} or missing source"})
            continue
        rows.append((n, (country, national_id), kind, source, (raw["reference"] or "").strip() or None))
    now = datetime.now(UTC)
    with begin_write(engine) as conn:
        ids = queries.ids_by_identifier(conn, sorted({r[1] for r in rows}))
        found = []
        for n, key, kind, source, reference in rows:
            if key not in ids:
                rejected.append({"line": n, "error": f"no company {key[0]} {key[1]}"})
                continue
            found.append(
                {
                    "company_id": ids[key],
                    "kind": kind,
                    "source": source,
                    "reference": reference,
                    "loaded_at": now,
                }
            )
        loaded = queries.add_designations(conn, found)
    return {"loaded": loaded, "rejected": sorted(rejected, key=lambda r: r["line"])}


def replace_source(conn: Connection, source: str, wanted: dict[int, tuple[str, str | None]]) -> int:
    """Make `source`'s designations exactly `wanted` (company id -> (kind, reference)), for an importer that
    holds a whole register (areas/regulated/designating.py); returns the rows written or removed, 0 when
    nothing changed."""
    stored = queries.source_designations(conn, source)
    want = {(cid, kind): reference for cid, (kind, reference) in wanted.items()}
    gone = {key: pk for key, (pk, _) in stored.items() if key not in want}
    queries.delete_designations(conn, list(gone.values()))
    now, renamed = datetime.now(UTC), 0
    new: list[dict[str, Any]] = []
    for (cid, kind), reference in want.items():
        pk, old = stored.get((cid, kind), (None, None))
        if pk is None:
            new.append(
                {"company_id": cid, "kind": kind, "source": source, "reference": reference, "loaded_at": now}
            )
        elif old != reference:
            queries.set_designation_reference(conn, pk, reference, now)
            renamed += 1
    if new:
        queries.insert_designations(conn, new)
    _reassess(conn, {cid for cid, _ in gone} | {int(row["company_id"]) for row in new}, now)
    return len(gone) + len(new) + renamed


def _reassess(conn: Connection, company_ids: set[int], now: datetime) -> None:
    """Queue, in the import's transaction, the stored scoping of the companies whose designations changed
    (a `nis2.sweep` job over their identifiers saves their assessments), so the `nis2_scope` filter
    follows the register without waiting for the next country refresh."""
    if not company_ids:
        return
    keys = queries.company_keys(conn, company_ids)
    payload = {"identifiers": [{"country": country, "national_id": nid} for country, nid in keys]}
    jobs_db.enqueue(conn, sweep_kind, payload, now=now, max_attempts=3)


def main(argv: list[str]) -> int:  # pragma: no cover - thin command-line wrapper
    from regintel.config import Settings
    from regintel.db.engine import make_engine

    if len(argv) != 1:
        print(__doc__)
        return 2
    with open(argv[0], encoding="utf-8") as fh:
        result = load(make_engine(Settings().database_url), fh.read())
    print(f"loaded {result['loaded']}, rejected {len(result['rejected'])}")
    for r in result["rejected"]:
        print(f"  line {r['line']}: {r['error']}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
