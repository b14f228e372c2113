"""Name and address search use cases: fuzzy search, autocomplete with highlights, addresses.

The backend proposes candidates; they are re-ranked here with `domain.matching`, so every backend
orders the same candidates the same way. Identifiers typed into the box (an IČO with spaces, a VAT
id, an LEI) find their company first."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne
from sqlalchemy.engine import Connection

from regintel.areas.search.identify import find_by_identifier
from regintel.areas.search.schemas import (
    AddressHit,
    CompanyHit,
    MatchedBy,
    MatchReason,
    ProminenceReason,
    PublicSuggestion,
    SearchCompany,
    Suggestion,
)
from regintel.db import search as db
from regintel.domain.matching import (
    LOCATION_SIM,
    Candidate,
    Judged,
    NameScore,
    Prominence,
    highlight,
    judge,
    name_score,
)
from regintel.domain.name_query import FormMatch, QueryIntent, compare_form, name_raw_forms, parse
from regintel.domain.names import normalise_address, normalise_name, split_name_forms, tokens
from regintel.search import rows
from regintel.search.base import Filters, QueryWords, SearchBackend

CANDIDATES = 100  # re-ranked per search; the form and country clauses bring the right namesakes among them
MIN_SCORE = 0.45  # below this a candidate shares too little with the query to be shown


@dataclass(frozen=True)
class Ranked:
    row: Mapping[str, Any]
    score: NameScore
    via: MatchedBy = "name"
    judged: Judged | None = None
    prominence: Prominence | None = None

    def reasons(self, intent: QueryIntent | None = None) -> list[MatchReason | ProminenceReason]:
        """What decided the place of this result, in the words `resolve` uses."""
        if self.via != "name":
            return [MatchReason(feature=f"identifier:{self.via}", value=self.row["national_id"], score=1.0)]
        j = self.judged
        out: list[MatchReason | ProminenceReason] = [
            MatchReason(
                feature="name", value=self.row["name"], score=self.score.score if j is None else j.name.score
            )
        ]
        if j is not None and j.form is not None:
            form_score = 1.0 if j.form_spelling else 0.99 if j.form else 0.0
            form = intent.form_text if intent else None
            out.append(MatchReason(feature="legalForm", value=form, score=form_score))
        if j is not None and j.country is not None:
            country_score = 1.0 if j.country else 0.0
            out.append(MatchReason(feature="country", value=self.row["country"], score=country_score))
        if j is not None and j.located:
            out.append(MatchReason(feature="location", value=self.row["city"], score=1.0))
        if self.prominence is not None:
            out.append(prominence_reason(self.prominence))
        return out


def query_words(q: str, prefix: bool = False, normalise: Callable[[str], str] = normalise_name) -> list[str]:
    """Normalised words of a query (legal forms dropped); in prefix mode a lone trailing letter, often
    the start of a legal form ("Slovnaft a"), is left out."""
    words = normalise(q).split()
    if prefix and len(words) > 1 and len(words[-1]) == 1:
        words = words[:-1]
    return words


def intent_words(intent: QueryIntent, prefix: bool = False) -> list[str]:
    """The name words of a parsed query; in prefix mode without a lone trailing letter."""
    words = list(intent.words)
    if prefix and len(words) > 1 and len(words[-1]) == 1:
        words = words[:-1]
    return words


def asked_words(
    intent: QueryIntent, words: list[str], prefix: bool = False, loose: bool = False
) -> QueryWords:
    """What the index is asked: the name words, with the country words optional when others remain,
    and the typed legal forms (their keys, and the spellings as typed)."""
    optional = tuple(w for w in words if w in intent.country_words)
    required = tuple(w for w in words if w not in intent.country_words) or tuple(words)
    if set(optional) <= set(required):
        optional = ()
    # a legal form the query starts with may be a word of the name ("SA Trading", "SAS Institute")
    optional += tuple(w for w in intent.alt_words if w not in words and w not in optional)
    # the keys only: a union over the ELF codes' long posting lists cost more than it found
    return QueryWords(
        required, prefix, loose, optional, tuple(sorted(intent.forms)), tuple(sorted(intent.raw_forms))
    )


def candidate(intent: QueryIntent, row: Any, place: bool = True) -> Candidate:
    """What `domain.matching.judge` reads of a company row (`search.rows.ranking_rows`); its town
    words only when the query may name a town."""
    words = (row.name_norm or "").split()

    def where() -> list[str]:
        return (row.address_norm or "").split() or tokens(row.city or "")

    return Candidate(
        split_name_forms(words)[0],
        row.country,
        where if place else None,
        typed_forms(intent, row),
    )


def typed_forms(intent: QueryIntent, row: Any) -> FormMatch | None:
    """The row's legal form against the typed one (`name_query.compare_form`); where the query typed
    several ("s. r. o. v likvidácii": the form and "in liquidation"), written as typed only by a name
    that carries every one of them, so that a namesake carrying one is the same form spelled otherwise."""
    form = compare_form(intent, row.legal_form, row.name or "")
    if (
        form is not None
        and form.spelling
        and len(intent.raw_forms) > 1
        and not intent.raw_forms <= name_raw_forms(row.name or "")
    ):
        return replace(form, spelling=False)
    return form


def town_words(intent: QueryIntent, words: list[str], rows_: Sequence[Any]) -> frozenset[str]:
    """Query words that may name the town of one of these candidates (found in an address): only
    those are tried as a location, candidate by candidate."""
    core = [w for w in words if w not in intent.country_words and len(w) >= 4]
    if len(core) < 2:
        return frozenset()
    place = list({t for r in rows_ for t in (r.address_norm or "").split()})
    return frozenset(
        w
        for w in core
        if place
        and extractOne(w, place, scorer=OSA.normalized_similarity, score_cutoff=LOCATION_SIM) is not None
    )


def judge_rows(
    intent: QueryIntent, words: list[str], rows_: Sequence[Any], prefix: bool, top: int, min_score: float
) -> list[tuple[Judged, Any]]:
    """Judged candidates scoring at least `min_score`, enough of them to fill the first `top`
    places exactly: the name similarity alone bounds a candidate's score from above (the form and
    country only take away), so candidates are judged best bound first and the rest skipped once
    their bound falls below the `top`-th score (not when a word may name a town, or a leading legal
    form may be a name word: those can raise a score)."""
    towns = town_words(intent, words, rows_)
    if towns or intent.alt_words:
        judged = [(judge_row(intent, words, r, prefix, towns), r) for r in rows_]
        return [(j, r) for j, r in judged if j.score >= min_score]
    core = [w for w in words if w not in intent.country_words] or words
    bounds = []
    for r in rows_:
        name = split_name_forms((r.name_norm or "").split())[0]
        full = name_score(words, name, prefix)
        alt = name_score(core, name, prefix) if core != words else None
        bound = max(full.score, alt.score) if alt is not None else full.score
        if bound >= min_score:
            bounds.append((bound, r, (full, alt)))
    bounds.sort(key=lambda br: -br[0])
    out: list[tuple[Judged, Any]] = []
    scores: list[float] = []  # the best `top` scores so far, a min-heap
    for bound, r, scored in bounds:
        if len(scores) >= top and bound < scores[0]:
            break
        j = judge_row(intent, words, r, prefix, towns, scored)
        if j.score >= min_score:
            out.append((j, r))
            if len(scores) < top:
                heapq.heappush(scores, j.score)
            elif j.score > scores[0]:
                heapq.heapreplace(scores, j.score)
    return out


def judge_row(
    intent: QueryIntent,
    words: list[str],
    row: Any,
    prefix: bool = False,
    towns: frozenset[str] | None = None,
    scored: tuple[NameScore, NameScore | None] | None = None,
) -> Judged:
    core = [w for w in words if w not in intent.country_words] or words
    cand = candidate(intent, row, place=len(core) >= 2)
    judged = judge(words, core, set(intent.country_words), intent.countries, cand, prefix, towns, scored)
    if intent.alt_words:  # the legal form the query starts with may be part of the name ("SAS Institute")
        alt = list(intent.alt_words)
        other = judge(alt, alt, set(), frozenset(), Candidate(cand.words, cand.country), prefix)
        if other.score > judged.score:
            return other
    return judged


def spread_countries(intent: QueryIntent, country: str | None) -> bool:
    """Whether namesakes of equal score take turns by country (`order`): when the typed legal form is
    used in several countries (`SRL`: BE, ES, IT, RO; `GmbH`: AT, BE, CH) and neither a `country`
    nor a country word chose one."""
    return country is None and not intent.countries and len(intent.form_countries) > 1


def order(
    judged: Sequence[tuple[Judged, Any]], conn: Connection, top: int, spread: bool = False
) -> list[tuple[Judged, Any, Prominence]]:
    """The first `top`: best score first; among equal scores the more prominent company
    (`Prominence`), then the shorter name and the id. Prominence is worked out only for the scores
    that reach the first `top`, and revenue and sources only where score, activity and employees tie.
    With `spread` (`spread_countries`) equal scores take turns by country: the most prominent of each
    country first, then the second of each, so that one country's namesakes do not fill the page."""
    if not judged or top <= 0:
        return []
    by_score = sorted(judged, key=lambda jr: -jr[0].score)
    cutoff = by_score[min(top, len(by_score)) - 1][0].score
    items = [(j, row, _prominence(row)) for j, row in by_score if j.score >= cutoff]

    def key(item: tuple[Judged, Any, Prominence]) -> tuple[Any, ...]:
        j, row, p = item
        return (-j.score, p.key(), len(row.name_norm or ""), int(row.id))

    def arrange(found: list[tuple[Judged, Any, Prominence]]) -> list[tuple[Judged, Any, Prominence]]:
        found.sort(key=key)
        return country_turns(found) if spread else found

    items = arrange(items)
    counts: dict[tuple[float, bool, int | None], int] = {}
    for j, _, p in items:
        counts[(j.score, p.active, p.employees)] = counts.get((j.score, p.active, p.employees), 0) + 1
    window = {(j.score, p.active, p.employees) for j, _, p in items[:top]}
    tied = [
        row
        for j, row, p in items
        if (j.score, p.active, p.employees) in window and counts[(j.score, p.active, p.employees)] > 1
    ][:MAX_TIED]
    if tied:
        extras = rows.extras_of(conn, tied)
        items = arrange([(j, row, _prominence(row, extras.get(int(row.id)))) for j, row, _ in items])
    return items[:top]


