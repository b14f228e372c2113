"""How alike a query and a candidate name are, whatever the index that found the candidate.

Both sides are normalised words (`domain.names`). Each query word takes its best partner among the
candidate's words (so word order does not matter), by edit-distance similarity; the unfinished last
word of an autocomplete query may match the start of a word. The words joined without spaces are
compared too, which forgives "auto servis" for "autoservis".
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

from regintel.domain.name_query import FormMatch
from regintel.domain.names import fold, split_name_forms, tokens

MATCHED = 0.75  # a word counts as matched (for coverage and highlighting) from this similarity


@dataclass(frozen=True)
class NameScore:
    score: float  # 0..1
    words: float  # how well the query words are found in the candidate
    coverage: float  # how much of the candidate the query explains
    exact: bool


def word_similarity(q: str, c: str, prefix: bool = False) -> float:
    """Optimal-string-alignment similarity: a swap of two neighbouring letters is one edit."""
    sim = OSA.normalized_similarity(q, c)
    if prefix and len(c) > len(q) >= 2:
        sim = max(sim, OSA.normalized_similarity(q, c[: len(q)]))
    return float(sim)


def name_score(query: list[str], candidate: list[str], prefix: bool = False) -> NameScore:
    """Similarity of two word lists; `prefix` lets the last query word be unfinished."""
    if not query or not candidate:
        return NameScore(0.0, 0.0, 0.0, False)
    if query == candidate or sorted(query) == sorted(candidate):  # word order does not matter
        return NameScore(1.0, 1.0, 1.0, True)
    matched = [0.0] * len(candidate)
    total = 0.0
    last_index = len(query) - 1
    for i, q in enumerate(query):
        last = prefix and i == last_index
        best, best_j = -1.0, 0
        for j, c in enumerate(candidate):
            sim = word_similarity(q, c, last)
            if sim > best:
                best, best_j = sim, j
        total += best * len(q)
        if best > matched[best_j]:
            matched[best_j] = best
    words = total / sum(len(q) for q in query)
    coverage = sum(len(c) for c, m in zip(candidate, matched, strict=True) if m >= MATCHED) / sum(
        map(len, candidate)
    )
    joined = float(OSA.normalized_similarity("".join(query), "".join(candidate)))
    weight = 0.85 if prefix else 0.7
    score = max(weight * words + (1 - weight) * coverage, joined if not prefix else 0.0)
    return NameScore(round(min(score, 0.999), 4), round(words, 4), round(coverage, 4), False)


_WORD = re.compile(r"\w+", re.UNICODE)


def highlight(name: str, query: list[str], prefix: bool = True, form: bool = False) -> str:
    """`name` HTML-escaped, with the parts that match query words wrapped in `<mark>…</mark>`; with
    `form` (the query typed this name's legal form) the legal form too, as one mark ("sp. z o.o.")."""
    spans: list[tuple[int, int]] = []
    matches = list(_WORD.finditer(name))
    for m in matches:
        word = m.group(0)
        length = _matched_length(fold(word), query, prefix)
        if length:
            spans.append((m.start(), m.start() + _original_length(word, length)))
    if form:
        spans += _form_spans(name, matches)
    out: list[str] = []
    pos = 0
    for start, end in _merge(spans):
        out.append(html.escape(name[pos:start]))
        out.append("<mark>" + html.escape(name[start:end]) + "</mark>")
        pos = end
    out.append(html.escape(name[pos:]))
    return "".join(out)


def _form_spans(name: str, matches: list[re.Match[str]]) -> list[tuple[int, int]]:
    """Where the name's legal form is written: the words before and after its core."""
    toks = tokens(name)
    core = split_name_forms(toks)[0]
    lead = next((i for i in range(len(toks) - len(core) + 1) if toks[i : i + len(core)] == core), 0)
    trail = lead + len(core)
    spans: list[tuple[int, int]] = []
    at = 0
    for m in matches:
        n = len(tokens(m.group(0)))
        if n and (at + n <= lead or at >= trail):
            end = m.end()
            while end < len(name) and name[end] == ".":
                end += 1
            spans.append((m.start(), end))
        at += n
    # one mark over a form written in several words ("sp. z o.o.")
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        if joined and not name[joined[-1][1] : start].strip(" .,&/'"):
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


def _matched_length(folded: str, query: list[str], prefix: bool) -> int:
    """How many folded characters of this word a query word matches (0: none)."""
    best = 0
    for i, q in enumerate(query):
        if folded.startswith(q) and (prefix and i == len(query) - 1 or len(q) == len(folded)):
            best = max(best, len(q))
        elif word_similarity(q, folded) >= MATCHED and len(folded) >= 4:
            best = max(best, len(folded))
        elif prefix and i == len(query) - 1 and len(q) >= 4 and word_similarity(q, folded, True) >= MATCHED:
            best = max(best, min(len(q), len(folded)))
    return best


def _original_length(word: str, folded_length: int) -> int:
    """Characters of `word` whose folded form covers `folded_length` folded characters."""
    acc = 0
    for i, ch in enumerate(word):
        acc += len(fold(ch)) or 1
        if acc >= folded_length:
            return i + 1
    return len(word)


# -- everything else a query says -------------------------------------------------------------------

FORM_MISS = 0.05  # a legal form was typed and the candidate has another
FORM_UNKNOWN = 0.025  # a legal form was typed and the candidate shows none
FORM_SPELLING = 0.01  # the same form, written otherwise ("LTD" for "LIMITED")
COUNTRY_MISS = 0.05  # the query names a country (a word of it) and the candidate is elsewhere
LOCATION_SIM = 0.85  # a query word found in the candidate's town or address at this similarity
LOCATED_MIN = 0.9  # the name score without the town words from which the town is looked at


@dataclass(frozen=True)
class Judged:
    """A candidate's score and what made it. `form`/`country`: None when the query said nothing of
    it, else whether the candidate agrees; `located`: query words found in its town or address."""

    score: float
    name: NameScore
    form: bool | None = None
    form_spelling: bool = False
    country: bool | None = None
    located: tuple[str, ...] = ()


@dataclass(frozen=True)
class Candidate:
    """What ranking reads of a candidate company."""

    words: list[str]  # normalised name words (legal forms, also query-only spellings, dropped)
    country: str
    # folded words of its town and address, read only when a query word may name the town
    place: Callable[[], Collection[str]] | None = None
    form: FormMatch | None = None  # its legal form against the typed one (`name_query.compare_form`)


def judge(
    words: list[str],
    core: list[str],
    country_words: set[str],
    countries: frozenset[str],
    cand: Candidate,
    prefix: bool = False,
    towns: Collection[str] | None = None,
    scored: tuple[NameScore, NameScore | None] | None = None,
) -> Judged:
    """Score a candidate against a parsed query (`name_query.QueryIntent`): the name similarity of the
    words (country words optional, town words set aside when they name the candidate's town), less a
    little for a legal form or country the query says and the candidate does not have. `towns`: the
    query words that may name a town at all (None: any), so that most candidates skip that test;
    `scored`: the name scores of `words` and of `core` (None when they are the same), when known."""
    best, alt = scored or (
        name_score(words, cand.words, prefix),
        name_score(core, cand.words, prefix) if core != words else None,
    )
    named_in_name = True
    if alt is not None and alt.score > best.score:
        best, named_in_name = alt, False
    located: tuple[str, ...] = ()
    unmatched = (
        []
        if cand.place is None or len(core) < 2 or best.exact or towns is not None and not towns
        else [
            w
            for w in core
            if len(w) >= 4
            and w not in cand.words
            and w not in country_words
            and (towns is None or w in towns)
            and extractOne(w, cand.words, scorer=OSA.normalized_similarity, score_cutoff=MATCHED) is None
        ]
    )
    if unmatched and len(unmatched) < len(core):
        # the town is read only when the name without those words would be a close match
        rest = name_score([w for w in core if w not in unmatched], cand.words, prefix)
        if rest.score >= LOCATED_MIN and rest.score > best.score and cand.place is not None:
            place = list(cand.place())
            located = tuple(
                w
                for w in unmatched
                if place
                and extractOne(w, place, scorer=OSA.normalized_similarity, score_cutoff=LOCATION_SIM)
                is not None
            )
            if located:
                alt = (
                    rest
                    if len(located) == len(unmatched)
                    else name_score([w for w in core if w not in located], cand.words, prefix)
                )
                if alt.score > best.score:
                    best, named_in_name = alt, False
                else:
                    located = ()
    score = best.score
    form: bool | None = None
    spelling = False
    if cand.form is not None:
        form, spelling = cand.form.same, cand.form.spelling
        if not form:
            score -= FORM_MISS if cand.form.known else FORM_UNKNOWN
        elif not spelling:
            score -= FORM_SPELLING
    country: bool | None = None
    if countries:
        country = cand.country in countries or (named_in_name and bool(country_words))
        if not country:
            score -= COUNTRY_MISS
    return Judged(round(max(score, 0.0), 4), best, form, spelling, country, located)


@dataclass(frozen=True)
class Prominence:
    """How prominent a company is, for ordering namesakes that score alike: active before anything
    else, then more employees, more revenue (latest statement, in its own currency), older, more
    sources."""

    active: bool
    employees: int | None = None
    revenue: float | None = None
    founded_on: str | None = None  # ISO date
    sources: int | None = None  # None: not read (revenue and sources are read only for close namesakes)
    # its turn among namesakes of equal score in its country, when they take turns by country (1: the
    # first of its country); not part of `key`, the turns are taken after it
    country_turn: int | None = None

    def key(self) -> tuple[bool, int, float, str, int]:
        return (
            not self.active,
            -(self.employees or 0),
            -(self.revenue or 0.0),
            self.founded_on or "9999",
            -(self.sources or 0),
        )

    def as_reason(self) -> dict[str, object]:
        value: dict[str, object] = {"active": self.active}
        if self.employees is not None:
            value["employees"] = self.employees
        if self.revenue is not None:
            value["revenue"] = self.revenue
        if self.founded_on:
            value["foundedOn"] = self.founded_on
        if self.sources is not None:
            value["sources"] = self.sources
        if self.country_turn is not None:
            value["countryTurn"] = self.country_turn
        return {"feature": "prominence", "value": value}
