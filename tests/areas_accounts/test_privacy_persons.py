"""Data-protection requests about natural persons of the register, end to end: the requester names the
record (`person_name` / `person_keys`) in a verified `erase` or `object` request, the operator lists, shows
and answers it with the `regintel privacy` command (typer's CliRunner, on the test database), and the
withheld person disappears from every endpoint that serves register persons (relations, graph, network,
exports, the agent brief, person search and look-up, the change log), also after a re-import; the request
stays recorded."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update
from typer.testing import CliRunner

from regintel.areas.accounts.tables import (
    privacy_person_suppressions,
    privacy_requests,
    privacy_withheld_rows,
)
from regintel.cli import app
from regintel.db.schema import company_changes, people, roles
from regintel.domain.types import CompanyRecord, RoleRecord
from regintel.ingest.sections import person_key
from tests.areas_accounts.test_public_forms import outbox, token_in
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.ownership.world import ALFA, JAN, JANA, SINCE, TARGET, load_world, sk

JANA_KEY = person_key(JANA.name, JANA.birth_date, JANA.nationality)
PETER_NAME = "Peter Horváth"


@pytest.fixture
def cli(settings, monkeypatch):
    monkeypatch.setenv("REGINTEL_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("REGINTEL_DATA_DIR", str(settings.data_dir))
    runner = CliRunner()

    def run(*args: str, code: int = 0) -> str:
        result = runner.invoke(app, ["privacy", *args])
        assert result.exit_code == code, result.output
        return result.stdout if code == 0 else result.output

    return run


def _served(client, auth) -> dict[str, str]:
    """Every response that serves TARGET's register persons, as text."""
    base = f"/api/v1/companies/{TARGET}"
    paths = {
        "relations": f"{base}/relations?include_ended=true",
        "graph": f"{base}/graph?depth=3",
        "network": f"{base}/network",
        "i2 entities": f"{base}/i2/entities.csv",
        "i2 links": f"{base}/i2/links.csv",
        "ftm": f"{base}/ftm",
        "bods": f"{base}/bods",
        "maltego owners": f"{base}/maltego/owners",
        "maltego officers": f"{base}/maltego/officers",
        "company": base,
        "brief": f"/api/v1/agent/company-brief?ico={TARGET}&purpose=kyc",
        "people search": "/api/v1/people/search?q=Jana%20Nov%C3%A1kov%C3%A1",
        "history": f"{base}/history",
        "timeline": f"{base}/timeline",
        "changes": "/api/v1/companies/changes",
        "changes feed": "/api/v1/companies/changes/feed",
    }
    out = {}
    for what, path in paths.items():
        resp = client.get(path, headers=auth)
        assert resp.status_code == 200, (what, resp.status_code, resp.text[:300])
        out[what] = resp.text
    return out


def _file_request(client, engine, kind="erase", **extra) -> int:
    body = {"email": "jana@example.org", **extra}
    assert client.post(f"/api/v1/privacy/{kind}", json=body).status_code == 202
    mail = [m for m in outbox(engine, "jana@example.org") if m["kind"] == "privacy_verify"][-1]
    out = assert_envelope(client.post(f"/api/v1/privacy/{kind}", json={"token": token_in(mail["body"])}))
    return int(out["request_id"])