def country_turns(items: list[tuple[Judged, Any, Prominence]]) -> list[tuple[Judged, Any, Prominence]]:
    """Items in order of score, and among equal scores by turn: each country's first before any
    country's second (the order within a turn and within a country kept). Each item's prominence
    records its turn (`Prominence.country_turn`, from 1), which its reasons show."""
    turns: dict[tuple[float, str], int] = {}
    keyed = []
    for pos, (j, row, p) in enumerate(items):
        turn = turns.get((j.score, row.country), 0) + 1
        turns[(j.score, row.country)] = turn
        keyed.append((-j.score, turn, pos, (j, row, replace(p, country_turn=turn))))
    keyed.sort(key=lambda k: k[:3])
    return [item for *_, item in keyed]


MAX_TIED = 200  # namesakes whose revenue and sources are read to order them


def _prominence(row: Any, extras: tuple[float | None, int] | None = None) -> Prominence:
    founded = row.founded_on
    return Prominence(
        row.status == "active",
        row.employees,
        extras[0] if extras else None,
        founded.isoformat() if hasattr(founded, "isoformat") else founded,
        extras[1] if extras else None,
    )


def rank_companies(
    conn: Connection,
    backend: SearchBackend,
    q: str,
    *,
    country: str | None = None,
    active_only: bool = False,
    prefix: bool = False,
    limit: int = 20,
    candidates: int = CANDIDATES,
    min_score: float = MIN_SCORE,
    intent: QueryIntent | None = None,
) -> list[Ranked]:
    """Companies for `q`, best first: identifier matches, then names by similarity, legal form and
    country as the query says them (`domain.name_query`), namesakes by prominence."""
    found = [
        Ranked(row, NameScore(1.0, 1.0, 1.0, True), hit.kind)
        for hit, row in _identifier_rows(conn, q, country, active_only)
    ]
    intent = intent or parse(q)
    words = intent_words(intent, prefix)
    if words:
        asked = asked_words(intent, words, prefix)
        filters = Filters(country, active_only, () if country else intent.prefer)
        seen = frozenset(int(r.row["id"]) for r in found)
        for from_index in (True, False):
            found_rows = rows.candidates(
                conn, backend, asked, filters, max(candidates, limit), seen, from_index
            )
            judged = judge_rows(intent, words, found_rows, prefix, limit, min_score)
            best = order(judged, conn, limit, spread_countries(intent, country))[: limit - len(found)]
            full = db.companies_by_ids(conn, [int(r.id) for _, r, _ in best])
            if len(full) == len(best) or not from_index:
                break
            # a company the index still holds is gone from the database: rank from the database rows
        found += [
            Ranked(full[int(r.id)], _as_name_score(j), "name", j, p) for j, r, p in best if int(r.id) in full
        ]
    return found[:limit]


