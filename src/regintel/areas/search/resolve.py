"""Entity resolution: free text or a partial record → the company it most likely means, with the
features that decided it. Shared by `/companies/resolve`, `/companies/match` and reconciliation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.search.identify import find_by_identifier, looks_like_identifier
from regintel.areas.search.schemas import MatchCandidate, MatchFeatures, MatchReason, ProminenceReason
from regintel.areas.search.service import (
    asked_words,
    judge_row,
    judge_rows,
    order,
    prominence_reason,
    spread_countries,
    summary,
    town_words,
)
from regintel.db import search as db
from regintel.domain.matching import Judged, NameScore, Prominence, word_similarity
from regintel.domain.name_query import QueryIntent, parse
from regintel.domain.names import normalise_address, strip_legal_form, tokens
from regintel.search import rows
from regintel.search.base import Filters, SearchBackend

RESOLVE_THRESHOLD = 0.8
LOCATION_SIM = 0.85


@dataclass
class Candidate:
    row: Mapping[str, Any]
    score: float
    features: dict[str, Any] = field(default_factory=dict)
    prominence: Prominence | None = None

    def read_model(self, threshold: float) -> MatchCandidate:
        return MatchCandidate(
            company=summary(self.row),
            score=round(self.score, 4),
            match=self.score >= threshold,
            features=MatchFeatures(**self.features),  # type: ignore[typeddict-item]
        )

    def as_dict(self, threshold: float) -> dict[str, Any]:
        """`read_model` as JSON data, for answers stored as such (enrichment jobs)."""
        return self.read_model(threshold).model_dump(mode="json")


@dataclass(frozen=True)
class Evidence:
    """What a caller knows about the entity."""

    name: str | None = None
    country: str | None = None
    location: str | None = None  # city or address text
    identifiers: tuple[str, ...] = ()


def split_free_text(text: str) -> Evidence:
    """ "Slovnaft a.s., Bratislava" → name "Slovnaft a.s.", location "Bratislava"; a lone identifier
    stays an identifier."""
    text = (text or "").strip()
    if looks_like_identifier(text):
        return Evidence(identifiers=(text,))
    name, _, rest = text.partition(",")
    # "Slovnaft, a.s., Bratislava": a legal form after the first comma still belongs to the name
    parts = [p.strip() for p in rest.split(",") if p.strip()]
    while parts and _is_legal_form(parts[0]):
        name += ", " + parts.pop(0)
    return Evidence(name=name, location=", ".join(parts) or None)


def _is_legal_form(part: str) -> bool:
    words = tokens(part)
    return bool(words) and strip_legal_form(["name", *words]) == ["name"]


def candidates(conn: Connection, backend: SearchBackend, ev: Evidence, limit: int = 10) -> list[Candidate]:
    """Scored candidates for the evidence, best first; namesakes that score alike by prominence."""
    found: dict[int, Candidate] = {}
    for raw in ev.identifiers:
        for hit in find_by_identifier(conn, raw, ev.country):
            found.setdefault(hit.company_id, Candidate({}, 0.0, {})).features.setdefault(
                "identifiers", []
            ).append({"type": hit.kind, "value": hit.value})
    intent = parse(ev.name or "")
    words = list(intent.words)
    if words:
        asked = asked_words(intent, words, loose=True)
        prefer = () if ev.country else intent.prefer
        for cid in backend.candidates(conn, "companies", asked, Filters(ev.country, prefer=prefer), 100):
            found.setdefault(cid, Candidate({}, 0.0, {}))
    # score on the few columns it needs, then read whole rows for the ones returned
    light = {int(r.id): r for r in rows.ranking_rows(conn, list(found))}
    towns = town_words(intent, words, list(light.values()))
    pool = [r for cid, r in light.items() if not (ev.country and r.country != ev.country)]
    pre: dict[int, Judged] = {}
    if words and not ev.location:
        # the name alone decides: judge best bound first, as search does, up to the `limit` best
        named = [r for r in pool if not found[int(r.id)].features.get("identifiers")]
        pre = {int(r.id): j for j, r in judge_rows(intent, words, named, False, limit, 0.0)}
        pool = [r for r in pool if int(r.id) in pre or found[int(r.id)].features.get("identifiers")]
    scored: list[tuple[Judged, Any]] = []
    for row in pool:
        cand = found[int(row.id)]
        cand.row = row._mapping
        _score(cand, intent, words, row, ev, towns, pre.get(int(row.id)))
        scored.append((Judged(cand.score, NameScore(cand.score, 0, 0, False)), row))
    ordered = order(scored, conn, limit, spread_countries(intent, ev.country))
    out = [found[int(r.id)] for _, r, _ in ordered[:limit]]
    full = db.companies_by_ids(conn, [int(c.row["id"]) for c in out])
    for cand, (_, _, prominence) in zip(out, ordered, strict=False):
        cand.row = full[int(cand.row["id"])]
        cand.prominence = prominence
    return out


def _score(
    cand: Candidate,
    intent: QueryIntent,
    words: list[str],
    row: Any,
    ev: Evidence,
    towns: frozenset[str] | None = None,
    judged: Judged | None = None,
) -> None:
    f = cand.features
    penalty = 0.0
    located: tuple[str, ...] = ()
    if words:
        # country words, town words ("Slovnaft Bratislava") and the legal form, as search weighs them
        judged = judged or judge_row(intent, words, row, towns=towns)
        f["name"] = judged.name.score
        penalty = round(judged.name.score - judged.score, 4)
        located = judged.located
        if judged.form is not None:
            f["legal_form"] = 1.0 if judged.form_spelling else 0.99 if judged.form else 0.0
        if judged.country is not None and not ev.country:
            f["country"] = judged.country
    if ev.location:
        place = set(tokens(" ".join(filter(None, (row.address_norm, row.city)))))
        loc = normalise_address(ev.location).split()
        hits = sum(any(word_similarity(w, p) >= LOCATION_SIM for p in place) for w in loc)
        f["location"] = round(hits / len(loc), 4) if loc else 0.0
    elif located:
        f["location"] = 1.0
    if ev.country:
        f["country"] = True
    cand.score = round(max(_combine(f) - (0.0 if f.get("identifiers") else penalty), 0.0), 4)


def _combine(f: dict[str, Any]) -> float:
    name = float(f.get("name", 0.0))
    if f.get("identifiers"):
        return 0.97 + 0.029 * name if "name" in f else 0.99
    score = name
    if "location" in f:
        score = 0.85 * name + 0.15 * float(f["location"]) if f["location"] < 1 else min(0.999, name + 0.05)
    return round(score, 4)


def resolve(
    conn: Connection,
    backend: SearchBackend,
    text: str,
    country: str | None,
    threshold: float = RESOLVE_THRESHOLD,
) -> tuple[Candidate | None, list[Candidate]]:
    """The best candidate when it passes `threshold` (else None), and the runners-up."""
    found = candidates(
        conn,
        backend,
        split_free_text(text) if not country else _with_country(split_free_text(text), country),
        limit=6,
    )
    if found and found[0].score >= threshold:
        return found[0], found[1:]
    return None, found


def _with_country(ev: Evidence, country: str) -> Evidence:
    return Evidence(ev.name, country, ev.location, ev.identifiers)


def reasons(cand: Candidate) -> list[MatchReason | ProminenceReason]:
    """The features that matched, in words a caller can show."""
    f, row = cand.features, cand.row
    out: list[MatchReason | ProminenceReason] = [
        MatchReason(feature=f"identifier:{i['type']}", value=i["value"], score=1.0)
        for i in f.get("identifiers", [])
    ]
    if "name" in f:
        out.append(MatchReason(feature="name", value=row["name"], score=f["name"]))
    if f.get("location"):
        place = row["city"] or row["address_text"]
        out.append(MatchReason(feature="location", value=place, score=f["location"]))
    if "legal_form" in f:
        form = row["legal_form_name"] or row["legal_form"]
        out.append(MatchReason(feature="legalForm", value=form, score=f["legal_form"]))
    if "country" in f:
        out.append(MatchReason(feature="country", value=row["country"], score=1.0 if f["country"] else 0.0))
    if cand.prominence is not None:
        out.append(prominence_reason(cand.prominence))
    return out
