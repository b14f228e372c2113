"""ch_zefix: a real Zefix firm record (Actor IQ SA) and ZefixPublicREST records built from it."""

from __future__ import annotations

import json
from datetime import date

import pytest

from regintel.db.schema import data_sources
from regintel.ingest.base import SourceAbort
from tests.helpers import assert_envelope, assert_error
from tests.ingest.import_helpers import (
    FIXTURES,
    assert_idempotent,
    changes,
    company,
    count,
    identifier_pairs,
    provenance,
    rejects,
    run,
)

ACTOR = FIXTURES / "ch_zefix" / "zefixrest_v1_firm_CHE279438550.json"


def actor() -> dict:
    return json.loads(ACTOR.read_text(encoding="utf-8"))


def public_rest(uid: str, **fields: object) -> dict:
    """The real record's values in the ZefixPublicREST `CompanyFull` shape of the official OpenAPI."""
    real = actor()
    record = {
        "name": real["name"],
        "ehraid": real["ehraid"],
        "uid": uid,
        "chid": real["chid"],
        "legalSeatId": real["legalSeatId"],
        "legalSeat": real["legalSeat"],
        "registryOfCommerceId": real["registerOfficeId"],
        "legalForm": {
            "id": 4,
            "uid": "0107",
            "name": {"de": "Gesellschaft mit beschränkter Haftung", "fr": "Société à responsabilité limitée"},
        },
        "status": "ACTIVE",
        "sogcDate": "2025-07-01",
        "deletionDate": None,
        "canton": "VS",
        "address": {"street": "Rue d'Aoste", "houseNumber": "5a", "city": "Martigny", "swissZipCode": "1920"},
    }
    record.update(fields)
    return record


def write_lines(path, records) -> None:
    path.write_text(
        "".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) + "\n" for r in records),
        encoding="utf-8",
    )


def test_real_firm(engine, settings):
    stats = run(engine, settings, "ch_zefix", ACTOR)
    assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    row = company(engine, "CH", "CHE279438550")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == (
        "Actor IQ SA",
        "3",
        "Aktiengesellschaft",
    )
    assert (row["status"], row["in_liquidation"], row["dissolved_on"]) == ("active", False, None)
    assert (row["street"], row["postal_code"], row["city"]) == ("Rue d'Aoste 5a", "1920", "Martigny")
    assert (row["region_code"], row["municipality_code"], row["vat_id"]) == ("VS", "6136", None)
    assert identifier_pairs(engine, "CHE279438550") == {("elf", "MVII")}
    source = provenance(engine, "CHE279438550")
    assert (source["source"], source["published_on"]) == ("ch_zefix", date(2025, 6, 12))
    with engine.connect() as conn:
        catalogue = (
            conn.execute(data_sources.select().where(data_sources.c.id == "ch_zefix")).mappings().one()
        )
    assert catalogue["licence"].startswith("OGD Switzerland") and "Zefix" in catalogue["attribution"]
    assert_idempotent(engine, settings, "ch_zefix", ACTOR)


def test_public_rest_statuses_and_changes(engine, settings, tmp_path):
    records = [
        public_rest("CHE100000006"),
        public_rest("CHE100000012", status="BEING_CANCELLED"),
        public_rest("CHE100000029", status="CANCELLED", deletionDate="2025-08-01"),
    ]
    (tmp_path / "search.json").write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    assert run(engine, settings, "ch_zefix", tmp_path / "search.json").inserted == 3
    gmbh, liquidating, deleted = (
        company(engine, "CH", u) for u in ("CHE100000006", "CHE100000012", "CHE100000029")
    )
    assert (gmbh["legal_form"], gmbh["legal_form_name"]) == ("4", "Gesellschaft mit beschränkter Haftung")
    assert identifier_pairs(engine, "CHE100000006") == {("elf", "3EKS")}
    assert (liquidating["status"], liquidating["in_liquidation"]) == ("active", True)
    assert (deleted["status"], deleted["dissolved_on"]) == ("dissolved", date(2025, 8, 1))
    run(engine, settings, "ch_zefix", ACTOR)
    moved = actor()
    moved.update(shabDate="2025-09-01", status="AUFGELOEST", name="Actor IQ SA en liquidation")
    moved["address"]["swissZipCode"] = "1950"
    moved["address"]["town"] = "Sion"
    (tmp_path / "moved.json").write_text(json.dumps(moved, ensure_ascii=False), encoding="utf-8")
    assert run(engine, settings, "ch_zefix", tmp_path / "moved.json").updated == 1
    log = changes(engine, "CHE279438550")
    assert log["city"] == ("Martigny", "Sion") and log["in_liquidation"] == ("false", "true")


def test_malformed_records_are_rejected_with_reasons(engine, settings, tmp_path):
    records = [
        public_rest("CHE100000006"),
        json.dumps(public_rest("CHE100000012"))[:100] + "\n",
        public_rest("CHE100000013"),
        public_rest("CHE100000029", status="SLEEPING"),
        public_rest("CHE100000035", sogcDate="01.07.2025"),
        public_rest("CHE100000006", address="Rue d'Aoste 5a"),
        public_rest("CHE100000012", legalForm="AG"),
    ]
    write_lines(tmp_path / "mixed.jsonl", records)
    stats, rows = rejects(engine, settings, "ch_zefix", tmp_path / "mixed.jsonl")
    assert (stats.read, stats.inserted, stats.rejected) == (7, 1, 6)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "malformed JSON on line 2",
        "is not a valid CH UID",
        "status is not a Zefix status",
        "sogcDate is not a date",
        "address is not an object",
        "legalForm is not an object",
    ):
        assert expected in reasons
    assert count(engine) == 1


@pytest.mark.parametrize(
    "content",
    [
        "",
        "uid;name\n",
        json.dumps({"ico": "26168685"}),
        json.dumps({"error": {"code": "NOT_FOUND", "message": "no company"}}),
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.json").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "ch_zefix", tmp_path / "wrong.json")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "ch_zefix", ACTOR)
    data = assert_envelope(client.get("/api/v1/companies/ch/CHE-279.438.550", headers=auth))
    assert (data["name"], data["country"], data["status"]) == ("Actor IQ SA", "CH", "active")
    assert any(s["id"] == "ch_zefix" for s in data["sources"])
    assert (
        assert_envelope(client.get("/api/v1/companies/ch/che279438550", headers=auth))["name"]
        == "Actor IQ SA"
    )
    assert_error(client.get("/api/v1/companies/ch/CHE279438551", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/ch/CHE100000006", headers=auth), 404, "NOT_FOUND")
