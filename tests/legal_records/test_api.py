"""The legal-records routes through HTTP: justice decisions, a company's antitrust cases, permits,
collection-of-laws entries and locations, the stats feeds and the data-source catalogue."""

from __future__ import annotations

import pytest

from tests.helpers import assert_envelope, assert_error
from tests.legal_records.common import (
    CEPS,
    CEZ,
    DUSLO,
    ORANGE,
    SLOVNAFT,
    TELEKOM,
    USS,
    import_all,
    load_fixture_companies,
)

G1, G3, G4 = (
    "6f1c2a9e-3b7d-4c1e-9a55-0c1d2e3f4a01",
    "6f1c2a9e-3b7d-4c1e-9a55-0c1d2e3f4a03",
    "6f1c2a9e-3b7d-4c1e-9a55-0c1d2e3f4a04",
)


@pytest.fixture
def imported(engine, settings):
    load_fixture_companies(engine)
    import_all(engine, settings.data_dir)


def _get(client, auth, path, **params):
    return client.get(path, headers=auth, params=params)


# -- /justice -------------------------------------------------------------------------------------------


def test_decisions_newest_first(client, auth, imported):
    resp = _get(client, auth, "/api/v1/justice/decisions")
    items = assert_envelope(resp)
    assert resp.json()["meta"] | {"duration_ms": 0, "request_id": ""} == {
        "duration_ms": 0,
        "cached": False,
        "request_id": "",
        "total": 5,
        "page": 1,
        "per_page": 20,
    }
    assert [i["decidedOn"] for i in items] == [
        "2024-03-28",
        "2024-03-12",
        "2024-02-01",
        "2024-01-15",
        "2023-11-20",
    ]
    first = items[0]
    assert first == {
        "guid": G3,
        "court": {"id": "sud_101", "name": "Okresný súd Bratislava I"},
        "fileRef": "31Cb/7/2024",
        "ecli": "ECLI:SK:OSBA1:2024:1024200007.1",
        "decidedOn": "2024-03-28",
        "form": "Platobný rozkaz",
        "nature": None,
        "area": "Obchodné právo",
        "subarea": None,
        "documentUrl": None,
        "parties": [
            {
                "name": "Orange Slovensko, a.s.",
                "nationalId": None,
                "role": "žalobca",
                "match": {
                    "method": "name",
                    "score": first["parties"][0]["match"]["score"],
                    "company": {"country": "SK", "nationalId": ORANGE, "name": "Orange Slovensko, a.s."},
                },
            }
        ],
    }


@pytest.mark.parametrize(
    "params, guids",
    [
        ({"ico": SLOVNAFT}, [G1, G4]),
        ({"ico": ORANGE}, [G3]),  # linked by name: the decision gives no IČO
        ({"ico": "00151653"}, [G4]),  # a party's IČO that no company of ours holds
        ({"court": "sud_101"}, [G3, G1]),
        ({"court": "krajsky SUD"}, ["6f1c2a9e-3b7d-4c1e-9a55-0c1d2e3f4a02"]),
        ({"date_from": "2024-03-01", "date_to": "2024-03-20"}, [G1]),
        ({"q": "hospodárska súťaž"}, [G4]),
        ({"q": "duslo"}, [G1]),
        ({"q": "ECLI:SK:OSBA1"}, [G3, G1]),
        ({"q": "100%_"}, []),
        ({"q": "25cb/123"}, [G1]),
        ({"ico": SLOVNAFT, "q": "obdo", "court": "najvyssi"}, [G4]),
    ],
)
def test_decision_filters(client, auth, imported, params, guids):
    items = assert_envelope(_get(client, auth, "/api/v1/justice/decisions", **params))
    assert [i["guid"] for i in items] == guids


def test_decision_pages(client, auth, imported):
    resp = _get(client, auth, "/api/v1/justice/decisions", per_page=2, page=3)
    assert [i["decidedOn"] for i in assert_envelope(resp)] == ["2023-11-20"]
    assert resp.json()["meta"]["total"] == 5
    assert assert_envelope(_get(client, auth, "/api/v1/justice/decisions", per_page=2, page=4)) == []


