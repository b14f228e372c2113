"""lt_jar: the JAR bulk file of registered legal entities, from a fixture WRITTEN FROM THE DOCUMENTED
FORMAT (invented entities; see tests/fixtures/lt_jar/README.md)."""

from __future__ import annotations

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

SAMPLE = FIXTURES / "lt_jar" / "JAR_IREGISTRUOTI.csv"
LINES = SAMPLE.read_text(encoding="utf-8").splitlines()
HEADER, FIRST = LINES[0], LINES[1]


def test_registered_entities(engine, settings):
    stats = run(engine, settings, "lt_jar", SAMPLE)
    assert (stats.read, stats.inserted, stats.rejected) == (6, 6, 0)
    row = company(engine, "LT", "300000001")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == (
        'UAB "Pavyzdinė įmonė"',
        "UAB",
        "Uždaroji akcinė bendrovė",
    )
    assert (row["status"], row["founded_on"]) == ("active", date(2005, 3, 15))
    assert (row["address_text"], row["postal_code"]) == ("Vilnius, Gedimino pr. 1, LT-01103", "LT-01103")
    assert (row["in_bankruptcy"], row["in_restructuring"], row["in_liquidation"]) == (False, False, False)
    assert identifier_pairs(engine, "300000001") >= {("elf", "BPLS")}
    liquidating = company(engine, "LT", "300000003")
    assert (liquidating["name"], liquidating["in_liquidation"]) == ('"Likvidacija" UAB', True)
    assert company(engine, "LT", "300000004")["in_bankruptcy"] is True
    assert company(engine, "LT", "300000005")["in_restructuring"] is True
    assert identifier_pairs(engine, "300000005") >= {("elf", "SFYA")}
    assert company(engine, "LT", "300000006")["postal_code"] is None
    source = provenance(engine, "300000001")
    assert (source["source"], source["published_on"]) == ("lt_jar", date(2026, 11, 30))
    with engine.connect() as conn:
        row = conn.execute(data_sources.select().where(data_sources.c.id == "lt_jar")).mappings().one()
    assert (row["licence"], row["row_count"]) == ("CC BY 4.0", 6)


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "lt_jar", SAMPLE)
    assert assert_idempotent(engine, settings, "lt_jar", SAMPLE).unchanged == 6


def test_older_snapshot_never_overwrites(engine, settings, tmp_path):
    newer = FIRST.replace(
        "|0|Teisinis statusas neįregistruotas|2005-03-15|2026-11-30",
        "|10|Likviduojamas|2026-11-20|2026-11-30",
    )
    (tmp_path / "new.csv").write_text(f"{HEADER}\n{newer}\n", encoding="utf-8")
    run(engine, settings, "lt_jar", tmp_path / "new.csv")
    older = FIRST.replace("2026-11-30", "2026-10-31")
    (tmp_path / "old.csv").write_text(f"{HEADER}\n{older}\n", encoding="utf-8")
    stats = run(engine, settings, "lt_jar", tmp_path / "old.csv")
    assert stats.skip_reasons == {"older than the data already loaded from this source": 1}
    assert company(engine, "LT", "300000001")["in_liquidation"] is True


def test_changes_and_malformed_rows(engine, settings, tmp_path):
    path = tmp_path / "jar.csv"
    path.write_text(f"{HEADER}\n{FIRST}\n", encoding="utf-8")
    run(engine, settings, "lt_jar", path)
    renamed = FIRST.replace("Pavyzdinė įmonė", "Pavyzdinė įmonė 2").replace("2026-11-30", "2026-12-01")
    bad_code = FIRST.replace("300000001", "30000001")
    bad_date = FIRST.replace("2005-03-15|310", "15.03.2005|310").replace("300000001", "300000009")
    short = "300000008|x"
    path.write_text("\n".join([HEADER, renamed, bad_code, bad_date, short]) + "\n", encoding="utf-8")
    stats, rows = rejects(engine, settings, "lt_jar", path)
    assert (stats.read, stats.updated, stats.rejected) == (4, 1, 3)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "ja_kodas is not a 9-digit legal-entity code",
        "ja_reg_data is not a date",
        "has 2 fields, the header 10",
    ):
        assert expected in reasons
    assert changes(engine, "300000001")["name"] == ('UAB "Pavyzdinė įmonė"', 'UAB "Pavyzdinė įmonė 2"')
    assert count(engine) == 1


@pytest.mark.parametrize("content", ["", "ja_kodas;ja_pavadinimas\n300000001;x\n", '{"ja_kodas": 1}'])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "lt_jar", tmp_path / "wrong.csv")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "lt_jar", SAMPLE)
    data = assert_envelope(client.get("/api/v1/companies/lt/300000001", headers=auth))
    assert (data["name"], data["country"], data["status"]) == ('UAB "Pavyzdinė įmonė"', "LT", "active")
    assert any(s["id"] == "lt_jar" and s["licence"] == "CC BY 4.0" for s in data["sources"])
    assert_error(client.get("/api/v1/companies/lt/30000", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/lt/300000099", headers=auth), 404, "NOT_FOUND")