def _as_name_score(j: Judged) -> NameScore:
    return NameScore(j.score, j.name.words, j.name.coverage, j.name.exact)


def _identifier_rows(
    conn: Connection, q: str, country: str | None, active_only: bool
) -> list[tuple[Any, Any]]:
    hits = find_by_identifier(conn, q, country)
    if not hits:
        return []
    rows = db.companies_by_ids(conn, [h.company_id for h in hits])
    return [
        (h, rows[h.company_id])
        for h in hits
        if h.company_id in rows and (not active_only or rows[h.company_id]["status"] == "active")
    ]


def prominence_reason(p: Prominence) -> ProminenceReason:
    return ProminenceReason(feature="prominence", value=p.as_reason()["value"])  # type: ignore[typeddict-item]


def summary(row: Mapping[str, Any]) -> SearchCompany:
    """The short company record of search results."""
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "ico": row["national_id"],
        "name": row["name"],
        "legalForm": row["legal_form"],
        "status": row["status"],
        "city": row["city"],
        "postalCode": row["postal_code"],
        "address": address_text(row),
        "inBankruptcy": bool(row["in_bankruptcy"]),
    }


def address_text(row: Mapping[str, Any]) -> str | None:
    if row["address_text"]:
        return str(row["address_text"])
    parts = [row["street"], " ".join(p for p in (row["postal_code"], row["city"]) if p)]
    return ", ".join(p for p in parts if p) or None