def test_erase_withholds_the_matched_person_everywhere(client, auth, engine, cli):
    load_world(engine)
    before = _served(client, auth)
    for what in (
        "relations",
        "graph",
        "i2 entities",
        "bods",
        "ftm",
        "maltego owners",
        "brief",
        "people search",
        "history",
        "timeline",
        "changes",
        "changes feed",
    ):
        assert "Nováková" in before[what], what  # the test can fail: she is served before
    person = assert_envelope(client.get(f"/api/v1/companies/person/p:{JANA_KEY}", headers=auth))
    assert person["person"]["name"] == JANA.name

    request_id = _file_request(client, engine, person_name="Jana Nováková")
    listed = json.loads(cli("list", "--json"))
    mine = next(r for r in listed if r["id"] == request_id)
    assert mine["status"] == "verified" and mine["person_name"] == "Jana Nováková" and not mine["overdue"]
    assert 29 <= mine["days_left"] <= 31  # one month from verification
    assert "jana@example.org" in cli("list") and "(not verified)" not in cli("list")
    shown = json.loads(cli("show", str(request_id)))
    assert [c["person_key"] for c in shown["candidates"]] == [JANA_KEY]
    assert (
        shown["candidates"][0]["birth_date"] == "1980-11-20"
        and "TARGET" in shown["candidates"][0]["roles"][0]
    )

    answered = json.loads(
        cli(
            "answer",
            str(request_id),
            "--outcome",
            "matched by birth date and ID card",
            "--withhold",
            f"p:{JANA_KEY}",
        )
    )
    assert answered["roles_removed"] == 1 and answered["request"]["status"] == "done"
    assert answered["withheld"][0]["person_key"] == JANA_KEY and answered["withheld"][0]["reason"] == "erase"
    assert "matched by birth date" in answered["request"]["outcome"]

    after = _served(client, auth)
    for what, body in after.items():
        assert "Nováková" not in body and JANA_KEY not in body, what
    assert "Ján Kováč" in after["relations"] and "ALFA HOLDING" in after["graph"]  # others stay
    assert_error(client.get(f"/api/v1/companies/person/p:{JANA_KEY}", headers=auth), 404, "NOT_FOUND")
    with engine.connect() as conn:
        assert conn.execute(select(people.c.id).where(people.c.person_key == JANA_KEY)).first() is None
        assert not [
            v for v in conn.execute(select(company_changes.c.new_value)).scalars() if v and "Nováková" in v
        ]
        kept = (
            conn.execute(select(privacy_requests).where(privacy_requests.c.id == request_id)).mappings().one()
        )
    assert kept["email"] == "jana@example.org" and kept["person_name"] == "Jana Nováková"  # the legal record

    # the register delivers her again: the import skips her, the others load as before
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=TARGET,
            roles=[
                RoleRecord(
                    "shareholder", "ALFA HOLDING a.s.", holder_company=sk(ALFA), share_pct=60.0, since=SINCE
                ),
                RoleRecord("shareholder", JANA.name, person=JANA, share_pct=40.0, since=SINCE),
                RoleRecord("director", JAN.name, person=JAN, title="konateľ", since=SINCE),
            ],
        ),
    )
    again = _served(client, auth)
    assert all("Nováková" not in body for body in again.values())
    assert "Ján Kováč" in again["relations"]
    with engine.connect() as conn:
        assert conn.execute(select(roles.c.id).where(roles.c.holder_key == f"p:{JANA_KEY}")).first() is None


def test_object_by_key_and_the_commands_refusals(client, auth, engine, cli):
    load_world(engine)
    peter = person_key(PETER_NAME, "1971-03-04", "SK")
    unverified = client.post(
        "/api/v1/privacy/object", json={"email": "peter@example.org", "person_keys": [f"p:{peter}"]}
    )
    assert unverified.status_code == 202
    with engine.connect() as conn:
        first = conn.execute(
            select(privacy_requests.c.id).where(privacy_requests.c.email == "peter@example.org")
        ).scalar_one()
    assert "(not verified)" in cli("list")
    assert "not verified" in cli("answer", str(first), "--outcome", "x", "--withhold", f"p:{peter}", code=2)
    assert "No privacy request" in cli("show", "999999", code=2)
    access = _file_request(client, engine, kind="access")
    assert "Only erase and object" in cli(
        "answer", str(access), "--outcome", "x", "--withhold", f"p:{peter}", code=2
    )
    request_id = _file_request(client, engine, kind="object", person_keys=[peter])
    assert "No register person" in cli(
        "answer", str(request_id), "--outcome", "x", "--withhold", "p:" + "0" * 32, code=2
    )
    assert "Say what was done" in cli("answer", str(request_id), "--outcome", " ", code=2)
    shown = json.loads(cli("show", str(request_id)))
    assert shown["candidates"][0]["named_by_key"] and shown["candidates"][0]["name"] == PETER_NAME
    # a month passes: the request is overdue
    with engine.begin() as conn:
        conn.execute(
            update(privacy_requests)
            .where(privacy_requests.c.id == request_id)
            .values(due_at=datetime.now(UTC) - timedelta(days=2))
        )
    assert "OVERDUE" in cli("list")
    assert next(r for r in json.loads(cli("list", "--json")) if r["id"] == request_id)["overdue"]
    cli("answer", str(request_id), "--outcome", "objection upheld", "--withhold", peter)
    relations = client.get(f"/api/v1/companies/{ALFA}/relations", headers=auth).text
    assert PETER_NAME not in relations and "BETA" in relations
    # the answered request leaves the open list, stays in --all; the rectify/access answers need no person
    assert request_id not in [r["id"] for r in json.loads(cli("list", "--json"))]
    assert request_id in [r["id"] for r in json.loads(cli("list", "--all", "--json"))]
    with engine.connect() as conn:
        assert conn.execute(select(privacy_person_suppressions.c.reason)).scalars().all() == ["object"]


