"""The obligations catalogue (Directive (EU) 2022/2555, Art. 20, 21, 23, 3(4), 27, 32-34), the national
transpositions recorded, and the priority score (spec 2.7: 0-100, tiers hot, warm, cool, cold)."""

from __future__ import annotations

from decimal import Decimal as D

from hypothesis import given
from hypothesis import strategies as st

from regintel.domain.nis2.obligations import OBLIGATIONS, obligations_for
from regintel.domain.nis2.priority import priority, tier
from regintel.domain.nis2.scope import ESSENTIAL, IMPORTANT, OUT, Facts, Figures, assess
from regintel.domain.nis2.size import Interval
from regintel.domain.nis2.transposition import TRANSPOSITIONS


def test_art_20_21_23_27_32_eighteen_obligations_each_with_its_article():
    assert len(OBLIGATIONS) == 18 and len({o.id for o in OBLIGATIONS}) == 18
    assert [o.article for o in OBLIGATIONS if o.article.startswith("Art. 21(2)")] == [
        f"Art. 21(2)({x})" for x in "abcdefghij"
    ]
    for o in OBLIGATIONS:
        assert o.article.startswith("Art. ") and o.deadline and set(o.applies_to) <= {ESSENTIAL, IMPORTANT}


def test_art_23_4_incident_reporting_deadlines_24h_72h_one_month():
    by_id = {o.id: o for o in OBLIGATIONS}
    assert (
        by_id["early_warning"].deadline_iso,
        by_id["incident_notification"].deadline_iso,
        by_id["final_report"].deadline_iso,
    ) == ("PT24H", "PT72H", "P1M")


def test_art_32_33_supervision_regime_by_category():
    ess = {i["id"]: i for i in obligations_for(ESSENTIAL, "SK", set())["obligations"]}
    imp = {i["id"]: i for i in obligations_for(IMPORTANT, "SK", set())["obligations"]}
    assert (
        ess["supervision"]["regime"] == "ex ante (Art. 32)"
        and imp["supervision"]["regime"] == "ex post (Art. 33)"
    )


def test_out_of_scope_entity_has_no_applicable_obligation():
    out = obligations_for(OUT, "SK", set())
    assert out["applicable_count"] == 0 and not any(i["applies"] for i in out["obligations"])


def test_art_27_enisa_registry_for_digital_entity_types():
    reg = {
        i["id"]: i
        for i in obligations_for(IMPORTANT, "CZ", {"cloud_computing_service_provider"})["obligations"]
    }
    assert reg["registration"]["enisa_registry"] is True and "60 days" in reg["registration"]["national_note"]
    reg = {i["id"]: i for i in obligations_for(IMPORTANT, "SK", {"food_business"})["obligations"]}
    assert reg["registration"]["enisa_registry"] is False


def test_national_transpositions_sk_and_cz_recorded_with_sources():
    assert TRANSPOSITIONS["SK"]["in_force"] == "2025-01-01" and "366/2024" in TRANSPOSITIONS["SK"]["act"]
    assert TRANSPOSITIONS["CZ"]["in_force"] == "2025-11-01" and "264/2025" in TRANSPOSITIONS["CZ"]["act"]
    for t in TRANSPOSITIONS.values():
        assert t["source"].startswith("https://") and all(
            isinstance(d["verified"], bool) for d in t["deviations"]
        )
    assert obligations_for(IMPORTANT, "FR", set())["transposition"] is None  # not recorded: Directive only


def _assessment(nace, h, t, b):
    e = lambda v: Interval() if v is None else Interval.exact(D(v))  # noqa: E731
    return assess(Facts("SK", "active", "112", "company", nace, None, Figures(e(h), e(t), e(b))))


def test_priority_tiers_and_factors():
    hot = priority(_assessment("35.11", 300, 80_000_000, 60_000_000), recent_changes=2, dissolved=False)
    assert hot["score"] == 45 + 20 + 20 + 6 and hot["tier"] == "hot"
    assert [f["factor"] for f in hot["factors"]] == [
        "scope",
        "size",
        "sector_criticality",
        "recent_changes",
        "posture_findings",
    ]
    cold = priority(_assessment("47.11", 3, 100_000, 100_000), recent_changes=0, dissolved=False)
    assert (cold["score"], cold["tier"]) == (0, "cold")
    gone = priority(_assessment("35.11", 300, 80_000_000, 60_000_000), recent_changes=5, dissolved=True)
    assert (gone["score"], gone["tier"]) == (0, "cold")
    assert [tier(s) for s in (100, 70, 69, 45, 44, 20, 19, 0)] == [
        "hot",
        "hot",
        "warm",
        "warm",
        "cool",
        "cool",
        "cold",
        "cold",
    ]


