"""be_kbo: the real KBO Open Data daily update set (extract 147) through the runner, and a full extract
built in the test that the update then changes and stops."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import date

import pytest

from regintel.db.schema import data_sources
from regintel.ingest.base import SourceAbort
from regintel.ingest.sources.be_kbo_codes import ELF
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

UPDATE = FIXTURES / "be_kbo" / "KboOpenData_0147_2025_10_12_Update.zip"
ELF_CSV = FIXTURES.parent.parent / "src" / "regintel" / "data" / "codelists" / "elf_codes.csv"
NO_NAME = "unknown company and the record has no name"


def members() -> dict[str, str]:
    with zipfile.ZipFile(UPDATE) as archive:
        return {n: archive.read(n).decode("utf-8") for n in archive.namelist()}


def write_set(path, files: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)


def full_set(rows: dict[str, list[str]]) -> dict[str, str]:
    """A full extract (ExtractType full) with the real code.csv and the tables' real headers."""
    real = members()
    meta = real["meta.csv"].replace('"update"', '"full"').replace("11-10-2025", "01-10-2025")
    files = {"meta.csv": meta, "code.csv": real["code.csv"]}
    for table in ("enterprise", "denomination", "address", "activity"):
        header = real[f"{table}_insert.csv"].splitlines()[0]
        files[f"{table}.csv"] = "\n".join([header, *rows.get(table, [])]) + "\n"
    return files


def test_real_update_set(engine, settings):
    stats, rejected = rejects(engine, settings, "be_kbo", UPDATE)
    # 25 new enterprises come with a name; the other 167 changes are to enterprises this empty
    # database does not hold (a stop, a new address, new activities), which an update cannot create.
    assert (stats.inserted, stats.rejected) == (25, 167)
    assert {r["reason"] for r in rejected} == {NO_NAME}
    assert stats.skip_reasons == {"establishment unit or branch (not a legal entity)": 97}
    stric = company(engine, "BE", "1029025290")
    assert (stric["name"], stric["legal_form"], stric["legal_form_name"]) == (
        "STRIC",
        "610",
        "Besloten Vennootschap",
    )
    assert (stric["status"], stric["founded_on"]) == ("active", date(2025, 10, 11))
    assert (stric["street"], stric["postal_code"], stric["city"]) == (
        "Vierselbaan 12 bus b",
        "2240",
        "Zandhoven",
    )
    assert identifier_pairs(engine, "1029025290") == {("elf", "3W7E")}
    loggine = company(engine, "BE", "1029025884")  # Verviers: French names
    assert (loggine["legal_form_name"], loggine["street"]) == (
        "Société à responsabilité limitée",
        "Rue de France 61",
    )
    asbl = company(engine, "BE", "1029028161")  # Brussels: French
    assert asbl["address_text"] == "Boulevard Louis Mettewie 60 bte 15, 1080 Molenbeek-Saint-Jean"
    person = company(engine, "BE", "0552627113")  # a natural person's enterprise
    assert (person["name"], person["legal_form"], person["legal_form_name"]) == (
        "Callebaut, Brenda",
        None,
        "Natuurlijk Persoon",
    )
    source = provenance(engine, "1029025290")
    assert (source["source"], source["published_on"]) == ("be_kbo", date(2025, 10, 11))
    with engine.connect() as conn:
        row = conn.execute(data_sources.select().where(data_sources.c.id == "be_kbo")).mappings().one()
    assert row["licence"].startswith("KBO Open Data licence") and "KBO/BCE" in row["attribution"]


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "be_kbo", UPDATE, batch_size=50)
    assert assert_idempotent(engine, settings, "be_kbo", UPDATE).unchanged == 25


