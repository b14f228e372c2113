"""Each scoping rule of Directive (EU) 2022/2555 (Art. 2, 3, 6(35)) and the hand-checked examples:
an energy utility, a hospital, a cloud provider, a food manufacturer, a small IT firm, a public body."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from regintel.domain.nis2.scope import (
    CERTAIN,
    ESSENTIAL,
    IMPORTANT,
    LIKELY,
    OUT,
    POSSIBLE,
    Designation,
    Facts,
    Figures,
    Relation,
    assess,
)
from regintel.domain.nis2.size import Interval

M = 1_000_000


def fig(h=None, t=None, b=None):
    e = lambda v: Interval() if v is None else Interval.exact(D(v))  # noqa: E731
    return Figures(e(h), e(t), e(b))


LARGE, MEDIUM, SMALL = fig(300, 80 * M, 60 * M), fig(80, 15 * M, 12 * M), fig(20, 3 * M, 3 * M)


def facts(
    nace=None,
    own=MEDIUM,
    country="SK",
    legal_form="112",
    entity_type="company",
    status="active",
    designations=(),
    relations=(),
    secondary=None,
):
    return Facts(
        country,
        status,
        legal_form,
        entity_type,
        nace,
        secondary,
        own,
        list(relations),
        [Designation(k, "test") for k in designations],
    )


def cat(f):
    a = assess(f)
    return a.category, a.certainty


def refs(f):
    return {r for reason in assess(f).reasons for r in reason["legal_reference"]}


# -- the hand-checked examples -------------------------------------------------------------------


def test_example_energy_utility_large_dso_is_essential_art_3_1_a():
    f = facts("35.13", LARGE)
    assert cat(f) == (ESSENTIAL, CERTAIN) and "Art. 3(1)(a)" in refs(f)


def test_example_hospital_medium_is_important_art_2_1_art_3_2():
    f = facts("86.10", MEDIUM, legal_form="331", entity_type="public_body")
    assert cat(f) == (IMPORTANT, CERTAIN) and {"Art. 2(1)", "Art. 3(2)"} <= refs(f)


def test_example_cloud_provider_large_is_likely_essential_annex_i_8():
    a = assess(facts("63.11", LARGE))
    assert (a.category, a.certainty) == (ESSENTIAL, LIKELY)
    assert {m["input"] for m in a.missing} >= {"activity:cloud_computing_service_provider"}


def test_example_food_manufacturer_medium_is_likely_important_annex_ii_4():
    a = assess(facts("10.71", MEDIUM))
    assert (a.category, a.certainty, a.possible_categories) == (IMPORTANT, LIKELY, [IMPORTANT, OUT])


def test_example_small_it_firm_is_out_of_scope_art_2_1():
    a = assess(facts("62.01", fig(8, 500_000, 300_000)))
    assert (a.category, a.certainty) == (OUT, CERTAIN)


def test_example_public_body_central_government_is_essential_art_3_1_d():
    # Czech organisational unit of the State (legal form 325), general public service (84.11).
    f = facts("84.11", fig(), country="CZ", legal_form="325", entity_type="public_body")
    a = assess(f)
    assert a.category == ESSENTIAL and "Art. 3(1)(d)" in refs(f)
    assert a.certainty == LIKELY  # NACE 84.11 is only a likely public-administration activity


# -- Art. 2(1) and 3: the size-cap rule --------------------------------------------------------------


@pytest.mark.parametrize(
    "nace, own, expected",
    [
        ("35.11", LARGE, ESSENTIAL),
        ("35.11", MEDIUM, IMPORTANT),
        ("35.11", SMALL, OUT),
        ("29.10", LARGE, IMPORTANT),
        ("29.10", MEDIUM, IMPORTANT),
        ("29.10", SMALL, OUT),
    ],
)
def test_art_2_1_art_3_1_a_art_3_2_annex_i_large_essential_annex_ii_at_most_important(nace, own, expected):
    assert cat(facts(nace, own)) == (expected, CERTAIN)


def test_art_2_1_no_annex_activity_is_out_of_scope():
    a = assess(facts("47.11", LARGE))
    assert (a.category, a.certainty) == (OUT, CERTAIN) and a.reasons[0]["rule"] == "no_sector"


def test_art_2_1_rec_2003_361_art_3_4_public_ownership_does_not_change_size():
    # A large state enterprise (SK 301) in electricity: size counts as for any enterprise.
    assert cat(facts("35.12", LARGE, legal_form="301", entity_type="public_body")) == (ESSENTIAL, CERTAIN)


# -- size-independent cases -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "own, expected, ref",
    [
        (SMALL, IMPORTANT, "Art. 2(2)(a)(i)"),
        (MEDIUM, ESSENTIAL, "Art. 3(1)(c)"),
        (LARGE, ESSENTIAL, "Art. 3(1)(a)"),
    ],
)
def test_art_2_2_a_i_art_3_1_c_public_electronic_communications(own, expected, ref):
    f = facts("70.22", own, designations=["public_electronic_communications"])
    assert cat(f) == (expected, CERTAIN) and ref in refs(f)


def test_art_2_2_a_i_telecom_nace_without_designation_is_likely():
    a = assess(facts("61.10", SMALL))
    assert (a.category, a.certainty) == (IMPORTANT, LIKELY) and OUT in a.possible_categories


def test_art_2_2_a_ii_art_3_1_b_qualified_trust_service_provider_any_size():
    f = facts("62.01", fig(3, 100_000, 100_000), designations=["qualified_trust_service_provider"])
    assert cat(f) == (ESSENTIAL, CERTAIN) and "Art. 3(1)(b)" in refs(f)


@pytest.mark.parametrize("own, expected", [(SMALL, IMPORTANT), (MEDIUM, IMPORTANT), (LARGE, ESSENTIAL)])
def test_art_2_2_a_ii_non_qualified_trust_service_provider(own, expected):
    assert cat(facts("62.01", own, designations=["trust_service_provider"])) == (expected, CERTAIN)


@pytest.mark.parametrize("kind", ["tld_registry", "dns_service_provider"])
def test_art_2_2_a_iii_art_3_1_b_tld_registry_and_dns_provider_any_size(kind):
    assert cat(facts("63.11", fig(5, 1, 1), designations=[kind])) == (ESSENTIAL, CERTAIN)


def test_art_2_2_f_i_art_3_1_d_central_public_administration_designated():
    assert cat(
        facts("84.11", fig(), entity_type="public_body", designations=["public_administration_central"])
    ) == (ESSENTIAL, CERTAIN)


def test_art_2_2_f_ii_regional_public_administration_is_important():
    # Slovak self-governing region (legal form 803).
    a = assess(facts("84.11", fig(), legal_form="803", entity_type="public_body"))
    assert a.category == IMPORTANT and "Art. 2(2)(f)(ii)" in {
        r for x in a.reasons for r in x["legal_reference"]
    }


def test_art_2_5_a_local_public_administration_only_by_national_choice():
    a = assess(facts("84.11", fig(), legal_form="801", entity_type="public_body"))
    assert a.category == OUT and "Art. 2(5)(a)" in {r for x in a.reasons for r in x["legal_reference"]}


def test_art_2_2_f_public_administration_level_unknown_is_only_possible():
    a = assess(facts("84.11", fig(), legal_form="321", entity_type="public_body"))
    assert a.certainty == POSSIBLE and set(a.possible_categories) == {ESSENTIAL, IMPORTANT, OUT}
    assert "public_administration_level" in {m["input"] for m in a.missing}


def test_art_6_35_art_2_7_defence_justice_and_central_banks_are_excluded():
    for nace in ("84.22", "84.23", "84.24", "64.11"):
        a = assess(facts(nace, LARGE, entity_type="public_body"))
        assert a.category == OUT and any("excluded" in n for n in a.notes), nace


def test_art_2_3_art_3_1_f_critical_entity_any_size():
    assert cat(facts("52.29", fig(2, 1, 1), designations=["critical_entity"])) == (ESSENTIAL, CERTAIN)


def test_art_2_2_b_e_art_3_1_e_member_state_identified_entities():
    assert cat(facts(None, SMALL, designations=["identified_essential"]))[0] == ESSENTIAL
    assert cat(facts("47.11", SMALL, designations=["identified_important"])) == (IMPORTANT, CERTAIN)


def test_art_2_4_art_28_domain_registration_services_only_article_28():
    a = assess(facts("63.11", SMALL, designations=["domain_registration_service"]))
    assert a.category == OUT  # the Art. 28 duties alone make it neither essential nor important
    assert any(b.get("designation") == "domain_registration_service" for b in a.bases)


# -- unknown inputs ----------------------------------------------------------------------------------


def test_art_2_1_unknown_size_gives_possible_with_what_is_missing():
    a = assess(facts("35.11", fig()))
    assert (a.category, a.certainty) == (OUT, POSSIBLE)
    assert set(a.possible_categories) == {ESSENTIAL, IMPORTANT, OUT}
    assert {"headcount", "turnover_eur", "balance_sheet_eur"} <= {m["input"] for m in a.missing}


def test_art_2_1_headcount_band_alone_gives_likely():
    own = Figures(Interval(D(50), D(99)), Interval(), Interval())
    a = assess(facts("35.11", own))
    assert (a.category, a.certainty, a.possible_categories) == (IMPORTANT, LIKELY, [ESSENTIAL, IMPORTANT])


def test_annex_i_ii_unknown_nace_is_possible():
    a = assess(facts(None, LARGE))
    assert (a.category, a.certainty) == (OUT, POSSIBLE) and "nace" in {m["input"] for m in a.missing}


def test_art_2_1_secondary_activity_is_only_possible():
    a = assess(facts("47.11", LARGE, secondary=["35.11"]))
    assert a.category == OUT and a.certainty == LIKELY and ESSENTIAL in a.possible_categories


# -- Rec. 2003/361/EC Annex Art. 3 and 6: partner and linked enterprises -----------------------------


def _rel(kind, own, share=None):
    return Relation(kind, None if share is None else D(share), own, "test", {"country": "SK"})


def test_rec_2003_361_annex_art_6_2_linked_enterprise_counts_in_full():
    # A small food producer whose parent (consolidating it) is large: the group is large.
    a = assess(facts("10.71", SMALL, relations=[_rel("linked", LARGE)]))
    assert a.size["lowest"] == "large" and (a.category, a.certainty) == (IMPORTANT, LIKELY)


def test_rec_2003_361_annex_art_6_2_partner_counts_in_proportion():
    # 40% partner with 100 staff and 30M/30M: adds 40 staff, 12M, 12M -> medium (not small).
    a = assess(
        facts("35.11", fig(20, 3 * M, 3 * M), relations=[_rel("partner", fig(100, 30 * M, 30 * M), 40)])
    )
    assert a.size["class"] == "medium" and a.category == IMPORTANT
    assert "group" in {m["input"] for m in a.missing}  # other group members may exist


def test_rec_2003_361_annex_art_3_unknown_share_keeps_the_range_open():
    a = assess(facts("35.11", SMALL, relations=[_rel("unknown", LARGE)]))
    assert a.size["lowest"] == "small" and a.size["highest"] == "large" and a.category == OUT
    assert a.certainty == LIKELY and ESSENTIAL in a.possible_categories


# -- status and country ------------------------------------------------------------------------------


def test_art_2_1_dissolved_entity_is_out_of_scope():
    assert cat(facts("35.11", LARGE, status="dissolved")) == (OUT, CERTAIN)


def test_art_2_1_art_26_entity_outside_the_union():
    a = assess(facts("35.11", LARGE, country="GB"))
    assert (a.category, a.certainty) == (OUT, POSSIBLE) and "services_in_union" in {
        m["input"] for m in a.missing
    }
    assert cat(facts("47.11", LARGE, country="UA")) == (OUT, CERTAIN)


def test_art_2_1_inactive_entity_needs_its_status_checked():
    a = assess(facts("35.11", LARGE, status="inactive"))
    assert a.category == ESSENTIAL and "status" in {m["input"] for m in a.missing}


def test_rec_2003_361_annex_art_4_2_status_changes_only_after_two_consecutive_periods():
    grown = Facts("SK", "active", "112", "company", "35.11", None, LARGE, previous=MEDIUM)
    a = assess(grown)  # large in the latest year only: still medium (important), large possible
    assert (a.category, a.certainty, a.size["class"]) == (IMPORTANT, LIKELY, "medium")
    assert a.possible_categories == [ESSENTIAL, IMPORTANT] and any("Art. 4(2)" in n for n in a.notes)
    steady = Facts("SK", "active", "112", "company", "35.11", None, LARGE, previous=LARGE)
    assert cat(steady) == (ESSENTIAL, CERTAIN)


def test_art_2_5_a_cz_transposition_includes_municipalities_with_extended_powers():
    a = assess(facts("84.11", fig(), country="CZ", legal_form="801", entity_type="public_body"))
    assert (a.category, a.certainty, a.possible_categories) == (OUT, POSSIBLE, [IMPORTANT, OUT])
    assert "municipality_extended_powers" in {m["input"] for m in a.missing}
    # a Slovak municipality: the Directive's default, local level not included
    assert cat(facts("84.11", fig(), legal_form="801", entity_type="public_body"))[0] == OUT
