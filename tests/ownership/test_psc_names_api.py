"""`/uk-connections` finds a company of ours that a UK company names as a corporate PSC without a UK
company key (a company registered abroad), by name, country and registration number, through HTTP: on
records loaded by the real loader, and on the real Companies House PSC sample imported by the real
importer."""

from __future__ import annotations

from datetime import date

import pytest

from regintel.domain.types import CompanyRecord, RoleRecord
from regintel.ingest.loader import Loader
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.ingest.import_helpers import run
from tests.ingest.test_gb_psc import SEED, SNAPSHOT
from tests.ownership.world import PSC_SOURCE

ALFA, ALFA_TWIN, OTHER = "35000007", "35000091", "35000112"  # SK: two companies named ALFA s.r.o.
ALFA_CZ = "25596641"
UK = {  # GB company -> its corporate PSC (name, country, number, ceased)
    "09000001": ("Alfa, s. r. o.", "SK", "35000007", None),
    "09000002": ("ALFA S.R.O.", "SK", None, None),
    "09000003": ("Alfa sro", None, None, date(2020, 5, 31)),
    "09000004": ("Renamed Holding a.s.", "SK", "35000007", None),
    "09000005": ("Alfa s.r.o.", "CZ", "35000007", None),
    "09000006": ("Alfa s.r.o.", "SK", "35000091", None),
}
BANDS = ["ownership-of-shares-75-to-100-percent"]


@pytest.fixture
def named(engine):  # type: ignore[no-untyped-def]
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id=ALFA, name="ALFA s.r.o."),
        CompanyRecord(country="SK", national_id=ALFA_TWIN, name="Alfa, s.r.o."),
        CompanyRecord(country="SK", national_id=OTHER, name="OTHER s.r.o."),
        CompanyRecord(country="CZ", national_id=ALFA_CZ, name="ALFA s.r.o."),
    )
    load_companies(
        engine,
        *[
            CompanyRecord(
                country="GB",
                national_id=number,
                name=f"UK HOLDER {number} LTD",
                roles=[
                    RoleRecord(
                        "shareholder",
                        name,
                        share_pct=75.0,
                        natures_of_control=BANDS,
                        since=date(2017, 1, 1),
                        until=ceased,
                        holder_reg_country=country,
                        holder_reg_number=reg,
                    )
                ],
            )
            for number, (name, country, reg, ceased) in UK.items()
        ],
        source=PSC_SOURCE,
    )


def uk(client, auth, ico, country, **params):  # type: ignore[no-untyped-def]
    return assert_envelope(
        client.get(
            f"/api/v1/companies/{ico}/uk-connections", headers=auth, params={"country": country, **params}
        )
    )


def found(data) -> dict[str, tuple]:  # type: ignore[no-untyped-def]
    return {
        c["ukCompany"]["nationalId"]: (
            c["kind"],
            c["match"],
            c["basis"]["name"],
            c["basis"]["country"],
            c["basis"]["registrationNumber"],
        )
        for c in data["connections"]
    }


def test_matches_with_their_basis(client, auth, named) -> None:
    data = uk(client, auth, ALFA, "sk")
    assert found(data) == {
        "09000001": ("this_company_is_psc", "registration_number", True, True, True),
        "09000002": ("this_company_is_psc", "name_country", True, True, None),
        "09000003": ("this_company_is_psc", "name", True, None, None),  # a lead: no country given
        "09000004": ("this_company_is_psc", "registration_number", False, True, True),
    }  # 09000005 is registered in CZ, 09000006 is the other ALFA (another valid IČO)
    first = next(c for c in data["connections"] if c["ukCompany"]["nationalId"] == "09000001")
    assert first["basis"]["pscCountry"] == "SK" and first["basis"]["pscRegistrationNumber"] == ALFA
    assert first["ukCompany"] == {
        "id": "c:GB:09000001",
        "type": "company",
        "name": "UK HOLDER 09000001 LTD",
        "country": "GB",
        "nationalId": "09000001",
        "status": "active",
        "lei": None,
        "personal": None,
    }
    psc = first["psc"]
    assert (psc["role"], psc["holder"]["type"], psc["holder"]["name"]) == (
        "shareholder",
        "entity",
        "Alfa, s. r. o.",
    )
    assert (psc["holder"]["country"], psc["holder"]["nationalId"]) == ("SK", ALFA)
    assert psc["bands"] == [{"kind": "shares", "moreThan": 75.0, "upTo": 100.0}]
    assert psc["source"]["id"] == "gb_psc" and psc["active"] is True
    ended = next(c for c in data["connections"] if c["ukCompany"]["nationalId"] == "09000003")
    assert ended["psc"]["until"] == "2020-05-31" and ended["psc"]["active"] is False


def test_twin_and_other_country(client, auth, named) -> None:
    # The other ALFA of the same name: the entries with ALFA's number are not its own.
    assert found(uk(client, auth, ALFA_TWIN, "sk")) == {
        "09000002": ("this_company_is_psc", "name_country", True, True, None),
        "09000003": ("this_company_is_psc", "name", True, None, None),
        "09000006": ("this_company_is_psc", "registration_number", True, True, True),
    }
    # The CZ ALFA: 09000005 says CZ and gives 35000007, a valid CZ IČO too, so another company's.
    assert found(uk(client, auth, ALFA_CZ, "cz")) == {
        "09000003": ("this_company_is_psc", "name", True, None, None)
    }
    assert uk(client, auth, OTHER, "sk")["connections"] == []


