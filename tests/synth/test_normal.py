"""The fast normalisers give exactly what the domain functions give."""

from __future__ import annotations

import pytest

from regintel.domain.names import normalise_address, normalise_name
from regintel.ingest.sections import person_key
from regintel.synth import normal
from regintel.synth.generator import Params, generate
from regintel.synth.pools import all_pools

EDGE_CASES = [
    "Novák s. r. o.",
    "NOVÁK, spol. s r.o.",
    "UAB Vilniaus statyba",
    'SIA "Koks"',
    "AS Tallinn AS",
    "Oy Ab",
    "Müller & Söhne GmbH & Co. KG",
    "Straße GmbH",
    "Łódź sp. z o.o.",
    "Ørsted A/S",
    "Tovarystvo TOV Kyiv",
    "TOV Budinvest",
    "PrAT Enerho",
    "Papadopoulos I.K.E.",
    "Ανώνυμη Εταιρεία",
    "ACME TRADING LIMITED",
    "a.s.",
    "s.r.o. s.r.o.",
    "Kovo v likvidácii",
    "Holding AG AG",
    "AB",
    "ab ab ab",
    "Sa Sa",
    "   ",
    "",
    "Zeta\u00a0Nord SA",
    "Café de l'Œuvre SARL",
    "Ÿ ß Æ Ø Đ Ł Þ Œ ı Ħ Ŀ",
    "123 456",
    "Tech-Soft d.o.o.",
    "La Rochelle SAS",
    "X SPA",
]
ADDRESSES = [
    "Hlavná 12, 811 01 Bratislava",
    "12 High Street, London W1 2AB",
    "Ulica 126, 12-345 Miasto",
    "Rue de la Paix 5, 75002 Paris",
    "Odos Ermou 3, 105 63 Athina",
    "",
    "Straße\u00a01, 1010 Wien",
]


@pytest.mark.parametrize("name", EDGE_CASES)
def test_edge_cases(name: str) -> None:
    assert normal.normalise_name(name) == normalise_name(name)
    assert normal.normalise_address(name) == normalise_address(name)


@pytest.mark.parametrize("address", ADDRESSES)
def test_addresses(address: str) -> None:
    assert normal.normalise_address(address) == normalise_address(address)


def test_generated_names_addresses_and_people() -> None:
    chunk = generate(Params(3, 0, 3_000), all_pools(), range(3))
    for row in chunk.companies:
        assert row[4] == normalise_name(row[3])
        assert row[14] == normalise_address(row[13])
    for _, key, name, name_norm, birth, nationality, _ in chunk.people:
        assert name_norm == normalise_name(name)
        assert key == person_key(name, birth, nationality)