def test_update_after_full_extract_applies_changes_and_stops(engine, settings, tmp_path):
    # Test-built rows (names and old addresses invented) for three real enterprise numbers the
    # update changes: 0502.503.253 is deleted, 0717.947.577 gets new activities, 0761.879.075 moves.
    full = full_set(
        {
            "enterprise": [
                '"0502.503.253","AC","000","2","610",,01-02-2013',
                '"0717.947.577","AC","000","1",,,10-01-2019',
                '"0761.879.075","AC","012","2","014",,05-03-2021',
            ],
            "denomination": [
                '"0502.503.253","2","001","Oude Firma"',
                '"0717.947.577","0","001","Janssens, Jan"',
                '"0761.879.075","1","001","Ancienne SA"',
                '"0761.879.075","2","001","Oude NV"',
            ],
            "address": [
                '"0761.879.075","REGO",,,"2018","Antwerpen","Anvers","Oude Baan","Oude Baan","1","","",'
            ],
        }
    )
    write_set(tmp_path / "KboOpenData_0146_2025_10_01_Full.zip", full)
    assert run(engine, settings, "be_kbo", tmp_path / "KboOpenData_0146_2025_10_01_Full.zip").inserted == 3
    nv = company(engine, "BE", "0761879075")
    assert (nv["name"], nv["in_liquidation"], nv["street"]) == ("Oude NV", True, "Oude Baan 1")
    stats = run(engine, settings, "be_kbo", UPDATE)
    assert (stats.inserted, stats.updated) == (25, 3)
    stopped = company(engine, "BE", "0502503253")
    assert (stopped["status"], stopped["name"]) == ("dissolved", "Oude Firma")
    assert changes(engine, "0502503253")["status"] == ("active", "dissolved")
    trader = company(engine, "BE", "0717947577")
    assert (trader["nace_primary"], trader["nace_codes"]) == ("43910", ["43910", "43291", "43341"])
    assert trader["vat_id"] == "BE0717947577"
    moved = company(engine, "BE", "0761879075")
    assert (moved["street"], moved["postal_code"], moved["name"]) == (
        "Leuvenstraat 3 bus 22",
        "2000",
        "Oude NV",
    )
    assert changes(engine, "0761879075")["street"] == ("Oude Baan 1", "Leuvenstraat 3 bus 22")
    # replaying the older full extract after the update changes nothing (snapshot dates)
    stats = run(engine, settings, "be_kbo", tmp_path / "KboOpenData_0146_2025_10_01_Full.zip")
    assert (stats.updated, stats.skip_reasons) == (
        0,
        {"older than the data already loaded from this source": 3},
    )


def test_malformed_rows_are_rejected_with_reasons(engine, settings, tmp_path):
    full = full_set(
        {
            "enterprise": [
                '"0502.503.253","AC","000","2","610",,31-02-2013',  # no such date
                '"0502.503.254","AC","000","2","610",,01-02-2013',  # check digits wrong
                '"0717.947.577","AC","777","1",,,10-01-2019',  # unknown situation
                '"0761.879.075","AC","000","2","014",,05-03-2021',
                '"0872.480.059","AC","000"',
            ],  # short row
            "denomination": [
                '"0502.503.254","2","001","Fout"',
                '"0717.947.577","0","001","Janssens, Jan"',
                '"0761.879.075","2","001","Goede NV"',
            ],
        }
    )
    write_set(tmp_path / "full.zip", full)
    stats, rows = rejects(engine, settings, "be_kbo", tmp_path / "full.zip")
    assert (stats.inserted, stats.rejected) == (1, 4)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "StartDate is not a dd-mm-yyyy date",
        "is not a valid BE enterprise number",
        "JuridicalSituation '777' is not in code.csv",
        "enterprise.csv: a row has 3 fields",
    ):
        assert expected in reasons
    assert company(engine, "BE", "0761879075")["name"] == "Goede NV"


@pytest.mark.parametrize("change", ["not a zip", "no meta", "kind", "unsorted", "columns"])
def test_wrong_sets_abort(engine, settings, tmp_path, change):
    files = members()
    path = tmp_path / "set.zip"
    if change == "not a zip":
        path.write_text(files["enterprise_insert.csv"], encoding="utf-8")
    else:
        if change == "no meta":
            del files["meta.csv"]
        elif change == "kind":
            files["meta.csv"] = files["meta.csv"].replace('"update"', '"weekly"')
        elif change == "unsorted":
            head, *rows = files["enterprise_insert.csv"].splitlines()
            files["enterprise_insert.csv"] = "\n".join([head, *reversed(rows)]) + "\n"
        else:
            files["address_insert.csv"] = files["address_insert.csv"].replace('"Zipcode"', '"PostCode"')
        write_set(path, files)
    with pytest.raises(SourceAbort):
        run(engine, settings, "be_kbo", path)
    assert count(engine) == 0


def test_elf_table_matches_both_code_lists():
    kbo = {}
    for row in csv.DictReader(io.StringIO(members()["code.csv"])):
        if row["Category"] == "JuridicalForm":
            kbo.setdefault(row["Code"], set()).add(row["Description"].strip().lower())
    elf = {}
    with open(ELF_CSV, encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["country"] == "BE":
                elf.setdefault(row["code"], set()).add(row["name"].strip().lower())
    for form, code in ELF.items():
        assert kbo[form] & elf[code], (form, code)


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "be_kbo", UPDATE, batch_size=100)
    data = assert_envelope(client.get("/api/v1/companies/be/1029025290", headers=auth))
    assert (data["name"], data["country"], data["legalForm"]["code"]) == ("STRIC", "BE", "610")
    assert any(s["id"] == "be_kbo" for s in data["sources"])
    assert assert_envelope(client.get("/api/v1/companies/be/1029.025.290", headers=auth))["name"] == "STRIC"
    assert_error(client.get("/api/v1/companies/be/1029025291", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/be/0502503253", headers=auth), 404, "NOT_FOUND")
    catalogue = assert_envelope(client.get("/api/v1/public/data-sources?country=be"))
    entry = next(e for e in catalogue if e["id"] == "be_kbo")
    assert entry["licence"].startswith("KBO Open Data licence") and entry["row_count"] == 25
