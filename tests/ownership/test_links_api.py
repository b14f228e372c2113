"""UK PSC connections, offshore links and the i2 / Maltego exports through HTTP."""

from __future__ import annotations

import csv
import io
from xml.etree import ElementTree as ET

import pytest

from regintel.domain.offshore import JURISDICTIONS, offshore
from regintel.domain.ownership import dates_agree
from tests.helpers import assert_envelope, assert_error
from tests.ownership.world import ALFA, BRIT, LEI_GAMMA, TARGET, load_world

ENDPOINTS = (
    "uk-connections",
    "offshore-links",
    "i2/entities.csv",
    "i2/links.csv",
    "maltego/companies",
    "maltego/officers",
    "maltego/owners",
)


@pytest.fixture
def world(engine):  # type: ignore[no-untyped-def]
    load_world(engine)


def get(client, auth, ico, endpoint, **params):  # type: ignore[no-untyped-def]
    return client.get(f"/api/v1/companies/{ico}/{endpoint}", headers=auth, params=params)


def test_uk_connections(client, auth, world) -> None:
    data = assert_envelope(get(client, auth, TARGET, "uk-connections"))
    got = {(c["kind"], c["match"], c["ukCompany"]["id"]) for c in data["connections"]}
    assert got == {("this_company_is_psc", "identifier", f"c:GB:{BRIT}")}
    # ALFA's shareholder Peter Horváth (born 1971-03-04) and the PSC Peter Horváth (born 1971-03) of BRIT LTD.
    data = assert_envelope(get(client, auth, ALFA, "uk-connections"))
    (conn,) = data["connections"]
    assert (conn["kind"], conn["match"], conn["via"]["name"]) == ("person_is_psc", "name", "Peter Horváth")
    assert conn["psc"]["bands"] == [{"kind": "shares", "moreThan": 50.0, "upTo": 75.0}]
    assert conn["psc"]["holder"]["personal"] is None and conn["via"]["personal"] is None
    with_purpose = assert_envelope(get(client, auth, ALFA, "uk-connections", purpose="aml"))
    assert with_purpose["connections"][0]["psc"]["holder"]["personal"]["birthDate"] == "1971-03"
    data = assert_envelope(get(client, auth, BRIT, "uk-connections", country="gb"))
    assert {(c["kind"], c["psc"]["holder"]["name"]) for c in data["connections"]} == {
        ("psc_of_this_company", "TARGET s.r.o."),
        ("psc_of_this_company", "Peter Horváth"),
    }


def test_offshore_links(client, auth, world) -> None:
    data = assert_envelope(get(client, auth, TARGET, "offshore-links"))
    assert "Financial Stability Forum" in data["jurisdictions"]
    got = [
        (link["entity"]["id"], link["jurisdiction"], link["basis"], link["fsfGroup"])
        for link in data["links"]
    ]
    assert got == [(f"lei:{LEI_GAMMA}", "KY", "lei_jurisdiction", 3)]
    assert data["links"][0]["path"] == [f"c:SK:{TARGET}", f"lei:{LEI_GAMMA}"]
    # Jana Nováková lives in the Cayman Islands: personal data, checked only with a purpose.
    declared = assert_envelope(get(client, auth, TARGET, "offshore-links", purpose="kyc"))
    people = [
        (link["entity"]["name"], link["basis"], link["relation"])
        for link in declared["links"]
        if link["entity"]["type"] == "person"
    ]
    assert people == [("Jana Nováková", "residence", "shareholder")]
    only_group_1 = assert_envelope(get(client, auth, TARGET, "offshore-links", groups="1"))
    assert only_group_1["links"] == []
    by_key = assert_envelope(client.get(f"/api/v1/companies/sk/{TARGET}/offshore-links", headers=auth))
    assert by_key["links"] == data["links"]


