"""cz_ares: real ARES v3 records imported through the runner into a real database."""

from __future__ import annotations

import copy
import gzip
import json
from datetime import date

import pytest

from regintel.db.schema import data_sources
from regintel.ingest.base import SourceAbort
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

SEZNAM = FIXTURES / "cz_ares" / "ekonomicke-subjekty_26168685.json"


def seznam() -> dict:
    return json.loads(SEZNAM.read_text(encoding="utf-8"))


def variant(ico: str, **fields: object) -> dict:
    """The real record under another (valid) IČO, with `fields` replaced."""
    record = copy.deepcopy(seznam())
    record.update(ico=ico, icoId=ico, dic=f"CZ{ico}", **fields)
    return record


def write_lines(path, records) -> None:
    path.write_text(
        "".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) + "\n" for r in records),
        encoding="utf-8",
    )


def test_real_record(engine, settings):
    stats = run(engine, settings, "cz_ares", SEZNAM)
    assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    row = company(engine, "CZ", "26168685")
    assert row["name"] == "Seznam.cz, a.s." and row["name_norm"] == "seznam cz"
    assert (row["legal_form"], row["legal_form_name"]) == ("121", "Akciová společnost")
    assert (row["status"], row["founded_on"], row["dissolved_on"]) == ("active", date(2000, 4, 5), None)
    assert (row["street"], row["city"], row["postal_code"]) == ("Radlická 3294/10", "Praha", "15000")
    assert row["address_text"] == "Radlická 3294/10, Smíchov, 15000 Praha 5"
    assert (row["region_code"], row["municipality_code"], row["nuts3"]) == ("19", "554782", "CZ010")
    assert row["nace_primary"] == "461"
    assert row["nace_codes"] == [
        "461",
        "46900",
        "581",
        "62090",
        "63120",
        "6820",
        "69200",
        "731",
        "73120",
        "791",
    ]
    assert (row["vat_id"], row["tax_id"]) == ("CZ26168685", "26168685")
    assert (row["in_bankruptcy"], row["in_restructuring"], row["in_liquidation"]) == (False, False, False)
    assert identifier_pairs(engine, "26168685") == {
        ("ico", "26168685"),
        ("vat", "CZ26168685"),
        ("dic", "26168685"),
    }
    source = provenance(engine, "26168685")
    assert (source["source"], source["source_record_id"], source["published_on"]) == (
        "cz_ares",
        "26168685",
        date(2023, 11, 25),
    )
    with engine.connect() as conn:
        catalogue = conn.execute(data_sources.select().where(data_sources.c.id == "cz_ares")).mappings().one()
    assert catalogue["attribution"] == "Zdroj: ARES, Ministerstvo financí ČR"
    assert catalogue["row_count"] == 1


def test_second_import_is_unchanged(engine, settings):
    run(engine, settings, "cz_ares", SEZNAM)
    stats = assert_idempotent(engine, settings, "cz_ares", SEZNAM)
    assert stats.unchanged == 1


def test_search_page_json_lines_and_gzip(engine, settings, tmp_path):
    page = {
        "pocetCelkem": 2,
        "ekonomickeSubjekty": [seznam(), variant("45274649", obchodniJmeno="ČEZ, a. s.")],
    }
    (tmp_path / "vyhledat.json").write_text(json.dumps(page, indent=2, ensure_ascii=False), encoding="utf-8")
    assert run(engine, settings, "cz_ares", tmp_path / "vyhledat.json").inserted == 2
    lines = tmp_path / "ares.jsonl.gz"
    with gzip.open(lines, "wt", encoding="utf-8") as out:
        for record in (seznam(), variant("00006947", obchodniJmeno="Ministerstvo financí")):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    stats = run(engine, settings, "cz_ares", lines)
    assert (stats.inserted, stats.unchanged) == (1, 1)
    assert company(engine, "CZ", "45274649")["name"] == "ČEZ, a. s."
    assert company(engine, "CZ", "00006947")["name"] == "Ministerstvo financí"


