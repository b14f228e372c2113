"""Screening use cases: screen a name or an entity record, a company's hits (its own name, its officers
and owners), and the companies with hits (`/public/stats/sanctions`).

For other areas: `company_hit_summary(conn, company_id)` (the precomputed hits, counted) and
`screening_states(conn, company_ids)` (for the credit and risk scores: when each company was last
screened, against which list versions, and its confirmed hits and name-only matches; a company missing
from the answer was never screened)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.screening import queries
from regintel.areas.screening.index import current_index
from regintel.db.prepared import Read
from regintel.domain.screening import ALGORITHM, DESCRIPTIONS, Match, Subject, normalise_name
from regintel.errors import NotImplementedYet, ValidationFailed

MODES = {"sanctioned": "sanction", "debarred": "debarment", "any": None}
OWNER_ROLES = frozenset({"psc", "member", "partner", "founder", "parent_company"})


def subject_kind(role: str) -> str:
    """`owner` for owning roles (shareholder, beneficial owner, PSC, partner, parent company), else
    `officer` (director, board member, statutory body, …)."""
    return "owner" if role in OWNER_ROLES or "owner" in role or "shareholder" in role else "officer"


def _utc(value: datetime | None) -> str | None:
    if value is None:
        return None
    aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return aware.isoformat().replace("+00:00", "Z")


def list_versions(conn: Connection) -> list[dict[str, Any]]:
    return [
        {
            "id": r["id"],
            "name": r["name"],
            "entry_count": r["entry_count"],
            "version": r["version"],
            "imported_at": _utc(r["imported_at"]),
        }
        for r in queries.all_lists(conn)
    ]


def _require_lists(conn: Connection, lists: Sequence[str] | None) -> list[dict[str, Any]]:
    versions = list_versions(conn)
    if not versions:
        raise NotImplementedYet(
            "No sanctions list is imported yet, so nothing can be screened: import one with "
            "`python -m regintel.areas.screening import <list> PATH`",
            details={"missing": "sanctions lists"},
        )
    if lists:
        known = {v["id"] for v in versions}
        missing = sorted(set(lists) - known)
        if missing:  # known lists (the body's schema says which), not imported here
            raise NotImplementedYet(
                f"Not imported on this server: {', '.join(missing)}; the imported lists are: "
                f"{', '.join(sorted(known))}",
                details={"missing": missing, "imported": sorted(known)},
            )
        versions = [v for v in versions if v["id"] in set(lists)]
    return versions


def feature_out(match: Match) -> list[dict[str, Any]]:
    return [
        {
            "name": f.name,
            "value": f.value,
            "weight": f.weight,
            "contribution": round(f.contribution, 4),
            "description": DESCRIPTIONS[f.name],
        }
        for f in match.features
    ]


def _hit(match: Match, entry: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": f"{entry['list_id']}:{entry['entry_key']}",
        "list": {"id": entry["list_id"], "name": entry["list_name"]},
        "schema": entry["schema"],
        "caption": entry["caption"],
        "topics": entry["topics"].split(","),
        "programmes": [p for (p,) in entry["programmes"]],
        "listed_on": entry["listed_on"],
        "score": match.score,
        "matched_name": match.matched_name,
        "matched_name_kind": match.matched_kind,
        "features": feature_out(match),
        "names": [{"name": n, "kind": k} for n, k in entry["names"]],
        "countries": sorted({c for c, _ in entry["countries"]}),
        "birth_dates": [d for (d,) in entry["birth_dates"]],
        "identifiers": [{"type": t, "value": v, "country": c} for t, v, c in entry["identifiers"]],
        "remarks": entry["remarks"],
    }


def match_subjects(
    conn: Connection,
    subjects: Sequence[Subject],
    threshold: float,
    limit: int,
    lists: Sequence[str] | None = None,
) -> list[list[dict[str, Any]]]:
    """Hits of each subject, with the listed entries' details (one read for all of them)."""
    index, _ = current_index(conn)
    found: list[list[Match]] = []
    for subject in subjects:
        matches = index.screen(subject, threshold, limit if not lists else 200)
        found.append(matches)
    details = queries.entry_details(conn, sorted({m.entry_id for ms in found for m in ms}))
    out = []
    for matches in found:
        hits = [
            _hit(m, details[m.entry_id])
            for m in matches
            if m.entry_id in details and (not lists or details[m.entry_id]["list_id"] in lists)
        ]
        out.append(hits[:limit])
    return out


def screen(
    conn: Connection, subject: Subject, threshold: float, limit: int, lists: Sequence[str] | None = None
) -> dict[str, Any]:
    versions = _require_lists(conn, lists)
    if not subject.tokens:
        raise ValidationFailed(
            "The name has nothing left to compare once honorifics and legal-form words are removed",
            details=[{"field": "name", "in": "body", "message": "no name tokens"}],
        )
    hits = match_subjects(conn, [subject], threshold, limit, lists)[0]
    return {
        "query": {
            "name": subject.name,
            "normalized_name": normalise_name(subject.name),
            "schema": subject.schema,
            "countries": sorted(subject.countries),
            "birth_date": subject.birth_dates[0] if subject.birth_dates else None,
            "identifiers": sorted(subject.identifiers),
        },
        "threshold": threshold,
        "algorithm": ALGORITHM,
        "hits": hits,
        "lists": versions,
    }


