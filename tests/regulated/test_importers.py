"""The regulated-area importers on the labelled fixtures (tests/fixtures/regulated/README.md): what they
store and link, that a re-import writes nothing, that a malformed file is rejected whole with its reason,
and that a list which drops a row delists it."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from regintel.areas.regulated.tables import licensed_professionals, regulated_authorisations
from regintel.db.schema import data_sources, import_runs
from regintel.ingest.base import SourceAbort
from tests.regulated.common import (
    FILES,
    LAW_FIRM,
    PENSION_NAME,
    SK_BANK,
    count,
    import_all,
    load,
    run,
)

TABLES = (regulated_authorisations, licensed_professionals)


def _snapshot(engine):
    with engine.connect() as conn:
        return {t.name: sorted((tuple(r) for r in conn.execute(select(t)).all()), key=repr) for t in TABLES}


def _row(engine, table, **where):
    query = select(table)
    for column, value in where.items():
        query = query.where(table.c[column] == value)
    with engine.connect() as conn:
        return conn.execute(query).mappings().all()


def test_every_source_imports_its_rows(engine, settings):
    load(engine)
    stats = import_all(engine, settings.data_dir)
    assert {k: (s.inserted, s.rejected) for k, s in stats.items()} == {
        "sk_nbs": (6, 1),
        "cz_cnb_jerrs": (4, 0),
        "sk_urso": (4, 1),
        "cz_eru": (3, 0),
        "sk_sak": (3, 0),
        "sk_notari": (1, 0),
        "sk_exekutori": (1, 0),
        "sk_znalci": (3, 1),
        "sk_skdp": (2, 0),
    }
    assert stats["sk_nbs"].reasons == {"IČO '12345678'": 1}
    assert list(stats["sk_urso"].reasons) == [
        "Dátum vydania '31.2.2020' is not a date (d.m.yyyy or yyyy-mm-dd)"
    ]
    assert count(engine, regulated_authorisations) == 17 and count(engine, licensed_professionals) == 10


def test_rows_are_normalised_and_linked_by_identifier(engine, settings):
    load(engine)
    import_all(engine, settings.data_dir)
    bank = _row(engine, regulated_authorisations, source="sk_nbs", national_id=SK_BANK)
    assert sorted((r["category"], r["status"], r["match_method"], r["match_score"]) for r in bank) == [
        ("credit_institution", "active", "identifier", 1.0),
        ("investment_firm", "active", "identifier", 1.0),
    ]
    ended = _row(engine, regulated_authorisations, source="sk_nbs", national_id="50303031")[0]
    assert (ended["status"], ended["status_text"], ended["ended_on"].isoformat()) == (
        "ended",
        "odňaté",
        "2023-06-30",
    )
    eru = {
        r["licence_number"]: r["category"] for r in _row(engine, regulated_authorisations, source="cz_eru")
    }
    assert eru == {
        "220100001": "gas_distribution",
        "120100002": "electricity_distribution",
        "310300003": "heat_generation",
    }
    lawyers = _row(engine, licensed_professionals, source="sk_sak")
    assert {
        (r["name"], r["firm_national_id"], r["company_id"] is not None, r["status"]) for r in lawyers
    } == {
        ("Ján Testovací", LAW_FIRM, True, "active"),
        ("Zuzana Skúšobná", LAW_FIRM, True, "active"),
        ("Peter Vzorový", None, False, "suspended"),
    }


def test_a_row_without_ico_links_by_name_with_its_score(engine, settings):
    load(engine)
    run(engine, settings.data_dir, "sk_nbs")
    pension = _row(engine, regulated_authorisations, name=PENSION_NAME)[0]
    assert pension["national_id"] is None and pension["match_method"] == "name"
    assert 0.9 <= pension["match_score"] <= 1.0 and pension["company_id"] is not None


def test_an_ico_no_company_holds_is_not_matched_by_name(engine, settings):
    run(engine, settings.data_dir, "sk_nbs")  # no companies loaded
    assert {r["company_id"] for r in _row(engine, regulated_authorisations, national_id=SK_BANK)} == {None}


def test_reimport_writes_nothing(engine, settings):
    load(engine)
    import_all(engine, settings.data_dir)
    before = _snapshot(engine)
    again = import_all(engine, settings.data_dir)
    assert {s.inserted + s.updated + s.changes for s in again.values()} == {0}
    assert sum(s.unchanged for s in again.values()) == 27
    assert _snapshot(engine) == before


def test_rows_imported_before_their_company_are_linked_on_the_next_import(engine, settings):
    run(engine, settings.data_dir, "cz_eru")
    assert count(engine, regulated_authorisations, match_method="identifier") == 0
    load(engine)
    stats = run(engine, settings.data_dir, "cz_eru")
    assert (stats.updated, stats.unchanged) == (3, 0)
    assert count(engine, regulated_authorisations, match_method="identifier") == 3


def test_a_row_the_list_drops_is_delisted(engine, settings, tmp_path):
    run(engine, settings.data_dir, "cz_cnb_jerrs")
    shorter = tmp_path / "jerrs.csv"
    shorter.write_text(
        "\n".join(FILES["cz_cnb_jerrs"].read_text(encoding="utf-8").splitlines()[:-1]) + "\n",
        encoding="utf-8",
    )
    stats = run(engine, settings.data_dir, "cz_cnb_jerrs", shorter)
    assert (stats.unchanged, stats.changes) == (3, 1)
    assert count(engine, regulated_authorisations, source="cz_cnb_jerrs") == 3


def test_no_delisting_from_a_file_with_rejected_rows(engine, settings, tmp_path):
    run(engine, settings.data_dir, "cz_cnb_jerrs")
    lines = FILES["cz_cnb_jerrs"].read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "jerrs.csv"
    broken.write_text(
        "\n".join([*lines[:-2], lines[-2].replace("50606069", "50606060")]) + "\n", encoding="utf-8"
    )
    stats = run(engine, settings.data_dir, "cz_cnb_jerrs", broken)
    assert (stats.rejected, stats.changes) == (1, 0)
    assert stats.skip_reasons == {"delisting not applied: the file had rejected rows": 1}
    assert count(engine, regulated_authorisations, source="cz_cnb_jerrs") == 4


@pytest.mark.parametrize(
    "content, reason",
    [
        (b"", "the file is empty"),
        ("Názov;IČO\nBanka;50101013\n".encode(), "the header lacks ID subjektu"),
        ("ID subjektu;Názov;IČO;Sektor;Druh povolenia;Stav\n".encode(), "no usable row"),
        (
            "ID subjektu;Názov;IČO;Sektor;Druh povolenia;Stav\n1;X;12345678;Banky;Banka;platné\n".encode(),
            "no usable row",
        ),
    ],
)
def test_a_malformed_file_is_rejected_whole(engine, settings, tmp_path, content, reason):
    run(engine, settings.data_dir, "sk_nbs")
    before = _snapshot(engine)
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    with pytest.raises(SourceAbort, match=reason):
        run(engine, settings.data_dir, "sk_nbs", bad)
    assert _snapshot(engine) == before
    rejects = sorted((settings.data_dir / "rejects").glob("sk_nbs-*.jsonl"))
    last = [json.loads(line) for line in rejects[-1].read_text(encoding="utf-8").splitlines()][-1]
    assert last["reason"].startswith("aborted:") and reason in last["reason"]
    with engine.connect() as conn:
        statuses = conn.execute(select(import_runs.c.status).order_by(import_runs.c.id)).scalars().all()
    assert statuses == ["succeeded", "failed"]


def test_a_folder_is_refused(engine, settings, tmp_path):
    with pytest.raises(SourceAbort, match="is a folder"):
        run(engine, settings.data_dir, "sk_sak", tmp_path)


def test_catalogue_entries_with_licence_and_row_counts(engine, settings):
    import_all(engine, settings.data_dir)
    with engine.connect() as conn:
        rows = {
            r.id: r
            for r in conn.execute(
                select(data_sources).where(data_sources.c.category.in_(["supervision", "professionals"]))
            )
        }
    assert set(rows) == set(FILES)
    assert rows["sk_nbs"].row_count == 6 and rows["sk_znalci"].row_count == 3
    assert all(r.licence and r.attribution and r.last_import_at for r in rows.values())


def test_windows_1250_and_commas_read_the_same(engine, settings, tmp_path):
    text = FILES["cz_cnb_jerrs"].read_text(encoding="utf-8")
    legacy = tmp_path / "jerrs-cp1250.csv"
    legacy.write_bytes(text.replace(";", "|").replace(",", " ").replace("|", ",").encode("cp1250"))
    stats = run(engine, settings.data_dir, "cz_cnb_jerrs", legacy)
    assert (stats.inserted, stats.rejected) == (4, 0)
    names = {r["name"] for r in _row(engine, regulated_authorisations, source="cz_cnb_jerrs")}
    assert "Testovací pojišťovna a.s." in names  # the commas of the names were dropped to keep the columns
    again = run(engine, settings.data_dir, "cz_cnb_jerrs", legacy)
    assert (again.unchanged, again.inserted + again.updated) == (4, 0)


def test_first_import_with_a_rejected_row_has_nothing_to_delist(engine, settings):
    stats = run(engine, settings.data_dir, "sk_nbs")
    assert (stats.rejected, stats.skipped) == (1, 0)
