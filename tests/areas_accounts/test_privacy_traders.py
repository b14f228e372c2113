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