def search(
    conn: Connection, backend: SearchBackend, q: str, country: str | None, limit: int, page: int
) -> tuple[list[CompanyHit], int]:
    """Ranked matches with their score and reasons; returns (page of items, total matches found)."""
    intent = parse(q)
    ranked = rank_companies(
        conn,
        backend,
        q,
        country=country,
        limit=page * limit,
        candidates=max(CANDIDATES, page * limit),
        intent=intent,
    )
    items = [
        CompanyHit(**summary(r.row), score=r.score.score, matchedBy=r.via, reasons=r.reasons(intent))
        for r in ranked[(page - 1) * limit : page * limit]
    ]
    return items, len(ranked)


def unfinished(q: str, intent: QueryIntent) -> bool:
    """Whether the last name word of an autocomplete query may be unfinished: only when it is the last
    thing typed. After a legal form (`Holm AS`, `… Holding S.L.`) the name is written out; taking its
    last word as a prefix then suggested every `Holmberg` and, at 10M names, made the slowest questions
    (the prefix expansion of a common word such as `holding`)."""
    return tokens(q)[-1:] == list(intent.words[-1:])


def autocomplete(
    conn: Connection, backend: SearchBackend, q: str, country: str | None, limit: int, active_only: bool
) -> list[Suggestion]:
    """Prefix-aware, typo-tolerant suggestions with `<mark>` highlights (name HTML-escaped)."""
    intent = parse(q)
    prefix = unfinished(q, intent)
    words = intent_words(intent, prefix)
    ranked = rank_companies(
        conn,
        backend,
        q,
        country=country,
        active_only=active_only,
        prefix=prefix,
        limit=limit,
        candidates=100,
        intent=intent,
    )
    return [
        Suggestion(
            **summary(r.row),
            score=r.score.score,
            highlight=_highlight(r, words, prefix),
            reasons=r.reasons(intent),
        )
        for r in ranked
    ]