@pytest.mark.parametrize(
    "params, field",
    [
        ({"ico": "abc"}, None),
        ({"date_from": "2024-02-30"}, "date_from"),
        ({"date_to": "0"}, "date_to"),  # pydantic read a number as Unix time (schemathesis)
        ({"date_from": "1700000000"}, "date_from"),
        ({"per_page": 0}, "per_page"),
        ({"per_page": 101}, "per_page"),
        ({"page": 200, "per_page": 100}, "page"),
        ({"date_from": "2024-05-01", "date_to": "2024-01-01"}, "date_from"),
        ({"q": ""}, "q"),
        ({"q": "%_"}, "q"),
        ({"court": "x" * 201}, "court"),
        ({"icoo": SLOVNAFT}, "icoo"),
    ],
)
def test_decision_bad_input(client, auth, imported, params, field):
    error = assert_error(_get(client, auth, "/api/v1/justice/decisions", **params), 422, "VALIDATION_ERROR")
    if field:
        assert field in str(error.get("details"))


def test_decision_detail(client, auth, imported):
    data = assert_envelope(_get(client, auth, f"/api/v1/justice/decision/{G1}"))
    assert data["judge"] == "JUDr. Eva Nováková" and data["identifier"] == "1023201234"
    assert data["regulations"] == [
        "Obchodný zákonník 513/1991 Zb.",
        "Civilný sporový poriadok 160/2015 Z. z.",
    ]
    assert [(p["name"], p["role"], p["match"]["method"]) for p in data["parties"]] == [
        ("SLOVNAFT, a.s.", "žalobca", "identifier"),
        ("Duslo, a.s.", "žalovaný", "identifier"),
    ]
    (source,) = data["sources"]
    assert source["source"] == "sk_court_decisions" and "obcan.justice.sk" in source["attribution"]
    assert source["importedAt"].endswith("Z") and source["licence"]


def test_decision_detail_unknown_and_unicode(client, auth, imported):
    assert_error(_get(client, auth, "/api/v1/justice/decision/no-such-guid"), 404, "NOT_FOUND")
    assert_error(_get(client, auth, "/api/v1/justice/decision/rozhodnutie-č-1"), 404, "NOT_FOUND")
    assert_error(_get(client, auth, "/api/v1/justice/decision/" + "x" * 65), 422, "VALIDATION_ERROR")


def test_justice_needs_a_key(client, imported):
    assert_error(client.get("/api/v1/justice/decisions"), 401, "UNAUTHORIZED")
    assert_error(client.get(f"/api/v1/justice/decision/{G1}"), 401, "UNAUTHORIZED")


# -- company sections -----------------------------------------------------------------------------------


def test_amo_cases(client, auth, imported):
    resp = _get(client, auth, f"/api/v1/companies/{SLOVNAFT}/amo-cases")
    (case,) = assert_envelope(resp)
    assert resp.json()["meta"]["total"] == 1 and resp.json()["meta"]["national_id"] == SLOVNAFT
    assert (
        case["caseRef"],
        case["kind"],
        case["fine"],
        case["currency"],
        case["decidedOn"],
        case["finalOn"],
    ) == ("2023/KH/1/1/012", "cartel", 1250000.0, "EUR", "2023-05-10", "2024-01-22")
    assert case["rulings"] == [
        {
            "instance": "Rada Protimonopolného úradu SR",
            "decidedOn": "2023-12-14",
            "outcome": "Rozhodnutie potvrdené",
            "reference": "2023/R/KH/45",
        },
        {
            "instance": "Správny súd v Bratislave",
            "decidedOn": "2024-09-30",
            "outcome": "Žaloba zamietnutá",
            "reference": "1S/12/2024",
        },
    ]
    assert [(p["name"], p["match"]["method"]) for p in case["parties"]] == [
        ("SLOVNAFT, a.s.", "identifier"),
        ("Duslo, a.s.", "name"),
    ]
    assert case["sources"][0]["source"] == "sk_pmu"


@pytest.mark.parametrize(
    "ico, kinds",
    [(DUSLO, ["cartel"]), (TELEKOM, ["merger"]), (USS, ["state_aid"]), ("35829052", ["abuse"]), (ORANGE, [])],
)
def test_amo_case_kinds(client, auth, imported, ico, kinds):
    assert [
        c["kind"] for c in assert_envelope(_get(client, auth, f"/api/v1/companies/{ico}/amo-cases"))
    ] == kinds


