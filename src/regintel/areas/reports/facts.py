"""Everything a report says about one company, gathered from the other areas' service functions (no SQL
of their tables here): the record, the financial history, the credit and risk scores, ownership, the
sanctions screening, the NIS2 scoping, the recent timeline and the sources with their licences.

The result is plain JSON-ready data (`orjson` can dump it), so the PDF renderer, the due-diligence rules
and a stored report all read the same snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy.engine import Connection

from regintel.api.envelope import dumps
from regintel.areas.companies import service as companies_svc
from regintel.areas.companies import timeline as timeline_svc
from regintel.areas.nis2 import service as nis2_svc
from regintel.areas.ownership import relations as ownership_relations
from regintel.areas.ownership.entities import Ctx
from regintel.areas.scores import views as scores_views
from regintel.areas.screening import service as screening_svc
from regintel.domain.screening import DEFAULT_THRESHOLD
from regintel.errors import NotImplementedYet

TIMELINE_EVENTS = 12
OWNERSHIP_ROWS = 12


def _plain(value: Any) -> Any:
    """Dates, decimals and models as the REST API would send them."""
    return orjson.loads(dumps(value))


def _sanctions(conn: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    try:
        found = screening_svc.company_sanctions(conn, row, DEFAULT_THRESHOLD, personal=False)
    except NotImplementedYet as exc:
        return {"screened": False, "reason": exc.message, "hit_count": None, "subjects": [], "lists": []}
    return {
        "screened": True,
        "reason": None,
        "threshold": found["threshold"],
        "algorithm": found["algorithm"],
        "hit_count": found["hit_count"],
        "subjects": [
            {
                "subject": s["subject"],
                "role": s["role"],
                "name": s["name"],
                "hits": [
                    {
                        "name": h["caption"],
                        "score": h["score"],
                        "list": h["list"]["name"],
                        "id": h["id"],
                        "topics": h["topics"],
                    }
                    for h in s["hits"]
                ],
            }
            for s in found["subjects"]
        ],
        "lists": found["lists"],
    }


def _ownership(conn: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    rel = ownership_relations.relations(Ctx(conn, personal=False), row, include_ended=False).model_dump(
        mode="json"
    )

    def brief(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {
                "role": r["role"],
                "title": r["title"],
                "name": r["holder"]["name"],
                "type": r["holder"]["type"],
                "country": r["holder"].get("country"),
                "nationalId": r["holder"].get("nationalId"),
                "since": r["since"],
                "sharePct": r["sharePct"],
                "source": r["source"]["id"],
                "licence": r["source"].get("licence"),
            }
            for r in items[:OWNERSHIP_ROWS]
        ]

    return {
        "directors": brief(rel["directors"]),
        "shareholders": brief(rel["shareholders"]),
        "beneficialOwners": brief(rel["beneficialOwners"]),
        "holdings": brief(rel["holdings"]),
        "counts": {k: len(rel[k]) for k in ("directors", "shareholders", "beneficialOwners", "holdings")},
    }


def _sources(record: dict[str, Any], *groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every source the report draws on, once, with its licence and attribution."""
    seen: dict[str, dict[str, Any]] = {}
    for s in record["sources"]:
        seen.setdefault(
            s["id"],
            {
                "id": s["id"],
                "name": s["name"],
                "publisher": s["publisher"],
                "licence": s["licence"],
                "attribution": s["attribution"],
                "url": s["url"],
                "retrievedAt": s["retrievedAt"],
            },
        )
    for group in groups:
        for s in group:
            if s.get("id"):
                seen.setdefault(
                    s["id"],
                    {
                        "id": s["id"],
                        "name": s.get("name"),
                        "publisher": s.get("publisher"),
                        "licence": s.get("licence"),
                        "attribution": s.get("attribution"),
                        "url": s.get("url"),
                        "retrievedAt": None,
                    },
                )
    return list(seen.values())


def gather(conn: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    """The snapshot a report is built from. Natural persons are named as the registers publish them, never
    with personal details (the report has no declared purpose)."""
    record = _plain(companies_svc.company_record(conn, row))
    financials = _plain(scores_views.financial_history(conn, row))
    credit = _plain(scores_views.credit_score(conn, row))
    risk = _plain(scores_views.risk(conn, row))
    sanctions = _plain(_sanctions(conn, row))
    events, _ = timeline_svc.timeline(conn, row, cursor=None, limit=TIMELINE_EVENTS, types=None)
    timeline = [
        {k: e.get(k) for k in ("date", "event_type", "title", "source", "link")} for e in _plain(events)
    ]
    scope = _plain(nis2_svc.scope(conn, row))
    return {
        "generatedAt": datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "company": record,
        "financials": financials,
        "credit": credit,
        "risk": risk,
        "ownership": _ownership(conn, row),
        "sanctions": sanctions,
        "nis2": {
            k: scope.get(k)
            for k in (
                "category",
                "certainty",
                "in_scope",
                "possible_categories",
                "reasons",
                "sectors",
                "size",
                "missing",
                "legal_basis",
                "ruleset_version",
            )
        },
        "timeline": timeline,
        "sources": _sources(record, financials.get("sources") or [], credit.get("sources") or []),
    }
