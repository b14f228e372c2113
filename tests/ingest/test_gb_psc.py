"""gb_psc: the real PSC snapshot lines, grouped per company into roles."""

from __future__ import annotations

import json
import shutil
from datetime import date

import pytest

from regintel.db.schema import companies, roles
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort, SourceInfo
from regintel.ingest.loader import Loader
from tests.ingest.import_helpers import (
    FIXTURES,
    assert_idempotent,
    changes,
    company,
    count,
    rejects,
    role_rows,
    run,
)

DIR = FIXTURES / "gb_companies_house"
SNAPSHOT = DIR / "psc_snapshot_sample.jsonl"
SEED = SourceInfo(
    id="test_seed",
    name="Test seed",
    publisher="tests",
    country="GB",
    category="register",
    formats="records",
    licence="CC0",
    attribution="tests",
    url="file:",
    cadence="on-demand",
)
# Companies of the snapshot that the test database knows (the real 2024 BasicCompanyData row gives
# 08209948; the others are seeded by number with a placeholder name), plus a corporate PSC's own number.
SEEDED = ("07434180", "10308742", "07731393", "02443921", "00686734")


@pytest.fixture
def known(engine, settings):
    run(engine, settings, "gb_companies_house", DIR / "basic_company_data_single_row_2024.csv")
    loader = Loader(engine, SEED)
    for number in SEEDED:
        loader.add(CompanyRecord(country="GB", national_id=number, name=f"Seeded company {number}"))
    loader.flush()


def lines() -> list[dict]:
    return [json.loads(line) for line in SNAPSHOT.read_text(encoding="utf-8").splitlines()]


def write(path, items) -> None:
    path.write_text(
        "".join((i if isinstance(i, str) else json.dumps(i)) + "\n" for i in items), encoding="utf-8"
    )


def test_snapshot(engine, settings, known, tmp_path):
    dated = tmp_path / "persons-with-significant-control-snapshot-2024-11-22.txt"
    shutil.copy(SNAPSHOT, dated)
    stats, rejected = rejects(engine, settings, "gb_psc", dated)
    # 20 lines give 18 company records (08209948 has two lines), a statement, a super-secure PSC and
    # the totals line; 5 of the 18 companies are in the database.
    assert (stats.read, stats.skipped, stats.inserted) == (21, 3, 0)
    assert stats.skip_reasons == {
        "PSC statement (no person named)": 1,
        "snapshot totals line": 1,
        "super-secure PSC (details withheld by law)": 1,
    }
    assert stats.rejected == 18 - 5 == len(rejected)
    assert {r["reason"] for r in rejected} == {"unknown company and the record has no name"}
    (owner,) = role_rows(engine, "08209948")
    assert (owner["role"], owner["holder_name"], owner["share_pct"], owner["voting_pct"]) == (
        "beneficial_owner",
        "Marc Anthony Feldman",
        75.0,
        None,
    )
    assert (owner["birth_date"], owner["nationality"], owner["country_of_residence"]) == (
        "1961-12",
        "British",
        "England",
    )
    assert owner["natures_of_control"] == ["ownership-of-shares-75-to-100-percent"]
    assert (owner["since"], owner["until"]) == (date(2021, 12, 13), None)
    (corporate,) = role_rows(engine, "07434180")
    assert (corporate["role"], corporate["holder_name"], corporate["share_pct"], corporate["voting_pct"]) == (
        "shareholder",
        "Robert Hitchins Limited",
        75.0,
        75.0,
    )
    assert corporate["holder_company_id"] == company(engine, "GB", "00686734")["id"]
    assert corporate["holder_key"] == "c:GB:00686734"
    (ceased,) = role_rows(engine, "10308742")
    assert (ceased["holder_name"], ceased["until"], ceased["nationality"]) == (
        "Karol Kuczkowski",
        date(2018, 2, 27),
        "Polish",
    )
    assert role_rows(engine, "07731393")[0]["share_pct"] == 25.0
    assert role_rows(engine, "02443921") == []  # only a super-secure PSC: nothing to show


def test_second_import_is_unchanged(engine, settings, known):
    run(engine, settings, "gb_psc", SNAPSHOT)
    before = count(engine, roles)
    assert_idempotent(engine, settings, "gb_psc", SNAPSHOT)
    assert count(engine, roles) == before == 4


def test_lines_of_one_company_are_grouped_and_changes_logged(engine, settings, known, tmp_path):
    first = lines()[0]
    second = json.loads(json.dumps(first))
    second["data"].update(
        name="Mrs Jane Feldman",
        name_elements={"forename": "Jane", "surname": "Feldman"},
        natures_of_control=["voting-rights-25-to-50-percent"],
        date_of_birth={"month": 3, "year": 1963},
    )
    write(tmp_path / "two.jsonl", [first, second])
    run(engine, settings, "gb_psc", tmp_path / "two.jsonl")
    assert [(r["holder_name"], r["voting_pct"]) for r in role_rows(engine, "08209948")] == [
        ("Jane Feldman", 25.0),
        ("Marc Anthony Feldman", None),
    ]
    second["data"]["ceased_on"] = "2024-01-31"
    write(tmp_path / "ceased.jsonl", [first, second])
    run(engine, settings, "gb_psc", tmp_path / "ceased.jsonl")
    assert [r["until"] for r in role_rows(engine, "08209948")] == [date(2024, 1, 31), None]
    old, new = changes(engine, "08209948")["roles"]
    assert "beneficial_owner: Jane Feldman" in old and "beneficial_owner: Jane Feldman" in new


def test_malformed_lines_are_rejected_with_reasons(engine, settings, known, tmp_path):
    good = lines()[0]
    bad_date = json.loads(json.dumps(lines()[2]))
    bad_date["data"]["notified_on"] = "06/04/2016"
    no_number = {"data": lines()[3]["data"]}
    wrong_type = json.loads(json.dumps(lines()[14]))
    wrong_type["data"]["natures_of_control"] = "ownership-of-shares-75-to-100-percent"
    write(tmp_path / "mixed.jsonl", [good, json.dumps(lines()[3])[:90], bad_date, no_number, wrong_type])
    stats, rejected = rejects(engine, settings, "gb_psc", tmp_path / "mixed.jsonl")
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "malformed JSON on line 2",
        "notified_on is not a date",
        "without a company_number",
        "natures_of_control is not a list",
    ):
        assert expected in reasons
    assert [r["holder_name"] for r in role_rows(engine, "08209948")] == ["Marc Anthony Feldman"]
    with engine.connect() as conn:
        assert (
            conn.execute(companies.select().where(companies.c.national_id == "07434180")).first() is not None
        )


@pytest.mark.parametrize(
    "fixture",
    ["basic_company_data_single_row_2024.csv", "../no_brreg/enhetsregisteret_api_enheter_923609016.json"],
)
def test_wrong_format_aborts(engine, settings, fixture):
    with pytest.raises(SourceAbort):
        run(engine, settings, "gb_psc", DIR / fixture)
    assert count(engine, roles) == 0
