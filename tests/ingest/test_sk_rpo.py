"""sk_rpo: real imports of RPO API JSON (search response, full entity, JSON lines) into a real database."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import func, select

from regintel.db.schema import (
    companies,
    company_changes,
    company_sources,
    data_sources,
    identifiers,
    people,
    roles,
)
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sk_rpo"
SEARCH = FIXTURES / "rpo_v1_search_identifier_31322832.json"
FULL = FIXTURES / "entity_full_sample.json"
ROOT = Path(__file__).parent.parent.parent


def run(engine, settings, path):
    return run_import(engine, get_source("sk_rpo"), str(path), settings.data_dir)


def company(conn, ico):
    return conn.execute(select(companies).where(companies.c.national_id == ico)).mappings().one()


def jsonl(tmp_path, *entities, name="entities.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entities), encoding="utf-8")
    return path


def slovnaft():
    return json.loads(SEARCH.read_text(encoding="utf-8"))["results"][0]


def horsky():
    return json.loads(FULL.read_text(encoding="utf-8"))


def test_search_response(engine, settings):
    _, stats, rejects = run(engine, settings, SEARCH)
    assert (stats.read, stats.inserted, stats.rejected, rejects) == (1, 1, 0, None)
    with engine.connect() as conn:
        row = company(conn, "31322832")
        source = conn.execute(select(company_sources)).mappings().one()
        ids = {(r.type, r.value) for r in conn.execute(select(identifiers))}
        catalogue = conn.execute(select(data_sources).where(data_sources.c.id == "sk_rpo")).mappings().one()
    assert (row["country"], row["name"], row["status"]) == ("SK", "SLOVNAFT, a.s.", "active")
    assert (row["street"], row["postal_code"], row["city"]) == ("Vlčie hrdlo 1", "82412", "Bratislava")
    assert row["address_text"] == "Vlčie hrdlo 1, 82412 Bratislava"
    assert row["founded_on"] == date(1992, 5, 1) and row["dissolved_on"] is None
    assert row["legal_form"] is None and row["source"] == "sk_rpo"
    assert (source["source_record_id"], source["published_on"]) == ("1003617", date(2026, 7, 9))
    assert ids == {("ico", "31322832"), ("register_number", "Sa/426/B")}
    assert catalogue["attribution"] == "Zdroj: Register právnických osôb, Štatistický úrad SR (CC BY 4.0)"
    assert catalogue["licence"] == "CC BY 4.0" and catalogue["row_count"] == 1


def test_full_entity(engine, settings):
    _, stats, _ = run(engine, settings, FULL)
    assert (stats.inserted, stats.rejected) == (1, 0)
    with engine.connect() as conn:
        row = company(conn, "47812346")
        held = conn.execute(select(roles).order_by(roles.c.role, roles.c.holder_name)).mappings().all()
        persons = conn.execute(select(people.c.name).order_by(people.c.name)).scalars().all()
    assert row["name"] == "Horský prameň, s.r.o."
    assert (row["legal_form"], row["legal_form_name"]) == ("112", "Spoločnosť s ručením obmedzeným")
    assert (row["street"], row["postal_code"], row["city"]) == (
        "Hlavná 1520/14",
        "04001",
        "Košice - mestská časť Staré Mesto",
    )
    assert (row["municipality_code"], row["district_code"]) == ("599981", "802")
    assert (row["nace_primary"], row["nace_codes"]) == ("11070", ["11070"])
    assert [
        (r["role"], r["holder_name"], r["title"], r["share_pct"], r["since"], r["until"]) for r in held
    ] == [
        ("director", "Ing. Ján Novák", "Konateľ", None, date(2014, 3, 11), None),
        ("director", "Mária Kováčová", "Konateľ", None, date(2019, 7, 1), None),
        ("director", "Peter Horváth", "Konateľ", None, date(2014, 3, 11), date(2019, 6, 30)),
        ("shareholder", "AQUA INVEST a.s.", "Spoločník", 40.0, date(2019, 7, 1), None),
        ("shareholder", "Ing. Ján Novák", "Spoločník", 60.0, date(2014, 3, 11), None),
    ]
    assert persons == ["Ján Novák", "Mária Kováčová", "Peter Horváth"]  # one person, two roles
    partner = next(r for r in held if r["holder_name"] == "AQUA INVEST a.s.")
    assert partner["holder_key"] == "c:SK:36214582" and partner["person_id"] is None


def test_jsonl_twice_is_unchanged(engine, settings, tmp_path):
    path = jsonl(tmp_path, slovnaft(), horsky())
    _, first, _ = run(engine, settings, path)
    assert (first.read, first.inserted, first.rejected) == (2, 2, 0)
    with engine.connect() as conn:
        logged = conn.execute(select(func.count()).select_from(company_changes)).scalar()
    _, second, _ = run(engine, settings, path)
    assert (second.inserted, second.updated, second.unchanged, second.changes) == (0, 0, 2, 0)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(company_changes)).scalar() == logged


def test_changes_are_detected(engine, settings, tmp_path):
    run(engine, settings, jsonl(tmp_path, slovnaft(), horsky()))
    moved, renamed = slovnaft(), horsky()
    moved["addresses"][0]["validTo"] = "2026-09-30"
    moved["addresses"].insert(
        0, {**moved["addresses"][0], "validFrom": "2026-10-01", "buildingNumber": "3", "validTo": None}
    )
    renamed["fullNames"][1]["validTo"] = "2026-08-31"
    renamed["fullNames"].append({"value": "Horský prameň, s.r.o. v likvidácii", "validFrom": "2026-09-01"})
    renamed["statutoryBodies"][1]["validTo"] = "2026-08-31"
    renamed["statisticalCodes"]["mainActivity"]["code"] = "11071"
    _, stats, _ = run(engine, settings, jsonl(tmp_path, moved, renamed, name="changed.jsonl"))
    assert (stats.updated, stats.unchanged) == (2, 0)
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                company_changes.c.field,
                company_changes.c.old_value,
                company_changes.c.new_value,
                companies.c.national_id,
            )
            .join(companies)
            .where(company_changes.c.field != "created")
        ).all()
    changed = {(r.national_id, r.field): (r.old_value, r.new_value) for r in rows}
    assert changed[("31322832", "street")] == ("Vlčie hrdlo 1", "Vlčie hrdlo 3")
    assert changed[("47812346", "name")] == ("Horský prameň, s.r.o.", "Horský prameň, s.r.o. v likvidácii")
    assert changed[("47812346", "in_liquidation")] == ("false", "true")
    assert changed[("47812346", "nace_primary")] == ("11070", "11071")
    assert changed[("47812346", "roles")][1].count("Mária Kováčová") == 1  # still listed, now ended
    assert ("31322832", "name") not in changed


def test_malformed_rows_are_rejected(engine, settings):
    _, stats, rejects = run(engine, settings, FIXTURES / "entities_corrupted.jsonl")
    assert (stats.read, stats.inserted, stats.rejected) == (7, 2, 5)
    assert set(stats.reasons) == {
        "malformed JSON on line 2",
        "invalid identifier",
        "fullNames is not a list of objects",
        "establishment is not an ISO 8601 date",
        "not an RPO entity (no identifiers or fullNames)",
    }
    reasons = [json.loads(line)["reason"] for line in rejects.read_text(encoding="utf-8").splitlines()]
    assert any("'31322833' is not a valid SK IČO" in r for r in reasons)
    with engine.connect() as conn:
        row = company(conn, "44444443")
    assert row["name"] == "Žilinská ľadová spoločnosť, s. r. o. v likvidácii"
    assert (row["name_norm"], row["in_liquidation"], row["in_bankruptcy"]) == (
        "zilinska ladova spolocnost",
        True,
        False,
    )
    assert (row["street"], row["postal_code"], row["city"]) == ("Ľudovíta Štúra 7", "01001", "Žilina")


@pytest.mark.parametrize(
    "content",
    [
        b"ico;name\n31322832;SLOVNAFT\n",
        b"",
        b'{"klasifikacie": []}',
        b'{"ico":"50826042","nazovUJ":"UOL SK s.r.o.","id":1689373}\n',
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    path = tmp_path / "input.json"
    path.write_bytes(content)
    with pytest.raises(SourceAbort):
        run(engine, settings, path)


def test_generated_file_imports(engine, settings, tmp_path):
    path = tmp_path / "rpo.jsonl.gz"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gen_sk_rpo.py"), str(path), "--count", "500"], check=True
    )
    _, stats, _ = run(engine, settings, path)
    assert (stats.read, stats.inserted, stats.rejected) == (500, 500, 0)
    with engine.connect() as conn:
        assert (
            conn.execute(select(func.count()).select_from(roles).where(roles.c.role == "director")).scalar()
            >= 500
        )