def test_person_fields_of_the_request_are_checked(client):
    for body in (
        {"email": "a@example.org", "person_keys": ["nope"]},
        {"email": "a@example.org", "person_keys": ["p:" + "g" * 32]},
        {"email": "a@example.org", "person_keys": ["p:" + "a" * 32] * 21},
        {"email": "a@example.org", "person_keys": "p:" + "a" * 32},
        {"email": "a@example.org", "person_name": ""},
        {"email": "a@example.org", "person_name": "x" * 201},
        {"token": "t" * 40, "person_name": "Jana"},
    ):
        assert_error(client.post("/api/v1/privacy/erase", json=body), 422, "VALIDATION_ERROR")
    # without a person named, erase is done at once as before (nothing in the register is touched)
    assert (
        client.post(
            "/api/v1/privacy/erase", json={"email": "a@example.org", "person_name": "Zoë O'Brien'; --"}
        ).status_code
        == 202
    )


def test_a_withheld_person_is_kept_aside_and_can_be_lifted(client, auth, engine, cli):
    """Withholding loses no register data: the rows are kept aside and `privacy lift` puts them back."""
    load_world(engine)
    before = assert_envelope(
        client.get(f"/api/v1/companies/{TARGET}/relations", headers=auth, params={"purpose": "kyc"})
    )
    with engine.connect() as conn:
        changes_before = sorted(conn.execute(select(company_changes.c.id, company_changes.c.new_value)).all())
    request_id = _file_request(client, engine, kind="object", person_keys=[f"p:{JANA_KEY}"])
    cli("answer", str(request_id), "--outcome", "objection received", "--withhold", f"p:{JANA_KEY}")
    with engine.connect() as conn:
        kept = {
            t
            for t in conn.execute(
                select(privacy_withheld_rows.c.table_name).where(
                    privacy_withheld_rows.c.person_key == JANA_KEY
                )
            ).scalars()
        }
    assert {"people", "roles", "company_changes"} <= kept
    assert "Nováková" not in client.get(f"/api/v1/companies/{TARGET}/relations", headers=auth).text

    lifted = json.loads(cli("lift", f"p:{JANA_KEY}"))
    assert lifted["people"] == 1 and lifted["roles"] == 1 and lifted["changes"] >= 1
    after = assert_envelope(
        client.get(f"/api/v1/companies/{TARGET}/relations", headers=auth, params={"purpose": "kyc"})
    )
    assert after == before  # the same roles, holder ids, dates and sources as before
    person = assert_envelope(client.get(f"/api/v1/companies/person/p:{JANA_KEY}", headers=auth))
    assert person["person"]["name"] == JANA.name
    with engine.connect() as conn:
        assert (
            sorted(conn.execute(select(company_changes.c.id, company_changes.c.new_value)).all())
            == changes_before
        )
        assert conn.execute(select(privacy_withheld_rows.c.id)).first() is None
        assert conn.execute(select(privacy_person_suppressions.c.person_key)).first() is None
        assert conn.execute(select(privacy_requests.c.id).where(privacy_requests.c.id == request_id)).first()
    assert "is not withheld" in cli("lift", f"p:{JANA_KEY}", code=2)


def test_access_export_holds_the_matched_register_person(client, auth, engine, cli):
    load_world(engine)
    request_id = _file_request(client, engine, kind="access", person_name="Jana Nováková")
    shown = json.loads(cli("show", str(request_id)))
    assert [c["person_key"] for c in shown["candidates"]] == [JANA_KEY]
    out = json.loads(cli("export", str(request_id), "--person", f"p:{JANA_KEY}"))
    assert out["email"] == "jana@example.org" and out["request_id"] == request_id
    assert [r["kind"] for r in out["privacy_requests"]] == ["access"]
    (person,) = out["register_persons"]
    assert person["person"]["name"] == JANA.name and person["person"]["birth_date"] == "1980-11-20"
    (role,) = person["roles"]
    assert (role["role"], role["share_pct"], role["company"]["national_id"]) == ("shareholder", 40.0, TARGET)
    assert person["change_log"] and all(
        "Nováková" in (c["new_value"] or "") + (c["old_value"] or "") for c in person["change_log"]
    )
    assert (
        json.loads(cli("export", str(request_id)))["register_persons"] == []
    )  # nothing matched, nothing added
    assert "No register person" in cli("export", str(request_id), "--person", "p:" + "0" * 32, code=2)
    erase = _file_request(client, engine, kind="erase")
    assert "not an access request" in cli("export", str(erase), code=2)
