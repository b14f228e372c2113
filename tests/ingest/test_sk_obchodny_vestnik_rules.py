"""The pure parts behind sk_obchodny_vestnik: what a notice's text says, and which notice decides a flag."""

from __future__ import annotations

from datetime import date

import pytest

from regintel.domain.insolvency_events import Notice, deciding, flag_statement
from regintel.ingest.sources.sk_obchodny_vestnik_kinds import classify, classify_register_filing


@pytest.mark.parametrize(
    "text, kind",
    [
        ("Uznesenie o vyhlásení konkurzu", ("bankruptcy", "start")),
        ("UZNESENIE O VYHLÁSENÍ KONKURZU", ("bankruptcy", "start")),
        ("Súd vyhlasuje konkurz na majetok dlžníka", ("bankruptcy", "start")),
        ("Uznesenie o zrušení konkurzu", ("bankruptcy", "end")),
        ("Súd zrušuje konkurz vyhlásený na majetok dlžníka", ("bankruptcy", "end")),
        ("Oznámenie o skončení konkurzu", ("bankruptcy", "end")),
        ("Konkurz sa končí zrušením", ("bankruptcy", "end")),
        ("Uznesenie o povolení reštrukturalizácie", ("restructuring", "start")),
        ("Súd povoľuje reštrukturalizáciu dlžníka", ("restructuring", "start")),
        ("Uznesenie o potvrdení reštrukturalizačného plánu", ("restructuring", "end")),
        ("Súd potvrdzuje reštrukturalizačný plán", ("restructuring", "end")),
        ("Uznesenie o skončení reštrukturalizácie", ("restructuring", "end")),
        ("Reštrukturalizácia je skončená", ("restructuring", "end")),
        ("Povolenie vyrovnania", ("restructuring", "start")),
        ("Potvrdenie vyrovnania", ("restructuring", "end")),
        ("Súd končí reštrukturalizáciu a vyhlasuje konkurz na majetok dlžníka", ("bankruptcy", "start")),
        # petitions, refusals, stops and annulments start nothing
        ("Uznesenie o zamietnutí návrhu na vyhlásenie konkurzu", None),
        ("Súd návrh na vyhlásenie konkurzu zamieta", None),
        ("Súd konkurzné konanie zastavuje", None),
        ("Krajský súd zrušuje uznesenie o vyhlásení konkurzu", None),
        ("Súd odmieta návrh dlžníka na povolenie reštrukturalizácie", None),
        ("Oznam o zvolaní schôdze veriteľov", None),
        ("Ponuka na predaj majetku (speňaženie)", None),
        ("", None),
    ],
)
def test_classify(text, kind):
    assert classify(text) == kind


def test_the_first_text_that_names_a_kind_wins():
    assert classify(None, "Oznam", "Súd vyhlasuje konkurz") == ("bankruptcy", "start")
    assert classify("Uznesenie o zrušení konkurzu", "Súd vyhlasuje konkurz") == ("bankruptcy", "end")


@pytest.mark.parametrize(
    "label, text, kind",
    [
        (
            "Výmaz",
            "EPSILON s.r.o. v likvidácii, IČO: 13 664 484. Výmaz po skončení likvidácie.",
            ("liquidation", "end"),
        ),
        ("Zmeny", "Likvidácia bola skončená dňa 1.2.2024.", ("liquidation", "end")),
        ("Zmeny", "Dátum vstupu do likvidácie: 01.10.2024.", ("liquidation", "start")),
        ("Zmeny", "Zrušenie spoločnosti s likvidáciou.", ("liquidation", "start")),
        ("Výmaz", "Spoločnosť zanikla zlúčením.", None),
        ("Zmeny", "Nové sídlo: Prievozská 4.", None),
        (None, None, None),
    ],
)
def test_classify_register_filing(label, text, kind):
    assert classify_register_filing(label, text) == kind


def n(kind: str, phase: str, day: str, notice_id: str = "1") -> Notice:
    return Notice(kind, phase, date.fromisoformat(day), notice_id)


@pytest.mark.parametrize(
    "new, known, decides",
    [
        ([n("bankruptcy", "start", "2024-03-05")], [], [0]),
        ([n("bankruptcy", "start", "2024-03-05")], [n("bankruptcy", "end", "2024-12-02", "9")], []),
        ([n("bankruptcy", "end", "2024-12-02")], [n("bankruptcy", "start", "2024-03-05", "9")], [0]),
        # one day, two notices: the end follows the start
        ([n("bankruptcy", "start", "2024-03-05")], [n("bankruptcy", "end", "2024-03-05", "9")], []),
        ([n("bankruptcy", "end", "2024-03-05")], [n("bankruptcy", "start", "2024-03-05", "9")], [0]),
        # same day and phase: the later notice id (as a number: 10 after 9)
        ([n("bankruptcy", "start", "2024-03-05", "10")], [n("bankruptcy", "start", "2024-03-05", "9")], [0]),
        ([n("bankruptcy", "start", "2024-03-05", "8")], [n("bankruptcy", "start", "2024-03-05", "9")], []),
        # bankruptcy and restructuring are one state machine, liquidation another
        ([n("restructuring", "start", "2024-04-02")], [n("bankruptcy", "start", "2024-06-03", "9")], []),
        ([n("liquidation", "start", "2024-04-02")], [n("bankruptcy", "start", "2024-06-03", "9")], [0]),
        (
            [
                n("restructuring", "start", "2024-03-12", "1"),
                n("restructuring", "end", "2024-09-10", "2"),
                n("liquidation", "start", "2024-10-08", "3"),
            ],
            [],
            [1, 2],
        ),
    ],
)
def test_deciding(new, known, decides):
    assert deciding(new, known) == [new[i] for i in decides]


def test_flag_statement():
    assert flag_statement([]) == (None, None, None)
    assert flag_statement([n("bankruptcy", "start", "2024-01-01")]) == (True, None, None)
    assert flag_statement(
        [n("restructuring", "end", "2024-01-01"), n("liquidation", "start", "2024-01-01")]
    ) == (None, False, True)


def test_notice_refuses_unknown_kinds():
    with pytest.raises(ValueError):
        n("execution", "start", "2024-01-01")
    with pytest.raises(ValueError):
        n("bankruptcy", "middle", "2024-01-01")
