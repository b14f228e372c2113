"""Autocomplete takes the last name word as unfinished only when it is the last thing typed: after a
legal form the name is written out (`Holm AS` is Holm, not every Holmberg), while `Holm` and
`Holm Hold` still complete (issue 15)."""

from __future__ import annotations

import pytest
from stdnum.no import orgnr

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope

PATH = "/api/v1/companies/autocomplete"


def _orgnr(v: int) -> str:
    for body in (f"{910_000_00 + v * 7 + k:08d}" for k in range(7)):
        for digit in "0123456789":
            if orgnr.is_valid(body + digit):
                return body + digit
    raise ValueError(v)


NAMES = ("Holm AS", "Holmberg AS", "Holmen Eiendom AS", "Holm Holding AS")


@pytest.fixture
def data(engine):
    # the longer names are the larger companies: prominence alone would put them first
    companies = [
        CompanyRecord(country="NO", national_id=_orgnr(i), name=n, legal_form="YI42", employees=10 + 90 * i)
        for i, n in enumerate(NAMES)
    ]
    stats = load_companies(engine, *companies)
    assert stats.inserted == len(companies)


def _suggest(client, auth, q: str) -> list[dict]:
    return assert_envelope(client.get(PATH, params={"q": q, "limit": 10}, headers=auth))


def test_a_word_followed_by_a_legal_form_is_finished(client, auth, data):
    for q in ("Holm AS", "holm as", "Holm A/S"):
        names = [s["name"] for s in _suggest(client, auth, q)]
        assert names[:1] == ["Holm AS"], (q, names)
        assert "Holmberg AS" not in names and "Holmen Eiendom AS" not in names, (q, names)


def test_the_last_word_typed_still_completes(client, auth, data):
    names = [s["name"] for s in _suggest(client, auth, "Holm")]
    assert {"Holm AS", "Holmberg AS", "Holmen Eiendom AS", "Holm Holding AS"} <= set(names)
    assert [s["name"] for s in _suggest(client, auth, "Holm Hold")][:1] == ["Holm Holding AS"]


def test_the_highlight_marks_the_whole_word(client, auth, data):
    first = _suggest(client, auth, "Holm AS")[0]
    assert first["highlight"].startswith("<mark>Holm</mark>"), first["highlight"]