def _highlight(r: Ranked, words: Sequence[str], prefix: bool) -> str:
    if r.via != "name":
        from html import escape

        return f"<mark>{escape(str(r.row['name']))}</mark>"
    return highlight(str(r.row["name"]), list(words), prefix=prefix, form=bool(r.judged and r.judged.form))


def public_autocomplete(
    conn: Connection, backend: SearchBackend, q: str, country: str | None, limit: int
) -> list[PublicSuggestion]:
    """Spec 4.7: at most 8 active entities, with the fields a search box needs."""
    items = autocomplete(conn, backend, q, country, min(limit, 8), active_only=True)
    return [
        PublicSuggestion(
            country=i["country"],
            nationalId=i["nationalId"],
            name=i["name"],
            legalForm=i["legalForm"],
            city=i["city"],
            highlight=i["highlight"],
        )
        for i in items
    ]


def address_autocomplete(
    conn: Connection, backend: SearchBackend, q: str, country: str | None, limit: int
) -> list[AddressHit]:
    """Distinct addresses matching the typed text, with the number of companies at each."""
    words = normalise_address(q).split()
    if not words:
        return []
    ids = backend.candidates(conn, "addresses", QueryWords(tuple(words), True), Filters(country), 200)
    best: dict[str, tuple[float, Mapping[str, Any]]] = {}
    for row in db.companies_by_ids(conn, ids).values():
        norm = row["address_norm"] or ""
        score = name_score(words, norm.split(), prefix=True).score
        if norm and score >= MIN_SCORE and (norm not in best or score > best[norm][0]):
            best[norm] = (score, row)
    top = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
    counts = db.address_counts(conn, [k for k, _ in top], country)
    return [
        AddressHit(
            address=address_text(row),
            street=row["street"],
            city=row["city"],
            postalCode=row["postal_code"],
            country=row["country"],
            companies=counts.get(norm, 0),
            score=score,
            highlight=highlight(address_text(row) or "", words),
        )
        for norm, (score, row) in top
    ]


def companies_at_address(
    conn: Connection, backend: SearchBackend, address: str, country: str | None, limit: int, page: int
) -> tuple[list[SearchCompany], int, str | None]:
    """Companies registered at the address (normalised equality); when no address is written exactly
    so, the closest known address with a score of at least 0.9 stands in. Returns (items, total,
    the normalised address used)."""
    norm = normalise_address(address)
    rows, total = db.companies_at_address(conn, norm, country, limit, (page - 1) * limit)
    if not total:
        near = address_autocomplete(conn, backend, address, country, 1)
        if near and near[0].score >= 0.9 and near[0].address:
            norm = normalise_address(near[0].address)
            rows, total = db.companies_at_address(conn, norm, country, limit, (page - 1) * limit)
    return [summary(r) for r in rows], total, norm if total else None
