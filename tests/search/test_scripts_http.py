"""Names in other scripts through HTTP: a Ukrainian or Greek name is found when typed in its own script
or in Latin letters. Until session 12 the name tokens kept Latin letters and digits only, so such a name
normalised to nothing and no query found it (the real UA EDR records of the demo among them)."""

from __future__ import annotations

import pytest

from regintel.domain.names import normalise_name, tokens
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope

# Names as the Ukrainian EDR publishes them (two records of the demo's real sample) and a Cypriot company
# registered under its Greek name.
PARUS = CompanyRecord(
    country="UA", national_id="38949117", name='ТОВАРИСТВО З ОБМЕЖЕНОЮ ВІДПОВІДАЛЬНІСТЮ "ПАРУС-ІФ"'
)
ACADEMY = CompanyRecord(
    country="UA",
    national_id="44660866",
    name='ТОВАРИСТВО З ОБМЕЖЕНОЮ ВІДПОВІДАЛЬНІСТЮ "МІЖНАРОДНА АКАДЕМІЯ СУЧАСНОЇ МЕДИЧНОЇ ОСВІТИ"',
)
GREEK = CompanyRecord(country="CY", national_id="HE150", name="ΕΛΛΗΝΙΚΗ ΤΡΑΠΕΖΑ ΔΗΜΟΣΙΑ ΕΤΑΙΡΕΙΑ ΛΤΔ")
LATIN = CompanyRecord(country="SK", national_id="31322832", name="Parus s.r.o.")


@pytest.fixture
def data(engine):  # type: ignore[no-untyped-def]
    load_companies(engine, PARUS, ACADEMY, GREEK, LATIN)


def test_other_scripts_give_tokens():
    assert tokens("ПАРУС-ІФ") == ["parus", "if"]
    assert normalise_name('ТОВ "Парус-ІФ"') == "parus if"  # ТОВ is the Ukrainian form, stripped
    assert tokens("Ελληνική Τράπεζα") == ["ellenike", "trapeza"]
    assert tokens("Відповідальністю") == ["vidpovidalnistu"]  # the soft sign does not split the word
    assert tokens("Žilina s.r.o.") == ["zilina", "s", "r", "o"]  # Latin as before


@pytest.mark.parametrize(
    ("q", "national_id"),
    [
        ("ПАРУС-ІФ", "38949117"),
        ("парус іф", "38949117"),
        ("Парус ІФ", "38949117"),
        ("Міжнародна академія", "44660866"),
        ("академія сучасної медичної освіти", "44660866"),
        ("Ελληνική Τράπεζα", "HE150"),
        ("ελληνικη τραπεζα", "HE150"),
    ],
)
def test_a_name_typed_in_its_script_is_found(client, auth, data, q, national_id):
    for path in ("/api/v1/companies/search", "/api/v1/companies/autocomplete"):
        items = assert_envelope(client.get(path, params={"q": q, "limit": 5}, headers=auth))
        assert items and items[0]["nationalId"] == national_id, (path, q, items)


def test_a_cyrillic_name_typed_in_latin_letters_is_found(client, auth, data):
    items = assert_envelope(
        client.get("/api/v1/companies/search", params={"q": "Parus IF", "limit": 5}, headers=auth)
    )
    assert items[0]["nationalId"] == "38949117"
    assert "31322832" in {i["nationalId"] for i in items}  # the Latin namesake is still there


def test_a_prefix_in_cyrillic_completes(client, auth, data):
    items = assert_envelope(
        client.get("/api/v1/companies/autocomplete", params={"q": "Міжнародна акад"}, headers=auth)
    )
    assert items[0]["nationalId"] == "44660866"
