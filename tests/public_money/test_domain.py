"""Pure rules of the public-money area: CPV filter codes, contract roles, the link threshold, record hashes,
and the parsers on the real samples."""

from __future__ import annotations

from decimal import Decimal

import pytest

from regintel.areas.public_money import cpv
from regintel.domain.public_money import (
    LINK_THRESHOLD,
    BankAccountRecord,
    Org,
    accept_name_match,
    contract_role,
    record_hash,
)
from regintel.errors import ValidationFailed
from regintel.ingest.sources.ted_eforms import SOURCE as TED
from tests.public_money.common import ADIS_FILES, FIXTURES


@pytest.mark.parametrize(
    "value, prefix",
    [
        ("45000000", "45"),
        ("45210000-2", "4521"),
        ("45", "45"),
        ("4521", "4521"),
        ("03000000-1", "03"),
        ("10000000", "10"),
        ("71311200", "713112"),
        (" 33000000 ", "33"),
    ],
)
def test_cpv_prefix(value, prefix):
    assert cpv.prefix(value) == prefix


@pytest.mark.parametrize("value", ["", "4", "abc", "123456789", "45000000-", "45000000-12", "٤٥٠٠٠٠٠٠"])
def test_cpv_prefix_refuses(value):
    with pytest.raises(ValidationFailed):
        cpv.prefix(value)


def test_cpv_labels():
    assert len(cpv.labels()) == 9454
    assert cpv.label("71000000") == "Architectural, construction, engineering and inspection services"
    assert cpv.label("99999999") is None and cpv.item(None) is None


@pytest.mark.parametrize(
    "prijemce, any_flagged, role",
    [
        (True, True, "supplier"),
        (None, True, "party"),
        (False, True, "party"),
        (None, False, "counterparty"),
    ],
)
def test_contract_role(prijemce, any_flagged, role):
    assert contract_role(prijemce, any_flagged) == role


@pytest.mark.parametrize(
    "score, same_country, linked",
    [
        (LINK_THRESHOLD, True, True),
        (0.999, True, True),
        (0.8999, True, False),
        (1.0, False, False),
    ],
)
def test_name_links_only_at_the_threshold_in_the_same_country(score, same_country, linked):
    assert accept_name_match(score, same_country) is linked


def test_record_hash_is_stable_and_content_bound():
    rec = BankAccountRecord(
        country="CZ",
        vat_id="CZ45795908",
        national_id="45795908",
        status="reliable",
        status_since=None,
        tax_office="13",
        name=None,
        answered_on=None,
        accounts=(("CZ7226000000002003630103", "2003630103/2600", None, None),),
    )
    assert record_hash(rec) == rec.content_hash() == BankAccountRecord(**rec.__dict__).content_hash()
    assert record_hash(rec) != BankAccountRecord(**(rec.__dict__ | {"status": "unreliable"})).content_hash()


def test_ted_parser_reads_group_awards():
    with open(FIXTURES / "ted_eforms" / "can_24_maximal.xml", "rb") as fh:
        (notice,) = list(TED.parse(fh, "can_24_maximal.xml"))
    assert (notice.country, notice.total_value, notice.total_currency) == ("LU", Decimal("9999999.99"), "EUR")
    assert [(a.lot_id, a.winner.name, a.group_lead) for a in notice.awards] == [
        ("GLO-0001", "Gyro Soft SA", True),
        ("GLO-0001", "The best App Ltd.", False),
        ("LOT-0001", "Competitor", None),
    ]
    assert notice.buyers[0] == Org(
        ref="ORG-0001",
        name="Financial Adinistration for ...",
        country="LU",
        national_id="998298",
        city="Luxembourg",
    )


def test_adis_parser_turns_czech_accounts_into_ibans():
    from regintel.ingest.sources.cz_adis_crpdph import SOURCE as ADIS

    jl = next(p for p in ADIS_FILES if "ANO" in p.name)
    with open(jl, "rb") as fh:
        (rec,) = list(ADIS.parse(fh, jl.name))
    assert [(iban, written) for iban, written, _, _ in rec.accounts] == [
        ("CZ7355000000007770165663", "7770165663/5500"),
        ("CZ8908000000005791061389", "5791061389/0800"),
        ("CZ9103000000000777016562", "777016562/0300"),
    ]