def _company_subjects(
    conn: Connection, company: Mapping[str, Any], personal: bool
) -> list[tuple[str, str | None, Subject]]:
    ids = [v for v in (company.get("national_id"), company.get("lei"), company.get("vat_id")) if v]
    out: list[tuple[str, str | None, Subject]] = [
        ("company", None, Subject.build(company["name"], "organization", [company["country"]], (), ids))
    ]
    today = datetime.now(UTC).date()
    for r in queries.company_subjects(conn, int(company["id"]), today):
        kind = subject_kind(r["role"])
        natural = r["person_id"] is not None
        if natural and not personal:
            continue
        countries = [r["holder_country"]] if r.get("holder_country") else []
        dates = [r["birth_date"]] if natural and r.get("birth_date") else []
        subject = Subject.build(r["holder_name"], "person" if natural else "organization", countries, dates)
        if subject.tokens:
            out.append((kind, r["role"], subject))
    return out


def company_sanctions(
    conn: Connection, company: Mapping[str, Any], threshold: float, personal: bool
) -> dict[str, Any]:
    versions = _require_lists(conn, None)
    subjects = _company_subjects(conn, company, personal)
    unique = list(dict.fromkeys(subjects))
    results = match_subjects(conn, [s for _, _, s in unique], threshold, 10)
    items: list[dict[str, Any]] = [
        {"subject": kind, "role": role, "name": s.name, "hits": hits}
        for (kind, role, s), hits in zip(unique, results, strict=True)
    ]
    return {
        "country": company["country"],
        "national_id": company["national_id"],
        "name": company["name"],
        "threshold": threshold,
        "algorithm": ALGORITHM,
        "hit_count": sum(len(i["hits"]) for i in items),
        "subjects": items,
        "natural_persons_screened": personal,
        "lists": versions,
    }


def sanctioned_stats(conn: Connection, mode: str, limit: int = 100) -> dict[str, Any]:
    versions = _require_lists(conn, None)
    topic = MODES[mode]
    rows, total = queries.sanctioned_companies(conn, topic, limit)
    hits: dict[int, list[dict[str, Any]]] = {}
    for h in queries.hits_of_companies(conn, [int(r["id"]) for r in rows], topic):
        hits.setdefault(int(h["company_id"]), []).append(
            {
                "subject": h["subject"],
                "subject_name": None if h["natural_person"] else h["subject_name"],
                "score": h["score"],
                "entry": f"{h['list_id']}:{h['entry_key']}",
                "caption": h["caption"],
                "topics": h["topics"].split(","),
            }
        )
    items = [
        {
            "country": r["country"],
            "national_id": r["national_id"],
            "name": r["name"],
            "best_score": r["score"],
            "hit_count": r["hits"],
            "hits": hits.get(int(r["id"]), []),
        }
        for r in rows
    ]
    return {"mode": mode, "total": total, "items": items, "lists": versions}


def company_reads(company_id: int) -> list[Read]:
    """What `company_hit_summary` and `screening_states` read for one company, for `read_ahead`."""
    return queries.company_reads(company_id)


def company_hit_summary(conn: Connection, company_id: int) -> dict[str, int]:
    """For other areas (credit and risk scores, lookups): the company's precomputed hits at the default
    threshold, and how many of them an identifier confirms (a fuzzy name match is a candidate for a
    reviewer; an identifier match is a finding). Zeros until a list is imported and the job has run."""
    rows = queries.hit_rows_of_company(conn, company_id)
    confirmed = [r for r in rows if _confirmed(r["features"])]
    return {
        "hits": len(rows),
        "confirmed": len(confirmed),
        "sanctioned": sum(1 for r in rows if "sanction" in r["topics"]),
        "debarred": sum(1 for r in rows if "debarment" in r["topics"]),
    }


def _confirmed(features: Sequence[Mapping[str, Any]] | None) -> bool:
    return any(f.get("name") == "identifier_match" for f in features or [])


@dataclass(frozen=True)
class Screening:
    """A company's last screening by the `screening.company_hits` job."""

    screened_at: datetime
    lists: dict[str, int]  # list id -> the version screened against
    current: bool  # the same lists, at the same versions, as are imported now
    confirmed: tuple[str, ...]  # hits an identifier confirms, as `<list>:<entry key>`
    name_matches: tuple[str, ...]  # the other hits: name matches for a reviewer


def screening_states(conn: Connection, company_ids: Sequence[int]) -> dict[int, Screening]:
    """The last screening of each company that was screened (three reads for all of them). A screening
    against no list at all is no screening."""
    if not company_ids:
        return {}
    now = {str(r["id"]): int(r["version"]) for r in queries.all_lists(conn)}
    done = {i: r for i, r in queries.screenings_of(conn, company_ids).items() if r["list_versions"]}
    found: dict[int, tuple[list[str], list[str]]] = {i: ([], []) for i in done}
    for h in queries.hit_rows_of_companies(conn, list(done)) if done else []:
        entry = f"{h['list_id']}:{h['entry_key']}"
        confirmed, names = found[int(h["company_id"])]
        (confirmed if _confirmed(h["features"]) else names).append(entry)
    out = {}
    for i, r in done.items():
        versions = {str(k): int(v) for k, v in r["list_versions"].items()}
        confirmed, names = found[i]
        at = r["screened_at"]
        out[i] = Screening(
            at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC),
            versions,
            versions == now,
            tuple(dict.fromkeys(confirmed)),
            tuple(dict.fromkeys(n for n in names if n not in confirmed)),
        )
    return out
