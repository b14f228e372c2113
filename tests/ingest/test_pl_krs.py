"""pl_krs: a complete real KRS odpis aktualny (KPMG sp. z o.o.) and the real truncated ORLEN capture."""

from __future__ import annotations

import copy
import json
from datetime import date

import pytest

from regintel.db.schema import data_sources
from regintel.ingest.base import SourceAbort
from tests.helpers import assert_envelope, assert_error
from tests.ingest.import_helpers import (
    FIXTURES,
    assert_idempotent,
    changes,
    company,
    count,
    identifier_pairs,
    provenance,
    rejects,
    role_rows,
    run,
)

KPMG = FIXTURES / "pl_krs" / "krs_OdpisAktualny_P_0000121862.json"
ORLEN_TRUNCATED = FIXTURES / "pl_krs" / "krs_OdpisAktualny_P_0000028860.truncated.txt"


def kpmg() -> dict:
    return json.loads(KPMG.read_text(encoding="utf-8"))


def variant(krs: str, **dzial6: object) -> dict:
    answer = copy.deepcopy(kpmg())
    answer["odpis"]["naglowekA"]["numerKRS"] = krs
    answer["odpis"]["dane"]["dzial6"] = dzial6
    return answer


def test_kpmg(engine, settings):
    stats = run(engine, settings, "pl_krs", KPMG)
    assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    row = company(engine, "PL", "0000121862")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == (
        "KPMG SPOLKA Z OGRANICZONA ODPOWIEDZIALNOSCIA",
        None,
        "SPOLKA Z OGRANICZONA ODPOWIEDZIALNOSCIA",
    )
    assert (row["status"], row["founded_on"]) == ("active", date(2002, 7, 8))
    assert (row["street"], row["postal_code"], row["city"]) == ("UL. INFLANCKA 4A", "00-189", "WARSZAWA")
    assert row["address_text"] == "UL. INFLANCKA 4A, 00-189 WARSZAWA, MAZOWIECKIE, POLSKA"
    assert (row["nace_primary"], len(row["nace_codes"])) == ("70.10.Z", 10)
    assert (row["tax_id"], row["vat_id"]) == ("5260202393", None)
    assert (row["in_bankruptcy"], row["in_restructuring"], row["in_liquidation"]) == (False, False, False)
    assert identifier_pairs(engine, "0000121862") == {
        ("elf", "O7XB"),
        ("regon", "002003764"),
        ("dic", "5260202393"),
    }
    holder = role_rows(engine, "0000121862")
    assert [(r["role"], r["holder_name"], r["share_pct"]) for r in holder] == [
        ("shareholder", "KPMG CEE HOLDING, A.S.", 100.0)
    ]
    source = provenance(engine, "0000121862")
    assert (source["source"], source["published_on"]) == ("pl_krs", date(2023, 8, 22))
    with engine.connect() as conn:
        catalogue = conn.execute(data_sources.select().where(data_sources.c.id == "pl_krs")).mappings().one()
    assert "Krajowy Rejestr Sądowy" in catalogue["attribution"]
    assert_idempotent(engine, settings, "pl_krs", KPMG)


def test_proceedings_of_dzial6(engine, settings, tmp_path):
    answers = [
        variant("0000000019", likwidacja={"likwidatorzy": [{"nazwa": "X"}]}),
        variant(
            "0000000027",
            postepowanieUpadlosciowe=[{"informacjaOOgloszeniuUpadlosci": {"data": "01.02.2024"}}],
        ),
        variant(
            "0000000035",
            postepowanieUpadlosciowe=[
                {
                    "informacjaOOgloszeniuUpadlosci": {"data": "01.02.2020"},
                    "opisZakonczeniaProcesuUpadlosci": "ZAKOŃCZONE",
                }
            ],
        ),
        variant("0000000043", postepowanieRestrukturyzacyjne=[{"rodzaj": "SANACYJNE"}]),
    ]
    answers[3]["odpis"]["naglowekA"]["stanPozycji"] = 3
    (tmp_path / "odpisy.jsonl").write_text(
        "".join(json.dumps(a, ensure_ascii=False) + "\n" for a in answers), encoding="utf-8"
    )
    assert run(engine, settings, "pl_krs", tmp_path / "odpisy.jsonl").inserted == 4
    liq, bankrupt, closed, restructuring = (
        company(engine, "PL", n) for n in ("0000000019", "0000000027", "0000000035", "0000000043")
    )
    assert liq["in_liquidation"] is True
    assert bankrupt["in_bankruptcy"] is True
    assert closed["in_bankruptcy"] is False
    assert (restructuring["in_restructuring"], restructuring["status"]) == (True, "inactive")
    run(engine, settings, "pl_krs", KPMG)
    later = variant("0000121862", likwidacja={"likwidatorzy": [{"nazwa": "Y"}]})
    later["odpis"]["naglowekA"]["stanZDnia"] = "01.01.2024"
    (tmp_path / "later.json").write_text(json.dumps(later, ensure_ascii=False), encoding="utf-8")
    assert run(engine, settings, "pl_krs", tmp_path / "later.json").updated == 1
    assert changes(engine, "0000121862")["in_liquidation"] == ("false", "true")


def test_truncated_real_capture_aborts(engine, settings):
    # The real ORLEN capture is cut at 20,000 characters: not a readable document, nothing written.
    with pytest.raises(SourceAbort, match="not a readable JSON document"):
        run(engine, settings, "pl_krs", ORLEN_TRUNCATED)
    assert count(engine) == 0


def test_malformed_answers_are_rejected_with_reasons(engine, settings, tmp_path):
    answers = [
        kpmg(),
        variant("00001218AB"),
        variant("0000000019"),
        variant("0000000027"),
        variant("0000000035"),
        {"odpis": "none"},
    ]
    answers[2]["odpis"]["naglowekA"]["dataRejestracjiWKRS"] = "2002-07-08"
    answers[3]["odpis"]["dane"]["dzial3"]["przedmiotDzialalnosci"]["przedmiotPrzewazajacejDzialalnosci"][0][
        "kodKlasa"
    ] = "1"
    answers[4]["odpis"]["dane"]["dzial1"]["danePodmiotu"]["identyfikatory"]["nip"] = "5260202394"
    (tmp_path / "mixed.json").write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
    stats, rows = rejects(engine, settings, "pl_krs", tmp_path / "mixed.json")
    assert (stats.read, stats.inserted, stats.rejected) == (7, 2, 5)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "is not a valid PL KRS number",
        "dataRejestracjiWKRS is not a dd.mm.yyyy date",
        "PKD code is not a subclass",
        "invalid identifier dropped (company kept): NIP",
        "an item is not an API KRS odpis",
    ):
        assert expected in reasons
    assert company(engine, "PL", "0000000035")["tax_id"] is None


@pytest.mark.parametrize("content", ["", "numerKRS;nazwa\n", json.dumps({"ico": "26168685"})])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.json").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "pl_krs", tmp_path / "wrong.json")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "pl_krs", KPMG)
    data = assert_envelope(client.get("/api/v1/companies/pl/0000121862", headers=auth))
    assert (data["name"], data["country"], data["taxId"]) == (
        "KPMG SPOLKA Z OGRANICZONA ODPOWIEDZIALNOSCIA",
        "PL",
        "5260202393",
    )
    assert (
        assert_envelope(client.get("/api/v1/companies/pl/121862", headers=auth))["nationalId"] == "0000121862"
    )
    assert any(s["id"] == "pl_krs" for s in data["sources"])
    assert_error(client.get("/api/v1/companies/pl/12345678901", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/pl/0000028860", headers=auth), 404, "NOT_FOUND")
