"""fr_recherche_entreprises: the API Recherche d'entreprises answer (identity, dirigeants, finances)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import select

from regintel.db.schema import financial_statements
from regintel.ingest.base import SourceAbort
from tests.ingest.import_helpers import FIXTURES, company, identifier_pairs, rejects, role_rows, run

DANONE = FIXTURES / "fr_recherche_entreprises" / "search_q_danone_per_page_1.json"


def test_danone(engine, settings):
    stats = run(engine, settings, "fr_recherche_entreprises", DANONE)
    assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    row = company(engine, "FR", "552032534")
    assert (row["name"], row["legal_form"], row["nace_primary"]) == ("DANONE", "5599", "70.10Z")
    assert (row["city"], row["postal_code"], row["founded_on"]) == ("PARIS", "75009", date(1955, 1, 1))
    assert row["vat_id"] == "FR27552032534" and row["size_class"] == "GE"
    assert ("siret", "55203253400703") in identifier_pairs(engine, "552032534")
    people = role_rows(engine, "552032534")
    assert len(people) == 13
    ceo = next(p for p in people if p["title"] == "Directeur Général")
    assert (ceo["holder_name"], ceo["role"], ceo["birth_date"]) == (
        "ANTOINE BERNARD DE SAINT AFFRIQUE",
        "director",
        "1964-12",
    )
    auditors = [p for p in people if p["role"] == "auditor"]
    assert {a["holder_name"] for a in auditors} >= {"FORVIS MAZARS SA"} and all(
        a["person_id"] is None for a in auditors
    )
    with engine.connect() as conn:
        fin = conn.execute(select(financial_statements)).mappings().one()
    assert (fin["year"], fin["currency"], fin["revenue"], fin["profit"]) == (
        2025,
        "EUR",
        Decimal("27376000000"),
        Decimal("2100000000"),
    )
    again = run(engine, settings, "fr_recherche_entreprises", DANONE)
    assert (again.inserted, again.updated, again.unchanged, again.changes) == (0, 0, 1, 0)


def test_changed_figures_are_logged(engine, settings, tmp_path):
    run(engine, settings, "fr_recherche_entreprises", DANONE)
    doc = json.loads(DANONE.read_text(encoding="utf-8"))
    doc["results"][0]["finances"]["2025"]["ca"] = 27400000000
    doc["results"][0]["dirigeants"] = doc["results"][0]["dirigeants"][:12]
    changed = tmp_path / "danone.json"
    changed.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    stats = run(engine, settings, "fr_recherche_entreprises", changed)
    assert stats.updated == 1 and stats.changes == 2  # the turnover and the roles


def test_bad_input(engine, settings, tmp_path):
    doc = json.loads(DANONE.read_text(encoding="utf-8"))
    good = doc["results"][0]
    bad_siren = dict(good, siren="552032535")
    bad_finances = dict(
        good, siren="542065479", nom_complet="CARREFOUR", finances={"2024": {"ca": "beaucoup"}}
    )
    lines = tmp_path / "results.jsonl"
    lines.write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in (good, bad_siren, bad_finances))
        + '\n{"siren": "55203',
        encoding="utf-8",
    )
    stats, rows = rejects(engine, settings, "fr_recherche_entreprises", lines)
    assert (stats.inserted, stats.rejected) == (1, 3)
    assert any("not a number" in r["reason"] for r in rows)
    assert any("SIREN" in r["reason"] for r in rows)
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"organisasjonsnummer": "923609016"}', encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "fr_recherche_entreprises", wrong)
