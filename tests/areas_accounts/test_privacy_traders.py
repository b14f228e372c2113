"""A sole trader withheld after a verified erase request (`regintel privacy answer --withhold-company`,
typer's CliRunner on the test database): the company row is the register entry, so lookups answer 404 and
search and autocomplete omit it while other companies stay; a re-import skips it (the loader reads the
suppressions); `lift c:…` restores the same answers (areas/accounts/traders.py)."""

from __future__ import annotations

import json

from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from tests.areas_accounts.test_privacy_persons import _file_request, cli  # noqa: F401 (fixture)
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

TRADER = CompanyRecord(
    country="SK",
    national_id="44483767",
    name="Ján Horváth - HORTEX",
    legal_form="101",  # Podnikateľ - fyzická osoba (ŠÚ SR): a sole trader
    city="Trnava",
    roles=[
        RoleRecord(
            role="owner", holder_name="Ján Horváth", person=PersonRecord("Ján Horváth", birth_date="1975-02")
        )
    ],
)
ESET = CompanyRecord(
    country="SK", national_id="31333532", name="ESET, spol. s r.o.", legal_form="112", city="Bratislava"
)


def _served(client, auth) -> dict[str, object]:
    return {
        "company": client.get("/api/v1/companies/44483767?country=sk", headers=auth),
        "search": client.get("/api/v1/companies/search?q=hortex", headers=auth),
        "autocomplete": client.get("/api/v1/companies/autocomplete?q=horte", headers=auth),
    }


def _names(resp) -> list[str]:
    return [i["name"] for i in resp.json()["data"]]


def test_a_sole_trader_is_withheld_and_lifted(client, auth, engine, cli):  # noqa: F811
    load_companies(engine, TRADER, ESET)
    before = _served(client, auth)
    assert assert_envelope(before["company"])["name"] == TRADER.name  # served before: the test can fail
    assert _names(before["search"]) == [TRADER.name] and TRADER.name in _names(before["autocomplete"])

    request_id = _file_request(client, engine, kind="erase")
    # not a sole trader: refused, nothing withheld
    out = cli("answer", str(request_id), "--outcome", "x", "--withhold-company", "SK:31333532", code=2)
    assert "not a sole trader" in out
    answered = json.loads(
        cli("answer", str(request_id), "--outcome", "Erased", "--withhold-company", "SK:44483767")
    )
    assert answered["sole_traders_withheld"] == ["c:SK:44483767"]
    assert "c:SK:44483767" in [w["person_key"] for w in answered["withheld"]]

    after = _served(client, auth)
    assert_error(after["company"], 404, "NOT_FOUND")
    assert _names(after["search"]) == [] and TRADER.name not in _names(after["autocomplete"])
    assert assert_envelope(client.get("/api/v1/companies/31333532?country=sk", headers=auth))

    # a new import of the register skips the withheld entry (ingest/loader.py), and says so in its run
    stats = load_companies(engine, TRADER)
    assert stats.skip_reasons == {"withheld after a data-protection request": 1} and stats.inserted == 0
    assert_error(client.get("/api/v1/companies/44483767?country=sk", headers=auth), 404, "NOT_FOUND")
    assert json.loads(cli("reapply"))["c:SK:44483767"] == 0  # nothing came back to withhold again

    assert json.loads(cli("lift", "c:SK:44483767"))["rows"] >= 3  # company, source, role
    lifted = _served(client, auth)
    assert assert_envelope(lifted["company"])["name"] == TRADER.name
    assert _names(lifted["search"]) == [TRADER.name]
    cli("lift", "c:SK:44483767", code=2)  # no longer withheld


