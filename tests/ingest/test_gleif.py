"""GLEIF LEI-CDF import (source `gleif`): real golden-copy and delta files, XML and JSON."""

from __future__ import annotations

import gzip
import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from regintel.db.schema import companies, company_changes, company_sources, identifiers, lei_records
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.loader import Loader
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source
from tests.ingest.test_loader import INFO as REGISTER

FIXTURES = Path(__file__).parent.parent / "fixtures" / "gleif"
LEI_XML = FIXTURES / "bodspipelines_lei-data.xml"
LEI_UPDATES = FIXTURES / "bodspipelines_lei-updates-data2.xml"
LEI_JSON = FIXTURES / "20240505-0000-gleif-goldencopy-lei2-intra-day.json"


def run(engine, settings, path, source="gleif"):
    return run_import(engine, get_source(source), str(path), settings.data_dir)[1]


def lei_row(engine, lei):
    with engine.connect() as conn:
        return conn.execute(select(lei_records).where(lei_records.c.lei == lei)).mappings().one()


def company(engine, country, national_id):
    with engine.connect() as conn:
        return (
            conn.execute(
                select(companies).where(
                    companies.c.country == country, companies.c.national_id == national_id
                )
            )
            .mappings()
            .one()
        )


def count(engine, table, *where):
    with engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table).where(*where)).scalar_one()


def test_golden_copy_xml(engine, settings):
    stats = run(engine, settings, LEI_XML)
    # 13 LEI records, 2 of them (GB, Companies House numbers) linked to companies
    assert (stats.read, stats.inserted, stats.rejected) == (15, 15, 0)
    dentsu = lei_row(engine, "213800FERQ5LE3H7WJ58")
    assert (dentsu["legal_name"], dentsu["registration_status"], dentsu["entity_status"]) == (
        "DENTSU INTERNATIONAL LIMITED",
        "ISSUED",
        "ACTIVE",
    )
    assert (dentsu["ra_code"], dentsu["ra_entity_id"], dentsu["country"], dentsu["legal_form"]) == (
        "RA000585",
        "01403668",
        "GB",
        "H0PO",
    )
    row = company(engine, "GB", "01403668")
    assert dentsu["company_id"] == row["id"]
    assert (row["name"], row["lei"], row["legal_form"], row["status"], row["city"], row["postal_code"]) == (
        "DENTSU INTERNATIONAL LIMITED",
        "213800FERQ5LE3H7WJ58",
        "H0PO",
        "active",
        "LONDON",
        "NW1 3BF",
    )
    assert row["street"] == "10 TRITON STREET"
    assert row["address_text"] == "10 TRITON STREET, REGENT'S PLACE, NW1 3BF LONDON"
    assert (
        count(engine, identifiers, identifiers.c.type == "lei", identifiers.c.value == "213800FERQ5LE3H7WJ58")
        == 1
    )
    with engine.connect() as conn:
        prov = (
            conn.execute(select(company_sources).where(company_sources.c.company_id == row["id"]))
            .mappings()
            .one()
        )
    assert (prov["source"], prov["source_record_id"], prov["published_on"]) == (
        "gleif",
        "213800FERQ5LE3H7WJ58",
        date(2023, 6, 5),
    )


def test_unlinked_registers_and_retired_status(engine, settings):
    run(engine, settings, LEI_XML)
    fund = lei_row(engine, "001GPB6A9XPE8XJICC14")  # a US fund: SEC register, not a company key
    assert fund["company_id"] is None
    assert (fund["entity_category"], fund["legal_form"], fund["jurisdiction"], fund["city"]) == (
        "FUND",
        "8888",
        "US-MA",
        "BOSTON",
    )
    assert fund["initial_registration"].replace(tzinfo=None) == datetime(2012, 11, 29, 16, 33)
    retired = lei_row(engine, "00TR8NKAEL48RGTZEW89")
    assert (retired["registration_status"], retired["entity_status"]) == ("RETIRED", "INACTIVE")
    assert count(engine, companies) == 2


