"""Sanctions screening: name normalisation and an explainable match score (yente's tradition).

Names are transliterated to ASCII (`normality`, ICU underneath), legal-form words are removed with
`rigour`'s organisation-type lists, and tokens are compared by Levenshtein distance with a phonetic
rescue (`rigour`'s metaphone). A score is a weighted sum of named features, each reported with its
value and weight, so every hit says why it is a hit (`ALGORITHM` names the weights' version).

Pure: no I/O, no SQLAlchemy.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from normality import ascii_text
from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein
from rigour.names import remove_org_types, remove_person_prefixes, tokenize_name
from rigour.text import metaphone

ALGORITHM = "regintel-screen-v1"
DEFAULT_THRESHOLD = 0.70
SCHEMAS = ("person", "organization", "vessel", "aircraft")
NAME_KINDS = ("primary", "alias", "weak")

# Name measures add up to 1.0: the name score. The other features move it up or down.
NAME_WEIGHTS = {
    "name_query_tokens": 0.45,
    "name_listed_tokens": 0.20,
    "name_token_sort": 0.20,
    "name_phonetic": 0.15,
}
WEIGHTS = NAME_WEIGHTS | {
    "country_match": 0.05,
    "country_mismatch": -0.10,
    "birth_date_match": 0.10,
    "birth_year_match": 0.05,
    "birth_date_mismatch": -0.20,
    "identifier_match": 0.50,
    "weak_alias": -0.10,
    "schema_mismatch": -0.25,
}
DESCRIPTIONS = {
    "name_query_tokens": "Share of the query's name (by letters) found in the listed name, token by token "
    "(Levenshtein similarity, phonetic equals count 0.9)",
    "name_listed_tokens": "Share of the listed name (by letters) found in the query",
    "name_token_sort": "Similarity of the two names with their tokens sorted (word order ignored)",
    "name_phonetic": "Share of the query's tokens with the same metaphone code as a listed token",
    "country_match": "A country of the query is a country of the listed entry",
    "country_mismatch": "Both give countries and none is shared",
    "birth_date_match": "The same birth date (to the day)",
    "birth_year_match": "Compatible birth dates (same year or month; one side less precise)",
    "birth_date_mismatch": "Both give birth dates and none is compatible",
    "identifier_match": "An identifier (passport, registration, tax, IMO number) is the same",
    "weak_alias": "The best name is a weak alias (a low-quality a.k.a., kept apart by the list)",
    "schema_mismatch": "A person compared with an organisation, vessel or aircraft, or the reverse",
}
_TOKEN_FLOOR = 0.70  # a token pair less similar than this counts as no match
_PHONETIC_SIM = 0.90
_IDENT_CLEAN = re.compile(r"[^0-9A-Z]")


@dataclass(frozen=True)
class ListedName:
    text: str
    kind: str  # primary | alias | weak
    tokens: tuple[str, ...]


@dataclass(frozen=True)
class Candidate:
    """A listed entry as the matcher sees it."""

    entry_id: int
    schema: str
    names: tuple[ListedName, ...]
    countries: frozenset[str] = frozenset()
    birth_dates: tuple[str, ...] = ()
    identifiers: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Subject:
    """What is screened: a name, and optionally a schema, countries, birth dates and identifiers."""

    name: str
    schema: str | None = None
    countries: frozenset[str] = frozenset()
    birth_dates: tuple[str, ...] = ()
    identifiers: frozenset[str] = frozenset()
    tokens: tuple[str, ...] = field(default=())

    @classmethod
    def build(
        cls,
        name: str,
        schema: str | None = None,
        countries: Iterable[str] = (),
        birth_dates: Iterable[str] = (),
        identifiers: Iterable[str] = (),
    ) -> Subject:
        return cls(
            name,
            schema,
            frozenset(c.upper() for c in countries if c),
            tuple(birth_dates),
            frozenset(i for i in (normalise_identifier(x) for x in identifiers) if i),
            name_tokens(name),
        )


@dataclass(frozen=True)
class Feature:
    name: str
    value: float
    weight: float

    @property
    def contribution(self) -> float:
        return self.value * self.weight


@dataclass(frozen=True)
class Match:
    entry_id: int
    score: float
    matched_name: str
    matched_kind: str
    features: tuple[Feature, ...]


def fold(text: str) -> str:
    """ASCII, lower case: a fast path for Latin letters with accents, ICU transliteration otherwise."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    if not stripped.isascii():
        stripped = ascii_text(text) or ""
    return stripped.lower()


def name_tokens(text: str) -> tuple[str, ...]:
    """The comparable tokens of a name: transliterated, honorifics and legal-form words removed."""
    folded = fold(text)
    plain = remove_person_prefixes(folded)
    words = tokenize_name(remove_org_types(plain)) or tokenize_name(plain) or tokenize_name(folded)
    return tuple(w.lower() for w in words if w)


def normalise_name(text: str) -> str:
    return " ".join(name_tokens(text))


def normalise_identifier(value: str) -> str:
    """Upper case, letters and digits only; shorter than 4 characters is too weak to compare."""
    clean = _IDENT_CLEAN.sub("", fold(value).upper())
    return clean if len(clean) >= 4 else ""


@lru_cache(maxsize=200_000)
def phonetic(token: str) -> str:
    return metaphone(token) if token.isalpha() and len(token) > 2 else ""


