"""Name and address search use cases: fuzzy search, autocomplete with highlights, addresses.

The backend proposes candidates; they are re-ranked here with `domain.matching`, so every backend
orders the same candidates the same way. Identifiers typed into the box (an IČO with spaces, a VAT
id, an LEI) find their company first."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from regintel.db import search as db
from regintel.domain.matching import NameScore, highlight, name_score
from regintel.domain.names import normalise_address, normalise_name, normalise_query
from regintel.search.base import Filters, QueryWords, SearchBackend
from regintel.services.identify import find_by_identifier

CANDIDATES = 200
MIN_SCORE = 0.45  # below this a candidate shares too little with the query to be shown


@dataclass(frozen=True)
class Ranked:
    row: Mapping[str, Any]
    score: NameScore
    via: str = "name"  # name | national_id | vat | lei | tax_id


def query_words(q: str, prefix: bool = False, normalise: Callable[[str], str] = normalise_name) -> list[str]:
    """Normalised words of a query (legal forms dropped); in prefix mode a lone trailing letter, often
    the start of a legal form ("Slovnaft a"), is left out."""
    words = normalise(q).split()
    if prefix and len(words) > 1 and len(words[-1]) == 1:
        words = words[:-1]
    return words


def rank_companies(conn: Connection, backend: SearchBackend, q: str, *, country: str | None = None,
                   active_only: bool = False, prefix: bool = False, limit: int = 20,
                   candidates: int = CANDIDATES, min_score: float = MIN_SCORE) -> list[Ranked]:
    """Companies for `q`, best first: identifier matches, then names by similarity."""
    found = [Ranked(row, NameScore(1.0, 1.0, 1.0, True), hit.kind)
             for hit, row in _identifier_rows(conn, q, country, active_only)]
    words = query_words(q, prefix)
    if words:
        # The index is asked without the legal-form spellings that stored names keep ("I.K.E."): their
        # letters match nearly every name of a market. Scoring still sees them, so among namesakes the
        # one of the typed form comes first.
        asked = QueryWords(tuple(query_words(q, prefix, normalise_query)), prefix)
        ids = backend.candidates(conn, "companies", asked, Filters(country, active_only), max(candidates, limit))
        seen = {int(r.row["id"]) for r in found}
        scored = [(name_score(words, (c.name_norm or "").split(), prefix), c) for c in
                  db.light_by_ids(conn, [i for i in ids if i not in seen])]
        scored = sorted(((s, c) for s, c in scored if s.score >= min_score), key=_order)[:limit - len(found)]
        rows = db.companies_by_ids(conn, [int(c.id) for _, c in scored])
        found += [Ranked(rows[int(c.id)], s) for s, c in scored if int(c.id) in rows]
    return found[:limit]


def _order(sc: tuple[NameScore, Any]) -> tuple[float, bool, int, int]:
    score, c = sc
    return (-score.score, c.status != "active", len(c.name_norm or ""), int(c.id))


def _identifier_rows(conn: Connection, q: str, country: str | None, active_only: bool) -> list[tuple[Any, Any]]:
    hits = find_by_identifier(conn, q, country)
    if not hits:
        return []
    rows = db.companies_by_ids(conn, [h.company_id for h in hits])
    return [(h, rows[h.company_id]) for h in hits if h.company_id in rows
            and (not active_only or rows[h.company_id]["status"] == "active")]


def summary(row: Mapping[str, Any]) -> dict[str, Any]:
    """The short company record of search results."""
    return {"country": row["country"], "nationalId": row["national_id"], "ico": row["national_id"],
            "name": row["name"], "legalForm": row["legal_form"], "status": row["status"],
            "city": row["city"], "postalCode": row["postal_code"], "address": address_text(row),
            "inBankruptcy": bool(row["in_bankruptcy"])}


def address_text(row: Mapping[str, Any]) -> str | None:
    if row["address_text"]:
        return str(row["address_text"])
    parts = [row["street"], " ".join(p for p in (row["postal_code"], row["city"]) if p)]
    return ", ".join(p for p in parts if p) or None


def search(conn: Connection, backend: SearchBackend, q: str, country: str | None, limit: int,
           page: int) -> tuple[list[dict[str, Any]], int]:
    """Ranked matches with their score; returns (page of items, total matches found)."""
    ranked = rank_companies(conn, backend, q, country=country, limit=page * limit,
                            candidates=max(CANDIDATES, page * limit))
    items = [summary(r.row) | {"score": r.score.score, "matchedBy": r.via}
             for r in ranked[(page - 1) * limit:page * limit]]
    return items, len(ranked)


def autocomplete(conn: Connection, backend: SearchBackend, q: str, country: str | None, limit: int,
                 active_only: bool) -> list[dict[str, Any]]:
    """Prefix-aware, typo-tolerant suggestions with `<mark>` highlights (name HTML-escaped)."""
    words = query_words(q, prefix=True)
    ranked = rank_companies(conn, backend, q, country=country, active_only=active_only, prefix=True,
                            limit=limit, candidates=100)
    return [summary(r.row) | {"score": r.score.score, "highlight": _highlight(r, words)} for r in ranked]


def _highlight(r: Ranked, words: Sequence[str]) -> str:
    if r.via != "name":
        from html import escape

        return f"<mark>{escape(str(r.row['name']))}</mark>"
    return highlight(str(r.row["name"]), list(words), prefix=True)


def public_autocomplete(conn: Connection, backend: SearchBackend, q: str, country: str | None,
                        limit: int) -> list[dict[str, Any]]:
    """Spec 4.7: at most 8 active entities, with the fields a search box needs."""
    items = autocomplete(conn, backend, q, country, min(limit, 8), active_only=True)
    keep = ("country", "nationalId", "name", "legalForm", "city", "highlight")
    return [{k: item[k] for k in keep} for item in items]


def address_autocomplete(conn: Connection, backend: SearchBackend, q: str, country: str | None,
                         limit: int) -> list[dict[str, Any]]:
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
    return [{"address": address_text(row), "street": row["street"], "city": row["city"],
             "postalCode": row["postal_code"], "country": row["country"], "companies": counts.get(norm, 0),
             "score": score, "highlight": highlight(address_text(row) or "", words)}
            for norm, (score, row) in top]


def companies_at_address(conn: Connection, backend: SearchBackend, address: str, country: str | None,
                         limit: int, page: int) -> tuple[list[dict[str, Any]], int, str | None]:
    """Companies registered at the address (normalised equality); when no address is written exactly
    so, the closest known address with a score of at least 0.9 stands in. Returns (items, total,
    the normalised address used)."""
    norm = normalise_address(address)
    rows, total = db.companies_at_address(conn, norm, country, limit, (page - 1) * limit)
    if not total:
        near = address_autocomplete(conn, backend, address, country, 1)
        if near and near[0]["score"] >= 0.9 and near[0]["address"]:
            norm = normalise_address(near[0]["address"])
            rows, total = db.companies_at_address(conn, norm, country, limit, (page - 1) * limit)
    return [summary(r) for r in rows], total, norm if total else None
