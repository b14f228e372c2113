"""`/companies/{ico}/contracts` and the timeline's `contract` events through HTTP."""

from __future__ import annotations

import pytest

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.public_money.common import FRA, import_registr, import_ted

PB = "47547715"  # P+B elektromontáže: the recipient (supplier) of four orders of a research institute
VFN = "00064165"  # the general university hospital in Prague: counterparty of ten records


@pytest.fixture
def contracted(engine, settings):
    load_companies(
        engine,
        CompanyRecord(country="CZ", national_id=PB, name="P+B elektromontáže, spol. s r.o."),
        CompanyRecord(country="CZ", national_id=VFN, name="Všeobecná fakultní nemocnice v Praze"),
        CompanyRecord(country="FR", national_id="326912557", name="ESPACES VERTS LEMIRE"),
        CompanyRecord(country="SK", national_id="31322832", name="SLOVNAFT, a.s."),
    )
    import_registr(engine, settings.data_dir)
    import_ted(engine, settings.data_dir)


def test_supplier_contracts_from_the_czech_register(client, auth, contracted):
    resp = client.get(f"/api/v1/companies/{PB}/contracts", headers=auth, params={"country": "cz"})
    items = assert_envelope(resp)
    assert resp.json()["meta"]["total"] == 4 and {i["role"] for i in items} == {"supplier"}
    first = items[0]
    assert first == {
        "id": first["id"],
        "source": "cz_registr_smluv",
        "role": "supplier",
        "title": "Obecná objednávka",
        "buyer": {
            "name": "Ústav experimentální medicíny AV ČR, v. v. i.",
            "nationalId": first["buyer"]["nationalId"],
            "country": "CZ",
        },
        "value": 159878.0,
        "currency": "CZK",
        "valueBasis": "net",
        "signedOn": "2025-09-30",
        "publishedOn": first["publishedOn"],
        "link": first["link"],
        "notice": None,
        "match": {
            "method": "identifier",
            "score": 1.0,
            "company": {"country": "CZ", "nationalId": PB, "name": "P+B elektromontáže, spol. s r.o."},
        },
    }
    assert first["link"].startswith("https://smlouvy.gov.cz/smlouva/")
    assert [i["signedOn"] for i in items] == sorted((i["signedOn"] for i in items), reverse=True)


def test_counterparty_contracts_are_marked(client, auth, contracted):
    resp = client.get(
        f"/api/v1/companies/{VFN}/contracts", headers=auth, params={"country": "CZ", "per_page": 3}
    )
    items = assert_envelope(resp)
    assert resp.json()["meta"]["total"] == 10 and len(items) == 3
    assert {i["role"] for i in items} == {"counterparty"}


def test_ted_award_contracts(client, auth, contracted):
    items = assert_envelope(
        client.get("/api/v1/companies/326912557/contracts", headers=auth, params={"country": "fr"})
    )
    assert [
        (i["source"], i["title"], i["value"], i["currency"], i["signedOn"], i["notice"], i["buyer"]["name"])
        for i in items
    ] == [("ted_eforms", "Agence Centre", 95414.0, "EUR", "2019-09-03", FRA, "Rouen Habitat")]


def test_contract_events_on_the_timeline(client, auth, contracted):
    events = assert_envelope(
        client.get(
            f"/api/v1/companies/{PB}/timeline",
            headers=auth,
            params={"country": "cz", "event_type": "contract"},
        )
    )["events"]
    assert len(events) == 4 and {e["event_type"] for e in events} == {"contract"}
    assert events[0]["title"] == "Contract: Obecná objednávka"
    assert events[0]["summary"] == "Supplier to Ústav experimentální medicíny AV ČR, v. v. i., 159,878.00 CZK"
    assert events[0]["link"].startswith("https://smlouvy.gov.cz/") and events[0]["date"] == "2025-09-30"
    paged = client.get(
        f"/api/v1/companies/{PB}/timeline",
        headers=auth,
        params={"country": "cz", "event_type": "contract", "limit": 3},
    ).json()
    rest = assert_envelope(
        client.get(
            f"/api/v1/companies/{PB}/timeline",
            headers=auth,
            params={
                "country": "cz",
                "event_type": "contract",
                "limit": 3,
                "cursor": paged["meta"]["next_cursor"],
            },
        )
    )["events"]
    assert [e["id"] for e in paged["data"]["events"] + rest] == [e["id"] for e in events]


def test_company_without_contracts_and_errors(client, auth, contracted, engine):
    resp = client.get("/api/v1/companies/31322832/contracts", headers=auth)
    assert assert_envelope(resp) == [] and resp.json()["meta"]["total"] == 0
    assert_error(
        client.get("/api/v1/companies/12345679/contracts", headers=auth, params={"country": "cz"}),
        404,
        "NOT_FOUND",
    )
    assert_error(
        client.get("/api/v1/companies/123/contracts", headers=auth, params={"country": "sk"}),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.get(f"/api/v1/companies/{PB}/contracts", headers=auth, params={"sort": "x"}),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(client.get(f"/api/v1/companies/{PB}/contracts"), 401, "UNAUTHORIZED")
    load_companies(engine, CompanyRecord(country="SK", national_id=PB, name="Namesake SK s.r.o."))
    error = assert_error(
        client.get(f"/api/v1/companies/{PB}/contracts", headers=auth), 409, "AMBIGUOUS_IDENTIFIER"
    )
    assert {c["country"] for c in error["details"]["candidates"]} == {"SK", "CZ"}
