"""Typo tolerance rules and the tantivy query they make. The edit distance grows with the word:
short words must match exactly (one edit turns "eset" into hundreds of other words), longer ones
forgive one or two edits, and the unfinished last word of an autocomplete query matches as a prefix.

A word the index holds as written (or, for the unfinished last word, as the start of an indexed
word) is most likely spelled right: it forgives at most one edit. Two edits are for words the index
does not know. A fuzzy term query costs in proportion to the indexed words within its distance, and
at ten million names the two-edit expansion of every word was most of a query's time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tantivy

from regintel.search.base import Filters, QueryWords
from regintel.search.documents import SPELLING

EXACT_SCORE = 2.0
OPTIONAL_SCORE = 1.0  # a country word of the query found in the name
PREFER_SCORE = 1.0  # the company is in a country the query points at
FORM_SCORE = 1.0  # the company has the legal form the query typed
# ... written as typed (`SASU`, not `SAS`): below any word or form, above the BM25 tie-break, as
# ranking judges it (a form spelled otherwise costs 0.01 there)
SPELLING_SCORE = 0.25
TIE_BREAK = 0.01  # BM25 of a word is ~1-15: times this it never outweighs a matched word
MAX_WORDS = 8
KNOWN_DISTANCE = 1  # at most this many edits for a word the index holds as written

# (word, as a prefix) -> whether the index holds it (as the start of an indexed word)
Known = Callable[[str, bool], bool]


def edit_distance(word: str) -> int:
    """Edits forgiven in a word of this length (digits never: "1990" is not "1991")."""
    if any(ch.isdigit() for ch in word):
        return 0
    n = len(word)
    return 0 if n <= 3 else 1 if n <= 6 else 2


def _word(
    schema: tantivy.Schema, field: str, word: str, prefix: bool, known: Known | None, typos: bool = True
) -> tantivy.Query:
    """A matched word scores a constant: EXACT_SCORE as written, 1 within the edit distance or as a
    prefix. Constant, because BM25 would let short names that match one common word crowd out of the
    candidate list a name that matches every word, one of them mistyped. Without `typos` a word
    matches as written (the unfinished last one as the start of a word)."""
    Q = tantivy.Query
    exact = Q.const_score_query(Q.term_query(schema, field, word), EXACT_SCORE)
    distance = edit_distance(word) if typos else 0
    if distance > KNOWN_DISTANCE and known is not None and known(word, prefix):
        distance = KNOWN_DISTANCE
    if prefix and len(word) >= 2:
        # prefix Levenshtein: the word is within `distance` of the start of an indexed term
        fuzzy = Q.fuzzy_term_query(schema, field, word, distance=distance, prefix=True)
    elif distance:
        fuzzy = Q.fuzzy_term_query(schema, field, word, distance=distance)
    else:
        return exact
    return Q.disjunction_max_query([exact, Q.const_score_query(fuzzy, 1.0)])


def every_word_first(query: QueryWords) -> bool:
    """Whether the query is asked first for names holding every word (within the typo rules), and for
    names missing one only after that (`tantivy_index.TantivyBackend._search`). A name that misses a
    word is judged below one that has them all, and the all-words question is an intersection of
    posting lists where the other is their union: at ten million names the union, with each word's
    fuzzy expansion, was most of a query's time. Not for loose queries (resolution), whose extra
    words may name a town rather than the company."""
    return len(query.words) >= 2 and not query.loose


def build_query(
    schema: tantivy.Schema,
    field: str,
    query: QueryWords,
    known: Known | None = None,
    every_word: bool = False,
    typos: bool = True,
) -> list[tuple[Any, tantivy.Query]]:
    """One `Must` clause: the words as optional clauses of which most must match (one word may be
    missing or mistyped beyond the rules when the query has three or more), or with `every_word` all
    of them, and a faint BM25 of the exact words to order names that match equally (shorter and
    rarer first). `known` tells which words the index holds; without it every word gets the full
    distance of its length. A matched word scores the same either way. Without `typos` the words
    match only as written (the filler of `tantivy_index`: no fuzzy expansion)."""
    Q = tantivy.Query
    words = list(query.words[:MAX_WORDS])
    occur = tantivy.Occur.Must if every_word else tantivy.Occur.Should  # Must: tantivy intersects
    clauses = [
        (occur, _word(schema, field, w, query.prefix and i == len(words) - 1, known, typos))
        for i, w in enumerate(words)
    ]
    need = max(1, len(words) - 1) if len(words) >= 3 and not query.loose else 1
    tie_break = Q.boost_query(
        Q.boolean_query([(tantivy.Occur.Should, Q.term_query(schema, field, w)) for w in words]), TIE_BREAK
    )
    out = [
        (tantivy.Occur.Must, Q.boolean_query(clauses, minimum_number_should_match=0 if every_word else need)),
        (tantivy.Occur.Should, tie_break),
    ]
    out += [
        (tantivy.Occur.Should, Q.const_score_query(Q.term_query(schema, field, w), OPTIONAL_SCORE))
        for w in query.optional[:MAX_WORDS]
    ]
    return out


def preference_clauses(
    schema: tantivy.Schema, filters: Filters, forms: tuple[str, ...], spellings: tuple[str, ...] = ()
) -> list[tuple[Any, tantivy.Query]]:
    """What the query points at besides words, as optional clauses that rank candidates up: the
    legal forms it typed (and, a little, their spellings as typed), or else the countries it names
    (when no `country` filter is set)."""
    Q = tantivy.Query
    out: list[tuple[Any, tantivy.Query]] = []
    # a typed legal form already points at its countries; one clause is cheaper than two
    if filters.prefer and not filters.country and not forms:
        any_country = Q.boolean_query(
            [(tantivy.Occur.Should, Q.term_query(schema, "country", c)) for c in filters.prefer]
        )
        out.append((tantivy.Occur.Should, Q.const_score_query(any_country, PREFER_SCORE)))
    if forms:
        any_form = Q.boolean_query([(tantivy.Occur.Should, Q.term_query(schema, "form", f)) for f in forms])
        out.append((tantivy.Occur.Should, Q.const_score_query(any_form, FORM_SCORE)))
    # one clause per spelling: a name written with every typed form ("s r o", "v likvidacii") first
    spellings = spellings[:MAX_WORDS]
    out += [
        (
            tantivy.Occur.Should,
            Q.const_score_query(
                Q.term_query(schema, "form", SPELLING + raw), SPELLING_SCORE / len(spellings)
            ),
        )
        for raw in spellings
    ]
    return out


def combine(clauses: list[tuple[Any, tantivy.Query]]) -> tantivy.Query:
    """The clauses as one query: the `Must` ones intersected, then each `Should` one added on its own
    level. tantivy joins the `Should` clauses of one boolean query into a buffered union that, for each
    candidate, decodes a window of 4,096 documents of every clause: a legal form's clause holds millions
    of names at ten million companies, and that window was most of a question's time (`medichem
    limited` 20.6 ms flat, 1.6 nested, the same hits and scores). On its own level a clause is only
    sought at each candidate, through its skip list."""
    Q = tantivy.Query
    must = [c for c in clauses if c[0] == tantivy.Occur.Must]
    if not must:
        return Q.boolean_query(clauses)
    query = Q.boolean_query(must)
    for clause in clauses:
        if clause[0] == tantivy.Occur.Should:
            query = Q.boolean_query([(tantivy.Occur.Must, query), clause])
    return query


def filter_clauses(schema: tantivy.Schema, filters: Filters) -> list[tuple[Any, tantivy.Query]]:
    """Country and activity as score-neutral `Must` clauses."""
    Q = tantivy.Query
    out: list[tuple[Any, tantivy.Query]] = []
    if filters.country:
        out.append(
            (tantivy.Occur.Must, Q.const_score_query(Q.term_query(schema, "country", filters.country), 0.0))
        )
    if filters.active_only:
        out.append((tantivy.Occur.Must, Q.const_score_query(Q.term_query(schema, "active", 1), 0.0)))
    return out