amounts = st.one_of(st.none(), st.integers(min_value=0, max_value=10**9))


@given(
    st.sampled_from(["35.11", "10.71", "63.11", "62.01", "84.11", "47.11", None]),
    amounts,
    amounts,
    amounts,
    st.integers(min_value=0, max_value=50),
)
def test_priority_is_bounded_0_100(nace, h, t, b, changes):
    result = priority(_assessment(nace, h, t, b), recent_changes=changes, dissolved=False)
    assert 0 <= result["score"] <= 100 and result["tier"] == tier(result["score"])


def test_priority_posture_factor_from_the_stored_score():
    energy = _assessment("35.11", 300, 80_000_000, 60_000_000)
    weak = priority(energy, recent_changes=0, dissolved=False, posture={"score": 40, "findings": 5})
    factor = weak["factors"][-1]
    assert (factor["factor"], factor["points"], factor["max"]) == ("posture_findings", 9, 15)
    assert weak["score"] == 45 + 20 + 20 + 9
    perfect = priority(energy, recent_changes=0, dissolved=False, posture={"score": 100, "findings": 0})
    assert perfect["factors"][-1]["points"] == 0 and perfect["factors"][-1]["inputs"]["assessed"] is True
    zero = priority(energy, recent_changes=5, dissolved=False, posture={"score": 0, "findings": 9})
    assert zero["factors"][-1]["points"] == 15 and zero["score"] == 100  # capped


def test_priority_posture_not_assessed_and_unscored_are_said():
    energy = _assessment("35.11", 300, 80_000_000, 60_000_000)
    none = priority(energy, recent_changes=0, dissolved=False, posture=None)["factors"][-1]
    assert none["points"] == 0 and none["inputs"] == {"assessed": False}
    refused = priority(energy, recent_changes=0, dissolved=False, posture={"score": None, "findings": 0})
    assert refused["factors"][-1]["points"] == 0 and "refused or failed" in refused["factors"][-1]["note"]


def test_priority_posture_does_not_weigh_for_an_entity_certainly_out_of_scope():
    shop = priority(
        _assessment("47.11", 3, 100_000, 100_000),
        recent_changes=0,
        dissolved=False,
        posture={"score": 0, "findings": 12},
    )
    assert (
        shop["factors"][-1]["points"] == 0
        and shop["score"] == 0
        and "out of scope" in shop["factors"][-1]["note"]
    )


def test_art_4_1_dora_replaces_art_20_21_23_and_chapter_vii_supervision_of_a_financial_entity():
    dora = obligations_for(ESSENTIAL, "SK", {"credit_institution"}, dora=True)
    out = {i["id"]: i for i in dora["obligations"]}
    replaced = [i for i in out.values() if "replaced_by" in i]
    # 2 of Art. 20, 10 of Art. 21(2), 4 of Art. 23, Chapter VII supervision (Art. 4(1), recital 28)
    assert len(replaced) == 17 and not any(i["applies"] for i in replaced)
    assert out["early_warning"]["replaced_by"].endswith("Art. 17-23 (ICT-related incident reporting)")
    assert out["management_approval"]["replaced_by"].endswith(
        "Art. 5(2) and 5(4) (the management body's duties)"
    )
    assert out["management_training"]["applies"] is False
    assert out["supervision"]["replaced_by"].endswith(
        "Art. 46-50 (competent authorities, supervision, penalties)"
    )
    assert "regime" not in out["supervision"]  # no NIS2 Art. 32/33 regime for it
    assert out["registration"]["applies"] and dora["applicable_count"] == 1  # Art. 3(4) stays
    plain = obligations_for(ESSENTIAL, "SK", {"credit_institution"})
    assert plain["applicable_count"] == 18 and not any("replaced_by" in i for i in plain["obligations"])