def test_insolvency_register_and_liquidation(engine, settings, tmp_path):
    registrations = {**seznam()["seznamRegistraci"], "stavZdrojeIr": "AKTIVNI"}
    records = [
        variant("45274649", obchodniJmeno="Alfa stavby s.r.o. v likvidaci", seznamRegistraci=registrations),
        variant("00006947", obchodniJmeno="Beta a.s. v likvidaci", datumZaniku="2021-06-30"),
        variant("27074358", seznamRegistraci={**registrations, "stavZdrojeDph": "NEEXISTUJICI"}),
    ]
    write_lines(tmp_path / "flags.jsonl", records)
    run(engine, settings, "cz_ares", tmp_path / "flags.jsonl")
    alfa = company(engine, "CZ", "45274649")
    assert (alfa["in_bankruptcy"], alfa["in_restructuring"], alfa["in_liquidation"]) == (True, False, True)
    beta = company(engine, "CZ", "00006947")  # dissolved: no longer in liquidation
    assert (beta["status"], beta["dissolved_on"], beta["in_liquidation"]) == (
        "dissolved",
        date(2021, 6, 30),
        False,
    )
    not_vat_payer = company(engine, "CZ", "27074358")
    assert (not_vat_payer["in_bankruptcy"], not_vat_payer["vat_id"]) == (True, None)


def test_changes_are_detected(engine, settings, tmp_path):
    run(engine, settings, "cz_ares", SEZNAM)
    changed = seznam()
    changed["obchodniJmeno"] = "Seznam.cz, a.s. v likvidaci"
    changed["sidlo"]["psc"] = 15800
    changed["seznamRegistraci"]["stavZdrojeIr"] = "AKTIVNI"
    (tmp_path / "changed.json").write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
    stats = run(engine, settings, "cz_ares", tmp_path / "changed.json")
    assert (stats.updated, stats.inserted) == (1, 0)
    log = changes(engine, "26168685")
    assert log["name"] == ("Seznam.cz, a.s.", "Seznam.cz, a.s. v likvidaci")
    assert log["postal_code"] == ("15000", "15800")
    assert log["in_bankruptcy"] == ("false", "true")
    assert log["in_liquidation"] == ("false", "true")
    assert "street" not in log


def test_malformed_records_are_rejected_with_reasons(engine, settings, tmp_path):
    good = variant(
        "60193336",
        obchodniJmeno="Žluťoučký kůň, s.r.o.",
        sidlo={
            **seznam()["sidlo"],
            "nazevUlice": "Náměstí Míru",
            "textovaAdresa": "Náměstí Míru 3294/10, Praha",
        },
    )
    records = [
        seznam(),
        json.dumps(seznam())[:200] + "\n",  # truncated line
        variant("26168686"),  # IČO check digit wrong
        variant("47114983", sidlo="Praha 5"),  # wrong type
        variant("25596641", datumVzniku="5.4.2000"),  # not an ISO date
        good,
    ]
    write_lines(tmp_path / "mixed.jsonl", records)
    stats, rows = rejects(engine, settings, "cz_ares", tmp_path / "mixed.jsonl")
    assert (stats.read, stats.inserted, stats.rejected) == (6, 2, 4)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "malformed JSON on line 2",
        "is not a valid CZ IČO",
        "sidlo is not an object",
        "datumVzniku is not a date",
    ):
        assert expected in reasons
    row = company(engine, "CZ", "60193336")
    assert (row["name"], row["street"]) == ("Žluťoučký kůň, s.r.o.", "Náměstí Míru 3294/10")
    assert row["name_norm"] == "zlutoucky kun"


def test_invalid_vat_id_is_dropped_with_a_reason(engine, settings, tmp_path):
    record = variant("45274649")
    record["dic"] = "CZ45274640"
    write_lines(tmp_path / "vat.jsonl", [record])
    stats, rows = rejects(engine, settings, "cz_ares", tmp_path / "vat.jsonl")
    assert (stats.inserted, stats.rejected) == (1, 1)
    assert rows[0]["reason"].startswith("invalid VAT id dropped (company kept)")
    assert company(engine, "CZ", "45274649")["vat_id"] is None


@pytest.mark.parametrize(
    "content",
    [
        "ico;obchodniJmeno\n26168685;Seznam\n",
        json.dumps({"organisasjonsnummer": "923609016", "navn": "EQUINOR ASA"}),
        json.dumps({"kod": "NENALEZENO", "popis": "Ekonomický subjekt nebyl nalezen."}),
        "",
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.json").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "cz_ares", tmp_path / "wrong.json")
    assert count(engine) == 0
