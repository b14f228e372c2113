"""The tag rule set on English, Slovak and Czech wordings (docs/regulatory-feed.md, "Tags")."""

from __future__ import annotations

import pytest

from regintel.areas.regulatory.tags import RULES, TAGS, parse_tag, tags_of


@pytest.mark.parametrize(
    "title, tags",
    [
        ("Guidelines on NIS 2 incident reporting", ("cybersecurity", "nis2")),
        ("Register of information under the Digital Operational Resilience Act", ("cybersecurity", "dora")),
        ("AMLA starts direct supervision", ("aml",)),
        ("Opatrenia proti legalizácii príjmov z trestnej činnosti", ("aml",)),
        ("Praní peněz a financování terorismu", ("aml",)),
        ("Council adopts 19th package of sanctions against Russia", ("sanctions",)),
        ("Medzinárodné sankcie: aktualizácia", ("sanctions",)),
        ("Stablecoin issuers under MiCA", ("mica",)),
        ("Kryptoaktíva: upozornenie", ("mica",)),
        ("Instant payments regulation: Q&A", ("payments",)),
        ("Platobné služby a PSD3", ("payments",)),
        ("Basel III implementation: CRR3 reporting", ("capital-requirements",)),
        ("Ochrana spotřebitele", ("consumer-protection",)),
        ("Green bond standard and SFDR review", ("sustainability",)),
        ("Poisťovne v roku 2026", ("insurance",)),
        ("Pojišťovny: výsledky", ("insurance",)),
        ("ESMA fines an investment firm under MiFID II", ("enforcement", "markets")),
        ("Úrokové sazby beze změny", ("monetary-policy",)),
        ("AI Act and financial services", ("ai",)),
        ("Ochrana osobných údajov a GDPR", ("data-protection",)),
        ("Public consultation on draft guidelines", ("consultation",)),
        ("Annual report 2025", ()),
        ("", ()),
        ("数据保护", ()),
    ],
)
def test_tags(title, tags):
    assert tags_of(title, "") == tags


def test_categories_and_summary_count():
    assert tags_of("Press release", "Money laundering risks", ("Kybernetická bezpečnosť",)) == (
        "aml",
        "cybersecurity",
    )


def test_tag_words_do_not_match_inside_other_words():
    assert tags_of("Domain names and the amlodipine supply", "") == ()
    assert tags_of("Dorado launches", "") == ()


def test_parse_tag():
    assert parse_tag(" NIS2 ") == "nis2" and parse_tag("nis3") is None
    assert TAGS == tuple(sorted(RULES)) and len(TAGS) <= 25
