"""The pure parts of matching a foreign corporate PSC to one of our companies: reading the country and
number of a PSC entry's identification, and the decision with its basis."""

from __future__ import annotations

import pytest

from regintel.areas.ownership.psc_match import decide, number_agrees
from regintel.ingest.sources.gb_psc_roles import registration, territory

SK, ICO, NAME = "SK", "35000007", "alfa"


@pytest.mark.parametrize(
    "text, code",
    [
        ("Slovakia", "SK"),
        ("Slovak Republic", "SK"),
        ("Minnesota, Usa", "US"),  # a US state gives its country
        ("Delaware, United States", "US"),
        ("England & Wales", "GB"),
        ("United Kingdom (England And Wales)", "GB"),
        ("The Companies Ordinance Of The Laws Of Gibraltar", "GI"),
        ("People'S Republic Of China", "CN"),
        ("Cayman Islands", "KY"),
        ("Companies Act 2006", None),
        ("Limited Liability", None),
        ("English Law", None),
        ("", None),
        (None, None),
    ],
)
def test_territory(text, code) -> None:
    assert territory(text) == code


@pytest.mark.parametrize(
    "identification, expected",
    [
        # The real sample's St. Paul Fire & Marine Insurance Company (gb_companies_house/psc_snapshot).
        (
            {
                "country_registered": "Minnesota, Usa",
                "legal_authority": "Organized Under The Laws Of Minnesota",
                "place_registered": "Connecticut",
                "registration_number": "41-0406690",
            },
            ("US", "41-0406690"),
        ),
        ({"legal_authority": "Czech Republic", "legal_form": "Non-Uk Government"}, ("CZ", None)),
        ({"country_registered": "Slovakia", "registration_number": "35 000 007"}, ("SK", "35000007")),
        # Not a valid IČO: kept, without spaces, as given (it can still agree with a name match).
        ({"country_registered": "Slovakia", "registration_number": "35 000 008"}, ("SK", "35000008")),
        ({"registration_number": " hrb 12 345 "}, (None, "HRB12345")),
        ({"legal_authority": "Limited Liability", "legal_form": "Ag"}, (None, None)),
        (None, (None, None)),
        ("not an object", (None, None)),
    ],
)
def test_registration(identification, expected) -> None:
    assert registration(identification) == expected


@pytest.mark.parametrize(
    "given, agrees",
    [("35000007", True), ("35 000 007", True), ("35000091", False), ("35000008", None), (None, None)],
)
def test_number_agrees(given, agrees) -> None:
    assert number_agrees(SK, ICO, given) is agrees


@pytest.mark.parametrize(
    "psc_name, psc_country, psc_number, match",
    [
        (NAME, SK, ICO, "registration_number"),
        ("renamed", SK, ICO, "registration_number"),  # the number and country are enough
        (NAME, None, ICO, "registration_number"),  # the number read in our country, with the name
        ("renamed", None, ICO, None),  # a number alone, no country: numbers repeat across registers
        (NAME, SK, None, "name_country"),
        (NAME, SK, "35000008", "name_country"),  # an unreadable number neither confirms nor contradicts
        (NAME, None, None, "name"),
        (NAME, "CZ", None, None),  # another country
        (NAME, "CZ", ICO, None),
        (NAME, SK, "35000091", None),  # another valid IČO: another company of the same name
        (NAME, None, "35000091", None),
        ("other", SK, None, None),
        ("other", None, None, None),
        (None, None, None, None),
    ],
)
def test_decide(psc_name, psc_country, psc_number, match) -> None:
    basis = decide(SK, ICO, NAME, psc_name, psc_country, psc_number)
    assert (basis.match if basis else None) == match
    if basis is not None:
        assert basis.name is (psc_name == NAME)
        assert basis.country is (None if psc_country is None else psc_country == SK)
        assert (basis.psc_country, basis.psc_registration_number) == (psc_country, psc_number)


def test_decide_without_our_name() -> None:
    """A company whose name normalises to nothing (Cyrillic) matches by number and country only."""
    assert decide(SK, ICO, "", "", None, None) is None
    basis = decide(SK, ICO, "", "", SK, ICO)
    assert basis is not None and (basis.match, basis.name) == ("registration_number", False)