def test_a_lift_after_sqlite_gave_the_id_to_another_company(client, auth, engine, cli):  # noqa: F811
    """SQLite gives a new row the highest id + 1: the newest company withheld, the next one imported takes
    its id (PostgreSQL does not reuse it). The lift brings the trader back under a new id, its role with it,
    and the other company keeps its own id, name and role."""
    from sqlalchemy import select

    from regintel.db.schema import companies, roles

    newco = CompanyRecord(
        country="SK",
        national_id="35757442",
        name="NOVA s.r.o.",
        legal_form="112",
        roles=[RoleRecord(role="director", holder_name="Eva Malá", person=PersonRecord("Eva Malá"))],
    )

    def held() -> dict[str, tuple[int, list[str]]]:
        with engine.connect() as conn:
            rows = conn.execute(select(companies.c.id, companies.c.national_id)).all()
            return {
                str(n): (
                    int(i),
                    sorted(
                        conn.execute(select(roles.c.holder_name).where(roles.c.company_id == i)).scalars()
                    ),
                )
                for i, n in rows
            }

    load_companies(engine, ESET, TRADER)  # the trader is the newest row
    trader_id = held()["44483767"][0]
    request_id = _file_request(client, engine, kind="erase")
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold-company", "SK:44483767")
    load_companies(engine, newco)
    if engine.dialect.name == "sqlite":
        assert held()["35757442"][0] == trader_id  # the id was given again: the case the lift must handle

    assert json.loads(cli("lift", "c:SK:44483767"))["rows"] >= 3
    after = held()
    assert after["35757442"] == (after["35757442"][0], ["Eva Malá"])
    assert after["44483767"][1] == ["Ján Horváth"] and after["44483767"][0] != after["35757442"][0]
    assert assert_envelope(client.get("/api/v1/companies/44483767?country=sk", headers=auth))["name"] == (
        TRADER.name
    )
    assert assert_envelope(client.get("/api/v1/companies/35757442?country=sk", headers=auth))["name"] == (
        "NOVA s.r.o."
    )


def test_roles_held_by_a_withheld_sole_trader_leave_other_companies(client, auth, engine, cli):  # noqa: F811
    """A company whose shareholder is the sole trader's register entry (a `c:` holder) named the trader in
    its relations; withheld, the role is set aside with the entry, stays out on a re-import of that company,
    and comes back with the lift."""
    from regintel.domain.types import CompanyKey

    agro = CompanyRecord(
        country="SK",
        national_id="35757442",
        name="AGRO s.r.o.",
        legal_form="112",
        roles=[
            RoleRecord(
                role="shareholder",
                holder_name=TRADER.name,
                holder_company=CompanyKey("SK", TRADER.national_id),
                share_pct=40.0,
            ),
            RoleRecord(role="director", holder_name="Eva Malá", person=PersonRecord("Eva Malá")),
        ],
    )
    load_companies(engine, TRADER, agro)
    relations = "/api/v1/companies/35757442/relations?country=sk&include_ended=true"
    assert TRADER.name in client.get(relations, headers=auth).text  # named before: the test can fail

    request_id = _file_request(client, engine, kind="erase")
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold-company", "SK:44483767")
    after = client.get(relations, headers=auth)
    assert after.status_code == 200 and TRADER.name not in after.text and "Eva Malá" in after.text
    load_companies(engine, agro)  # the register lists the holding again: it stays out
    assert TRADER.name not in client.get(relations, headers=auth).text

    cli("lift", "c:SK:44483767")
    back = client.get(relations, headers=auth).text
    assert TRADER.name in back and "Eva Malá" in back


def test_answers_stored_by_data_version_are_not_served_after(client, auth, engine, cli):  # noqa: F811
    """The public shell-address list (a statistics snapshot, with sample companies) and a stored sitemap page
    are kept per data version; a withholding moves it (`privacy_actions`, read by `db.stats.data_version`), so
    neither still names the trader after it, and both do again after the lift."""
    from dataclasses import replace

    from tests.jobs.support import valid_icos

    here = {"street": "Hlavná 1", "postal_code": "91701", "city": "Trnava"}
    neighbours = [
        CompanyRecord(country="SK", national_id=i, name=f"Firma {n} s.r.o.", legal_form="112", **here)
        for n, i in enumerate(valid_icos(12))
    ]
    load_companies(engine, replace(TRADER, **here), *neighbours)
    load_companies(engine, ESET)  # the newest change is not the trader's: deleting theirs leaves the version

    def served() -> tuple[bool, bool]:
        shells = client.get("/api/v1/public/shell-addresses")
        sitemap = client.get("/sitemap-firma-1.xml")
        assert shells.status_code == sitemap.status_code == 200
        return TRADER.name in shells.text, f"/sk/{TRADER.national_id}<" in sitemap.text

    assert served() == (True, True)  # computed and stored now: the test can fail
    assert client.get("/api/v1/public/shell-addresses").json()["meta"]["cached"] is True
    request_id = _file_request(client, engine, kind="erase")
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold-company", "SK:44483767")
    assert served() == (False, False)
    cli("lift", "c:SK:44483767")
    assert served() == (True, True)
