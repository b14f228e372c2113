"""The legal-records importers on the labelled fixtures: what they store and link, that a re-import
writes nothing, that a malformed file is rejected whole with its reason in the reject file, and that a
bad record is rejected alone."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from regintel.areas.legal_records.tables import (
    TABLES,
    antitrust_cases,
    antitrust_parties,
    court_decision_parties,
    court_decisions,
    ipkz_installations,
    sbirka_acts,
    sbirka_mentions,
)
from regintel.db.schema import data_sources, import_runs
from regintel.ingest.base import SourceAbort
from tests.legal_records.common import FILES, count, import_all, import_one, load_fixture_companies


def _snapshot(engine):
    with engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(select(t)).all()), key=repr) for t in TABLES}


def test_import_stores_and_links(engine, settings):
    load_fixture_companies(engine)
    stats = import_all(engine, settings.data_dir)
    assert {k: (s.inserted, s.rejected) for k, s in stats.items()} == {
        "sk_court_decisions": (5, 0),
        "sk_pmu": (4, 0),
        "sk_ipkz": (4, 0),
        "cz_esbirka": (3, 0),
    }
    assert (
        count(engine, court_decision_parties),
        count(engine, antitrust_parties),
        count(engine, sbirka_mentions),
    ) == (6, 5, 4)
    with engine.connect() as conn:
        links = conn.execute(
            select(
                court_decision_parties.c.name,
                court_decision_parties.c.match_method,
                court_decision_parties.c.match_score,
            )
        ).all()
        duslo = conn.execute(
            select(antitrust_parties.c.match_method, antitrust_parties.c.match_score).where(
                antitrust_parties.c.name == "Duslo, a.s."
            )
        ).one()
        esb = conn.execute(select(sbirka_mentions.c.national_id, sbirka_mentions.c.match_method)).all()
    by_name = {n: (m, s) for n, m, s in links}
    assert by_name["SLOVNAFT, a.s."] == ("identifier", 1.0)
    assert by_name["Orange Slovensko, a.s."][0] == "name" and by_name["Orange Slovensko, a.s."][1] >= 0.9
    assert by_name["Protimonopolný úrad Slovenskej republiky"] == (None, None)  # not a company we hold
    assert duslo[0] == "name" and duslo[1] >= 0.9  # no IČO in the decision: name and address
    assert sorted(esb) == [
        ("25702556", "identifier"),
        ("28244532", "identifier"),
        ("45274649", "identifier"),
        ("45274649", "identifier"),
    ]
    with engine.connect() as conn:
        catalogue = {r.id: (r.row_count, r.licence) for r in conn.execute(select(data_sources)).all()}
    assert catalogue["sk_pmu"][0] == 4 and catalogue["sk_court_decisions"][0] == 5
    assert all(catalogue[k][1] for k in FILES)


def test_spaced_ico_is_normalised(engine, settings):
    import_one(engine, settings.data_dir, "sk_court_decisions")
    with engine.connect() as conn:
        ids = {r[0] for r in conn.execute(select(court_decision_parties.c.national_id))}
    assert "31322832" in ids and "31 322 832" not in ids


def test_reimport_writes_nothing(engine, settings):
    load_fixture_companies(engine)
    import_all(engine, settings.data_dir)
    before = _snapshot(engine)
    again = import_all(engine, settings.data_dir)
    assert all(s.inserted + s.updated == 0 for s in again.values())
    assert sum(s.unchanged for s in again.values()) == 16
    assert _snapshot(engine) == before


def test_changed_record_is_replaced(engine, settings, tmp_path):
    import_one(engine, settings.data_dir, "sk_pmu")
    cases = json.loads(FILES["sk_pmu"].read_text())
    cases[0]["pokuta"]["suma"] = "1300000.00"
    cases[0]["ucastnici"] = cases[0]["ucastnici"][:1]
    changed = tmp_path / "rozhodnutia.json"
    changed.write_text(json.dumps(cases, ensure_ascii=False))
    stats = import_one(engine, settings.data_dir, "sk_pmu", changed)
    assert (stats.updated, stats.unchanged) == (1, 3)
    with engine.connect() as conn:
        fine = conn.execute(
            select(antitrust_cases.c.fine).where(antitrust_cases.c.case_ref == "2023/KH/1/1/012")
        ).scalar()
    assert float(fine) == 1300000.0 and count(engine, antitrust_parties) == 4


@pytest.mark.parametrize("source_id", list(FILES))
def test_truncated_file_is_rejected_whole(engine, settings, tmp_path, source_id):
    body = FILES[source_id].read_bytes()
    broken = tmp_path / FILES[source_id].name
    if source_id == "sk_ipkz":  # JSON lines: a file that is not JSON at all
        broken.write_bytes(b"<html>maintenance</html>\n")
    else:
        broken.write_bytes(body[: len(body) * 2 // 3])
    with pytest.raises(SourceAbort):
        import_one(engine, settings.data_dir, source_id, broken)
    assert all(count(engine, t) == 0 for t in TABLES)
    rejects = list((settings.data_dir / "rejects").glob(f"{source_id}-*.jsonl"))
    assert len(rejects) == 1 and json.loads(rejects[0].read_text().splitlines()[0])["reason"].startswith(
        "aborted"
    )
    with engine.connect() as conn:
        assert conn.execute(select(import_runs.c.status)).scalar_one() == "failed"


def test_empty_file_is_rejected(engine, settings, tmp_path):
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    with pytest.raises(SourceAbort, match="empty"):
        import_one(engine, settings.data_dir, "sk_court_decisions", empty)


def test_bad_records_are_rejected_alone(engine, settings, tmp_path):
    lines = FILES["sk_ipkz"].read_text(encoding="utf-8").splitlines()
    bad = [
        json.loads(lines[0]) | {"idPrevadzky": "X-1", "gps": {"lat": 148.0, "lon": 17.0}},
        json.loads(lines[0]) | {"idPrevadzky": "X-2", "kontroly": {"pocet": 1, "sNedostatkami": 4}},
        {"nazovPrevadzky": "bez id"},
        ["not", "an", "object"],
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        "\n".join([*lines, "{broken", *(json.dumps(b, ensure_ascii=False) for b in bad)]) + "\n",
        encoding="utf-8",
    )
    stats = import_one(engine, settings.data_dir, "sk_ipkz", path)
    assert (stats.inserted, stats.rejected) == (4, 5)
    assert count(engine, ipkz_installations) == 4
    reasons = [
        json.loads(x)["reason"]
        for x in next((settings.data_dir / "rejects").glob("sk_ipkz-*")).read_text().splitlines()
    ]
    assert any("gps out of range" in r for r in reasons) and any(
        "malformed JSON on line" in r for r in reasons
    )
    assert any("more controls with findings" in r for r in reasons)


def test_invalid_ecli_and_missing_guid(engine, settings, tmp_path):
    path = tmp_path / "d.json"
    path.write_text(
        json.dumps(
            [
                {"guid": "g-1", "sud": {"nazov": "Okresný súd Nitra"}, "ecli": "SK-123"},
                {"sud": {"nazov": "Okresný súd Nitra"}},
                {"guid": "g-3", "sud": {"nazov": "Okresný súd Nitra"}, "datumVydania": "2024-13-01"},
                {"guid": "g-4", "sud": {"nazov": "Okresný súd Nitra"}, "datumVydania": "2024-01-05"},
            ]
        )
    )
    stats = import_one(engine, settings.data_dir, "sk_court_decisions", path)
    assert (stats.inserted, stats.rejected) == (1, 3)
    assert count(engine, court_decisions) == 1


def test_folder_import_keeps_good_files(engine, settings, tmp_path):
    folder = tmp_path / "acts"
    folder.mkdir()
    (folder / "a.json").write_bytes(FILES["cz_esbirka"].read_bytes())
    (folder / "b.json").write_bytes(b'{"akty": [{"iri": ')
    (folder / "notes.txt").write_text("ignored")
    stats = import_one(engine, settings.data_dir, "cz_esbirka", folder)
    assert (stats.inserted, stats.skipped) == (3, 1) and stats.rejected == 1
    assert count(engine, sbirka_acts) == 3


def test_mentions_need_a_valid_ico():
    from regintel.ingest.sources.cz_esbirka import mentions

    parties, excerpts = mentions(
        [
            "Společnost Neexistující, s.r.o., IČO: 25702557, nic.",
            "provozovatel Letiště Praha, a. s., IČ: 28244532.",
        ]
    )
    assert [(p.name, p.national_id) for p in parties] == [("Letiště Praha, a. s.", "28244532")]
    assert excerpts == ("provozovatel Letiště Praha, a. s., IČ: 28244532.",)


@pytest.mark.parametrize(
    "area, kind",
    [
        ("Kartel", "cartel"),
        ("KONCENTRÁCIA", "merger"),
        ("Štátna pomoc", "state_aid"),
        ("Zneužívanie dominantného postavenia", "abuse"),
        ("Iné", "other"),
        (None, "other"),
    ],
)
def test_pmu_kinds(area, kind):
    from regintel.ingest.sources.sk_pmu import kind as kind_of

    assert kind_of(area) == kind