def test_environmental(client, auth, imported):
    data = assert_envelope(_get(client, auth, f"/api/v1/companies/{SLOVNAFT}/environmental"))
    assert data["totals"] == {
        "installations": 2,
        "permits": 2,
        "inspections": 17,
        "inspectionsWithFindings": 3,
    }
    refinery = data["installations"][0]
    assert (
        refinery["installationId"],
        refinery["activityCode"],
        refinery["latitude"],
        refinery["longitude"],
        refinery["lastInspectionOn"],
    ) == ("IPKZ-BA-0001", "1.2", 48.1271, 17.1895, "2024-05-21")
    assert refinery["permits"][0] == {
        "number": "1234-5678/2008/Pil/370140104",
        "kind": "Integrované povolenie",
        "issuedOn": "2008-03-15",
        "finalOn": "2008-04-10",
        "link": "https://ipkz.enviroportal.sk/povolenie/1234",
    }
    assert refinery["operator"]["match"]["method"] == "identifier"
    assert data["installations"][1]["latitude"] is None  # the register gives no coordinates: none invented
    duslo = assert_envelope(_get(client, auth, f"/api/v1/companies/{DUSLO}/environmental"))
    assert duslo["installations"][0]["operator"]["match"]["method"] == "name"
    assert assert_envelope(_get(client, auth, f"/api/v1/companies/{ORANGE}/environmental")) == {
        "installations": [],
        "totals": {"installations": 0, "permits": 0, "inspections": 0, "inspectionsWithFindings": 0},
    }


def test_cz_sbirka(client, auth, imported):
    items = assert_envelope(_get(client, auth, f"/api/v1/companies/{CEZ}/cz-sbirka", country="cz"))
    assert [(i["citation"], i["type"], i["nameAsWritten"]) for i in items] == [
        ("15/2024 Sb.", "Sdělení", "ČEZ, a. s."),
        ("432/2023 Sb.", "Nařízení vlády", "ČEZ, a. s."),
    ]
    assert items[0]["link"] == "https://www.e-sbirka.cz/sb/2024/15" and "IČO: 45274649" in items[0]["excerpt"]
    assert items[0]["match"] == {
        "method": "identifier",
        "score": 1.0,
        "company": {"country": "CZ", "nationalId": CEZ, "name": "ČEZ, a. s."},
    }
    (ceps,) = assert_envelope(_get(client, auth, f"/api/v1/companies/{CEPS}/cz-sbirka", country="CZ"))
    assert ceps["nameAsWritten"] == "ČEPS, a.s." and ceps["effectiveOn"] == "2024-01-01"
    assert assert_envelope(_get(client, auth, f"/api/v1/companies/{SLOVNAFT}/cz-sbirka")) == []


def test_locations(client, auth, imported):
    items = assert_envelope(_get(client, auth, f"/api/v1/companies/{SLOVNAFT}/locations"))
    assert [(i["kind"], i["reference"], i["latitude"], i["match"]) for i in items] == [
        ("registered_address", SLOVNAFT, None, "identifier"),
        ("ipkz_installation", "IPKZ-BA-0001", 48.1271, "identifier"),
        ("ipkz_installation", "IPKZ-BA-0002", None, "identifier"),
    ]
    assert items[0]["address"] == "Vlčie hrdlo 1, 82412 Bratislava" and items[0]["source"] == "register"
    duslo = assert_envelope(_get(client, auth, f"/api/v1/companies/{DUSLO}/locations"))
    assert [(i["kind"], i["source"], i["match"]) for i in duslo] == [
        ("registered_address", "register", "identifier"),
        ("ipkz_installation", "sk_ipkz", "name"),
        ("antitrust_party_address", "sk_pmu", "name"),
    ]
    assert all(i["matchScore"] >= 0.9 for i in duslo)


@pytest.mark.parametrize("section", ["amo-cases", "environmental", "cz-sbirka", "locations"])
def test_company_section_errors(client, auth, imported, section):
    assert_error(_get(client, auth, f"/api/v1/companies/99999999/{section}"), 404, "NOT_FOUND")
    assert_error(
        _get(client, auth, f"/api/v1/companies/{SLOVNAFT}/{section}", country="cz"), 404, "NOT_FOUND"
    )
    assert_error(_get(client, auth, f"/api/v1/companies/ABC!/{section}"), 422, "VALIDATION_ERROR")
    assert_error(
        _get(client, auth, f"/api/v1/companies/{SLOVNAFT}/{section}", country="x"), 422, "VALIDATION_ERROR"
    )
    assert_error(
        _get(client, auth, f"/api/v1/companies/{SLOVNAFT}/{section}", page=1), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get(f"/api/v1/companies/{SLOVNAFT}/{section}"), 401, "UNAUTHORIZED")