def test_uk_company_side_shows_the_entry(client, auth, named) -> None:
    """The UK company's own PSCs carry what the PSC entry says about the foreign holder."""
    data = uk(client, auth, "09000001", "gb")
    ((kind, holder),) = [(c["kind"], c["psc"]["holder"]) for c in data["connections"]]
    assert kind == "psc_of_this_company"
    assert (holder["type"], holder["country"], holder["nationalId"]) == ("entity", "SK", ALFA)


def test_unknown_parameter_and_reimport(client, auth, engine, named) -> None:
    resp = client.get(f"/api/v1/companies/{ALFA}/uk-connections", headers=auth, params={"matchh": "name"})
    assert resp.status_code == 422 and resp.json()["error"]["code"] == "VALIDATION_ERROR"
    before = uk(client, auth, ALFA, "sk")
    named_again = Loader(engine, PSC_SOURCE)
    named_again.add(
        CompanyRecord(
            country="GB",
            national_id="09000002",
            roles=[RoleRecord("shareholder", "ALFA S.R.O.", share_pct=75.0, natures_of_control=BANDS)],
        )
    )
    named_again.flush()  # the entry no longer gives its country: a name match only
    after = found(uk(client, auth, ALFA, "sk"))
    assert after["09000002"] == ("this_company_is_psc", "name", True, None, None)
    assert len(after) == len(before["connections"])


# The real sample (gb_companies_house/psc_snapshot_sample.jsonl, OGL v3.0): the UK companies whose
# corporate PSCs are registered abroad, and companies of ours named as those PSCs. The PSCs' names and
# identifications are the sample's; the foreign companies are seeded here with those names.
UK_NAMING = ("02847483", "OE029880", "01507964")
FOREIGN = [
    CompanyRecord(country="US", national_id="41-0406690", name="St. Paul Fire and Marine Insurance Company"),
    CompanyRecord(country="GI", national_id="112233", name="Parliament Lane Management Ltd"),
    CompanyRecord(country="DE", national_id="HRB12345", name="Draeger Finanz AG"),
    CompanyRecord(country="GI", national_id="445566", name="DRAEGER FINANZ AG"),
    # The register's "ä" meets the PSC entry's "ae" (names.spelling_key).
    CompanyRecord(country="DE", national_id="HRB99999", name="Dräger Finanz AG"),
]


@pytest.fixture
def sample(engine, settings):  # type: ignore[no-untyped-def]
    load_companies(engine, *FOREIGN)
    loader = Loader(engine, SEED)
    for number in UK_NAMING:
        loader.add(CompanyRecord(country="GB", national_id=number, name=f"Seeded company {number}"))
    loader.flush()
    run(engine, settings, "gb_psc", SNAPSHOT)


def test_real_psc_sample(client, auth, sample) -> None:
    # "St. Paul Fire & Marine Insurance Company", registered in "Minnesota, Usa", number 41-0406690.
    assert found(uk(client, auth, "41-0406690", "us")) == {
        "02847483": ("this_company_is_psc", "registration_number", True, True, True)
    }
    # "Parliament Lane Management Limited" under "The Companies Ordinance Of The Laws Of Gibraltar".
    assert found(uk(client, auth, "112233", "gi")) == {
        "OE029880": ("this_company_is_psc", "name_country", True, True, None)
    }
    # "Draeger Finanz Ag" with no country: the same name in any country is a lead.
    for ico, country in (("HRB12345", "de"), ("445566", "gi"), ("HRB99999", "de")):
        assert found(uk(client, auth, ico, country)) == {
            "01507964": ("this_company_is_psc", "name", True, None, None)
        }


def test_real_sample_offshore_entity(client, auth, sample) -> None:
    """A corporate PSC known only by name now has the country its entry gives: Gibraltar is listed."""
    data = assert_envelope(
        client.get("/api/v1/companies/gb/OE029880/offshore-links", headers=auth, params={"depth": 1})
    )
    assert [(link["entity"]["name"], link["jurisdiction"], link["basis"]) for link in data["links"]] == [
        ("Parliament Lane Management Limited", "GI", "registered")
    ]


def test_an_umlaut_meets_its_digraph(client, auth, engine) -> None:
    # A German register writes "Dräger", an English-language one "Draeger" (docs/ownership.md).
    load_companies(engine, CompanyRecord(country="AT", national_id="FN123456i", name="Dräger Finanz GmbH"))
    load_companies(
        engine,
        CompanyRecord(
            country="GB",
            national_id="09000011",
            name="UK DRAEGER HOLDINGS LTD",
            roles=[
                RoleRecord(
                    "shareholder",
                    "Draeger Finanz G.m.b.H.",
                    share_pct=75.0,
                    natures_of_control=BANDS,
                    holder_reg_country="AT",
                )
            ],
        ),
        source=PSC_SOURCE,
    )
    assert found(uk(client, auth, "FN123456i", "at")) == {
        "09000011": ("this_company_is_psc", "name_country", True, True, None)
    }
