"""The ownership endpoints on real samples imported by the real importers: GLEIF LEI-CDF, RR-CDF and
reporting exceptions (CC0) and the Companies House PSC snapshot (OGL v3.0), from `tests/fixtures`."""

from __future__ import annotations

import pytest

from regintel.domain.types import CompanyRecord
from regintel.ingest.loader import Loader
from tests.helpers import assert_envelope
from tests.ingest.import_helpers import run as run_gb
from tests.ingest.test_gb_psc import DIR, SEED, SEEDED, SNAPSHOT
from tests.ingest.test_gleif import FIXTURES, LEI_UPDATES, LEI_XML, run


@pytest.fixture
def gleif(engine, settings):  # type: ignore[no-untyped-def]
    run(engine, settings, LEI_XML)
    run(engine, settings, LEI_UPDATES)
    run(engine, settings, FIXTURES / "bodspipelines_rr-updates-data2.xml", "gleif_rr")


@pytest.fixture
def psc(engine, settings):  # type: ignore[no-untyped-def]
    run_gb(engine, settings, "gb_companies_house", DIR / "basic_company_data_single_row_2024.csv")
    loader = Loader(engine, SEED)
    for number in SEEDED:
        loader.add(CompanyRecord(country="GB", national_id=number, name=f"Seeded company {number}"))
    loader.flush()
    run_gb(engine, settings, "gb_psc", SNAPSHOT)


def get(client, auth, ico, endpoint, **params):  # type: ignore[no-untyped-def]
    return assert_envelope(client.get(f"/api/v1/companies/{ico}/{endpoint}", headers=auth, params=params))


def test_gleif_consolidation_chain(client, auth, gleif) -> None:
    """MONOOVA FX is directly consolidated by MONOOVA GLOBAL PAYMENTS, itself by MONEYTECH GROUP (AU)."""
    data = get(client, auth, "151337852", "ultimate-owner", country="au")
    (owner,) = data["owners"]
    assert data["entities"][owner["entity"]]["name"] == "MONEYTECH GROUP LIMITED"
    assert [data["entities"][n]["name"] for n in owner["paths"][0]["nodes"]] == [
        "MONEYTECH GROUP LIMITED",
        "MONOOVA GLOBAL PAYMENTS PTY LTD",
        "MONOOVA FX PTY LTD",
    ]
    assert owner["control"] is True and owner["meets50"] is True and owner["shareComplete"] is False
    assert {(p["kind"], p["name"]) for p in data["gleifParents"]} == {
        ("direct", "MONOOVA GLOBAL PAYMENTS PTY LTD"),
        ("ultimate", "MONEYTECH GROUP LIMITED"),
    }
    assert data["ownerKnown"] is False  # a company, not a natural person, ends the chain
    graph = get(client, auth, "151337852", "graph", country="au", depth=2)
    assert {n["entity"]["name"] for n in graph["nodes"]} == {
        "MONOOVA FX PTY LTD",
        "MONOOVA GLOBAL PAYMENTS PTY LTD",
        "MONEYTECH GROUP LIMITED",
    }


def test_gleif_share_scale_left_out(client, auth, gleif) -> None:
    """Aquila's Luxembourg parent is published with 1.00 (meaning 100% in that LOU's scale)."""
    data = get(client, auth, "52143058", "relations", country="sk")
    assert {(r["holder"]["country"], r["title"], r["sharePct"]) for r in data["shareholders"]} == {
        ("LU", "direct accounting-consolidation parent (GLEIF)", None),
        ("LU", "ultimate accounting-consolidation parent (GLEIF)", None),
    }


def test_psc_owner_and_corporate_psc(client, auth, psc) -> None:
    data = get(client, auth, "08209948", "ultimate-owner", country="gb")
    (owner,) = data["owners"]
    person = data["entities"][owner["entity"]]
    assert (person["name"], person["personal"]) == ("Marc Anthony Feldman", None)
    assert owner["meets50"] is True and data["ownerKnown"] is True
    declared = get(client, auth, "08209948", "ultimate-owner", country="gb", purpose="kyc")
    assert declared["entities"][owner["entity"]]["personal"] == {
        "birthDate": "1961-12",
        "nationality": "British",
        "countryOfResidence": "England",
    }
    relations = get(client, auth, "07434180", "relations", country="gb")
    (holder,) = relations["shareholders"]
    assert holder["holder"]["id"] == "c:GB:00686734" and holder["source"]["licence"]
    assert {b["kind"] for b in holder["bands"]} == {"shares", "votes"}
    links = get(client, auth, "00686734", "uk-connections", country="gb")
    assert [(c["kind"], c["ukCompany"]["nationalId"]) for c in links["connections"]] == [
        ("this_company_is_psc", "07434180")
    ]
