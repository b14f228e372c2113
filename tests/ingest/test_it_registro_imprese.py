"""it_registro_imprese: an open list of enterprises (fixture in a layout regintel defines, not a real
download) through the runner."""

from __future__ import annotations

from datetime import date

import pytest

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

SAMPLE = FIXTURES / "it_registro_imprese" / "imprese_2026-11-26.csv"
HEADER, FIRST, *_ = SAMPLE.read_text(encoding="utf-8").splitlines()


def test_list_fields(engine, settings):
    stats = run(engine, settings, "it_registro_imprese", SAMPLE)
    assert (stats.inserted, stats.rejected, stats.skip_reasons) == (
        6,
        0,
        {"sole trader known only by a personal codice fiscale (no partita IVA)": 1},
    )
    srl = company(engine, "IT", "01234560157")
    assert (srl["name"], srl["legal_form"], srl["legal_form_name"]) == (
        "LOMBARDA SOFTWARE S.R.L.",
        "SRL",
        "SOCIETA' A RESPONSABILITA' LIMITATA",
    )
    assert (srl["status"], srl["founded_on"], srl["nace_primary"]) == ("active", date(2012, 3, 15), "62.01")
    assert (srl["street"], srl["postal_code"], srl["city"], srl["region_code"]) == (
        "VIA MANZONI 12",
        "20121",
        "MILANO",
        "MI",
    )
    assert (srl["vat_id"], srl["tax_id"]) == ("IT01234560157", "01234560157")
    assert identifier_pairs(engine, "01234560157") >= {("elf", "OV32"), ("rea", "MI-1234567")}
    spa, sas, srls, concordato, association = (
        company(engine, "IT", n)
        for n in ("12345670157", "09876540965", "11223340586", "05556660487", "97000010583")
    )
    assert (spa["in_bankruptcy"], spa["legal_form"]) == (True, "SPA")
    assert (sas["in_liquidation"], sas["legal_form"]) == (True, "SAS")
    assert (srls["status"], srls["dissolved_on"], srls["legal_form"]) == (
        "dissolved",
        date(2025, 10, 31),
        "SRLS",
    )
    assert concordato["in_restructuring"] is True
    assert (association["vat_id"], association["legal_form"]) == (None, "ASSOCIAZIONE")
    assert provenance(engine, "01234560157")["published_on"] == date(2026, 11, 26)


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "it_registro_imprese", SAMPLE)
    assert assert_idempotent(engine, settings, "it_registro_imprese", SAMPLE).unchanged == 6


def test_older_snapshot_never_overwrites_newer(engine, settings, tmp_path):
    newer = tmp_path / "imprese_2026-12-01.csv"
    newer.write_text(f"{HEADER}\n{FIRST.replace(';attiva', ';sospesa')}\n", encoding="utf-8")
    run(engine, settings, "it_registro_imprese", newer)
    stats = run(engine, settings, "it_registro_imprese", SAMPLE)
    assert stats.skip_reasons["older than the data already loaded from this source"] == 1
    assert company(engine, "IT", "01234560157")["status"] == "inactive"
    newest = tmp_path / "imprese_2026-12-02.csv"
    newest.write_text(f"{HEADER}\n{FIRST}\n", encoding="utf-8")
    assert run(engine, settings, "it_registro_imprese", newest).updated == 1
    assert changes(engine, "01234560157")["status"] == ("inactive", "active")


def test_malformed_rows_are_rejected_with_reasons(engine, settings, tmp_path):
    rows = [
        FIRST,
        FIRST.replace("01234560157", "01234560158"),  # check digit wrong
        FIRST.replace("01234560157", "12345670157").replace("15/03/2012", "2012-15-03"),
        FIRST.replace("01234560157", "09876540965").replace(";20121;", ";201;"),
        FIRST.replace("01234560157", "11223340586").replace("62.01.00", "62-01"),
        FIRST.replace("01234560157", "05556660487").replace(";MI;", ";Milano;"),
        FIRST.replace("01234560157", "02468100371").replace(";attiva", ";in letargo"),
        FIRST.replace("01234560157", "RSSMRA85T10A562X"),
        "X;y",
    ]
    path = tmp_path / "imprese.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    stats, rejected = rejects(engine, settings, "it_registro_imprese", path)
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "is not a valid IT partita IVA",
        "data_iscrizione_ri is not a date",
        "cap is not a 5-digit CAP",
        "ateco is not an ATECO 2007 code",
        "pv is not a two-letter provincia",
        "unknown Registro Imprese state kept out (company kept)",
        "codice_fiscale is not a valid codice fiscale",
        "has 2 fields, the header 13",
    ):
        assert expected in reasons
    assert count(engine) == 2


@pytest.mark.parametrize("content", ["", "regcode;name\n1;x\n", '{"codice_fiscale": 1}'])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "it_registro_imprese", tmp_path / "wrong.csv")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "it_registro_imprese", SAMPLE)
    data = assert_envelope(client.get("/api/v1/companies/it/01234560157", headers=auth))
    assert (data["name"], data["country"], data["legalForm"]["code"]) == (
        "LOMBARDA SOFTWARE S.R.L.",
        "IT",
        "SRL",
    )
    assert any(s["id"] == "it_registro_imprese" for s in data["sources"])
    assert (
        assert_envelope(client.get("/api/v1/companies/it/IT01234560157", headers=auth))["name"]
        == data["name"]
    )
    entries = assert_envelope(client.get("/api/v1/public/data-sources?country=it&category=register"))
    entry = next(e for e in entries if e["id"] == "it_registro_imprese")
    assert (entry["licence"], entry["row_count"]) == ("CC BY 4.0", 6)
    assert_error(client.get("/api/v1/companies/it/01234560158", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/it/02468100371", headers=auth), 404, "NOT_FOUND")
