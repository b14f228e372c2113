"""Company hits, precomputed: every company's name, and the names of its current officers and owners,
screened at the default threshold after each list import (job `screening.company_hits`). The
advanced-search `sanctioned` filter and `/public/stats/sanctions` read the hits; the credit and risk
scores also read `company_screenings`, the time and list versions each company was screened against, so
that "screened, no hit" is told apart from "not screened"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine

from regintel.areas.screening import queries
from regintel.areas.screening.index import current_index
from regintel.areas.screening.service import subject_kind
from regintel.domain.screening import ALGORITHM, DEFAULT_THRESHOLD, Subject
from regintel.domain.screening_index import ScreeningIndex

BATCH = 1_000


def _subjects(
    company: Mapping[str, Any], roles: Sequence[Mapping[str, Any]]
) -> list[tuple[str, bool, Subject]]:
    ids = [v for v in (company["national_id"], company["lei"], company["vat_id"]) if v]
    out = [("company", False, Subject.build(company["name"], "organization", [company["country"]], (), ids))]
    for r in roles:
        natural = r["person_id"] is not None
        kind = subject_kind(r["role"])
        out.append((kind, natural, Subject.build(r["holder_name"], "person" if natural else "organization")))
    return out


def _hit_rows(
    index: ScreeningIndex, company: Mapping[str, Any], roles: Sequence[Mapping[str, Any]], now: datetime
) -> list[dict[str, Any]]:
    rows: dict[tuple[int, str, str], dict[str, Any]] = {}
    for kind, natural, subject in _subjects(company, roles):
        if not subject.tokens:
            continue
        for m in index.screen(subject, DEFAULT_THRESHOLD, limit=5):
            rows.setdefault(
                (m.entry_id, kind, subject.name),
                {
                    "company_id": company["id"],
                    "entry_id": m.entry_id,
                    "subject": kind,
                    "subject_name": subject.name,
                    "natural_person": natural,
                    "score": m.score,
                    "algorithm": ALGORITHM,
                    "computed_at": now,
                    "features": [{"name": f.name, "value": f.value, "weight": f.weight} for f in m.features],
                },
            )
    return list(rows.values())


def refresh_company_hits(engine: Engine, batch: int = BATCH) -> dict[str, int]:
    """Recompute the hits of every company, one transaction a batch."""
    now = datetime.now(UTC)
    with engine.connect() as conn:
        # Read before the index is built: if an import lands in between, the recorded versions are the
        # older ones (the screening looks stale, and that import queued the next run), never newer.
        versions = {str(r["id"]): int(r["version"]) for r in queries.all_lists(conn)}
        index, _ = current_index(conn, fresh=True)
    screened = {
        "screened_at": now,
        "list_versions": versions,
        "algorithm": ALGORITHM,
        "threshold": DEFAULT_THRESHOLD,
    }
    after, companies, hits = 0, 0, 0
    while True:
        with engine.begin() as conn:
            chunk = queries.company_batch(conn, after, batch)
            if not chunk:
                break
            ids = [int(c["id"]) for c in chunk]
            roles: dict[int, list[Mapping[str, Any]]] = {}
            for r in queries.roles_of_companies(conn, ids, now.date()):
                roles.setdefault(int(r["company_id"]), []).append(r)
            rows = [row for c in chunk for row in _hit_rows(index, c, roles.get(int(c["id"]), []), now)]
            queries.replace_company_hits(conn, ids, rows)
            queries.replace_screenings(conn, ids, screened)
        after, companies, hits = ids[-1], companies + len(chunk), hits + len(rows)
    return {"companies": companies, "hits": hits}