def test_second_import_changes_nothing(engine, settings):
    run(engine, settings, LEI_JSON)
    changes = count(engine, company_changes)
    stats = run(engine, settings, LEI_JSON)
    assert (stats.inserted, stats.updated, stats.rejected, stats.changes) == (0, 0, 0, 0)
    assert stats.unchanged == stats.read
    assert count(engine, company_changes) == changes


def test_json_delta_keeps_lapsed_and_links_sk(engine, settings):
    stats = run(engine, settings, LEI_JSON)
    assert count(engine, lei_records) == 577
    assert count(engine, lei_records, lei_records.c.registration_status == "LAPSED") == 333
    assert stats.rejected == 0
    # every record whose register numbers entities by our key links to a company: 185 of 577
    # (177 in the 23 markets, 8 in Australia and Luxembourg)
    assert count(engine, lei_records, lei_records.c.company_id.is_not(None)) == 185
    sk = count(
        engine,
        lei_records,
        lei_records.c.company_id.in_(select(companies.c.id).where(companies.c.country == "SK")),
    )
    assert sk == 2
    # SADALBARI SRL carries an INSOLVENCY event in progress since 2023-11-16
    assert company(engine, "RO", "19096171")["in_bankruptcy"] is True
    alfa = lei_row(engine, "097900BID10000147476")
    assert (alfa["registration_status"], alfa["conformity_flag"], alfa["ra_code"]) == (
        "LAPSED",
        "CONFORMING",
        "RA000526",
    )
    assert alfa["next_renewal"].replace(tzinfo=None) == datetime(
        2024, 5, 3, 6, 31, 20, 554000
    )  # +02:00 → UTC
    row = company(engine, "SK", "51078066")
    assert (row["name"], row["legal_form"], row["postal_code"], row["city"], row["founded_on"]) == (
        "ALFA REY s.r.o.",
        "VSZS",
        "915 01",
        "Nové Mesto nad Váhom",
        date(2017, 9, 20),
    )
    assert company(engine, "SK", "46675493")["name"] == "KNN s.r.o."
    assert company(engine, "CZ", "26463199")["legal_form"] == "QS6A"
    assert company(engine, "CY", "HE350042")["name"] == "INTEGOL TECHNOLOGIES LTD"  # typed with Greek ΗΕ
    assert company(engine, "FR", "951261734")["name"] == "sci DGNA"  # RCS "951 261 734"
    assert company(engine, "NO", "964169969")["name"] == "GLEN DIMPLEX NORDIC AS"
    with engine.connect() as conn:
        published = conn.execute(select(company_sources.c.published_on).distinct()).scalars().all()
    assert published == [date(2024, 5, 5)]  # from the golden-copy file name


def test_updates_file(engine, settings):
    run(engine, settings, LEI_XML)
    stats = run(engine, settings, LEI_UPDATES)
    # 00TR8NKAEL48RGTZEW89 came back to life: RETIRED/INACTIVE → ISSUED/ACTIVE
    retired = lei_row(engine, "00TR8NKAEL48RGTZEW89")
    assert (retired["registration_status"], retired["entity_status"]) == ("ISSUED", "ACTIVE")
    assert retired["last_update"].replace(tzinfo=None) == datetime(2023, 8, 3, 6, 48, 3, 80000)
    assert stats.updated == 1 and stats.rejected == 0
    vub = company(engine, "SK", "31320155")
    assert (vub["name"], vub["lei"], vub["legal_form"]) == (
        "Všeobecná úverová banka, a.s.",
        "549300JB1P61FUTPEZ75",
        "2EEG",
    )
    aquila = company(engine, "SK", "52143058")
    assert aquila["in_liquidation"] is True  # LegalEntityEvent LIQUIDATION IN_PROGRESS
    fund = lei_row(engine, "097900BEJX0000002337")  # a pension fund in the SK fund list: no IČO
    assert (fund["ra_code"], fund["company_id"]) == ("RA000706", None)


