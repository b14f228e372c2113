"""How alike a query and a candidate name are, whatever the index that found the candidate.

Both sides are normalised words (`domain.names`). Each query word takes its best partner among the
candidate's words (so word order does not matter), by edit-distance similarity; the unfinished last
word of an autocomplete query may match the start of a word. The words joined without spaces are
compared too, which forgives "auto servis" for "autoservis".
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from regintel.domain.names import fold

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
        sim = max(sim, OSA.normalized_similarity(q, c[:len(q)]))
    return float(sim)


def name_score(query: list[str], candidate: list[str], prefix: bool = False) -> NameScore:
    """Similarity of two word lists; `prefix` lets the last query word be unfinished."""
    if not query or not candidate:
        return NameScore(0.0, 0.0, 0.0, False)
    if query == candidate:
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
    coverage = sum(len(c) for c, m in zip(candidate, matched, strict=True) if m >= MATCHED) / sum(map(len, candidate))
    joined = float(OSA.normalized_similarity("".join(query), "".join(candidate)))
    weight = 0.85 if prefix else 0.7
    score = max(weight * words + (1 - weight) * coverage, joined if not prefix else 0.0)
    return NameScore(round(min(score, 0.999), 4), round(words, 4), round(coverage, 4), False)


_WORD = re.compile(r"\w+", re.UNICODE)


def highlight(name: str, query: list[str], prefix: bool = True) -> str:
    """`name` HTML-escaped, with the parts that match query words wrapped in `<mark>…</mark>`."""
    out: list[str] = []
    pos = 0
    for m in _WORD.finditer(name):
        word = m.group(0)
        folded = fold(word)
        length = _matched_length(folded, query, prefix)
        if not length:
            continue
        cut = m.start() + _original_length(word, length)
        out.append(html.escape(name[pos:m.start()]))
        out.append("<mark>" + html.escape(name[m.start():cut]) + "</mark>")
        pos = cut
    out.append(html.escape(name[pos:]))
    return "".join(out)


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
