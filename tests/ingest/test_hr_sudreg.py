"""hr_sudreg: the real (trimmed) /detalji_subjekta answer for INA d.d., and answers built from it in the
shapes of the official OpenAPI description (proceedings, deletion, bare ids)."""

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
    run,
)

INA = FIXTURES / "hr_sudreg" / "detalji_subjekta_mbs_080000604_excerpt.json"


def ina() -> dict:
    return json.loads(INA.read_text(encoding="utf-8"))


def variant(oib: str, mbs: str, **fields: object) -> dict:
    record = copy.deepcopy(ina())
    record.update(potpuni_oib=oib, oib=int(oib), potpuni_mbs=mbs, mbs=int(mbs), **fields)
    return record


def test_ina(engine, settings):
    stats = run(engine, settings, "hr_sudreg", INA)
    assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    row = company(engine, "HR", "27759560625")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == (
        "INA-INDUSTRIJA NAFTE, d.d.",
        "4",
        "dioničko društvo",
    )
    assert (row["status"], row["founded_on"], row["dissolved_on"]) == ("active", date(1990, 10, 31), None)
    assert (row["street"], row["city"]) == ("Avenija Većeslava Holjevca 10", "Zagreb")
    assert row["address_text"] == "Avenija Većeslava Holjevca 10, Zagreb, Grad Zagreb"
    assert (row["in_bankruptcy"], row["in_liquidation"], row["vat_id"]) == (False, False, None)
    assert identifier_pairs(engine, "27759560625") == {("mbs", "080000604"), ("elf", "LUMA")}
    assert provenance(engine, "27759560625")["source_record_id"] == "080000604"
    with engine.connect() as conn:
        catalogue = (
            conn.execute(data_sources.select().where(data_sources.c.id == "hr_sudreg")).mappings().one()
        )
    assert catalogue["licence"].startswith("Otvorena dozvola")
    assert_idempotent(engine, settings, "hr_sudreg", INA)


def test_proceedings_deletion_and_bare_ids(engine, settings, tmp_path):
    answers = [
        variant(
            "27759560633",
            "080000612",
            postupak={"postupak": {"znacenje": "Stečaj"}, "datum_stecaja": "2024-03-01T00:00:00"},
        ),
        variant("27759560641", "080000620", postupak={"postupak": {"znacenje": "Likvidacija"}}),
        variant("27759560650", "080000639", postupak={"postupak": {"znacenje": "Predstečajna nagodba"}}),
        variant(
            "27759560668",
            "080000647",
            datum_brisanja="2020-05-04T00:00:00",
            postupak={"postupak": 3},
            pravni_oblik={"vrsta_pravnog_oblika_id": 4},
            glavna_djelatnost=610,
            sjediste={
                "ulica": "Ilica",
                "kucni_broj": 1,
                "kucni_podbroj": "a",
                "postanski_broj": 10000,
                "naziv_naselja": "Zagreb",
                "sifra_zupanije": 21,
                "sifra_opcine": 133,
            },
        ),
    ]
    (tmp_path / "subjects.json").write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")
    assert run(engine, settings, "hr_sudreg", tmp_path / "subjects.json").inserted == 4
    bankrupt, liq, settlement, deleted = (
        company(engine, "HR", o) for o in ("27759560633", "27759560641", "27759560650", "27759560668")
    )
    assert (bankrupt["in_bankruptcy"], bankrupt["in_liquidation"]) == (True, False)
    assert liq["in_liquidation"] is True
    assert (settlement["in_restructuring"], settlement["in_bankruptcy"]) == (True, False)
    assert (deleted["status"], deleted["dissolved_on"], deleted["in_liquidation"]) == (
        "dissolved",
        date(2020, 5, 4),
        True,
    )
    assert (deleted["legal_form"], deleted["nace_primary"], deleted["street"], deleted["postal_code"]) == (
        "4",
        "06.10",
        "Ilica 1a",
        "10000",
    )
    assert (deleted["region_code"], deleted["municipality_code"]) == ("21", "133")
    run(engine, settings, "hr_sudreg", INA)
    renamed = ina()
    renamed["tvrtka"]["ime"] = "INA d.d."
    (tmp_path / "renamed.json").write_text(json.dumps(renamed, ensure_ascii=False), encoding="utf-8")
    assert run(engine, settings, "hr_sudreg", tmp_path / "renamed.json").updated == 1
    assert changes(engine, "27759560625")["name"] == ("INA-INDUSTRIJA NAFTE, d.d.", "INA d.d.")


def test_malformed_records_are_rejected_with_reasons(engine, settings, tmp_path):
    no_oib = copy.deepcopy(ina())
    del no_oib["oib"], no_oib["potpuni_oib"]
    answers = [
        ina(),
        variant("27759560626", "080000612"),
        variant("27759560641", "080000620", datum_osnivanja="31.10.1990"),
        variant("27759560650", "080000639", sjediste="Zagreb"),
        no_oib,
        "not an object",
    ]
    lines = "".join(json.dumps(a, ensure_ascii=False) + "\n" for a in answers) + '{"mbs": 1,\n'
    (tmp_path / "mixed.jsonl").write_text(lines, encoding="utf-8")
    stats, rows = rejects(engine, settings, "hr_sudreg", tmp_path / "mixed.jsonl")
    assert (stats.read, stats.inserted, stats.rejected) == (7, 1, 5)
    assert stats.skip_reasons == {"subject without an OIB (old deleted subjects never received one)": 1}
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "is not a valid HR OIB",
        "datum_osnivanja is not a date",
        "sjediste is not an object",
        "a sudreg item is not an object",
        "malformed JSON on line 7",
    ):
        assert expected in reasons
    assert count(engine) == 1


@pytest.mark.parametrize(
    "content",
    [
        "",
        "mbs;oib\n",
        json.dumps({"ico": "26168685"}),
        json.dumps(
            [{"error_code": 505, "error_message": "Vaš zahtjev nije vratio ni jedan redak", "log_id": 361}]
        ),
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.json").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "hr_sudreg", tmp_path / "wrong.json")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "hr_sudreg", INA)
    data = assert_envelope(client.get("/api/v1/companies/hr/27759560625", headers=auth))
    assert (data["name"], data["country"], data["legalForm"]["name"]) == (
        "INA-INDUSTRIJA NAFTE, d.d.",
        "HR",
        "dioničko društvo",
    )
    assert any(s["id"] == "hr_sudreg" for s in data["sources"])
    assert_error(client.get("/api/v1/companies/hr/27759560626", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/hr/27759560633", headers=auth), 404, "NOT_FOUND")
