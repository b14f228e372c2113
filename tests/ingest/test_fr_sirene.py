"""fr_sirene: Sirene stock CSV files and INSEE API v3 JSON imported through the runner."""

from __future__ import annotations

import csv
import io
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
    provenance,
    rejects,
    run,
)

DIR = FIXTURES / "fr_sirene"
UNITS = DIR / "StockUniteLegale_sample.csv"
UNITS_FROM_API = DIR / "StockUniteLegale_from_api.csv"
ESTABLISHMENTS_FROM_API = DIR / "StockEtablissement_from_api.csv"


def table(path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def write(path, header, body, extra: str = "") -> None:
    out = io.StringIO()
    writer = csv.DictWriter(out, header, lineterminator="\n")
    writer.writeheader()
    writer.writerows(body)
    path.write_text(out.getvalue() + extra, encoding="utf-8")


def test_stock_unite_legale_sample(engine, settings):
    stats = run(engine, settings, "fr_sirene", UNITS)
    assert (stats.read, stats.inserted, stats.rejected) == (3, 3, 0)
    active = company(engine, "FR", "000325175")
    assert (active["name"], active["legal_form"], active["legal_form_name"]) == (
        "THIERRY JANOYER",
        "1000",
        "Entrepreneur individuel",
    )
    assert (active["status"], active["founded_on"], active["nace_primary"], active["nace_codes"]) == (
        "active",
        date(2000, 9, 26),
        "32.12Z",
        ["32.12Z"],
    )
    ceased = company(engine, "FR", "001807254")
    assert (ceased["name"], ceased["status"], ceased["dissolved_on"]) == (
        "JACQUES-LUCIEN BRETON",
        "dissolved",
        date(2014, 12, 31),
    )
    assert company(engine, "FR", "005410220")["nace_primary"] is None  # NAP 1973 code, not NACE
    source = provenance(engine, "000325175")
    assert (source["source_record_id"], source["published_on"]) == ("000325175", date(2018, 7, 10))
    assert_idempotent(engine, settings, "fr_sirene", UNITS)


def test_legal_person_and_head_office_address(engine, settings):
    assert run(engine, settings, "fr_sirene", UNITS_FROM_API).inserted == 4
    provost = company(engine, "FR", "026280206")
    assert (provost["name"], provost["legal_form"], provost["legal_form_name"]) == (
        "PROVOST FRERES",
        "5710",
        "SAS, société par actions simplifiée",
    )
    assert (provost["size_class"], provost["nace_primary"]) == ("20-49", "16.10A")
    assert company(engine, "FR", "447555616")["name"] == "VERONIQUE QUEROL ANDRIEU"
    stats = run(engine, settings, "fr_sirene", ESTABLISHMENTS_FROM_API)
    assert (stats.read, stats.updated, stats.skipped) == (4, 2, 2)
    assert stats.skip_reasons == {
        "establishment that is not the head office": 1,
        "head-office address not diffusible": 1,
    }
    asif = company(engine, "FR", "538100728")
    assert (asif["street"], asif["postal_code"], asif["city"]) == ("2 RUE HENRI MATISSE", "95300", "PONTOISE")
    assert (asif["municipality_code"], asif["district_code"]) == ("95500", "95")
    assert asif["address_text"] == "BATIMENT B, 2 RUE HENRI MATISSE, 95300 PONTOISE"
    assert changes(engine, "538100728")["city"] == (None, "PONTOISE")
    assert_idempotent(engine, settings, "fr_sirene", ESTABLISHMENTS_FROM_API)


def test_restricted_diffusion_keeps_no_personal_field(engine, settings, tmp_path):
    header, body = table(UNITS_FROM_API)
    ducastel = next(r for r in body if r["siren"] == "823302005")
    assert ducastel["statutDiffusionUniteLegale"] == "N" and ducastel["nomUniteLegale"] == "DUCASTEL"
    hidden = {
        **body[1],
        "statutDiffusionUniteLegale": "P",
        "nomUniteLegale": "[ND]",
        "prenom1UniteLegale": "[ND]",
        "prenomUsuelUniteLegale": "[ND]",
        "nomUsageUniteLegale": "[ND]",
        "sexeUniteLegale": "[ND]",
    }
    write(tmp_path / "restricted.csv", header, [ducastel, hidden])
    run(engine, settings, "fr_sirene", tmp_path / "restricted.csv")
    for siren in ("823302005", "447555616"):
        row = company(engine, "FR", siren)
        assert (row["name"], row["legal_form"], row["status"]) == ("[ND]", "1000", "active")
    assert company(engine, "FR", "823302005")["nace_primary"] == "33.12Z"


def test_api_json_files(engine, settings):
    assert run(engine, settings, "fr_sirene", DIR / "insee_api_sirene_v3_unite_legale.json").inserted == 1
    stats = run(engine, settings, "fr_sirene", DIR / "insee_api_sirene_v3_api_results.json")
    # 20 establishments of 15 units; 14 head offices give their unit, the 6 others are skipped.
    assert (stats.read, stats.inserted, stats.skipped, stats.rejected) == (20, 14, 6, 0)
    querol = company(engine, "FR", "447555616")
    assert (querol["street"], querol["city"], querol["postal_code"]) == (
        "17 CHE DE SAINT VICTOR",
        "CERS",
        "34420",
    )
    asif = company(engine, "FR", "538100728")  # head office first, another establishment after it
    assert (asif["name"], asif["city"]) == ("RISVAN ASIF", "PONTOISE")
    daney = company(engine, "FR", "420820078")  # not diffusible: neither name nor address
    assert (daney["name"], daney["street"]) == ("[ND]", None)


def test_changes_are_detected(engine, settings, tmp_path):
    run(engine, settings, "fr_sirene", UNITS)
    header, body = table(UNITS)
    body[0].update(
        etatAdministratifUniteLegale="C",
        dateDebut="2024-06-30",
        activitePrincipaleUniteLegale="32.13Z",
        trancheEffectifsUniteLegale="01",
    )
    write(tmp_path / "changed.csv", header, body)
    stats = run(engine, settings, "fr_sirene", tmp_path / "changed.csv")
    assert (stats.updated, stats.unchanged) == (1, 2)
    log = changes(engine, "000325175")
    assert log["status"] == ("active", "dissolved")
    assert log["dissolved_on"] == (None, "2024-06-30")
    assert log["nace_primary"] == ("32.12Z", "32.13Z")
    assert log["size_class"] == (None, "1-2")


def test_malformed_rows_are_rejected_with_reasons(engine, settings, tmp_path):
    header, body = table(UNITS_FROM_API)
    bad_siren = {**body[0], "siren": "026280207"}
    bad_date = {**body[2], "dateCreationUniteLegale": "24/11/2011"}
    bad_state = {**body[3], "etatAdministratifUniteLegale": "X"}
    accents = {
        **body[0],
        "siren": "552032534",
        "denominationUniteLegale": "SOCIÉTÉ DES ÉTABLISSEMENTS ÇÀ ET LÀ",
    }
    write(
        tmp_path / "mixed.csv",
        header,
        [body[1], bad_siren, bad_date, bad_state, accents],
        extra="447555616,O,,2001-01-01\n",
    )
    stats, rejected = rejects(engine, settings, "fr_sirene", tmp_path / "mixed.csv")
    assert (stats.inserted, stats.rejected) == (2, 4)
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "is not a valid FR SIREN",
        "dateCreationUniteLegale is not a date",
        "etatAdministratifUniteLegale is neither A nor C",
        "has 4 fields, the header 33",
    ):
        assert expected in reasons
    assert company(engine, "FR", "552032534")["name_norm"] == "societe des etablissements ca et la"


@pytest.mark.parametrize(
    "content",
    [
        "siren;denomination\n552032534;DANONE\n",
        "id,name\n1,x\n",
        json.dumps({"organisasjonsnummer": "923609016"}),
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "fr_sirene", tmp_path / "wrong.csv")
    assert count(engine) == 0
