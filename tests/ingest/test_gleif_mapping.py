"""The RA-code → company-key mapping (spec 2.4), the XML/JSON equivalence and the benchmark generator."""

from __future__ import annotations

import gzip
import json
import re
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select

from regintel.db.schema import companies, lei_records
from regintel.domain.types import CompanyKey, CompanyRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.sources.gleif import GleifLeiSource
from regintel.ingest.sources.gleif_registers import NATIONAL_REGISTERS, company_key, ra_countries
from regintel.ingest.sources.gleif_stream import LAYOUTS, xml_node
from tests.ingest.test_gleif import LEI_UPDATES, count, run

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
import gen_gleif  # noqa: E402


def test_every_mapped_register_is_in_the_bundled_ra_list():
    listed = ra_countries()
    assert len(listed) == 991  # 994 codes; RA777777, RA888888 and RA999999 have no country
    for country, codes in NATIONAL_REGISTERS.items():
        for code in codes:
            assert country in listed[code], (country, code)


@pytest.mark.parametrize(
    "ra, entity_id, key",
    [
        ("RA000526", "51078066", CompanyKey("SK", "51078066")),  # Obchodný register: IČO
        ("RA000670", "35 903 058", CompanyKey("SK", "35903058")),  # Živnostenský register: IČO too
        ("RA000163", "26463199", CompanyKey("CZ", "26463199")),  # Obchodní rejstřík
        ("RA000585", "OC425626", CompanyKey("GB", "OC425626")),  # Companies House, an LLP
        ("RA000587", "SC123456", CompanyKey("GB", "SC123456")),  # Companies House Scotland
        ("RA000192", "951 261 734", CompanyKey("FR", "951261734")),  # RCS number = SIREN
        ("RA000472", "964 169 969", CompanyKey("NO", "964169969")),
        ("RA000188", "2906337-1", CompanyKey("FI", "2906337-1")),
        ("RA000549", "CHE-105.163.532", CompanyKey("CH", "CHE105163532")),
        ("RA000161", "ΗΕ 350042", CompanyKey("CY", "HE350042")),  # Greek capitals that look Latin
        ("RA000706", "SK35903058VUB04", None),  # SK list of investment funds: no IČO
        ("RA000533", "MA-152437-8", None),  # Registro Mercantil sheet, not a CIF
        ("RA000242", "HRB 99403", None),  # German registers are not our key
        ("RA999999", None, None),  # no register at all
        ("RA000999", "123", None),  # a code not on the list
        (None, None, None),
    ],
)
def test_company_key(ra, entity_id, key):
    assert company_key(ra, entity_id) == key


@pytest.mark.parametrize(
    "ra, entity_id",
    [
        ("RA000526", "35903059"),  # IČO check digit
        ("RA000526", None),
        ("RA000163", "9999999"),
        ("RA000189", "123456789"),  # SIREN Luhn
    ],
)
def test_invalid_entity_id_of_a_national_register(ra, entity_id):
    with pytest.raises(InvalidIdentifier):
        company_key(ra, entity_id)


def test_xml_and_json_flavours_give_the_same_records(tmp_path):
    root = ET.parse(LEI_UPDATES).getroot()
    nodes = [xml_node(e) for e in root.iter("{" + LAYOUTS[0].namespace + "}LEIRecord")]
    as_json = tmp_path / "lei.json"
    as_json.write_text(json.dumps({"records": nodes}, ensure_ascii=False), encoding="utf-8")
    with open(LEI_UPDATES, "rb") as xml_in, open(as_json, "rb") as json_in:
        from_xml = list(GleifLeiSource().parse(xml_in, LEI_UPDATES.name))
        from_json = list(GleifLeiSource().parse(json_in, as_json.name))

    def undated(records):  # the JSON has no header: its companies carry their record's update date
        return [replace(r, published_on=None) if isinstance(r, CompanyRecord) else r for r in records]

    assert len(from_xml) == 19  # 12 LEI records + 7 linked companies (SK, AU, LU)
    assert undated(from_xml) == undated(from_json)


def test_generator_output_imports(engine, settings, tmp_path):
    path = tmp_path / "gleif-lei-500.xml.gz"
    gen_gleif.main(["--count", "500", "--out", str(path), "--seed", "7"])
    text = gzip.open(path, "rt", encoding="utf-8").read()
    linked = len(re.findall(r"<lei:RegistrationAuthorityID>RA000(526|163|585)<", text))
    stats = run(engine, settings, path)
    assert (stats.rejected, stats.read) == (0, 500 + linked)
    assert count(engine, lei_records) == 500
    assert count(engine, companies) == linked > 300
    with engine.connect() as conn:
        sk = conn.execute(select(companies.c.national_id).where(companies.c.country == "SK")).scalars().all()
    assert len(sk) == len(set(sk)) > 100
    again = tmp_path / "again.xml.gz"
    gen_gleif.main(["--count", "500", "--out", str(again), "--seed", "7"])
    assert gzip.open(again, "rt", encoding="utf-8").read() == text  # deterministic for a seed
