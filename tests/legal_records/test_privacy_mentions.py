"""A natural person who operates an IPKZ installation and is named by an act of the Czech collection of laws
(sole traders both), withheld after a verified `erase` request answered with `--withhold-party`: the IPKZ
installation and the e-Sbírka mention leave the traders' answers (`/environmental`, `/locations`,
`/cz-sbirka`); records imported afterwards (a changed installation, a new act naming the person) are
withheld as the importer writes them, with the other names of an act kept; `lift` restores the answers as
last imported (legal_records/privacy.py, loading.Writer). Also: a court decision first imported after the
request is withheld at import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from regintel.areas.legal_records.privacy import WITHHELD, party_key
from regintel.areas.legal_records.tables import court_decision_parties, ipkz_installations, sbirka_mentions
from regintel.domain.types import CompanyRecord
from tests.areas_accounts.test_privacy_persons import _file_request, cli  # noqa: F401 (fixture)
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.legal_records.common import CEZ, SLOVNAFT, import_one, load_fixture_companies

SK_NAME, SK_ICO = "Ján Horváth", "44483767"
CZ_NAME, CZ_ICO = "Jan Horváth", "12345679"  # the same name folded: one party key for both
TRADERS = [
    CompanyRecord(country="SK", national_id=SK_ICO, name=f"{SK_NAME} - HORTEX", legal_form="101"),
    CompanyRecord(country="CZ", national_id=CZ_ICO, name=CZ_NAME, legal_form="101"),
]


def _installation(inspections: int) -> dict:
    return {
        "idPrevadzky": "IPKZ-TT-0901",
        "nazovPrevadzky": f"Sušiareň {SK_NAME}",
        "prevadzkovatel": {"nazov": SK_NAME, "ico": SK_ICO, "adresa": "Hlavná 1, 917 01 Trnava"},
        "obec": "Trnava",
        "kategoriaCinnosti": {"kod": "6.4", "nazov": "Spracovanie poľnohospodárskych produktov"},
        "kontroly": {"pocet": inspections, "sNedostatkami": 0},
        "povolenia": [],
    }


def _act(number: int, title: str) -> dict:
    return {
        "iri": f"https://opendata.eselpoint.cz/esel-esb/eli/cz/sb/2024/{number}/2024-06-01",
        "cislo": number,
        "rok": 2024,
        "typ": "Sdělení",
        "nazev": title,
        "datumVyhlaseni": "2024-05-20",
        "fragmenty": [
            {"text": f"Koncesi získal podnikatel {CZ_NAME}, IČO: {CZ_ICO}, na dobu 5 let."},
            {"text": f"Koncesi získala akciová společnost ČEZ, a. s., IČO: {CEZ}, na dobu 10 let."},
        ],
    }


@pytest.fixture
def load(engine, settings, tmp_path: Path):
    load_fixture_companies(engine)
    load_companies(engine, *TRADERS)

    def run(inspections: int, *acts: dict) -> None:
        ipkz, esbirka = tmp_path / f"ipkz-{inspections}.jsonl", tmp_path / f"akty-{len(acts)}.json"
        ipkz.write_text(json.dumps(_installation(inspections), ensure_ascii=False) + "\n", encoding="utf-8")
        esbirka.write_text(json.dumps({"akty": list(acts)}, ensure_ascii=False), encoding="utf-8")
        import_one(engine, settings.data_dir, "sk_ipkz", ipkz)
        import_one(engine, settings.data_dir, "cz_esbirka", esbirka)

    run(4, _act(210, "Sdělení o udělení koncesí"))
    return run


def _served(client, auth) -> dict[str, object]:
    paths = {
        "environmental": (f"/api/v1/companies/{SK_ICO}/environmental", "sk"),
        "locations": (f"/api/v1/companies/{SK_ICO}/locations", "sk"),
        "cz-sbirka": (f"/api/v1/companies/{CZ_ICO}/cz-sbirka", "cz"),
        "cez cz-sbirka": (f"/api/v1/companies/{CEZ}/cz-sbirka", "cz"),
    }
    out = {}
    for what, (path, country) in paths.items():
        resp = client.get(path, params={"country": country}, headers=auth)
        assert resp.status_code == 200, (what, resp.text[:300])
        out[what] = resp.json()["data"]
    return out


def _naming(served: dict[str, object]) -> list[str]:
    return [
        what
        for what, data in served.items()
        if "Horváth" in json.dumps(data, ensure_ascii=False) or CZ_ICO in json.dumps(data)
    ]


def test_ipkz_and_esbirka_mentions_are_withheld_on_answer_and_on_import(
    client,
    auth,
    engine,
    load,
    cli,  # noqa: F811
):
    before = _served(client, auth)
    assert _naming(before) == ["environmental", "locations", "cz-sbirka"]  # served before: it can fail
    (installation,) = before["environmental"]["installations"]
    assert installation["operator"]["name"] == SK_NAME

    request_id = _file_request(client, engine, kind="erase", person_name=SK_NAME)
    shown = json.loads(cli("show", str(request_id)))
    assert {(c["kind"], c["name"], c["national_id"]) for c in shown["legal_record_candidates"]} == {
        ("ipkz_installation", SK_NAME, SK_ICO),
        ("esbirka_act", CZ_NAME, CZ_ICO),
    }
    answered = json.loads(cli("answer", str(request_id), "--outcome", "Erased", "--withhold-party", SK_NAME))
    key = party_key(SK_NAME)
    assert answered["parties_withheld"] == 2 and [w["person_key"] for w in answered["withheld"]] == [key]

    after = _served(client, auth)
    assert _naming(after) == [] and after["environmental"]["installations"] == [] and after["cz-sbirka"] == []
    assert after["cez cz-sbirka"] == before["cez cz-sbirka"]  # the act's other mention stays

    # imported again: a changed installation, the act unchanged and a new act naming the person
    load(5, _act(210, "Sdělení o udělení koncesí"), _act(211, f"Sdělení o koncesi pro {CZ_NAME}"))
    again = _served(client, auth)
    assert _naming(again) == [] and len(again["cez cz-sbirka"]) == 2
    assert [a["title"] for a in again["cez cz-sbirka"]] == [
        f"Sdělení o koncesi pro {WITHHELD}",
        "Sdělení o udělení koncesí",
    ]
    with engine.connect() as conn:
        stored = conn.execute(select(ipkz_installations)).mappings().all()
        mentions = conn.execute(select(sbirka_mentions.c.name, sbirka_mentions.c.excerpt)).all()
    (row,) = [r for r in stored if r["installation_id"] == "IPKZ-TT-0901"]
    assert (
        row["inspections"] == 5 and row["operator_name"] == WITHHELD and row["name"] == f"Sušiareň {WITHHELD}"
    )
    assert (
        row["operator_national_id"] is None and row["operator_address"] is None and row["company_id"] is None
    )
    assert sorted(n for n, _ in mentions) == sorted([WITHHELD, WITHHELD, "ČEZ, a. s.", "ČEZ, a. s."])
    assert not any("Horváth" in (e or "") or CZ_ICO in (e or "") for _, e in mentions)
    assert json.loads(cli("reapply")) == {key: 0}  # the importer left nothing to rewrite

    assert json.loads(cli("lift", key))["rows"] == 4  # the installation, two mentions, a title
    lifted = _served(client, auth)
    assert _naming(lifted) == ["environmental", "locations", "cz-sbirka", "cez cz-sbirka"]  # act 211's title
    (installation,) = lifted["environmental"]["installations"]
    assert installation["operator"]["name"] == SK_NAME and installation["inspections"] == 5
    assert installation["name"] == f"Sušiareň {SK_NAME}"
    assert [a["nameAsWritten"] for a in lifted["cz-sbirka"]] == [CZ_NAME, CZ_NAME]
    assert [a["title"] for a in lifted["cez cz-sbirka"]] == [
        f"Sdělení o koncesi pro {CZ_NAME}",
        "Sdělení o udělení koncesí",
    ]


def test_a_decision_imported_after_the_request_is_withheld_at_import(
    client,
    auth,
    engine,
    settings,
    load,
    tmp_path,
    cli,  # noqa: F811
):
    request_id = _file_request(client, engine, kind="object", person_name=SK_NAME)
    cli("answer", str(request_id), "--outcome", "Upheld", "--withhold-party", SK_NAME)
    decision = {
        "guid": "0b8f0000-0000-4000-8000-00000000d0de",
        "sud": {"guid": "sud_101", "nazov": "Okresný súd Trnava"},
        "spisovaZnacka": "5C/12/2024",
        "datumVydania": "2024-07-01",
        "oblast": "Občianske právo",
        "ucastnici": [
            {"nazov": "SLOVNAFT, a.s.", "ico": SLOVNAFT, "typ": "žalobca"},
            {"nazov": "JÁN HORVÁTH", "ico": SK_ICO, "typ": "žalovaný"},  # other case: folded alike
        ],
    }
    path = tmp_path / "decisions-new.json"
    path.write_text(json.dumps({"rozhodnutia": [decision]}, ensure_ascii=False), encoding="utf-8")
    import_one(engine, settings.data_dir, "sk_court_decisions", path)

    for q in ("horvath", SK_ICO):
        assert assert_envelope(client.get(f"/api/v1/justice/decisions?q={q}", headers=auth)) == []
    served = assert_envelope(client.get(f"/api/v1/justice/decision/{decision['guid']}", headers=auth))
    assert [(p["name"], p["role"]) for p in served["parties"]] == [
        ("SLOVNAFT, a.s.", "žalobca"),
        (WITHHELD, "žalovaný"),
    ]
    assert "Horváth" not in json.dumps(served, ensure_ascii=False) and SK_ICO not in json.dumps(served)
    with engine.connect() as conn:
        assert conn.execute(select(court_decision_parties.c.name)).scalars().all().count(WITHHELD) == 1

    cli("lift", party_key(SK_NAME))
    lifted = assert_envelope(client.get(f"/api/v1/justice/decision/{decision['guid']}", headers=auth))
    assert lifted["parties"][1]["name"] == "JÁN HORVÁTH" and lifted["parties"][1]["nationalId"] == SK_ICO
    found = assert_envelope(client.get("/api/v1/justice/decisions?q=horvath", headers=auth))
    assert [d["guid"] for d in found] == [decision["guid"]]
