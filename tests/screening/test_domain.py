"""The matcher itself: normalisation, token similarity, features and weights, the candidate index."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regintel.domain.screening import (
    ALGORITHM,
    WEIGHTS,
    Candidate,
    ListedName,
    Subject,
    dates_compatible,
    name_tokens,
    normalise_identifier,
    score,
    token_similarity,
)
from regintel.domain.screening_index import ScreeningIndex


def cand(entry_id: int, *names: tuple[str, str], schema: str = "person", countries=(), dates=(), ids=()):
    return Candidate(
        entry_id,
        schema,
        tuple(ListedName(n, k, name_tokens(n)) for n, k in names),
        frozenset(countries),
        tuple(dates),
        frozenset(normalise_identifier(i) for i in ids),
    )


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("Vitaly Yurievich KUZMENKO", ("vitaly", "yurievich", "kuzmenko")),
        ("Виталий Юрьевич КУЗЬМЕНКО", ("vitalij", "urevic", "kuzmenko")),
        ("BNK (UK) Ltd", ("bnk", "uk")),
        ("Mr. John Smith", ("john", "smith")),
        ("Józef Müller", ("jozef", "muller")),
        ("Ltd.", ("ltd",)),  # nothing but a legal form: kept rather than emptied
    ],
)
def test_name_tokens(text, tokens):
    assert name_tokens(text) == tokens


def test_token_similarity():
    assert token_similarity("kuzmenko", "kuzmenko") == 1.0
    assert token_similarity("mohammad", "muhammad") == 0.9  # phonetic rescue
    assert token_similarity("kuzmenko", "kusmenko") >= 0.875
    assert token_similarity("ali", "bob") == 0.0


def test_dates():
    assert dates_compatible("1971", "1971-01-22") and dates_compatible("1971-01", "1971-01-22")
    assert not dates_compatible("1972", "1971-01-22")


def test_every_feature_has_a_weight_and_the_score_is_their_sum():
    subject = Subject.build("Vitaly Kuzmenko", "person", ["RU"], ["1971-01-22"], ["3665 1078 4303"])
    match = score(
        subject,
        cand(
            1,
            ("Vitaly Yurievich KUZMENKO", "primary"),
            countries={"RU"},
            dates=("1971-01-22",),
            ids=("366510784303",),
        ),
    )
    names = {f.name for f in match.features}
    assert {"country_match", "birth_date_match", "identifier_match"} <= names
    assert all(f.weight == WEIGHTS[f.name] for f in match.features)
    assert match.score == 1.0 and ALGORITHM
    bare = score(Subject.build("Vitaly Kuzmenko"), cand(1, ("Vitaly Yurievich KUZMENKO", "primary")))
    assert bare.score == pytest.approx(sum(f.contribution for f in bare.features), abs=1e-3)
    assert 0.7 < bare.score < 1.0


def test_near_misses_score_below_typos():
    listed = cand(1, ("Vitaly Yurievich KUZMENKO", "primary"))
    typo = score(Subject.build("Vitaly Kuzmneko"), listed).score
    other = score(Subject.build("Vitaly Petrov"), listed).score
    assert typo >= 0.7 > other


def test_weak_alias_and_schema_penalties():
    entry = cand(1, ("Bank Nationalny Kuba", "primary"), ("BNK", "weak"), schema="organization")
    weak = score(Subject.build("BNK"), entry)
    assert weak.matched_kind == "weak" and "weak_alias" in {f.name for f in weak.features}
    assert weak.score == pytest.approx(1.0 + WEIGHTS["weak_alias"])
    person = score(Subject.build("Bank Nationalny Kuba", "person"), entry)
    assert "schema_mismatch" in {f.name for f in person.features} and person.score < 0.8


def test_index_finds_candidates_by_token_and_sound():
    index = ScreeningIndex(
        [
            cand(1, ("Muhammad Ali Khan", "primary")),
            cand(2, ("Zhou Enlai", "primary")),
            cand(3, ("Khan Trading LLC", "primary"), schema="organization"),
        ]
    )
    assert set(index.candidates(("mohammad", "khan"))) == {1, 3}
    assert index.candidates(("zzz",)) == []
    matches = index.screen(Subject.build("Mohammad Ali Kahn"), 0.7)
    assert [m.entry_id for m in matches] == [1]
    assert len(index) == 3


@settings(deadline=None, max_examples=60)
@given(st.text(max_size=60))
def test_any_text_scores_between_0_and_1(text):
    subject = Subject.build(text or "x")
    match = score(subject, cand(1, ("Mohammad Hassan Akhund", "primary"), ("محمد حسن آخوند", "alias")))
    assert 0.0 <= match.score <= 1.0
