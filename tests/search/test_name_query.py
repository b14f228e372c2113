"""Taking a typed name apart (`domain.name_query`) and scoring a candidate against it
(`domain.matching.judge`), directly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regintel.domain.matching import Candidate, Prominence, judge
from regintel.domain.name_query import compare_form, form_key, name_form_keys, name_raw_forms, parse
from regintel.domain.names import normalise_name, split_name_forms, tokens


@pytest.mark.parametrize(
    ("q", "words", "forms", "countries"),
    [
        ("Alfachem sp. z o.o.", ("alfachem",), {"spzoo"}, set()),
        ("sp. z o.o. Alfachem", ("alfachem",), {"spzoo"}, set()),
        ("Alfachem spółka z o.o.", ("alfachem",), {"spzoo"}, set()),
        ("Alfachem Polska", ("alfachem", "polska"), set(), {"PL"}),
        ("Alfachem sp. z o.o. Polska", ("alfachem", "polska"), {"spzoo"}, {"PL"}),
        ("Telenet Italia", ("telenet", "italia"), set(), {"IT"}),
        ("Alfachem Česká republika", ("alfachem", "ceska", "republika"), set(), {"CZ"}),
        ("VITABAU LIMITED", ("vitabau",), {"ltd"}, set()),
        ("LTD THORPE", ("thorpe",), {"ltd"}, set()),
        ("Novák spol. s r.o.", ("novak",), {"sro"}, set()),
        (
            "AG Engineering Limited",
            ("ag", "engineering"),
            {"ltd"},
            set(),
        ),  # two letters at the start: initials
        ("Polska", ("polska",), set(), set()),  # a lone country word is the name
        ("Deutsche Bank", ("deutsche", "bank"), set(), set()),
    ],
)
def test_parse(q, words, forms, countries):
    intent = parse(q)
    assert intent.words == words and set(intent.forms) == forms and set(intent.countries) == countries


def test_forms_map_to_elf_codes_and_countries():
    assert parse("Alfachem sp. z o.o.").form_codes == {"O7XB"} and parse("x sp. z o.o.").prefer == ("PL",)
    assert {"9HLU", "VSZS"} <= parse("Novák s.r.o.").form_codes
    assert {"H0PO", "MNQ7"} <= parse("Foo Ltd").form_codes
    assert parse("Foo S.A.").prefer == ()  # too many countries to point at one
    assert parse("Orange Polska S.A.").prefer == ("PL",)  # the word and the form agree
    assert form_key(("limited",)) == form_key(("ltd",)) == "ltd"
    assert name_form_keys("ALFACHEM LIMITED") == {"ltd"} and name_raw_forms("ALFACHEM LIMITED") == {"limited"}


def _cand(name: str, code: str | None, country: str, place: str = "") -> tuple[str, str | None, Candidate]:
    return (
        name,
        code,
        Candidate(split_name_forms(normalise_name(name).split())[0], country, lambda: place.split()),
    )


def _judge(q: str, cand: tuple[str, str | None, Candidate]):
    i = parse(q)
    name, code, c = cand
    c = Candidate(c.words, c.country, c.place, compare_form(i, code, name))
    return judge(list(i.words), list(i.core), set(i.country_words), i.countries, c)


def test_judge_weighs_form_country_and_town():
    pl = _cand("Alfachem sp. z o.o.", "O7XB", "PL", "krakow")
    hr = _cand("Alfachem d.o.o.", "OQWO", "HR", "zagreb")
    assert _judge("Alfachem sp. z o.o.", pl).score == 1.0 > _judge("Alfachem sp. z o.o.", hr).score == 0.95
    assert _judge("Alfachem Polska", pl).score == 1.0 > _judge("Alfachem Polska", hr).score
    assert _judge("Alfachem Kraków", pl).located == ("krakow",) and _judge("Alfachem Kraków", pl).score == 1.0
    assert _judge("Alfachem", pl).score == _judge("Alfachem", hr).score == 1.0  # nothing said: alike
    gb_ltd, gb_limited = _cand("X LTD", "H0PO", "GB"), _cand("X LIMITED", "H0PO", "GB")
    assert _judge("X LTD", gb_ltd).score == 1.0 > _judge("X LTD", gb_limited).score == 0.99
    unknown = _cand("Alfachem", None, "PL")
    assert _judge("Alfachem sp. z o.o.", unknown).score == 0.975  # no form to compare: half the penalty


def test_prominence_order():
    ranked = sorted(
        [
            Prominence(False, 900),
            Prominence(True, 5, None, "2015-01-01"),
            Prominence(True, 50),
            Prominence(True, 5, 9e6),
            Prominence(True, 5, None, "1995-01-01"),
            Prominence(True, 5, None, "2015-01-01", 2),
        ],
        key=Prominence.key,
    )
    assert [(p.active, p.employees, p.revenue, p.founded_on, p.sources) for p in ranked] == [
        (True, 50, None, None, None),
        (True, 5, 9e6, None, None),
        (True, 5, None, "1995-01-01", None),
        (True, 5, None, "2015-01-01", 2),
        (True, 5, None, "2015-01-01", None),
        (False, 900, None, None, None),
    ]


@given(st.text(max_size=80))
def test_parse_never_fails_and_keeps_a_word(text):
    intent = parse(text)
    assert set(intent.core) <= set(intent.words) and set(intent.country_words) <= set(intent.words)
    assert bool(intent.words) == bool(tokens(text))  # forms and country words never take the last word


@given(
    st.lists(st.sampled_from(["alfa", "chem", "bau", "nord", "trans"]), min_size=1, max_size=4, unique=True)
)
def test_word_order_never_changes_the_score(words):
    cand = _cand(" ".join(words) + " GmbH", "AXSB", "AT")
    assert _judge(" ".join(reversed(words)) + " GmbH", cand).score == 1.0
