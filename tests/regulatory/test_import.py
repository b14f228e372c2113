"""The five regulators' feeds imported through `regintel import`'s dispatch: what is stored and tagged,
that a re-import writes nothing, that a changed entry is updated, that a malformed feed is rejected
whole with its reason in the reject file, and the refresh job."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import select

from regintel.areas.regulatory.jobs import refresh
from regintel.areas.regulatory.tables import regulatory_entries, regulatory_entry_tags
from regintel.db.schema import data_sources, import_runs
from regintel.ingest.base import SourceAbort
from regintel.jobs.registry import JobContext, Permanent
from tests.regulatory.common import FEEDS, FIXTURES, count, import_all, rss, run


def _snapshot(engine):
    with engine.connect() as conn:
        return [
            sorted(map(tuple, conn.execute(select(t)).all()), key=repr)
            for t in (regulatory_entries, regulatory_entry_tags)
        ]


def _entry(engine, title_start):
    with engine.connect() as conn:
        row = (
            conn.execute(select(regulatory_entries).where(regulatory_entries.c.title.like(f"{title_start}%")))
            .mappings()
            .one()
        )
        tags = (
            conn.execute(
                select(regulatory_entry_tags.c.tag)
                .where(regulatory_entry_tags.c.entry_id == row["id"])
                .order_by(regulatory_entry_tags.c.tag)
            )
            .scalars()
            .all()
        )
    return dict(row), list(tags)


def test_the_five_feeds_are_stored_with_provenance_and_tags(engine, settings):
    import_all(engine, settings)
    assert count(engine, regulatory_entries) == sum(FEEDS.values()) == 20
    row, tags = _entry(engine, "NBS uložila pokutu")
    assert tags == ["aml", "enforcement"]  # Slovak wording, folded
    assert row["source"] == "sk_nbs_news" and row["language"] == "sk"
    assert row["published_at"].replace(tzinfo=UTC) == datetime(2026, 11, 24, 14, 0, tzinfo=UTC)
    assert (
        row["summary"]
        == "Národná banka Slovenska v rámci dohľadu na mieste zistila nedostatky v starostlivosti o klienta."
    )
    assert row["categories"] == ["Tlačové správy"] and row["import_run_id"] is not None
    assert _entry(engine, "ENISA publishes technical guidance")[1] == ["cybersecurity", "nis2"]
    assert _entry(engine, "EBA publishes final draft")[1] == ["cybersecurity", "dora"]
    assert _entry(engine, "Mezinárodní sankce")[1] == ["sanctions"]
    esma, tags = _entry(engine, "ESMA publishes guidelines")
    assert (
        tags == ["mica"]
        and esma["summary"] == "Guidelines on the suitability assessment & the transfer services."
    )
    undated_published, _ = _entry(engine, "Sustainability risks")  # Atom entry with <updated> only
    assert undated_published["published_at"].replace(tzinfo=UTC) == datetime(2026, 10, 28, 10, tzinfo=UTC)
    with engine.connect() as conn:
        catalogue = {r.id: r for r in conn.execute(select(data_sources).where(data_sources.c.id.in_(FEEDS)))}
    assert {k: v.row_count for k, v in catalogue.items()} == FEEDS
    assert {v.category for v in catalogue.values()} == {"regulatory"}
    assert catalogue["eu_enisa_news"].licence_url and catalogue["eu_enisa_news"].last_import_at is not None


def test_reimport_writes_nothing(engine, settings):
    import_all(engine, settings)
    before = _snapshot(engine)
    stats, rejects = run(engine, settings, "eu_eba_news", FIXTURES / "eu_eba_news.xml")
    assert (stats.read, stats.inserted, stats.updated, stats.unchanged, rejects) == (4, 0, 0, 4, [])
    import_all(engine, settings)
    assert _snapshot(engine) == before


def test_a_changed_entry_is_updated_and_retagged(engine, settings, tmp_path):
    path = FIXTURES / "eu_eba_news.xml"
    run(engine, settings, "eu_eba_news", path)
    changed = tmp_path / "eba.xml"
    changed.write_text(
        path.read_text().replace(
            "EBA launches its 2027 EU-wide stress test",
            "EBA launches its 2027 EU-wide stress test and a cyber resilience test",
        )
    )
    stats, _ = run(engine, settings, "eu_eba_news", changed)
    assert (stats.inserted, stats.updated, stats.unchanged) == (0, 1, 3)
    assert _entry(engine, "EBA launches")[1] == ["capital-requirements", "cybersecurity"]
    assert count(engine, regulatory_entries) == 4


@pytest.mark.parametrize(
    "name, reason",
    [("malformed.xml", "not a well-formed feed"), ("not_a_feed.xml", "not an RSS or Atom feed")],
)
def test_a_malformed_feed_is_rejected_whole(engine, settings, name, reason):
    run(engine, settings, "sk_nbs_news", FIXTURES / "sk_nbs_news.xml")
    before = _snapshot(engine)
    with pytest.raises(SourceAbort, match=reason):
        run(engine, settings, "sk_nbs_news", FIXTURES / name)
    assert _snapshot(engine) == before
    with engine.connect() as conn:
        last = conn.execute(select(import_runs).order_by(import_runs.c.id.desc()).limit(1)).mappings().one()
    assert last["status"] == "failed" and last["stats"]["rejected"] == 1
    (reject,) = (settings.data_dir / "rejects").glob(f"sk_nbs_news-{last['id']}.jsonl")
    assert reason in reject.read_text()


def test_bad_entries_are_rejected_one_by_one(engine, settings):
    stats, rejects = run(engine, settings, "eu_enisa_news", FIXTURES / "bad_entries.xml")
    assert (stats.read, stats.inserted, stats.rejected, stats.skipped) == (4, 1, 2, 1)
    assert sorted(r["reason"].split(" ")[0] for r in rejects) == ["an", "entry"]
    assert {r["record"]["link"] for r in rejects} == {
        "https://www.enisa.europa.eu/news/no-title",
        "https://www.enisa.europa.eu/news/no-date",
    }
    row, tags = _entry(engine, "A good entry")
    assert (row["link"], row["summary"], tags) == (None, "Kept, without its link.", ["cybersecurity", "nis2"])


def test_a_missing_file_aborts(engine, settings):
    with pytest.raises(SourceAbort, match="no such file"):
        run(engine, settings, "eu_esma_news", FIXTURES / "nothing-here.xml")


@pytest.fixture
def feed_server():
    """The fixtures served over HTTP on 127.0.0.1, as a regulator's site serves its feed."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(FIXTURES)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # noqa: ANN002
        pass


