"""no_brreg: Enhetsregisteret API JSON (an enhet, search pages, the bulk gzip array)."""

from __future__ import annotations

import copy
import gzip
import json
from datetime import date

import pytest

from regintel.ingest.base import SourceAbort
from tests.ingest.import_helpers import (
    FIXTURES,
    assert_idempotent,
    changes,
    company,
    count,
    identifier_pairs,
    rejects,
    run,
)

DIR = FIXTURES / "no_brreg"
EQUINOR = DIR / "enhetsregisteret_api_enheter_923609016.json"


def load(name: str) -> dict:
    return json.loads((DIR / name).read_text(encoding="utf-8"))


def search_hits() -> list[dict]:
    return [
        e
        for page in ("enheter-search-page1-response.json", "enheter-search-page2-response.json")
        for e in load(page)["_embedded"]["enheter"]
    ]


def bulk(path, items) -> None:
    """The published bulk form: one JSON array of enheter, gzipped."""
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(
            "[\n"
            + ",\n".join(i if isinstance(i, str) else json.dumps(i, ensure_ascii=False) for i in items)
            + "\n]"
        )


def test_equinor(engine, settings):
    stats = run(engine, settings, "no_brreg", EQUINOR)
    assert (stats.inserted, stats.rejected) == (1, 0)
    row = company(engine, "NO", "923609016")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == (
        "EQUINOR ASA",
        "ASA",
        "Allmennaksjeselskap",
    )
    assert (row["street"], row["postal_code"], row["city"]) == ("Forusbeen 50", "4035", "STAVANGER")
    assert (row["municipality_code"], row["region_code"]) == ("1103", "11")
    assert (row["nace_primary"], row["nace_codes"]) == ("06.100", ["06.100", "06.200", "19.200"])
    assert (row["employees"], row["founded_on"], row["status"]) == (21272, date(1972, 9, 18), "active")
    assert row["vat_id"] == "NO923609016MVA"
    assert (row["in_bankruptcy"], row["in_restructuring"], row["in_liquidation"]) == (False, False, False)
    assert ("vat", "NO923609016MVA") in identifier_pairs(engine, "923609016")
    assert_idempotent(engine, settings, "no_brreg", EQUINOR)


def test_search_pages_and_fabricated_numbers(engine, settings):
    stats = run(engine, settings, "no_brreg", DIR / "enheter-search-page1-response.json")
    assert (stats.inserted, stats.rejected) == (2, 0)
    assert company(engine, "NO", "976030788")["name"] == "SESAM AS"
    assert run(engine, settings, "no_brreg", DIR / "enheter-search-page2-response.json").inserted == 1
    assert run(engine, settings, "no_brreg", DIR / "enheter-search-empty-response.json").read == 0
    # 112233445 and 123456789 are a client library's fabricated test values: the check digit fails.
    stats, rejected = rejects(engine, settings, "no_brreg", DIR / "enheter-details-response.json")
    assert (stats.inserted, stats.rejected) == (0, 1)
    assert "is not a valid NO organisasjonsnummer" in rejected[0]["reason"]
    stats = run(engine, settings, "no_brreg", DIR / "underenheter-search-response.json")
    assert stats.skip_reasons == {"underenhet (a sub-unit, not a legal entity)": 1}


def test_bulk_gzip_array(engine, settings, tmp_path):
    path = tmp_path / "enheter_alle.json.gz"
    bulk(path, [load(EQUINOR.name), *search_hits()])
    stats = run(engine, settings, "no_brreg", path, batch_size=2)
    assert (stats.read, stats.inserted) == (4, 4)
    assert company(engine, "NO", "988879134")["city"] == "HALDEN"


def test_flags_status_and_changes(engine, settings, tmp_path):
    hits = search_hits()
    bulk(tmp_path / "first.json.gz", hits)
    run(engine, settings, "no_brreg", tmp_path / "first.json.gz")
    changed = copy.deepcopy(hits)
    changed[0].update(
        konkurs=True, konkursdato="2024-05-02", underRekonstruksjonsforhandlingDato="2024-01-10"
    )
    changed[1].update(underAvvikling=True, underRekonstruksjonsforhandlingDato="2024-02-01")
    changed[2].update(slettedato="2024-03-01", navn="SESAM FILMKLUBB (SLETTET)")
    bulk(tmp_path / "second.json.gz", changed)
    assert run(engine, settings, "no_brreg", tmp_path / "second.json.gz").updated == 3
    bankrupt = company(engine, "NO", "976030788")
    assert (bankrupt["in_bankruptcy"], bankrupt["in_restructuring"]) == (True, False)
    reconstruction = company(engine, "NO", "971497017")
    assert (reconstruction["in_restructuring"], reconstruction["in_liquidation"]) == (True, True)
    deleted = company(engine, "NO", "988879134")
    assert (deleted["status"], deleted["dissolved_on"]) == ("dissolved", date(2024, 3, 1))
    assert changes(engine, "976030788")["in_bankruptcy"] == ("false", "true")
    assert changes(engine, "988879134")["status"] == ("active", "dissolved")


def test_malformed_items_are_rejected_with_reasons(engine, settings, tmp_path):
    hits = search_hits()
    wrong_type = {**hits[1], "antallAnsatte": "many"}
    no_address = {**hits[2], "forretningsadresse": "Violgata 14, Halden"}
    accents = {**load(EQUINOR.name), "navn": "ÆØÅ BRØNNØYSUND ÅRSOPPGJØR AS"}
    path = tmp_path / "enheter_alle.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write(
            "["
            + ",".join(json.dumps(i, ensure_ascii=False) for i in (hits[0], wrong_type, no_address, accents))
        )
        out.write(', {"organisasjonsnummer": "9236')  # the download broke off here
    stats, rejected = rejects(engine, settings, "no_brreg", path)
    assert (stats.inserted, stats.rejected) == (2, 3)
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "antallAnsatte is not a whole number",
        "the address is not an object",
        "the JSON document breaks off after 4 records",
    ):
        assert expected in reasons
    assert company(engine, "NO", "923609016")["name_norm"] == "aeoa bronnoysund arsoppgjor"


@pytest.mark.parametrize(
    "fixture",
    [
        "enheter-roller-enhet-response.json",
        "../cz_ares/ekonomicke-subjekty_26168685.json",
        "../gb_companies_house/basic_company_data_single_row_2024.csv",
    ],
)
def test_wrong_format_aborts(engine, settings, fixture):
    with pytest.raises(SourceAbort):
        run(engine, settings, "no_brreg", DIR / fixture)
    assert count(engine) == 0
