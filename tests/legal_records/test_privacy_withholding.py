"""A natural person named as a party in legal records (a court decision and an antitrust case), withheld
after a verified `object` request that the operator answers with `regintel privacy answer --withhold-party`
(typer's CliRunner on the test database): the name leaves every legal-records answer (the decisions list
and its `q=`, the decision, the company's antitrust cases), other parties stay; a changed record imported
again keeps it withheld (the importer withholds it as it writes); `regintel privacy lift lr:…` restores
the answers exactly, as last imported (legal_records/privacy.py, docs/accounts.md)."""

from __future__ import annotations

import json

import pytest

from regintel.areas.legal_records.privacy import party_key
from tests.areas_accounts.test_privacy_persons import _file_request, cli  # noqa: F401 (fixture)
from tests.helpers import assert_envelope
from tests.legal_records.common import SLOVNAFT, import_one, load_fixture_companies

NAME = "Ján Horváth"
GUID = "0b8f0000-0000-4000-8000-00000000c0de"


def _decisions(extra_area: str = "Zmluvy") -> dict:
    return {
        "pocet": 1,
        "rozhodnutia": [
            {
                "guid": GUID,
                "sud": {"guid": "sud_101", "nazov": "Okresný súd Bratislava I"},
                "spisovaZnacka": "9C/77/2024",
                "ecli": "ECLI:SK:OSBA1:2024:9000000077.1",
                "datumVydania": "2024-05-02",
                "formaRozhodnutia": "Rozsudok",
                "oblast": "Občianske právo",
                "podOblast": extra_area,
                "ucastnici": [
                    {"nazov": "SLOVNAFT, a.s.", "ico": SLOVNAFT, "typ": "žalobca"},
                    {"nazov": NAME, "typ": "žalovaný"},
                ],
            }
        ],
    }


CASE = [
    {
        "cisloRozhodnutia": "2024/KH/9/1/001",
        "spisovaZnacka": "PMÚ/0999/OKT/2024",
        "oblast": "Kartel",
        "nazov": f"Dohoda obmedzujúca súťaž: SLOVNAFT, a.s. a {NAME}",
        "datumRozhodnutia": "2024-06-10",
        "vyrok": f"Účastníci konania SLOVNAFT, a.s. a {NAME} porušili § 4 ods. 1 zákona č. 187/2021 Z. z.",
        "ucastnici": [
            {"nazov": "SLOVNAFT, a.s.", "ico": SLOVNAFT, "postavenie": "účastník konania"},
            {"nazov": NAME, "adresa": "Hlavná 1, 917 01 Trnava", "postavenie": "účastník konania"},
        ],
        "konania": [],
        "url": "https://www.antimon.gov.sk/rozhodnutia/2024-kh-9-1-001/",
    }
]


@pytest.fixture
def records(engine, settings, tmp_path):
    load_fixture_companies(engine)

    def load(area: str = "Zmluvy") -> None:
        courts, pmu = tmp_path / f"decisions-{area}.json", tmp_path / "pmu.json"
        courts.write_text(json.dumps(_decisions(area), ensure_ascii=False), encoding="utf-8")
        pmu.write_text(json.dumps(CASE, ensure_ascii=False), encoding="utf-8")
        import_one(engine, settings.data_dir, "sk_court_decisions", courts)
        import_one(engine, settings.data_dir, "sk_pmu", pmu)

    load()
    return load


def _served(client, auth) -> dict[str, dict]:
    paths = {
        "search": "/api/v1/justice/decisions?q=horvath",
        "list": "/api/v1/justice/decisions",
        "decision": f"/api/v1/justice/decision/{GUID}",
        "amo": f"/api/v1/companies/{SLOVNAFT}/amo-cases",
    }
    out = {}
    for what, path in paths.items():
        resp = client.get(path, headers=auth)
        assert resp.status_code == 200, (what, resp.text[:300])
        out[what] = resp.json()["data"]
    return out


def _mentions(served: dict[str, dict]) -> list[str]:
    return [what for what, data in served.items() if "Horváth" in json.dumps(data, ensure_ascii=False)]


def test_a_party_of_legal_records_is_withheld_and_lifted(client, auth, engine, records, cli):  # noqa: F811
    before = _served(client, auth)
    assert _mentions(before) == ["search", "list", "decision", "amo"]  # served before: the test can fail

    request_id = _file_request(client, engine, kind="object", person_name=NAME)
    shown = json.loads(cli("show", str(request_id)))
    found = {(c["kind"], c["record"], c["role"]) for c in shown["legal_record_candidates"]}
    assert found == {
        ("court_decision", "9C/77/2024", "žalovaný"),
        ("antitrust_case", "2024/KH/9/1/001", "účastník konania"),
    }
    answered = json.loads(
        cli("answer", str(request_id), "--outcome", "Objection upheld", "--withhold-party", NAME)
    )
    key = party_key(NAME)
    assert answered["parties_withheld"] == 2 and [w["person_key"] for w in answered["withheld"]] == [key]
    assert key in answered["request"]["outcome"]

    after = _served(client, auth)
    assert _mentions(after) == [] and after["search"] == []
    parties = [(p["name"], p["role"]) for p in after["decision"]["parties"]]
    assert parties == [("SLOVNAFT, a.s.", "žalobca"), ("[withheld]", "žalovaný")]
    (case,) = after["amo"]
    assert [p["name"] for p in case["parties"]] == ["SLOVNAFT, a.s.", "[withheld]"]
    assert "[withheld]" in case["title"] and "SLOVNAFT" in case["title"]
    assert assert_envelope(client.get("/api/v1/justice/decisions?q=slovnaft", headers=auth))  # others stay

    # a changed decision imported again replaces its parties with the published names: the importer
    # withholds the party in it at once, so nothing is served in between and reapply finds nothing
    records("Nájom")
    reimported = _served(client, auth)
    assert _mentions(reimported) == [] and reimported["decision"]["subarea"] == "Nájom"
    assert [p["name"] for p in reimported["decision"]["parties"]] == ["SLOVNAFT, a.s.", "[withheld]"]
    assert json.loads(cli("reapply")) == {key: 0}  # nothing left to rewrite

    assert json.loads(cli("lift", key))["rows"] >= 4
    lifted = _served(client, auth)
    assert lifted["amo"] == before["amo"]
    decision = lifted["decision"] | {"sources": before["decision"]["sources"]}  # imported again since
    assert decision == before["decision"] | {"subarea": "Nájom"}
    assert [d["guid"] for d in lifted["search"]] == [GUID]
    cli("lift", key, code=2)  # no longer withheld


def test_a_party_that_is_not_there_is_refused(client, engine, records, cli):  # noqa: F811
    request_id = _file_request(client, engine, kind="erase", person_name="Nobody Here")
    out = cli("answer", str(request_id), "--outcome", "x", "--withhold-party", "Nobody Here", code=2)
    assert "No party named" in out
    access = _file_request(client, engine, kind="access")
    out = cli("answer", str(access), "--outcome", "x", "--withhold-party", NAME, code=2)
    assert "Only erase and object" in out
