"""A two-letter legal form typed first ("SA Stavocom", "KG Infochem") ranks the namesakes of that form
first, while a company whose name starts with those letters ("SA Trading") is still found; the
Austrian spellings of GmbH ("Ges.m.b.H.", "Gesellschaft m.b.H.") are read as the form (issue 15)."""

from __future__ import annotations

import pytest

from regintel.domain.name_query import parse
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope

PATHS = ("/api/v1/companies/search", "/api/v1/companies/autocomplete")


def _co(country: str, nid: str, name: str, form: str, employees: int = 900) -> CompanyRecord:
    return CompanyRecord(country=country, national_id=nid, name=name, legal_form=form, employees=employees)


STAVOCOM_SA = _co("FR", "531806792", "Stavocom SA", "QVPB", employees=3)
INFOCHEM_KG = _co("AT", "301576w", "Infochem KG", "ONF1", employees=2)
SOLCOM_GMBH = _co("AT", "100004d", "Solcom GmbH", "AXSB", employees=4)
WORDS = ("ALPHA", "NORTH", "GLOBAL", "EURO", "CITY", "PRIME", "DELTA")
SA_TRADING = _co("GB", "01000003", "SA TRADING LIMITED", "H0PO", employees=1)
COMPANIES = [
    STAVOCOM_SA,
    _co("EE", "10660217", "Stavocom OÜ", "JC0Y"),
    _co("SK", "31317677", "Stavocom s. r. o.", "VSZS"),
    _co("CZ", "69518556", "Stavocom s.r.o.", "9HLU"),
    _co("FR", "567169776", "Stavocom SARL", "V9QP"),
    _co("LV", "50090709708", 'SIA "Stavocom"', "J15T"),
    INFOCHEM_KG,
    _co("GB", "04321762", "INFOCHEM LIMITED", "H0PO"),
    _co("IT", "54545070796", "Infochem S.r.l.", "OV32"),
    _co("SK", "51176734", "Infochem s. r. o.", "VSZS"),
    _co("GR", "949887981", "Infochem E.E.", "VQ6Z"),
    SOLCOM_GMBH,
    _co("GB", "05321762", "SOLCOM LIMITED", "H0PO"),
    _co("FR", "552100505", "Solcom SARL", "V9QP"),
    _co("SK", "51176742", "Solcom s. r. o.", "VSZS"),
    SA_TRADING,
    *[_co("GB", f"0200000{i}", f"{w} TRADING LIMITED", "H0PO") for i, w in enumerate(WORDS)],
    _co("FR", "732829304", "Trading SA", "QVPB"),
]


@pytest.fixture
def data(engine):
    stats = load_companies(engine, *COMPANIES)
    assert stats.inserted == len(COMPANIES)  # every id valid: none rejected


def _names(client, auth, path: str, q: str, limit: int = 5) -> list[str]:
    items = assert_envelope(client.get(path, params={"q": q, "limit": limit}, headers=auth))
    return [i["name"] for i in items]


def test_a_short_form_typed_first_ranks_that_form_first(client, auth, data):
    for path in PATHS:
        for q, first in (
            ("SA Stavocom", "Stavocom SA"),
            ("sa stavocom", "Stavocom SA"),
            ("KG Infochem", "Infochem KG"),
            ("Stavocom SA", "Stavocom SA"),
        ):
            assert _names(client, auth, path, q)[:1] == [first], (path, q)


def test_the_same_letters_as_the_start_of_a_name_still_match(client, auth, data):
    for path in PATHS:
        names = _names(client, auth, path, "SA Trading", limit=3)
        assert "SA TRADING LIMITED" in names[:2] and "Trading SA" in names[:2], (path, names)


def test_austrian_spellings_of_gmbh(client, auth, data):
    for q in ("Solcom Ges.m.b.H.", "Solcom Ges. m. b. H.", "Solcom GesmbH", "Solcom Gesellschaft m.b.H."):
        for path in PATHS:
            assert _names(client, auth, path, q)[:1] == ["Solcom GmbH"], (path, q)
        items = assert_envelope(client.get(PATHS[0], params={"q": q}, headers=auth))
        form = next(r for r in items[0]["reasons"] if r["feature"] == "legalForm")
        assert form["score"] >= 0.99, q


def test_the_parse():
    stavocom = parse("SA Stavocom")
    assert stavocom.words == ("stavocom",) and stavocom.alt_words == ("sa", "stavocom")
    assert parse("SA").words == ("sa",) and not parse("SA").forms  # nothing after it: a name
    # a form at the end is the form; the leading letters stay a word of the name
    assert parse("AG Engineering GmbH").words == ("ag", "engineering")
    assert parse("Solcom Gesellschaft mit beschränkter Haftung").forms == {"gmbh"}
