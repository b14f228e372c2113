"""Importing the sanctions lists: real samples, idempotent re-import, malformed files, the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from regintel.areas.screening.importer import import_list
from regintel.areas.screening.tables import (
    sanction_birth_dates,
    sanction_entries,
    sanction_identifiers,
    sanction_lists,
    sanction_names,
)
from regintel.ingest.base import SourceAbort
from regintel.ingest.sources.sanctions_common import country_code
from tests.helpers import assert_envelope
from tests.screening.support import EU, OFAC_SMALL, SHARED_FTM, UK, UN


def _count(engine, table, **where) -> int:
    query = select(func.count()).select_from(table)
    for key, value in where.items():
        query = query.where(table.c[key] == value)
    with engine.connect() as conn:
        return int(conn.execute(query).scalar_one())


def _snapshot(engine) -> list[tuple]:
    with engine.connect() as conn:
        return (
            [tuple(r) for r in conn.execute(select(sanction_entries).order_by(sanction_entries.c.id))]
            + [tuple(r) for r in conn.execute(select(sanction_names).order_by(sanction_names.c.id))]
            + [tuple(r) for r in conn.execute(select(sanction_lists).order_by(sanction_lists.c.id))]
        )


@pytest.mark.parametrize(
    "list_id, path, entries",
    [
        ("sanctions_un", UN, 1003),
        ("sanctions_eu_fsf", EU, 4),
        ("sanctions_uk", UK, 5),
        ("sanctions_ofac", OFAC_SMALL, 153),
    ],
)
def test_import_is_idempotent(engine, list_id, path, entries):
    first = import_list(engine, list_id, path)
    assert (first.inserted, first.updated, first.deleted) == (entries, 0, 0)
    before = _snapshot(engine)
    again = import_list(engine, list_id, path)
    assert (again.inserted, again.updated, again.deleted, again.unchanged) == (0, 0, 0, entries)
    assert _snapshot(engine) == before  # the same file twice writes nothing


def test_un_names_dates_and_weak_aliases(engine):
    import_list(engine, "sanctions_un", UN)
    assert _count(engine, sanction_names, kind="weak") == 615  # QUALITY Low
    with engine.connect() as conn:
        entry = conn.execute(
            select(sanction_entries.c.id, sanction_entries.c.schema, sanction_entries.c.caption).where(
                sanction_entries.c.entry_key == "6907994"
            )
        ).one()
        names = conn.execute(
            select(sanction_names.c.name, sanction_names.c.kind, sanction_names.c.name_norm)
            .where(sanction_names.c.entry_id == entry.id)
            .order_by(sanction_names.c.id)
        ).all()
    assert (entry.schema, entry.caption) == ("person", "FRANK KAKOLELE BWAMBALE")
    assert names[0] == ("FRANK KAKOLELE BWAMBALE", "primary", "frank kakolele bwambale")
    assert ("AIGLE BLANC", "alias", "aigle blanc") in names


def test_eu_uk_and_ofac_details(engine):
    for list_id, path in (("sanctions_eu_fsf", EU), ("sanctions_uk", UK), ("sanctions_ofac", OFAC_SMALL)):
        import_list(engine, list_id, path)
    with engine.connect() as conn:

        def ids(key):
            return set(
                conn.execute(
                    select(sanction_identifiers.c.id_type, sanction_identifiers.c.value_norm)
                    .join(sanction_entries, sanction_entries.c.id == sanction_identifiers.c.entry_id)
                    .where(sanction_entries.c.entry_key == key)
                )
            )

        def dates(key):
            return {
                d
                for (d,) in conn.execute(
                    select(sanction_birth_dates.c.birth_date)
                    .join(sanction_entries, sanction_entries.c.id == sanction_birth_dates.c.entry_id)
                    .where(sanction_entries.c.entry_key == key)
                )
            }

        assert ("passport", "FK117RK0") in ids("6106") and ("un_reference", "LYI006") in ids("6106")
        assert dates("6106") == {"1944-04-04"}
        assert dates("AFG0006") == {"1958-05-12", "1945", "1946"}
        assert ("registration", "06527449") in ids("BEL0107") and ("imo", "9562233") in ids("DPR0075")
        assert dates("26235") == {"1975-06-14"}
        assert ("passport", "717637093") in ids("26235")
        weak = (
            conn.execute(select(sanction_names.c.name).where(sanction_names.c.kind == "weak")).scalars().all()
        )
    assert weak == ["BNK"]  # the UK's "Low quality a.k.a"


def test_a_changed_list_updates_and_removes(engine, tmp_path):
    import_list(engine, "sanctions_uk", UK)
    text = UK.read_text(encoding="utf-8")
    changed = text.replace("Haji Alim Hawala", "Haji Alim Hawala Exchange")
    cut = changed[: changed.rindex("<Designation>")] + "</Designations>\n"
    path = tmp_path / "uk.xml"
    path.write_text(cut, encoding="utf-8")
    stats = import_list(engine, "sanctions_uk", path)
    assert (stats.inserted, stats.updated, stats.deleted, stats.unchanged) == (0, 1, 1, 3)
    assert _count(engine, sanction_entries) == 4
    assert _count(engine, sanction_names, name="Haji Alim Hawala Exchange") == 1
    with engine.connect() as conn:
        assert conn.execute(select(sanction_lists.c.version)).scalar_one() == 2


@pytest.mark.parametrize(
    "list_id, content, message",
    [
        ("sanctions_un", b"<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL>", "well-formed"),
        ("sanctions_un", b"<?xml version='1.0'?><export/>", "not a UN consolidated list"),
        ("sanctions_eu_fsf", b"<Designations></Designations>", "not an EU Financial Sanctions File"),
        ("sanctions_uk", b"\x00\x01binary", "well-formed"),
        ("sanctions_uk", b"<Designations></Designations>", "no UK Sanctions List entries"),
        ("sanctions_ofac", b"a,b,c\n", "not an OFAC SDN row"),
        ("opensanctions_ftm", b'{"id": "x", "schema": "Person"\n', "not a FollowTheMoney entity"),
    ],
)
def test_malformed_files_abort_and_write_nothing(engine, tmp_path, list_id, content, message):
    import_list(engine, "sanctions_eu_fsf", EU)
    before = _snapshot(engine)
    path = tmp_path / ("sdn.csv" if list_id == "sanctions_ofac" else "input")
    path.write_bytes(content)
    with pytest.raises(SourceAbort, match=message):
        import_list(engine, list_id, path)
    assert _snapshot(engine) == before


def test_unknown_list_and_missing_file(engine, tmp_path):
    with pytest.raises(SourceAbort, match="unknown sanctions list"):
        import_list(engine, "sanctions_mars", UK)
    with pytest.raises(SourceAbort, match="no such file"):
        import_list(engine, "sanctions_uk", tmp_path / "nope.xml")


def test_lists_show_in_the_data_source_catalogue(client, engine):
    import_list(engine, "sanctions_uk", UK)
    import_list(engine, "sanctions_ofac", OFAC_SMALL)
    rows = assert_envelope(client.get("/api/v1/public/data-sources", params={"category": "sanctions"}))
    by_id = {r["id"]: r for r in rows}
    assert set(by_id) == {"sanctions_uk", "sanctions_ofac"}
    assert by_id["sanctions_uk"]["licence"] == "Open Government Licence v3.0"
    assert "Open Government Licence" in by_id["sanctions_uk"]["attribution"]
    assert by_id["sanctions_ofac"]["row_count"] == 153 and by_id["sanctions_ofac"]["last_import_at"]


@pytest.mark.skipif(not SHARED_FTM.is_dir(), reason="OpenSanctions sample (CC BY-NC, not bundled) is absent")
def test_opensanctions_entities_and_delta(engine, client):
    stats = import_list(engine, "opensanctions_ftm", SHARED_FTM / "entities.ftm.sample.json")
    assert (stats.read, stats.inserted) == (6, 6)  # the Address entity is skipped
    delta = import_list(engine, "opensanctions_ftm", SHARED_FTM / "entities.delta.20240527194702.json")
    assert (delta.inserted, delta.deleted) == (2, 0)
    assert _count(engine, sanction_entries, list_id="opensanctions_ftm") == 8  # a delta keeps the others
    hits = assert_envelope(
        client.post(
            "/api/v1/public/screen",
            json={"name": "Виталий Кузьменко", "schema": "person", "birth_date": "1971-01-22"},
        )
    )["hits"]
    assert hits[0]["id"] == "opensanctions_ftm:NK-2Ka3UvopqbpZmVDFjWd4LA"
    assert "birth_date_match" in {f["name"] for f in hits[0]["features"]}


def test_country_names_of_the_lists():
    assert [
        country_code(v)
        for v in (
            "Democratic Republic of the Congo",
            "Iran (Islamic Republic of)",
            "AF",
            "Korea, North",
            "00",
            None,
            "Atlantis",
        )
    ] == ["CD", "IR", "AF", "KP", None, None, None]


def test_ofac_folder_input(engine, tmp_path):
    stats = import_list(engine, "sanctions_ofac", Path(OFAC_SMALL).parent)
    assert stats.inserted == 153


def test_command_line(settings, monkeypatch, capsys):
    from regintel.areas.screening.__main__ import main

    monkeypatch.setenv("REGINTEL_DATABASE_URL", settings.database_url)
    assert main(["lists"]) == 0 and "sanctions_un" in capsys.readouterr().out
    assert main(["import", "sanctions_uk", str(UK)]) == 0
    assert "'inserted': 5" in capsys.readouterr().out
    assert main(["import", "sanctions_uk", "/nonexistent.xml"]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main(["import", "sanctions_mars", str(UK)]) == 1
    assert main(["frobnicate"]) == 2
