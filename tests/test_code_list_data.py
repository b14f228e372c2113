"""The code lists as built from the packaged files, pycountry and schwifty (no database)."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from regintel.db.code_lists import fold, search_text
from regintel.domain.code_lists import CATALOGUE, MARKETS, CodeListItem
from regintel.ingest.code_lists import BUILDERS, build_items
from regintel.ingest.code_lists.nace import subclass_code


@cache
def items(name: str) -> dict[str, CodeListItem]:
    return {i.code: i for i in build_items(name)}


def test_catalogue_and_builders_name_the_same_seven_lists():
    assert list(CATALOGUE) == list(BUILDERS)
    assert list(CATALOGUE) == [
        "nace",
        "legal-forms",
        "regions",
        "districts",
        "municipalities",
        "countries",
        "bank-codes",
    ]


@pytest.mark.parametrize("name", list(BUILDERS))
def test_every_list_is_well_formed(name):
    built = build_items(name)
    assert built
    codes = [i.code for i in built]
    assert len(codes) == len(set(codes))
    for item in built:
        assert item.code == item.code.strip().upper() and 0 < len(item.code) <= 32
        assert item.name_sk.strip() and item.name_en.strip()
        if item.name_sk_fallback and item.name_en_fallback:
            assert item.name_sk == item.name_en


def test_nace_levels_and_parents():
    nace = items("nace")
    assert Counter(i.level for i in nace.values()) == {1: 21, 2: 88, 3: 272, 4: 615, 5: 646}
    for item in nace.values():
        if item.level == 1:
            assert item.parent is None
            continue
        parent = nace[item.parent]
        assert parent.level == item.level - 1
        if item.level > 2:
            assert item.code.startswith(parent.code)
    assert [nace[c].parent for c in ("62.01.0", "62.01", "62.0", "62", "J")] == [
        "62.01",
        "62.0",
        "62",
        "J",
        None,
    ]
    assert nace["62.01"].name_en == "Computer programming activities"


def test_nace_slovak_names_come_from_sk_nace():
    nace = items("nace")
    assert (nace["62.01"].name_sk, nace["62.01"].name_sk_fallback) == ("Počítačové programovanie", False)
    # 01.49 has six SK subclasses: the class keeps the English title, flagged.
    assert nace["01.49"].name_sk_fallback is True and nace["01.49"].name_sk == nace["01.49"].name_en
    assert nace["01.49.1"].parent == "01.49" and nace["01.49.1"].extra["ruz_code"] == "01491"
    assert nace["A"].name_sk_fallback is True


@pytest.mark.parametrize("ruz, code", [("01110", "01.11.0"), ("62010", "62.01.0"), ("99000", "99.00.0")])
def test_subclass_code(ruz, code):
    assert subclass_code(ruz) == code


@pytest.mark.parametrize("bad", ["0111", "011100", "01.11", "abcde"])
def test_subclass_code_refuses_other_shapes(bad):
    with pytest.raises(ValueError):
        subclass_code(bad)


def test_elf_codes_cover_the_markets():
    forms = items("legal-forms")
    elf = Counter(i.parent for i in forms.values() if i.extra["scheme"] == "ISO 20275 ELF")
    # ELF v1.5 (2023-09-28) has no Ukrainian legal forms; every other market has its own.
    assert {m for m in MARKETS if elf[m] == 0} == {"UA"}
    assert sum(elf.values()) == len({c for c in forms if ":" not in c}) > 3000
    sro = forms["VSZS"]
    assert (sro.parent, sro.name_sk, sro.name_sk_fallback) == ("SK", "Spoločnosť s ručením obmedzeným", False)
    assert forms["9HLU"].name_sk_fallback is True and forms["9HLU"].extra["names"]["cs"].startswith(
        "Společnost"
    )


def test_elf_non_latin_names_fall_back_to_the_transliteration():
    greek = items("legal-forms")["54AL"]
    assert greek.name_en == "Eterórithmi Etería" and greek.name_en_fallback is True
    assert greek.extra["names"] == {"el": "Ετερόρρυθμη Εταιρία"}


def test_national_legal_forms():
    forms = items("legal-forms")
    assert forms["SK:112"].parent == "SK" and forms["SK:112"].extra["national_code"] == "112"
    assert forms["CZ:112"].parent == "CZ" and forms["CZ:112"].extra["derived_from"] == "SK:112"
    assert sum(1 for c in forms if c.startswith("SK:")) == sum(1 for c in forms if c.startswith("CZ:")) == 103


def test_regions_kraje_nuts_and_subdivisions():
    regions = items("regions")
    assert [c for c in regions if c.isdigit()] == [str(n) for n in range(1, 10)]
    zilina = regions["5"]
    assert (zilina.name_sk, zilina.parent) == ("Žilinský kraj", "SK")
    assert (zilina.extra["nuts3"], zilina.extra["iso3166_2"]) == ("SK031", "SK-ZI")
    assert regions["9"].parent is None
    assert [regions[c].parent for c in ("SK031", "SK03", "SK0", "SK")] == ["SK03", "SK0", "SK", None]
    assert regions["SK031"].name_sk_fallback is False and regions["SK031"].name_en_fallback is True
    assert regions["EL30"].extra["country"] == "GR" and regions["UKI"].extra["country"] == "GB"
    iso_countries = {i.extra["country"] for i in regions.values() if i.extra.get("scheme") == "ISO 3166-2"}
    assert iso_countries == set(MARKETS)
    assert regions["FR-01"].parent == "FR-ARA" and regions["UA-30"].parent == "UA"


def test_districts_and_municipalities():
    districts, towns = items("districts"), items("municipalities")
    assert len(districts) == 80 and {d.parent for d in districts.values()} == {str(n) for n in range(1, 10)}
    assert len(towns) == 2937
    parents = Counter(t.parent for t in towns.values())
    assert set(parents) - {None} == set(districts) and parents[None] == 7


@pytest.mark.parametrize(
    "town, district",
    [
        ("517402", "Žilina"),
        ("500011", "Nitra"),
        ("500062", "Zlaté Moravce"),
        ("508233", "Malacky"),
        ("503584", "Nové Zámky"),
        ("504009", "Galanta"),
        ("523925", "Poprad"),
        ("519006", "Bardejov"),
    ],
)
def test_municipality_districts_match_known_geography(town, district):
    """RÚZ names districts by an internal id; the mapping to district codes must land on the real one."""
    assert items("districts")[items("municipalities")[town].parent].name_sk == district


def test_countries_with_slovak_names():
    countries = items("countries")
    assert len(countries) == 249
    assert (countries["SK"].name_sk, countries["SK"].name_en) == ("Slovensko", "Slovakia")
    assert countries["DE"].name_sk == "Nemecko" and countries["DE"].extra["alpha_3"] == "DEU"
    assert all(c.parent is None for c in countries.values())


def test_bank_codes():
    banks = items("bank-codes")
    assert {"SK", "CZ", "AT", "HU", "PL", "SI", "HR", "RO"} <= {b.parent for b in banks.values()}
    slsp = banks["SK:0900"]
    assert (slsp.name_sk, slsp.extra["bic"], slsp.name_sk_fallback) == (
        "Slovenská sporiteľňa, a.s.",
        "GIBASKBX",
        False,
    )
    assert all(b.parent == b.extra["country"] == b.code.split(":")[0] for b in banks.values())
    deutsche = banks["DE:12070000"]
    assert (
        deutsche.extra["bic"] == deutsche.extra["bics"][0] == "DEUTDEBB160"
        and len(deutsche.extra["bics"]) > 10
    )


@pytest.mark.parametrize(
    "raw, folded",
    [
        ("Žilina", "zilina"),
        ("ŽILINSKÝ  kraj", "zilinsky kraj"),
        ("Straße", "strasse"),
        ("Łódź", "lodz"),
        ("Ærø", "aero"),
        ("Ελλάδα", "ελλαδα"),
        ("  a\n\tb ", "a b"),
        ("62.01", "62.01"),
        ("", ""),
    ],
)
def test_fold(raw, folded):
    assert fold(raw) == folded


def test_search_text_holds_code_compact_code_and_both_names():
    item = items("nace")["62.01"]
    assert search_text(item).split("\n") == [
        "62.01",
        "6201",
        "pocitacove programovanie",
        "computer programming activities",
    ]