# Spellings that transliterations of one name differ by (дж: j, dj, dzh, dz; х: kh, h; у: u, ou, oo; …),
# folded before a second Levenshtein comparison.
_SKELETON = [
    (re.compile(p), r)
    for p, r in (
        (r"dzh|dz|dj|zh", "j"),
        (r"kh|gh", "h"),
        (r"ph", "f"),
        (r"sch|sh|ch", "s"),
        (r"ck|q|c", "k"),
        (r"ou|oo|w", "u"),
        (r"ee|ie|ey|ei|yi|iy|y", "i"),
        (r"(.)\1", r"\1"),
        (r"h$", ""),
    )
]


@lru_cache(maxsize=200_000)
def skeleton(token: str) -> str:
    for pattern, repl in _SKELETON:
        token = pattern.sub(repl, token)
    return token


@lru_cache(maxsize=500_000)
def token_similarity(a: str, b: str) -> float:
    """Levenshtein similarity (also of the transliteration skeletons, at 0.95 of its value), 0.9 when the
    metaphone codes agree, 0 under the floor."""
    if a == b:
        return 1.0
    sim = Levenshtein.normalized_similarity(a, b)
    sa, sb = skeleton(a), skeleton(b)
    if sa and sb and (sa == sb or sim < 0.9):
        sim = max(sim, 0.95 * Levenshtein.normalized_similarity(sa, sb))
    pa = phonetic(a)
    if pa and pa == phonetic(b) and sim >= 0.5:
        sim = max(sim, _PHONETIC_SIM)
    return sim if sim >= _TOKEN_FLOOR else 0.0


def _align(query: Sequence[str], listed: Sequence[str]) -> list[tuple[int, int, float]]:
    """Greedy one-to-one pairing of tokens, best pairs first."""
    pairs = sorted(
        ((token_similarity(q, c), -len(q), i, j) for i, q in enumerate(query) for j, c in enumerate(listed)),
        reverse=True,
    )
    used_q: set[int] = set()
    used_c: set[int] = set()
    out = []
    for sim, _, i, j in pairs:
        if sim <= 0.0:
            break
        if i in used_q or j in used_c:
            continue
        used_q.add(i)
        used_c.add(j)
        out.append((i, j, sim))
    return out


def name_features(query: Sequence[str], listed: Sequence[str]) -> dict[str, float]:
    if not query or not listed:
        return dict.fromkeys(NAME_WEIGHTS, 0.0)
    pairs = _align(query, listed)
    q_len = sum(len(t) for t in query)
    c_len = sum(len(t) for t in listed)
    q_hit = sum(len(query[i]) * s for i, _, s in pairs)
    c_hit = sum(len(listed[j]) * s for _, j, s in pairs)
    codes = {phonetic(t) or t for t in listed}
    phon = sum(1 for t in query if (phonetic(t) or t) in codes) / len(query)
    sort = fuzz.token_sort_ratio(" ".join(query), " ".join(listed)) / 100.0
    return {
        "name_query_tokens": q_hit / q_len,
        "name_listed_tokens": c_hit / c_len,
        "name_token_sort": sort,
        "name_phonetic": phon,
    }


def name_score(values: dict[str, float]) -> float:
    return sum(values[k] * w for k, w in NAME_WEIGHTS.items())


def dates_compatible(a: str, b: str) -> bool:
    """`1971`, `1971-01` and `1971-01-22` are compatible when the shorter is a prefix of the longer."""
    short, long_ = sorted((a, b), key=len)
    return long_.startswith(short)


def _date_features(query: Sequence[str], listed: Sequence[str]) -> dict[str, float]:
    if not query or not listed:
        return {}
    if any(q == c and len(q) == 10 for q in query for c in listed):
        return {"birth_date_match": 1.0}
    if any(dates_compatible(q, c) for q in query for c in listed):
        return {"birth_year_match": 1.0}
    return {"birth_date_mismatch": 1.0}


def _schema_mismatch(query: str | None, listed: str) -> bool:
    if query is None or listed not in SCHEMAS:
        return False
    return (query == "person") != (listed == "person")


def shares_a_key(listed: ListedName, keys: frozenset[str]) -> bool:
    return any(t in keys or ("#" + phonetic(t)) in keys or ("~" + skeleton(t)) in keys for t in listed.tokens)


def score(subject: Subject, cand: Candidate, keys: frozenset[str] | None = None) -> Match:
    """The match of `subject` against one listed entry: its best name, then the other evidence. With
    `keys` (from the index), names sharing none of them with the query are not compared."""
    best: tuple[float, dict[str, float], ListedName] | None = None
    for listed in cand.names:
        if keys is not None and len(cand.names) > 1 and not shares_a_key(listed, keys):
            continue
        values = name_features(subject.tokens, listed.tokens)
        rank = name_score(values) + (WEIGHTS["weak_alias"] if listed.kind == "weak" else 0.0)
        if best is None or rank > best[0]:
            best = (rank, values, listed)
    if best is None:
        return Match(cand.entry_id, 0.0, "", "", ())
    _, values, listed = best
    if listed.kind == "weak":
        values["weak_alias"] = 1.0
    if subject.countries and cand.countries:
        values["country_match" if subject.countries & cand.countries else "country_mismatch"] = 1.0
    values.update(_date_features(subject.birth_dates, cand.birth_dates))
    if subject.identifiers & cand.identifiers:
        values["identifier_match"] = 1.0
    if _schema_mismatch(subject.schema, cand.schema):
        values["schema_mismatch"] = 1.0
    features = tuple(Feature(k, round(v, 4), WEIGHTS[k]) for k, v in values.items())
    total = min(1.0, max(0.0, sum(f.value * f.weight for f in features)))
    return Match(cand.entry_id, round(total, 4), listed.text, listed.kind, features)
