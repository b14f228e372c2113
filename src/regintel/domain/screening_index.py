"""Candidate generation for screening: an in-memory inverted index of listed names' tokens and their
metaphone codes, ranked by inverse document frequency, then scored in full (`domain.screening`).

A query token looks up its own posting list and its phonetic code's; a token present in more than
`COMMON` entries (`mohammed`, `bank`) is skipped when the query has a rarer one, so a query walks a few
thousand postings at most. Pure: built from `Candidate` values, no I/O.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Iterable

from regintel.domain.screening import Candidate, Match, Subject, phonetic, score, skeleton

COMMON = 5_000
PHONETIC_SHARE = 0.8  # a phonetic-code posting counts this much of an exact token's
TYPO_SHARE = 0.7  # and a token one edit away this much
WEAK_SHARE = 0.35  # candidates sharing less than this share of the best candidate's weight are not scored


def deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))} if len(word) >= 4 else set()


class ScreeningIndex:
    def __init__(self, candidates: Iterable[Candidate]):
        self.entries: dict[int, Candidate] = {}
        self._tokens: dict[str, list[int]] = {}
        self._codes: dict[str, list[int]] = {}
        for cand in candidates:
            self.entries[cand.entry_id] = cand
            words = {t for n in cand.names for t in n.tokens}
            for word in words:
                self._tokens.setdefault(word, []).append(cand.entry_id)
            for code in {phonetic(w) for w in words} - {""}:
                self._codes.setdefault(code, []).append(cand.entry_id)
        self._n = max(1, len(self.entries))
        # One-deletion neighbourhood of every token of 4+ letters (SymSpell): a typo in a single-word
        # name still finds its candidates.
        self._deletes: dict[str, list[str]] = {}
        for word in self._tokens:
            for variant in deletions(word):
                self._deletes.setdefault(variant, []).append(word)

    def __len__(self) -> int:
        return len(self.entries)

    def _idf(self, postings: list[int]) -> float:
        return math.log(1 + self._n / (1 + len(postings)))

    def candidates(self, tokens: tuple[str, ...], limit: int = 50) -> list[int]:
        """Entry ids sharing tokens or phonetic codes with `tokens`, best-covered first."""
        lists: list[tuple[list[int], float]] = []
        for token in set(tokens):
            exact = self._tokens.get(token)
            if exact:
                lists.append((exact, self._idf(exact)))
            for near in self._near(token):
                postings = self._tokens[near]
                lists.append((postings, self._idf(postings) * TYPO_SHARE))
            code = phonetic(token)
            sounds = self._codes.get(code) if code else None
            if sounds:
                lists.append((sounds, self._idf(sounds) * PHONETIC_SHARE))
        if not lists:
            return []
        rare = [pair for pair in lists if len(pair[0]) <= COMMON]
        if rare:
            lists = rare
        else:
            lists = [min(lists, key=lambda pair: len(pair[0]))]
        weights: defaultdict[int, float] = defaultdict(float)
        for postings, idf in lists:
            for entry_id in postings:
                weights[entry_id] += idf
        best = heapq.nlargest(limit, weights.items(), key=lambda kv: kv[1])
        floor = best[0][1] * WEAK_SHARE if best else 0.0
        return [e for e, w in best if w >= floor]

    def _keys(self, tokens: tuple[str, ...]) -> frozenset[str]:
        """What a listed name must share with the query to be compared in full: a token, a token one
        edit away, a metaphone code or a transliteration skeleton."""
        keys = set(tokens)
        for token in tokens:
            keys |= self._near(token)
        keys |= {"#" + c for t in tokens if (c := phonetic(t))}
        keys |= {"~" + skeleton(t) for t in tokens}
        return frozenset(keys)

    def _near(self, token: str) -> set[str]:
        """Index tokens one edit (deletion, insertion, substitution, or a transposition) away."""
        if len(token) < 4:
            return set()
        found = set(self._deletes.get(token, ()))
        for variant in deletions(token):
            if variant in self._tokens:
                found.add(variant)
            found.update(self._deletes.get(variant, ()))
        found.discard(token)
        return found

    def screen(self, subject: Subject, threshold: float, limit: int = 10, pool: int = 100) -> list[Match]:
        """Matches at or above `threshold`, best first (ties by entry id)."""
        found = []
        keys = self._keys(subject.tokens)
        for entry_id in self.candidates(subject.tokens, pool):
            match = score(subject, self.entries[entry_id], keys)
            if match.score >= threshold:
                found.append(match)
        found.sort(key=lambda m: (-m.score, m.entry_id))
        return found[:limit]