def test_refresh_job_imports_each_feed_and_schedules_the_next(engine, settings, feed_server, tmp_path):
    ctx = JobContext(engine=engine, settings=settings, job_id=1, attempt=1)
    locations = {s: f"{feed_server}/{s}.xml" for s in FEEDS}
    result = refresh(ctx, {"locations": locations, "every_hours": 6})
    assert {s: r["inserted"] for s, r in result["sources"].items()} == FEEDS
    assert refresh(ctx, {"locations": locations})["sources"]["eu_eba_news"]["unchanged"] == 4
    from regintel.db.schema import jobs

    with engine.connect() as conn:
        queued = conn.execute(select(jobs.c.kind, jobs.c.payload, jobs.c.run_after)).all()
    assert [(k, p["every_hours"]) for k, p, _ in queued] == [("regulatory.refresh", 6)]


def test_refresh_job_reports_a_failed_feed_and_keeps_the_others(engine, settings, feed_server):
    ctx = JobContext(engine=engine, settings=settings, job_id=1, attempt=1)
    locations = {"eu_eba_news": f"{feed_server}/eu_eba_news.xml", "cz_cnb_news": f"{feed_server}/missing.xml"}
    with pytest.raises(RuntimeError, match="cz_cnb_news.*HTTP 404"):
        refresh(ctx, {"sources": ["eu_eba_news", "cz_cnb_news"], "locations": locations})
    assert count(engine, regulatory_entries) == 4
    with pytest.raises(Permanent):
        refresh(ctx, {"sources": ["xx_unknown"]})
    with pytest.raises(Permanent):
        refresh(ctx, {"every_hours": 0})


def test_recent_helper_feed(engine, settings, tmp_path):
    now = datetime.now(UTC).replace(microsecond=0)
    stats, _ = run(engine, settings, "eu_eba_news", rss(tmp_path / "recent.xml", [("g1", "Recent", now)]))
    assert stats.inserted == 1


def test_queue_command(engine, settings, monkeypatch, capsys):
    from regintel.areas.regulatory.__main__ import main
    from regintel.db.schema import jobs

    monkeypatch.setenv("REGINTEL_DATABASE_URL", settings.database_url)
    assert main(["queue", "6"]) == 0 and "queued regulatory.refresh job" in capsys.readouterr().out
    assert main(["queue", "6"]) == 0 and "already queued" in capsys.readouterr().out
    assert main(["queue", "0"]) == 2 and main(["refresh"]) == 2
    with engine.connect() as conn:
        assert [(k, p) for k, p in conn.execute(select(jobs.c.kind, jobs.c.payload))] == [
            ("regulatory.refresh", {"every_hours": 6})
        ]
