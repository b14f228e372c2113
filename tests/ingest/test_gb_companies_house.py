"""gb_companies_house: the real BasicCompanyData samples imported through the runner."""

from __future__ import annotations

import csv
import io
import shutil
import zipfile
from datetime import date

import pytest

from regintel.ingest.base import SourceAbort
from regintel.ingest.sources.gb_companies_house_codes import state_of
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

DIR = FIXTURES / "gb_companies_house"
SAMPLE_2021 = DIR / "basic_company_data_sample_2021.csv"
ROW_2024 = DIR / "basic_company_data_single_row_2024.csv"


def rows(path=SAMPLE_2021) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8", newline="") as f:
        data = list(csv.reader(f))
    return data[0], data[1:]


def write(path, header, body) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\r\n").writerows([header, *body])


def set_cell(header, row, column, value) -> list[str]:
    names = [h.strip() for h in header]
    row = list(row)
    row[names.index(column)] = value
    return row


def test_sample_2021(engine, settings, tmp_path):
    dated = tmp_path / "BasicCompanyData-2021-01-01-part1_6.csv"
    shutil.copy(SAMPLE_2021, dated)
    stats = run(engine, settings, "gb_companies_house", dated)
    assert (stats.read, stats.inserted, stats.rejected) == (31, 31, 0)
    row = company(engine, "GB", "11743365")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == (
        "!BIG IMPACT GRAPHICS LIMITED",
        "ltd",
        "Private Limited Company",
    )
    assert (row["street"], row["city"], row["postal_code"]) == (
        "372 OLD STREET, 335 ROSDEN HOUSE",
        "LONDON",
        "EC1V 9LT",
    )
    assert row["address_text"] == "372 OLD STREET, 335 ROSDEN HOUSE, LONDON, EC1V 9LT, UNITED KINGDOM"
    assert (row["nace_primary"], row["nace_codes"]) == ("18129", ["18129", "59112", "63120", "74201"])
    assert (row["status"], row["founded_on"]) == ("active", date(2018, 12, 28))
    assert (row["in_bankruptcy"], row["in_restructuring"], row["in_liquidation"]) == (False, False, False)
    assert company(engine, "GB", "SC606050")["national_id"] == "SC606050"
    assert company(engine, "GB", "CE000952")["legal_form"] == "cio"
    assert company(engine, "GB", "05914136")["legal_form"] == "ltd-guar-nsc"
    assert company(engine, "GB", "FC031362")["nace_codes"] is None
    source = provenance(engine, "11743365")
    assert (source["source_record_id"], source["published_on"]) == ("11743365", date(2021, 1, 1))


def test_idempotent_then_the_2024_row_changes_the_address(engine, settings):
    run(engine, settings, "gb_companies_house", SAMPLE_2021)
    assert_idempotent(engine, settings, "gb_companies_house", SAMPLE_2021)
    stats = run(engine, settings, "gb_companies_house", ROW_2024)
    assert (stats.updated, stats.inserted) == (1, 0)
    log = changes(engine, "08209948")
    assert log["street"] == ("METROHOUSE 57 PEPPER ROAD, HUNSLET", "9 PRINCES SQUARE")
    assert log["city"] == ("LEEDS", "HARROGATE")
    assert log["postal_code"] == ("LS10 2RU", "HG1 1ND")
    assert "name" not in log and "status" not in log


@pytest.mark.parametrize(
    "status, expected",
    [
        ("Active", ("active", False, False, False)),
        ("Liquidation", ("active", False, False, True)),
        ("In Administration", ("active", False, True, False)),
        ("ADMINISTRATION ORDER", ("active", False, True, False)),
        ("Voluntary Arrangement", ("active", False, True, False)),
        ("Receivership Action", ("active", True, False, False)),
        ("VOLUNTARY ARRANGEMENT / ADMINISTRATIVE RECEIVER", ("active", True, False, False)),
        ("Dissolved", ("dissolved", False, False, False)),
        ("Converted/Closed", ("dissolved", False, False, False)),
        ("Something New", (None, None, None, None)),
    ],
)
def test_status_table(status, expected):
    state = state_of(status)
    assert (state.status, state.in_bankruptcy, state.in_restructuring, state.in_liquidation) == expected


def test_status_changes_set_flags(engine, settings, tmp_path):
    header, body = rows()
    run(engine, settings, "gb_companies_house", SAMPLE_2021)
    body = [
        set_cell(header, body[0], "CompanyStatus", "Liquidation"),
        set_cell(header, body[1], "CompanyStatus", "In Administration"),
        set_cell(
            header, set_cell(header, body[2], "CompanyStatus", "Dissolved"), "DissolutionDate", "01/03/2021"
        ),
    ]
    write(tmp_path / "changed.csv", header, body)
    stats = run(engine, settings, "gb_companies_house", tmp_path / "changed.csv")
    assert stats.updated == 3
    assert company(engine, "GB", "12778855")["in_liquidation"] is True
    assert company(engine, "GB", "08209948")["in_restructuring"] is True
    dissolved = company(engine, "GB", "11399177")
    assert (dissolved["status"], dissolved["dissolved_on"]) == ("dissolved", date(2021, 3, 1))
    assert changes(engine, "12778855")["in_liquidation"] == ("false", "true")


def test_malformed_rows_are_rejected_with_reasons(engine, settings, tmp_path):
    header, body = rows()
    raw = io.StringIO()
    writer = csv.writer(raw, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerows([header, body[0]])
    raw.write('"TRUNCATED LTD","12345678","","","1 HIGH STREET"\r\n')
    writer.writerows(
        [
            set_cell(header, body[1], "CompanyNumber", "1234567X"),
            set_cell(header, body[2], "IncorporationDate", "31/02/2020"),
            set_cell(
                header,
                set_cell(header, body[3], "CompanyName", "CAFÉ ÉCLAIR & SØNS LTD"),
                "RegAddress.PostTown",
                "ÅLESUND",
            ),
        ]
    )
    (tmp_path / "mixed.csv").write_text(raw.getvalue(), encoding="utf-8")
    stats, rejected = rejects(engine, settings, "gb_companies_house", tmp_path / "mixed.csv")
    assert (stats.inserted, stats.rejected) == (2, 3)
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "has 5 fields, the header 55",
        "is not a valid GB company number",
        "IncorporationDate is not a dd/mm/yyyy date",
    ):
        assert expected in reasons
    row = company(engine, "GB", "11743365")
    assert (row["name"], row["city"], row["name_norm"]) == (
        "CAFÉ ÉCLAIR & SØNS LTD",
        "ÅLESUND",
        "cafe eclair and sons",
    )


def test_the_published_zip_is_read(engine, settings, tmp_path):
    archive = tmp_path / "BasicCompanyDataAsOneFile-2024-11-01.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(ROW_2024, "BasicCompanyDataAsOneFile-2024-11-01.csv")
    assert run(engine, settings, "gb_companies_house", archive).inserted == 1
    assert provenance(engine, "08209948")["published_on"] == date(2024, 11, 1)


@pytest.mark.parametrize(
    "fixture", ["psc_snapshot_sample.jsonl", "../cz_ares/ekonomicke-subjekty_26168685.json"]
)
def test_wrong_format_aborts(engine, settings, fixture):
    with pytest.raises(SourceAbort):
        run(engine, settings, "gb_companies_house", DIR / fixture)
    assert count(engine) == 0
