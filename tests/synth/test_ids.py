"""Every generated identifier passes the validators the loader and the API use, for every market."""

from __future__ import annotations

import random

import pytest
from schwifty import IBAN
from stdnum import iban as std_iban
from stdnum import lei as std_lei

from regintel.domain.identifiers import MARKETS, parse_identifier, parse_lei, parse_national_id, parse_vat
from regintel.synth.banking import company_iban, company_lei, layout
from regintel.synth.ids import national_id
from regintel.synth.layout import max_entities
from regintel.synth.markets import MARKETS as SYNTH_MARKETS
from regintel.synth.vat import capacity, tax_id, vat_id

SAMPLES = 3_000


def _values(country: str) -> list[int]:
    rng = random.Random(country)
    top = capacity(country)
    return list(dict.fromkeys([0, 1, 2, top - 2, top - 1] + [rng.randrange(top) for _ in range(SAMPLES)]))


def test_every_market_has_a_generator() -> None:
    assert set(SYNTH_MARKETS) == set(MARKETS)
    assert max_entities() >= 10_000_000


@pytest.mark.parametrize("country", MARKETS)
def test_national_ids_are_valid_canonical_and_distinct(country: str) -> None:
    letters = [f.letter for v in SYNTH_MARKETS[country].variants for f in v.forms if f.letter] or [""]
    seen: dict[str, int] = {}
    for i, v in enumerate(_values(country)):
        value = national_id(country, v, i * 7919, letters[i % len(letters)])
        assert parse_national_id(country, value) == value
        assert seen.setdefault(value, v) == v  # distinct values give distinct numbers


@pytest.mark.parametrize("country", MARKETS)
def test_vat_and_tax_ids_are_valid(country: str) -> None:
    vats = set()
    for i, v in enumerate(_values(country)):
        nid = national_id(country, v, i, "B")
        vat = vat_id(country, nid, v, i)
        if country == "UA":
            assert vat is None  # Ukraine is outside the EU VAT system
            continue
        assert parse_vat(vat) == vat
        vats.add(vat[:9] if country == "IE" else vat)  # Irish ids end in a check letter and a suffix
        tax = tax_id(country, nid, v)
        if tax is not None:
            assert parse_identifier("dic", tax) == tax
        if country == "SK":
            assert parse_identifier("ic_dph", vat) == vat
    assert country == "UA" or len(vats) == len(_values(country))


@pytest.mark.parametrize("country", MARKETS)
def test_ibans_are_valid_at_registry_banks(country: str) -> None:
    banks = {bank for bank, _ in layout(country).banks}
    seen = set()
    for i, v in enumerate(_values(country)[:1_000]):
        value = company_iban(country, v, i * 104_729)
        assert std_iban.is_valid(value), value
        parsed = IBAN(value, validate_bban=True)
        assert parsed.country_code == country and parsed.bank_code in banks
        seen.add(value)
    assert len(seen) == 1_000


def test_leis_are_valid_and_distinct() -> None:
    values = {company_lei(c, g) for g in range(5_000) for c in ("SK", "GB")}
    assert len({v[6:18] for v in values}) == 5_000  # the entity part depends on the index only
    assert all(std_lei.is_valid(v) and parse_lei(v) == v for v in values)
