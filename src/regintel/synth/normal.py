"""`normalise_name`, `normalise_address` and `person_key` with the same results as
`regintel.domain.names` and `regintel.ingest.sections`, fast enough for ten million companies.

The domain functions fold every character of every name (about 70 µs) and try each legal form in
turn (about 250 µs); bulk generation would spend most of its time there. Folding is per word, so
words are folded once and remembered; legal-form stripping looks forms up in a dict instead of
scanning the list, in the same order of precedence (longest form first, then list order, suffix
before prefix). tests/synth/test_normal.py compares both on the generated names and on edge cases.
"""

from __future__ import annotations

import hashlib

from regintel.domain import names

# The precedence the domain function scans forms in (names._FORM_TOKENS is sorted longest first).
_ORDER = {form: i for i, form in enumerate(names._FORM_TOKENS)}
_LENGTHS = sorted({len(form) for form in _ORDER}, reverse=True)
_PREFIX = names._PREFIX_FORMS
_WORDS: dict[str, tuple[str, ...]] = {}


def tokens(text: str) -> list[str]:
    """`names.tokens(text)`, folding each distinct word once (folding never crosses whitespace)."""
    out: list[str] = []
    for word in text.split():
        toks = _WORDS.get(word)
        if toks is None:
            if len(_WORDS) > 2_000_000:
                _WORDS.clear()
            toks = _WORDS[word] = tuple(names.tokens(word))
        out += toks
    return out


def strip_legal_form(words: list[str]) -> list[str]:
    """`names.strip_legal_form(words)`."""
    while len(words) > 1:
        best: tuple[int, int, int] | None = None
        for n in _LENGTHS:
            if len(words) <= n:
                continue
            i = _ORDER.get(tuple(words[-n:]))
            if i is not None:
                best = (i, 0, n)
            if n <= 2 and words[0] in _PREFIX:
                j = _ORDER.get(tuple(words[:n]))
                if j is not None and (best is None or j < best[0]):
                    best = (j, 1, n)
            if best is not None:
                break
        if best is None:
            return words
        _, prefix, n = best
        words = words[n:] if prefix else words[:-n]
    return words


def normalise_name(name: str) -> str:
    return " ".join(strip_legal_form(tokens(name)))


def normalise_address(text: str) -> str:
    # The domain function joins the folded tokens and then joins split postal codes; the tokens are
    # already folded, so only that last step is left to do.
    return names._POSTCODE.sub(r"\1\2", " ".join(tokens(text)))


def person_key(name: str, name_norm: str, birth_date: str | None, nationality: str | None) -> str:
    """`ingest.sections.person_key` given the already normalised name, which is its key for an ASCII
    name (the generator's Ukrainian names carry `ʼ`, so not all are)."""
    key = name_norm if name.isascii() else names.person_name_key(name)
    basis = "|".join([key, birth_date or "", (nationality or "").lower()])
    return hashlib.sha256(basis.encode()).hexdigest()[:32]
