"""FollowTheMoney and BODS 0.4 exports through HTTP, checked by the standards' own libraries."""

from __future__ import annotations

import json

import libcovebods.config
import libcovebods.data_reader
import libcovebods.jsonschemavalidate
import libcovebods.run_tasks
import libcovebods.schema
import pytest
from followthemoney import model
from libcovebods.tasks.checks import legacy_checks

from tests.helpers import assert_error
from tests.ownership.world import TARGET, load_world


@pytest.fixture
def world(engine):  # type: ignore[no-untyped-def]
    load_world(engine)


def test_ftm_entities_are_valid(client, auth, world) -> None:
    resp = client.get(f"/api/v1/companies/{TARGET}/ftm", headers=auth, params={"depth": 3})
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in resp.text.splitlines()]
    for data in lines:
        schema = model.get(data["schema"])
        assert schema is not None and schema.validate(data) is None, data
        proxy = model.get_proxy(data, cleaned=False)
        assert proxy.id == data["id"]
    by_schema: dict[str, list[dict]] = {}
    for data in lines:
        by_schema.setdefault(data["schema"], []).append(data)
    assert {d["properties"]["name"][0] for d in by_schema["Company"]} >= {
        "TARGET s.r.o.",
        "ALFA HOLDING a.s.",
    }
    assert [d["properties"]["name"][0] for d in by_schema["LegalEntity"]] == ["Offshore Holdings Ltd"]
    ids = {d["id"] for d in lines}
    for link in by_schema["Ownership"]:
        assert link["properties"]["owner"][0] in ids and link["properties"]["asset"][0] in ids
    assert "60" in {p for d in by_schema["Ownership"] for p in d["properties"].get("percentage", [])}
    assert all("birthDate" not in d["properties"] for d in by_schema["Person"])
    declared = client.get(f"/api/v1/companies/{TARGET}/ftm", headers=auth, params={"purpose": "kyc"}).text
    assert '"birthDate":["1980-11-20"]' in declared


def _validate_bods(tmp_path, statements):  # type: ignore[no-untyped-def]
    path = tmp_path / "bods.json"
    path.write_text(json.dumps(statements))
    reader = libcovebods.data_reader.DataReader(str(path))
    config = libcovebods.config.LibCoveBODSConfig()
    schema = libcovebods.schema.SchemaBODS(reader, config)
    assert schema.schema_version == "0.4"
    errors = [e.json() for e in libcovebods.jsonschemavalidate.JSONSchemaValidator(schema).validate(reader)]
    # Every normative check of BODS 0.4 records but two that download org-id.guide's list of identifier
    # schemes at start-up (tests send nothing beyond 127.0.0.1): the legacy 0.1-0.3 checks and the
    # known-scheme check, whose two schemes we use (GB-COH, XI-LEI) are asserted below instead.
    offline = {legacy_checks.__name__, "CheckStatementEntityIdentifiersHaveKnownScheme"}
    tasks = [
        t
        for t in libcovebods.run_tasks.TASK_CLASSES
        if t.__module__ not in offline and t.__name__ not in offline
    ]
    checks = libcovebods.run_tasks.process_additional_checks(reader, config, schema, tasks)
    return errors, checks


def test_bods_package_is_valid(client, auth, world, tmp_path) -> None:
    resp = client.get(f"/api/v1/companies/{TARGET}/bods", headers=auth, params={"depth": 3, "purpose": "kyc"})
    assert resp.status_code == 200
    statements = resp.json()
    errors, checks = _validate_bods(tmp_path, statements)
    assert errors == []
    assert checks["additional_checks"] == [], checks["additional_checks"]
    types = [s["recordType"] for s in statements]
    assert types.count("relationship") >= 8 and "person" in types and "entity" in types
    assert {s["declarationSubject"] for s in statements} == {f"c:SK:{TARGET}"}
    schemes = {i.get("scheme") for s in statements for i in s["recordDetails"].get("identifiers", [])}
    assert schemes <= {None, "GB-COH", "XI-LEI"} and "XI-LEI" in schemes
    band = [
        s
        for s in statements
        if s["recordType"] == "relationship" and s["recordDetails"]["interestedParty"] == f"c:SK:{TARGET}"
    ]
    assert band[0]["recordDetails"]["interests"][0]["share"] == {"exclusiveMinimum": 25.0, "maximum": 50.0}
    plain = client.get(f"/api/v1/companies/{TARGET}/bods", headers=auth).text
    assert "birthDate" not in plain and "1980-11-20" not in plain


@pytest.mark.parametrize("endpoint", ["ftm", "bods"])
def test_errors(client, auth, world, endpoint) -> None:  # type: ignore[no-untyped-def]
    assert_error(client.get(f"/api/v1/companies/{TARGET}/{endpoint}"), 401, "UNAUTHORIZED")
    assert_error(client.get(f"/api/v1/companies/35000350/{endpoint}", headers=auth), 404, "NOT_FOUND")
    assert_error(
        client.get(f"/api/v1/companies/{TARGET}/{endpoint}?depth=9", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.get(f"/api/v1/companies/{TARGET}/{endpoint}?purpose=x", headers=auth), 422, "VALIDATION_ERROR"
    )
