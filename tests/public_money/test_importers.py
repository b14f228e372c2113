"""The public-money importers on the real samples: what they store, that a re-import writes nothing, and
that a malformed file is rejected whole with its reason in the reject file."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from regintel.areas.public_money.tables import (
    bank_accounts,
    contracts,
    ted_buyers,
    ted_lots,
    ted_notice_cpv,
    ted_notices,
    ted_winners,
    vat_payers,
)
from regintel.db.schema import data_sources, import_runs
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from tests.public_money.common import (
    ADIS,
    DUMP,
    MAINTENANCE,
    REGISTR,
    TED,
    TED_FILES,
    UKRI,
    count,
    import_adis,
    import_registr,
    import_ted,
)

TED_TABLES = (ted_notices, ted_notice_cpv, ted_lots, ted_buyers, ted_winners, contracts)


def _snapshot(engine, tables):
    with engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(select(t)).all()), key=repr) for t in tables}


def test_ted_import_stores_notices_lots_buyers_and_winners(engine, settings):
    stats = import_ted(engine, settings.data_dir)
    assert [s.inserted for s in stats] == [0, 1, 1, 1, 1, 1, 1]  # X01 (business registration) is skipped
    assert stats[0].skip_reasons == {"BusinessRegistrationInformationNotice (not a procurement notice)": 1}
    assert count(engine, ted_notices) == 6
    with engine.connect() as conn:
        ukri = conn.execute(select(ted_notices).where(ted_notices.c.notice_id == UKRI)).mappings().one()
        winners = conn.execute(
            select(
                ted_winners.c.name, ted_winners.c.lot_id, ted_winners.c.value, ted_winners.c.currency
            ).where(ted_winners.c.notice_pk == ukri["id"])
        ).all()
    assert (
        ukri["country"],
        ukri["cpv_main"],
        ukri["issue_date"].isoformat(),
        float(ukri["value"]),
        ukri["currency"],
    ) == ("GB", "71000000", "2020-04-14", 60000000.0, "GBP")
    assert [(w.name, w.lot_id, float(w.value), w.currency) for w in winners] == [
        ("Ramboll UK Ltd", "LOT-0000", 60000000.0, "GBP")
    ]
    assert count(engine, contracts) == 9  # one supplier row per (lot, winner) of the award notices


def test_ted_reimport_writes_nothing(engine, settings):
    import_ted(engine, settings.data_dir)
    before = _snapshot(engine, TED_TABLES)
    again = import_ted(engine, settings.data_dir)
    assert sum(s.unchanged for s in again) == 6 and sum(s.inserted + s.updated for s in again) == 0
    assert _snapshot(engine, TED_TABLES) == before


def test_ted_truncated_file_is_rejected_whole(engine, settings, tmp_path):
    broken = tmp_path / "broken.xml"
    broken.write_bytes(TED_FILES[1].read_bytes()[:20_000])
    with pytest.raises(SourceAbort, match="not well-formed XML"):
        run_import(engine, TED, str(broken), settings.data_dir)
    assert count(engine, ted_notices) == 0
    rejects = list((settings.data_dir / "rejects").glob("ted_eforms-*.jsonl"))
    assert len(rejects) == 1 and "aborted" in json.loads(rejects[0].read_text())["reason"]
    with engine.connect() as conn:
        assert conn.execute(select(import_runs.c.status)).scalar_one() == "failed"


def test_ted_refuses_a_file_that_is_not_a_notice(engine, settings):
    with pytest.raises(SourceAbort, match="not an eForms procurement notice"):
        run_import(engine, TED, str(MAINTENANCE), settings.data_dir)


def test_registr_smluv_import_and_reimport(engine, settings):
    first = import_registr(engine, settings.data_dir)
    assert (first.read, first.inserted, first.rejected) == (258, 257, 0)
    before = _snapshot(engine, [contracts])
    second = import_registr(engine, settings.data_dir)
    assert (second.inserted, second.updated, second.unchanged) == (0, 0, 257)
    assert second.skip_reasons == {"an older version of a stored contract": 1}  # the withdrawn version
    assert _snapshot(engine, [contracts]) == before
    with engine.connect() as conn:
        roles = dict(
            conn.execute(
                select(contracts.c.role, contracts.c.record_key).where(contracts.c.record_key == "33230057")
            ).all()
        )
        usd = conn.execute(
            select(contracts.c.value, contracts.c.currency, contracts.c.value_basis).where(
                contracts.c.record_key == "33230237"
            )
        ).one()
    assert roles == {"supplier": "33230057"}
    assert (float(usd.value), usd.currency, usd.value_basis) == (49500.0, "USD", "foreign")


def test_registr_smluv_broken_half_way_writes_nothing(engine, settings, tmp_path):
    data = DUMP.read_bytes()
    broken = tmp_path / "dump_broken.xml"
    broken.write_bytes(data[: len(data) // 2])  # 100+ good records, then the file ends mid-element
    with pytest.raises(SourceAbort):
        run_import(engine, REGISTR, str(broken), settings.data_dir)
    assert count(engine, contracts) == 0


def test_registr_smluv_rejects_a_bad_record_and_keeps_the_rest(engine, settings, tmp_path):
    text = DUMP.read_text(encoding="utf-8")
    bad = text.replace("<idSmlouvy>33229601</idSmlouvy>", "", 1)
    path = tmp_path / "dump_one_bad.xml"
    path.write_text(bad, encoding="utf-8")
    run_id, stats, rejects = run_import(engine, REGISTR, str(path), settings.data_dir)
    assert (stats.rejected, stats.inserted) == (1, 256)
    assert "idSmlouvy" in json.loads(rejects.read_text().splitlines()[0])["reason"]


def test_adis_import_and_maintenance_answer(engine, settings):
    stats = import_adis(engine, settings.data_dir)
    assert [s.inserted for s in stats] == [1, 1, 1]
    assert count(engine, vat_payers) == 3 and count(engine, bank_accounts) == 7
    with pytest.raises(SourceAbort, match="status 2"):
        run_import(engine, ADIS, str(MAINTENANCE), settings.data_dir)
    assert count(engine, vat_payers) == 3
    again = import_adis(engine, settings.data_dir)
    assert [s.unchanged for s in again] == [1, 1, 1]


def test_sources_are_in_the_catalogue_with_licence(engine, settings, client):
    import_ted(engine, settings.data_dir)
    import_registr(engine, settings.data_dir)
    import_adis(engine, settings.data_dir)
    with engine.connect() as conn:
        rows = {r.id: r for r in conn.execute(select(data_sources))}
    assert (
        rows["ted_eforms"].row_count,
        rows["cz_registr_smluv"].row_count,
        rows["cz_adis_crpdph"].row_count,
    ) == (6, 257, 3)
    body = client.get("/api/v1/public/data-sources", params={"category": "public_money"}).json()
    assert {d["id"]: d["licence"] for d in body["data"]}["ted_eforms"] == "CC BY 4.0"
    assert all(d["attribution"] for d in body["data"])


def test_ted_folder_import_rejects_the_broken_file_and_keeps_the_others(engine, settings, tmp_path):
    folder = tmp_path / "package"
    folder.mkdir()
    for path in TED_FILES:
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "zz_broken.xml").write_bytes(TED_FILES[1].read_bytes()[:5_000])
    (folder / "README.md").write_text("not a notice", encoding="utf-8")
    run_id, stats, rejects = run_import(engine, TED, str(folder), settings.data_dir)
    assert (stats.inserted, stats.skipped, stats.rejected) == (6, 2, 1)  # X01 and the README
    assert count(engine, ted_notices) == 6
    line = json.loads(rejects.read_text().splitlines()[0])
    assert line["reason"].startswith("aborted: zz_broken.xml: not well-formed XML")
    assert line["record"]["location"].endswith("zz_broken.xml")
    with engine.connect() as conn:
        assert (
            conn.execute(select(import_runs.c.status).where(import_runs.c.id == run_id)).scalar_one()
            == "succeeded"
        )


def test_registr_smluv_refuses_another_document(engine, settings, tmp_path):
    other = tmp_path / "other.xml"
    other.write_text(
        '<?xml version="1.0"?><daily xmlns="urn:something-else"><zaznam/></daily>', encoding="utf-8"
    )
    with pytest.raises(SourceAbort, match="not a Registr smluv dump"):
        run_import(engine, REGISTR, str(other), settings.data_dir)
    with pytest.raises(SourceAbort, match="not a Registr smluv dump"):
        run_import(engine, REGISTR, str(TED_FILES[1]), settings.data_dir)
    empty = tmp_path / "empty_day.xml"
    empty.write_text(
        '<?xml version="1.0"?><daily xmlns="http://portal.gov.cz/rejstriky/ISRS/1.2/"><den>01</den></daily>',
        encoding="utf-8",
    )
    assert run_import(engine, REGISTR, str(empty), settings.data_dir)[1].read == 0
