"""A legal form typed as one spelling of a shared key ("SASU", where SAS and SASU are one form key)
brings the names written that way among the candidates, even when hundreds of namesakes of the other
spelling score the same: before the index knew spellings, the 100 candidates were cut from the equal
ones in the index's document order and the typed spelling could miss the page (issue 15)."""

from __future__ import annotations

import pytest
from stdnum import luhn

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope

PATHS = ("/api/v1/companies/search", "/api/v1/companies/autocomplete")
SAS_NAMESAKES = 150  # more than the candidates one search re-ranks (areas.search.service.CANDIDATES)


def _siren(v: int) -> str:
    body = f"{100_000_00 + v:08d}"
    return body + luhn.calc_check_digit(body)


def _co(v: int, name: str, employees: int) -> CompanyRecord:
    return CompanyRecord(
        country="FR", national_id=_siren(v), name=name, legal_form="6VOT", employees=employees
    )


@pytest.fixture
def data(engine):
    # the SAS namesakes are larger and loaded first: neither prominence nor document order helps SASU
    companies = [_co(i, "Blanc SAS", 500 + i) for i in range(SAS_NAMESAKES)]
    companies += [_co(1_000 + i, "Blanc SASU", 1) for i in range(2)]
    stats = load_companies(engine, *companies)
    assert stats.inserted == len(companies)


def _names(client, auth, path: str, q: str, limit: int = 5) -> list[str]:
    items = assert_envelope(client.get(path, params={"q": q, "limit": limit}, headers=auth))
    return [i["name"] for i in items]


def test_the_spelling_typed_ranks_first_among_hundreds_of_the_other(client, auth, data):
    for path in PATHS:
        for q in ("Blanc SASU", "blanc sasu", "SASU Blanc"):
            assert _names(client, auth, path, q)[:2] == ["Blanc SASU", "Blanc SASU"], (path, q)


def test_the_other_spelling_still_finds_its_own(client, auth, data):
    for path in PATHS:
        assert set(_names(client, auth, path, "Blanc SAS")) == {"Blanc SAS"}, path
