"""Screening endpoints through HTTP: public screening, the HTML screener, company hits and Maltego."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from regintel.domain.screening import ALGORITHM, DEFAULT_THRESHOLD
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.screening.support import load_lists

SCREEN = "/api/v1/public/screen"
NAME = "/api/v1/public/screen/name"


@pytest.fixture
def lists(engine):
    load_lists(engine)


def test_screen_name_explains_every_hit(client, lists):
    data = assert_envelope(client.post(NAME, json={"name": "Mohammad Hassan Akhund"}))
    assert data["algorithm"] == ALGORITHM and data["threshold"] == DEFAULT_THRESHOLD
    assert data["query"]["normalized_name"] == "mohammad hassan akhund"
    top = data["hits"][0]
    assert (top["id"], top["list"]["id"], top["schema"], top["score"]) == (
        "sanctions_uk:AFG0006",
        "sanctions_uk",
        "person",
        1.0,
    )
    assert top["matched_name_kind"] == "primary" and "1958-05-12" in top["birth_dates"]
    for hit in data["hits"]:
        assert hit["score"] >= DEFAULT_THRESHOLD and hit["features"]
        names = {f["name"] for f in hit["features"]}
        assert {"name_query_tokens", "name_listed_tokens", "name_token_sort", "name_phonetic"} <= names
        assert hit["score"] == pytest.approx(
            min(1.0, sum(f["contribution"] for f in hit["features"])), abs=2e-3
        )
    assert {v["id"] for v in data["lists"]} == {"sanctions_eu_fsf", "sanctions_uk", "sanctions_ofac"}


def test_screen_transliterated_typo_and_word_order(client, lists):
    for name in ("محمد حسن آخوند", "Akhund Mohamad Hasan", "AKHUND, Mohammad"):
        hits = assert_envelope(client.post(NAME, json={"name": name}))["hits"]
        assert "sanctions_uk:AFG0006" in [h["id"] for h in hits], name


def test_entity_evidence_moves_the_score(client, lists):
    base = {"name": "Mohammad Akhund", "schema": "person"}
    plain = assert_envelope(client.post(SCREEN, json=base))["hits"][0]
    same = assert_envelope(
        client.post(
            SCREEN,
            json=base | {"birth_date": "1958-05-12", "countries": ["af"], "identifiers": ["P 0458 1926"]},
        )
    )["hits"][0]
    other = assert_envelope(
        client.post(SCREEN, json=base | {"birth_date": "1990", "countries": ["FR"], "threshold": 0.0})
    )["hits"][0]
    assert same["score"] > plain["score"] > other["score"]
    assert {"birth_date_match", "country_match", "identifier_match"} <= {f["name"] for f in same["features"]}
    assert {"birth_date_mismatch", "country_mismatch"} <= {f["name"] for f in other["features"]}
    org = assert_envelope(client.post(SCREEN, json=base | {"schema": "organization", "threshold": 0.0}))
    assert "schema_mismatch" in {f["name"] for f in org["hits"][0]["features"]}


def test_weak_alias_is_kept_apart_and_penalised(client, lists):
    hits = assert_envelope(client.post(NAME, json={"name": "BNK", "threshold": 0.5}))["hits"]
    bnk = next(h for h in hits if h["id"] == "sanctions_uk:BEL0107")
    assert bnk["matched_name_kind"] in {"weak", "primary"}
    assert {"name": "BNK", "kind": "weak"} in bnk["names"]


def test_threshold_and_limit_and_lists(client, lists):
    loose = assert_envelope(client.post(NAME, json={"name": "Banco Nacional", "threshold": 0.3, "limit": 50}))
    strict = assert_envelope(client.post(NAME, json={"name": "Banco Nacional", "threshold": 0.95}))
    assert len(loose["hits"]) > len(strict["hits"])
    assert all(h["score"] >= 0.3 for h in loose["hits"])
    only = assert_envelope(
        client.post(NAME, json={"name": "Mohammad Akhund", "lists": ["sanctions_eu_fsf"], "threshold": 0.0})
    )
    assert {h["list"]["id"] for h in only["hits"]} <= {"sanctions_eu_fsf"}
    assert [v["id"] for v in only["lists"]] == ["sanctions_eu_fsf"]


def test_no_hit_is_an_empty_list(client, lists):
    assert assert_envelope(client.post(NAME, json={"name": "Zuzana Čaputová"}))["hits"] == []


BAD_NAME_BODIES = [
    ({"name": ""}, "name"),
    ({"name": "x" * 301}, "name"),
    ({"name": "!!!"}, "name"),
    ({"name": "A", "threshold": 2}, "threshold"),
    ({"name": "A", "limit": 0}, "limit"),
    ({"name": "A", "unknown": 1}, "unknown"),
    ({"name": 5}, "name"),
    ({"name": "A", "schema": "person"}, "schema"),
]
BAD_ENTITY_BODIES = [
    ({"name": "A B", "countries": ["XX"]}, "countries"),
    ({"name": "A B", "birth_date": "12.5.1958"}, "birth_date"),
    ({"name": "A B", "schema": "ship"}, "schema"),
    ({"name": "A B", "identifiers": ["9" * 65]}, "identifiers"),
    ({"name": "A B", "schema_": "person"}, "schema_"),
]


def test_bad_bodies(client):
    for body, field in BAD_NAME_BODIES:
        err = assert_error(client.post(NAME, json=body), 422, "VALIDATION_ERROR")
        assert field in str(err["details"]), body
    for body, field in BAD_ENTITY_BODIES:
        err = assert_error(client.post(SCREEN, json=body), 422, "VALIDATION_ERROR")
        assert field in str(err["details"]), body
    assert_error(
        client.post(SCREEN, content=b"{not json", headers={"content-type": "application/json"}),
        422,
        "VALIDATION_ERROR",
    )


@pytest.mark.parametrize("listed", [["nope"], [""], ["sanctions_un", "SANCTIONS_UK"]])
def test_unknown_list_is_422(client, lists, listed):
    # The document lists the ids a server knows, so a value outside them is invalid input.
    err = assert_error(client.post(SCREEN, json={"name": "A B", "lists": listed}), 422, "VALIDATION_ERROR")
    assert "lists" in str(err["details"])


def test_a_known_list_not_imported_is_501(client, lists):
    err = assert_error(
        client.post(NAME, json={"name": "A B", "lists": ["sanctions_un"]}), 501, "NOT_IMPLEMENTED"
    )
    assert "sanctions_un" in err["message"]
    assert err["details"]["missing"] == ["sanctions_un"]


def test_the_document_lists_the_known_lists(client):
    doc = client.get("/api/v1/public/openapi.json").json()
    items = doc["components"]["schemas"]["NameQuery"]["properties"]["lists"]["anyOf"][0]["items"]
    assert items["enum"] == [
        "opensanctions_ftm",
        "sanctions_eu_fsf",
        "sanctions_ofac",
        "sanctions_uk",
        "sanctions_un",
    ]


def test_huge_and_unicode_inputs(client, lists):
    many = " ".join(["Mohammad"] * 60)
    assert_envelope(client.post(NAME, json={"name": many[:300]}))
    assert_envelope(client.post(NAME, json={"name": "北京 🚀 Ωμέγα"}))


def test_without_lists_screening_is_501(client):
    assert_error(client.post(NAME, json={"name": "Anyone"}), 501, "NOT_IMPLEMENTED")


def test_screener_page_works_without_javascript(client, lists):
    empty = client.get("/api/v1/public/screener")
    assert empty.status_code == 200 and "<form" in empty.text and "<script" not in empty.text
    page = client.get("/api/v1/public/screener", params={"name": "Mohammad Hassan Akhund", "country": "AF"})
    assert (
        page.status_code == 200 and "sanctions_uk:AFG0006" in page.text and "name_query_tokens" in page.text
    )
    bad = client.get("/api/v1/public/screener", params={"name": "x", "threshold": "abc"})
    assert bad.status_code == 422 and "threshold" in bad.text
    assert_error(client.get("/api/v1/public/screener", params={"nope": 1}), 422, "VALIDATION_ERROR")


SCREENER = "/api/v1/public/screener"


@pytest.mark.parametrize(
    "params",
    [
        {"country": "A"},  # issue 16: answered 200 although the document says two letters
        {"country": "A1"},
        {"country": "ZZ"},  # two letters, but no country: the document lists the ISO codes
        {"country": "aF"},
        {"name": "Akhund", "country": "AFG"},
        {"schema": "robot"},
        {"birth_date": "1971-1"},
        {"birth_date": "١٩٧١"},  # digits of another script: the document's [0-9] only
        {"threshold": "1.5"},
        {"threshold": "nan"},
        {"threshold": "abc"},
    ],
)
def test_screener_refuses_what_its_document_forbids(client, lists, params):
    assert_error(client.get(SCREENER, params=params), 422, "VALIDATION_ERROR")


def test_screener_takes_what_its_document_allows(client, lists):
    blank = {"name": "", "schema": "", "country": "", "birth_date": "", "identifier": "", "threshold": ""}
    page = client.get(SCREENER, params=blank)
    assert page.status_code == 200 and "<form" in page.text and "hit(s) for" not in page.text
    form = blank | {"name": "Mohammad Hassan Akhund", "country": "af", "birth_date": "1945"}
    hit = client.get(SCREENER, params=form | {"schema": "person", "threshold": "0.9"})
    assert hit.status_code == 200 and "sanctions_uk:AFG0006" in hit.text
    assert client.get(SCREENER, params=form).status_code == 200
    # a name with nothing to compare: the form again, with the reason (422)
    marks = client.get(SCREENER, params=blank | {"name": "!!!"})
    assert marks.status_code == 422 and "<form" in marks.text and "no letters or digits" in marks.text
    doc = client.get("/api/v1/public/openapi.json").json()
    params = {p["name"]: p["schema"] for p in doc["paths"][SCREENER]["get"]["parameters"]}
    assert {"const": "", "description": "a blank form field: not given"} in params["country"]["anyOf"]
    iso = next(p for p in params["country"]["anyOf"] if "enum" in p)
    assert {"AF", "af", "SK", "sk"} <= set(iso["enum"]) and "ZZ" not in iso["enum"]
    assert params["schema"]["anyOf"][0]["enum"] == ["person", "organization", "vessel", "aircraft", ""]
    assert {"type": "number", "minimum": 0.0, "maximum": 1.0} in params["threshold"]["anyOf"]


URL = "/api/v1/companies/{}/sanctions"
ICO = "31322832"


@pytest.fixture
def company(engine, lists):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=ICO,
            name="BANCO NACIONAL DE CUBA, a.s.",
            roles=[
                RoleRecord(
                    role="director",
                    holder_name="Mohammad Hassan Akhund",
                    person=PersonRecord(name="Mohammad Hassan Akhund", birth_date="1958-05-12"),
                ),
                RoleRecord(role="shareholder", holder_name="BNK (UK) Ltd"),
            ],
        ),
    )


def test_company_hits_gate_natural_persons(client, auth, company):
    data = assert_envelope(client.get(URL.format(ICO), headers=auth))
    assert data["natural_persons_screened"] is False
    subjects = {(s["subject"], s["name"]): s for s in data["subjects"]}
    assert ("officer", "Mohammad Hassan Akhund") not in subjects
    assert "sanctions_ofac:306" in [
        h["id"] for h in subjects[("company", "BANCO NACIONAL DE CUBA, a.s.")]["hits"]
    ]
    assert "sanctions_uk:BEL0107" in [h["id"] for h in subjects[("owner", "BNK (UK) Ltd")]["hits"]]
    gated = assert_envelope(client.get(URL.format(ICO), params={"purpose": "kyc"}, headers=auth))
    officer = next(s for s in gated["subjects"] if s["subject"] == "officer")
    assert officer["hits"][0]["id"] == "sanctions_uk:AFG0006"
    assert "birth_date_match" in {f["name"] for f in officer["hits"][0]["features"]}
    assert gated["hit_count"] > data["hit_count"]


def test_company_hits_edges(client, auth, company, make_key):
    assert_error(client.get(URL.format(ICO)), 401, "UNAUTHORIZED")
    assert_error(client.get(URL.format("12345679")), 401, "UNAUTHORIZED")
    assert_error(client.get(URL.format("35763469"), headers=auth), 404, "NOT_FOUND")
    assert_error(
        client.get(URL.format("11640218"), params={"country": "sk"}, headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get(URL.format("1" * 41), headers=auth), 422, "VALIDATION_ERROR")
    assert_error(
        client.get(URL.format(ICO), params={"purpose": "curiosity"}, headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get(URL.format(ICO), params={"threshold": 3}, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(URL.format(ICO), params={"foo": 1}, headers=auth), 422, "VALIDATION_ERROR")


def test_company_hits_ambiguous(client, auth, engine, company):
    load_companies(engine, CompanyRecord(country="CZ", national_id=ICO, name="Česká firma s.r.o."))
    err = assert_error(client.get(URL.format(ICO), headers=auth), 409, "AMBIGUOUS_IDENTIFIER")
    assert {c["country"] for c in err["details"]["candidates"]} == {"SK", "CZ"}
    data = assert_envelope(client.get(URL.format(ICO), params={"country": "cz"}, headers=auth))
    assert (data["country"], data["name"], data["hit_count"]) == ("CZ", "Česká firma s.r.o.", 0)


def test_maltego_transform(client, auth, company):
    resp = client.get(f"/api/v1/companies/{ICO}/maltego/sanctions", params={"purpose": "kyc"}, headers=auth)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("application/xml")
    root = ET.fromstring(resp.content)
    entities = root.findall("MaltegoTransformResponseMessage/Entities/Entity")
    assert {e.get("Type") for e in entities} >= {"maltego.Person", "maltego.Organization"}
    fields = {f.get("Name"): f.text for f in entities[0].findall("AdditionalFields/Field")}
    assert (
        fields["regintel.sanctions.algorithm"] == ALGORITHM
        and "name_query_tokens" in fields["regintel.sanctions.features"]
    )
    assert_error(client.get(f"/api/v1/companies/{ICO}/maltego/sanctions"), 401, "UNAUTHORIZED")


def test_screener_escapes_input_and_says_when_no_list_is_imported(client):
    page = client.get("/api/v1/public/screener", params={"name": "<script>alert(1)</script>"})
    assert page.status_code == 501 and "No sanctions list is imported" in page.text
    assert "<script>alert" not in page.text and "&lt;script&gt;" in page.text