def _edited_json(tmp_path: Path) -> Path:
    """The JSON delta with ALFA REY renamed, moved, dissolved, and KNN's legal form changed."""
    text = LEI_JSON.read_text(encoding="utf-8")
    for old, new in [
        ('"ALFA REY s.r.o."', '"ALFA REY PLUS s.r.o."'),
        ('"Banská 1120/4"', '"Hlavná 7"'),
        ('"KNN s.r.o."', '"KNN a.s."'),
    ]:
        assert old in text
        text = text.replace(old, new)
    alfa_status = text.index('"EntityStatus"', text.index("ALFA REY PLUS"))
    text = text[:alfa_status] + text[alfa_status:].replace('"ACTIVE"', '"INACTIVE"', 1)
    path = tmp_path / LEI_JSON.name
    path.write_text(text, encoding="utf-8")
    return path


def test_field_level_changes(engine, settings, tmp_path):
    run(engine, settings, LEI_JSON)
    stats = run(engine, settings, _edited_json(tmp_path))
    alfa = company(engine, "SK", "51078066")
    with engine.connect() as conn:
        rows = (
            conn.execute(
                select(company_changes).where(
                    company_changes.c.company_id == alfa["id"], company_changes.c.field != "created"
                )
            )
            .mappings()
            .all()
        )
    assert {r["field"]: (r["old_value"], r["new_value"]) for r in rows} == {
        "name": ("ALFA REY s.r.o.", "ALFA REY PLUS s.r.o."),
        "street": ("Banská 1120/4", "Hlavná 7"),
        "address_text": (
            "Banská 1120/4, 915 01 Nové Mesto nad Váhom",
            "Hlavná 7, 915 01 Nové Mesto nad Váhom",
        ),
        "status": ("active", "inactive"),
    }
    assert all(r["source"] == "gleif" for r in rows)
    assert lei_row(engine, "097900BID10000147476")["entity_status"] == "INACTIVE"
    assert company(engine, "SK", "46675493")["name"] == "KNN a.s."
    # two companies and their two LEI records changed; nothing else
    assert (stats.updated, stats.inserted, stats.unchanged) == (4, 0, 577 + 185 - 4)


def test_register_data_is_not_overridden(engine, settings):
    loader = Loader(engine, REGISTER)
    loader.add(
        CompanyRecord(country="SK", national_id="51078066", name="ALFA REY, s. r. o.", city="Nové Mesto n/V")
    )
    loader.flush()
    run(engine, settings, LEI_JSON)
    row = company(engine, "SK", "51078066")
    # GLEIF fills what the register left empty (LEI, legal form, street) and keeps its name and city
    assert (row["name"], row["city"]) == ("ALFA REY, s. r. o.", "Nové Mesto n/V")
    assert (row["lei"], row["legal_form"], row["street"]) == ("097900BID10000147476", "VSZS", "Banská 1120/4")
    assert lei_row(engine, "097900BID10000147476")["company_id"] == row["id"]


def _corrupt(tmp_path: Path) -> Path:
    text = LEI_UPDATES.read_text(encoding="utf-8")
    edits = [
        (
            "<lei:LEI>2138002YAB7Z9KO21397</lei:LEI>",
            "<lei:LEI>2138002YAB7Z9KO21398</lei:LEI>",
        ),  # check digits
        ('<lei:LegalName xml:lang="en">MONEYTECH GROUP LIMITED</lei:LegalName>', ""),  # no legal name
        (
            "<lei:InitialRegistrationDate>2020-03-17T08:22:48+00:00",
            "<lei:InitialRegistrationDate>17.03.2020",
        ),  # not ISO 8601
        (
            "<lei:RegistrationAuthorityEntityID>35903058</lei:RegistrationAuthorityEntityID>",
            "<lei:RegistrationAuthorityEntityID>35903059</lei:RegistrationAuthorityEntityID>",
        ),  # bad IČO
        (
            "<lei:EntityCategory>FUND</lei:EntityCategory>",
            "<lei:EntityCategory>FUND FUND FUND FUND FUND FUND FUND</lei:EntityCategory>",
        ),  # too long a code
    ]
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    cut = text.index("<lei:LEI>98450051BS9C610A8T78</lei:LEI>")  # the last record breaks off
    path = tmp_path / "lei-corrupted.xml"
    path.write_text(text[: cut + 60], encoding="utf-8")
    return path