def test_sections_before_any_import(client, auth, engine):
    load_fixture_companies(engine)
    assert assert_envelope(_get(client, auth, f"/api/v1/companies/{SLOVNAFT}/amo-cases")) == []
    assert [
        i["kind"] for i in assert_envelope(_get(client, auth, f"/api/v1/companies/{SLOVNAFT}/locations"))
    ] == ["registered_address"]
    assert assert_envelope(_get(client, auth, "/api/v1/justice/decisions")) == []


# -- public feeds and catalogue -------------------------------------------------------------------------


def test_stats_feeds(client, imported):
    amo = assert_envelope(client.get("/api/v1/public/stats/amo-cases"))
    assert [r["case_ref"] for r in amo["rows"]] == [
        "2024/SP/1/1/002",
        "2024/FH/3/1/004",
        "2023/KH/1/1/012",
        "2022/DZ/2/1/031",
    ]
    assert amo["rows"][2] | {"link": None} == {
        "case_ref": "2023/KH/1/1/012",
        "kind": "cartel",
        "title": amo["rows"][2]["title"],
        "decided_on": "2023-05-10",
        "final_on": "2024-01-22",
        "fine": 1250000.0,
        "currency": "EUR",
        "country": "SK",
        "national_id": SLOVNAFT,
        "name": "SLOVNAFT, a.s.",
        "parties": 2,
        "link": None,
    }
    ipkz = assert_envelope(client.get("/api/v1/public/stats/ipkz-companies", params={"limit": 2}))
    assert [(r["national_id"], r["installations"], r["inspections"]) for r in ipkz["rows"]] == [
        (SLOVNAFT, 2, 17),
        (DUSLO, 1, 9),
    ]
    csv = client.get("/api/v1/public/stats/ipkz-companies.csv")
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    assert "country,national_id,name,installations" in csv.text and "Šaľa" not in csv.text
    index = assert_envelope(client.get("/api/v1/public/stats.json"))
    assert {"amo-cases", "ipkz-companies"} <= {f["name"] for f in index["feeds"]}


def test_data_sources_list_the_new_sources(client, imported):
    rows = {r["id"]: r for r in assert_envelope(client.get("/api/v1/public/data-sources"))}
    for source_id in ("sk_court_decisions", "sk_pmu", "sk_ipkz", "cz_esbirka"):
        assert (
            rows[source_id]["licence"] and rows[source_id]["attribution"] and rows[source_id]["row_count"] > 0
        )


def test_records_imported_before_their_company(client, auth, engine, settings):
    """A record naming an IČO is the company's even when the company arrived after the import."""
    import_all(engine, settings.data_dir)
    load_fixture_companies(engine)
    (case,) = assert_envelope(_get(client, auth, f"/api/v1/companies/{SLOVNAFT}/amo-cases"))
    assert (
        case["caseRef"] == "2023/KH/1/1/012" and case["parties"][0]["match"] is None
    )  # not linked at import
    env = assert_envelope(_get(client, auth, f"/api/v1/companies/{SLOVNAFT}/environmental"))
    assert env["totals"]["installations"] == 2
    assert env["installations"][0]["operator"]["match"]["method"] == "identifier"
    assert len(assert_envelope(_get(client, auth, f"/api/v1/companies/{CEZ}/cz-sbirka", country="cz"))) == 2
    points = assert_envelope(_get(client, auth, f"/api/v1/companies/{SLOVNAFT}/locations"))
    assert [(p["kind"], p["match"], p["matchScore"]) for p in points][1] == (
        "ipkz_installation",
        "identifier",
        1.0,
    )
    assert [
        i["guid"] for i in assert_envelope(_get(client, auth, "/api/v1/justice/decisions", ico=SLOVNAFT))
    ] == [G1, G4]
    # Duslo is named without an IČO: only a link made at import finds it, so it has no case yet.
    assert assert_envelope(_get(client, auth, f"/api/v1/companies/{DUSLO}/amo-cases")) == []
