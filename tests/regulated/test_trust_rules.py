"""The trusted-list rules (areas/regulated/trust_rules.py) as tables: which service is qualified, which
statuses are current, what a provider is designated, when a VAT number is the register number."""

from __future__ import annotations

import pytest

from regintel.areas.regulated import trust_rules as r

T, S = r.SVCTYPE, r.SVCSTATUS


@pytest.mark.parametrize(
    "service_type, status, expected",
    [
        (T + "CA/QC", "granted", r.QUALIFIED),
        (T + "TSA/QTST", "granted", r.QUALIFIED),
        (T + "EDS/REM/Q", "granted", r.QUALIFIED),
        (T + "QESValidation/Q", "granted", r.QUALIFIED),
        (T + "RemoteQSigCDManagement/Q", "granted", r.QUALIFIED),
        (T + "CA/QC", "withdrawn", r.NON_QUALIFIED),  # only the grant makes it qualified
        (T + "CA/QC", "recognisedatnationallevel", r.NON_QUALIFIED),
        (T + "CA/PKC", "granted", r.NON_QUALIFIED),
        (T + "TSA", "granted", r.NON_QUALIFIED),
        (T + "TSA/TSS-QC", "granted", r.NON_QUALIFIED),  # a time stamp for QCs is not a qualified one
        (T + "NationalRootCA-QC", "granted", r.NON_QUALIFIED),
    ],
)
def test_eidas_art_3_16_and_21_3_a_service_is_qualified_only_when_granted(service_type, status, expected):
    assert r.category(service_type, status) == expected


@pytest.mark.parametrize(
    "uri, word, current",
    [
        (S + "granted", "granted", True),
        (S + "recognisedatnationallevel", "recognisedatnationallevel", True),
        (S + "withdrawn", "withdrawn", False),
        (S + "deprecatedatnationallevel", "deprecatedatnationallevel", False),
        (S + "undersupervision", "undersupervision", True),  # lists before 1 July 2016
        (S + "supervisionrevoked", "supervisionrevoked", False),
        (S + "paused", None, None),
        ("http://example.org/Svcstatus/granted", None, None),
    ],
)
def test_ts_119_612_clause_5_5_4_status_is_current_or_ended(uri, word, current):
    assert r.status_word(uri) == word
    if word is not None:
        assert r.is_current(word) is current


@pytest.mark.parametrize(
    "services, expected",
    [
        ([(r.QUALIFIED, True)], "qualified_trust_service_provider"),
        ([(r.NON_QUALIFIED, True), (r.QUALIFIED, True)], "qualified_trust_service_provider"),
        ([(r.QUALIFIED, False), (r.NON_QUALIFIED, True)], "trust_service_provider"),
        ([(r.QUALIFIED, False), (r.NON_QUALIFIED, False)], None),  # withdrawn only
        ([], None),
    ],
)
def test_nis2_art_2_2_a_ii_designation_from_the_current_services(services, expected):
    assert r.designation(services) == expected


@pytest.mark.parametrize(
    "country, vat, expected",
    [
        ("CZ", "53404041", "53404041"),  # a legal person: CZ + IČO
        ("CZ", "8001011234", None),  # a natural person's birth number
        ("SK", "2020123456", None),  # IČ DPH = SK + DIČ, which is not the IČO
        ("AT", "U12345678", None),
    ],
)
def test_cz_act_280_2009_s_130_a_legal_persons_dic_is_cz_and_its_ico(country, vat, expected):
    assert r.vat_to_national_id(country, vat) == expected