def test_corrupted_records_are_rejected_and_the_rest_loads(engine, settings, tmp_path):
    stats = run(engine, settings, _corrupt(tmp_path))
    assert stats.reasons == {
        "invalid LEI": 1,
        "no LegalName or RegistrationStatus": 1,
        "InitialRegistrationDate is not an ISO 8601 date": 1,
        "LEI not linked to a company (invalid national id)": 1,
        "EntityCategory is not a code": 1,
        "malformed or truncated XML, the rest of the file was not read": 1,
    }
    # VÚB Generali keeps its LEI record, unlinked; the diacritics of the other SK records survive
    generali = lei_row(engine, "097900BHF50000076475")
    assert (generali["company_id"], generali["ra_entity_id"]) == (None, "35903059")
    assert company(engine, "SK", "52143058")["name"] == "Aquila Real Asset Finance III a. s. v likvidácii"
    assert count(engine, lei_records) == 12 - 5  # 4 bad records and the truncated one
    with open(settings.data_dir / "rejects" / "gleif-1.jsonl", encoding="utf-8") as fh:
        assert sum(1 for _ in fh) == 6


def test_truncated_json(engine, settings, tmp_path):
    data = LEI_JSON.read_bytes()
    path = tmp_path / "cut.json"
    path.write_bytes(data[: len(data) // 2])
    stats = run(engine, settings, path)
    assert list(stats.reasons) == ["malformed or truncated JSON, the rest of the file was not read"]
    assert 250 < count(engine, lei_records) < 330


def test_gzip_and_content_sniffing(engine, settings, tmp_path):
    named = tmp_path / "lei.xml.gz"
    with gzip.open(named, "wb") as out:
        out.write(LEI_XML.read_bytes())
    assert run(engine, settings, named).inserted == 15
    unnamed = tmp_path / "download.json"  # gzip and XML whatever the name says
    shutil.copy(named, unnamed)
    stats = run(engine, settings, unnamed)
    assert (stats.inserted, stats.updated, stats.unchanged) == (0, 0, 15)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"LEI,LegalName\n529900T8BM49AURSDO55,Test\n", "neither GLEIF XML nor GLEIF JSON"),
        (b"", "neither GLEIF XML nor GLEIF JSON"),
        (b"<html><body>Service unavailable</body></html>", "not a GLEIF LEI-CDF file"),
        (
            b"<?xml version='1.0'?><lei:LEIData xmlns:lei='http://www.gleif.org/data/schema/leidata/2016'",
            "not well-formed XML",
        ),
        (b'{"error": "rate limited"}', "no array of records"),
        (b'{"records": [{"Relationship": {}}]}', "import it with `gleif_rr`"),
        (b"[1, 2, 3]", "does not hold GLEIF LEI-CDF records"),
        ((FIXTURES / "bodspipelines_rr-data.xml").read_bytes(), "import it with `gleif_rr`"),
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content, message):
    path = tmp_path / "input.xml"
    path.write_bytes(content)
    with pytest.raises(SourceAbort, match=message.replace("`", ".").replace("(", ".")):
        run(engine, settings, path)
    assert count(engine, lei_records) == 0


def test_timestamps_are_utc(engine, settings):
    run(engine, settings, LEI_UPDATES)
    vub = lei_row(engine, "549300JB1P61FUTPEZ75")
    # LastUpdateDate 2023-09-12T08:30:46.285+02:00
    stored = vub["last_update"]
    stored = stored.astimezone(UTC).replace(tzinfo=None) if stored.tzinfo else stored
    assert stored == datetime(2023, 9, 12, 6, 30, 46, 285000)