def test_offshore_by_key_errors(client, auth, world) -> None:
    assert_error(client.get(f"/api/v1/companies/sk/{TARGET}/offshore-links"), 401, "UNAUTHORIZED")
    assert_error(
        client.get("/api/v1/companies/sk/35000008/offshore-links", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get("/api/v1/companies/sk/35000350/offshore-links", headers=auth), 404, "NOT_FOUND")
    assert_error(
        client.get("/api/v1/companies/s1/35000350/offshore-links", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.get(f"/api/v1/companies/sk/{TARGET}/offshore-links?groups=4", headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.get(f"/api/v1/companies/sk/{TARGET}/offshore-links?x=1", headers=auth), 422, "VALIDATION_ERROR"
    )


def test_i2_csv(client, auth, world) -> None:
    resp = get(client, auth, TARGET, "i2/entities.csv", depth=3)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/csv")
    assert f'filename="SK-{TARGET}-i2-entities.csv"' in resp.headers["content-disposition"]
    entities = list(csv.DictReader(io.StringIO(resp.text)))
    assert {e["Label"] for e in entities} >= {"TARGET s.r.o.", "Peter Horváth", "Offshore Holdings Ltd"}
    assert all(e["Birth Date"] == "" for e in entities)
    links = list(csv.DictReader(io.StringIO(get(client, auth, TARGET, "i2/links.csv", depth=3).text)))
    ids = {e["Identity"] for e in entities}
    assert links and all(link["From Identity"] in ids and link["To Identity"] in ids for link in links)
    assert {link["Label"] for link in links} >= {"shareholder 60%", "director"}
    assert {link["In Cycle"] for link in links} == {"true", "false"}
    with_purpose = list(
        csv.DictReader(io.StringIO(get(client, auth, TARGET, "i2/entities.csv", purpose="kyc").text))
    )
    assert "1980-11-20" in {e["Birth Date"] for e in with_purpose}


def test_i2_csv_defuses_formulas(client, auth, engine) -> None:
    from regintel.domain.types import CompanyRecord, RoleRecord
    from tests.builders import load_companies

    load_companies(engine, CompanyRecord(country="SK", national_id=TARGET, name='=HYPERLINK("x")'))
    load_companies(
        engine,
        CompanyRecord(
            country="SK", national_id=TARGET, roles=[RoleRecord("shareholder", "@SUM(A1)", share_pct=10.0)]
        ),
    )
    text = get(client, auth, TARGET, "i2/entities.csv").text
    assert "'=HYPERLINK" in text and "'@SUM(A1)" in text


def test_maltego(client, auth, world) -> None:
    resp = get(client, auth, TARGET, "maltego/owners")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("application/xml")
    root = ET.fromstring(resp.content)
    entities = root.findall("./MaltegoTransformResponseMessage/Entities/Entity")
    assert [(e.get("Type"), e.findtext("Value")) for e in entities] == [
        ("maltego.Company", "ALFA HOLDING a.s."),
        ("maltego.Person", "Jana Nováková"),
    ]
    fields = {f.get("Name"): f.text for f in entities[0].findall("./AdditionalFields/Field")}
    assert fields["share_pct"] == "60.0" and fields["regintel.id"] == f"c:SK:{ALFA}" and fields["source"]
    assert "birth_date" not in resp.text
    assert "1980-11-20" in get(client, auth, TARGET, "maltego/owners", purpose="kyc").text
    officers = ET.fromstring(get(client, auth, TARGET, "maltego/officers").content)
    assert [e.findtext("Value") for e in officers.iter("Entity")] == ["Ján Kováč"]
    ended = ET.fromstring(get(client, auth, TARGET, "maltego/officers", include_ended="true").content)
    assert len(list(ended.iter("Entity"))) == 2
    companies = ET.fromstring(get(client, auth, TARGET, "maltego/companies").content)
    assert {e.findtext("Value") for e in companies.iter("Entity")} == {
        "ALFA HOLDING a.s.",
        "BRIT LTD",
        "BETA s.r.o.",
        "DELTA s.r.o.",
    }


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_errors(client, auth, world, endpoint) -> None:  # type: ignore[no-untyped-def]
    assert_error(client.get(f"/api/v1/companies/{TARGET}/{endpoint}"), 401, "UNAUTHORIZED")
    assert_error(get(client, auth, "35000350", endpoint), 404, "NOT_FOUND")
    assert_error(get(client, auth, "abc", endpoint), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, TARGET, endpoint, bogus="1"), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, TARGET, endpoint, purpose="gossip"), 422, "VALIDATION_ERROR")


def test_offshore_list() -> None:
    assert len({j.code for j in JURISDICTIONS.values()} - {"CW", "SX", "BQ"}) == 42  # the FSF's 42 centres
    assert offshore("ky").group == 3 and offshore("MY-15").name.startswith("Labuan")  # type: ignore[union-attr]
    assert offshore("MY") is None and offshore("SK") is None and offshore(None) is None
    assert offshore("JE", frozenset({2, 3})) is None


def test_dates_agree() -> None:
    assert dates_agree("1971-03", "1971-03-04") and dates_agree(None, "1971") and dates_agree("1971", "1971")
    assert not dates_agree("1971-04", "1971-03-04")
