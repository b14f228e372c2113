"""gb_ch_streaming: the 3 real Companies House stream events, from a file and from a live HTTP stream
served by uvicorn on 127.0.0.1 (long-lived, with keep-alive lines, resumed by timepoint)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import date

import pytest
import uvicorn
from sqlalchemy import delete, select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from regintel.db.jobs import RELINK_KINDS
from regintel.db.schema import company_changes, data_sources, import_runs, jobs
from regintel.ingest.base import SourceAbort
from regintel.ingest.sources.gb_ch_streaming_follow import TimepointStore, import_into
from tests.helpers import assert_envelope
from tests.ingest.import_helpers import (
    FIXTURES,
    assert_idempotent,
    changes,
    company,
    count,
    provenance,
    rejects,
    run,
)

SAMPLE = FIXTURES / "gb_ch_streaming" / "streaming_api_events_sample.jsonl"
LINES = SAMPLE.read_text(encoding="utf-8").splitlines()
FILING, PROFILE, EXEMPTIONS = (json.loads(line) for line in LINES)


def write(path, events) -> None:
    path.write_text(
        "".join((e if isinstance(e, str) else json.dumps(e)) + "\n" for e in events), encoding="utf-8"
    )


def profile(**data: object) -> dict:
    event = json.loads(LINES[1])
    event["data"].update(data)
    return event


def test_real_sample(engine, settings):
    stats = run(engine, settings, "gb_ch_streaming", SAMPLE)
    assert (stats.read, stats.inserted, stats.rejected, stats.skipped) == (3, 1, 0, 2)
    assert stats.skip_reasons == {
        "company-exemptions events are not imported": 1,
        "filing of a company not in the database": 1,
    }
    row = company(engine, "GB", "05954546")
    assert (row["name"], row["legal_form"], row["status"]) == ("GLENCOYNE ENGINEERING LTD", "ltd", "active")
    assert (row["founded_on"], row["dissolved_on"]) == (date(2006, 10, 3), None)
    assert (row["street"], row["city"], row["postal_code"]) == (
        "Unit10 Heath Road Industrial Estate, Banham",
        "Norwich",
        "NR16 2HS",
    )
    assert row["address_text"] == "Unit10 Heath Road Industrial Estate, Banham, Norwich, NR16 2HS"
    assert (row["nace_primary"], row["nace_codes"]) == ("45200", ["45200"])
    assert (row["in_bankruptcy"], row["in_restructuring"], row["in_liquidation"]) == (False, False, False)
    source = provenance(engine, "05954546")
    assert (source["source"], source["published_on"]) == ("gb_ch_streaming", date(2023, 11, 4))
    with engine.connect() as conn:
        catalogue = (
            conn.execute(data_sources.select().where(data_sources.c.id == "gb_ch_streaming")).mappings().one()
        )
    assert catalogue["licence"] == "Open Government Licence v3.0" and catalogue["row_count"] == 1
    assert "Companies House" in catalogue["attribution"]


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "gb_ch_streaming", SAMPLE)
    assert assert_idempotent(engine, settings, "gb_ch_streaming", SAMPLE).unchanged == 1


def test_status_changes_and_older_events(engine, settings, tmp_path):
    run(engine, settings, "gb_ch_streaming", SAMPLE)
    later = profile(company_status="liquidation")
    later["event"]["published_at"] = "2023-12-01T09:00:00"
    write(tmp_path / "later.jsonl", [later])
    assert run(engine, settings, "gb_ch_streaming", tmp_path / "later.jsonl").updated == 1
    row = company(engine, "GB", "05954546")
    assert (row["status"], row["in_liquidation"]) == ("active", True)
    assert changes(engine, "05954546")["in_liquidation"] == ("false", "true")
    older = profile(company_name="GLENCOYNE OLD NAME LTD", company_status="dissolved")
    older["event"]["published_at"] = "2023-01-01T00:00:00"
    write(tmp_path / "older.jsonl", [older])
    stats = run(engine, settings, "gb_ch_streaming", tmp_path / "older.jsonl")
    assert stats.skip_reasons == {"older than the data already loaded from this source": 1}
    assert company(engine, "GB", "05954546")["name"] == "GLENCOYNE ENGINEERING LTD"


def test_filing_recorded_once_for_a_held_company(engine, settings, tmp_path):
    # The real profile under the filing's company number (invented pairing: the sample's filing is
    # about a company the sample has no profile of).
    held = profile(company_number="10620794", company_name="FILING TEST LTD")
    write(tmp_path / "events.jsonl", [held, FILING])
    stats = run(engine, settings, "gb_ch_streaming", tmp_path / "events.jsonl")
    assert (stats.inserted, stats.skipped, stats.changes) == (1, 0, 2)
    assert changes(engine, "10620794")["filing"] == (
        None,
        "AA 2023-11-04 accounts-with-accounts-type-dormant [MzM5ODkyOTYzNmFkaXF6a2N4]",
    )
    again = run(engine, settings, "gb_ch_streaming", tmp_path / "events.jsonl")
    assert (again.changes, again.unchanged) == (0, 2)


def test_malformed_events_are_rejected(engine, settings, tmp_path):
    bad_number = profile(company_number="ABC")
    bad_date = profile(company_number="05954547", date_of_creation="03/10/2006")
    no_data = {"resource_kind": "company-profile", "event": {"type": "changed", "timepoint": 5}}
    write(tmp_path / "bad.jsonl", [PROFILE, bad_number, bad_date, no_data, "{not json", EXEMPTIONS])
    stats, rows = rejects(engine, settings, "gb_ch_streaming", tmp_path / "bad.jsonl")
    assert (stats.read, stats.inserted, stats.rejected) == (6, 1, 4)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "is not a valid GB company number",
        "date_of_creation is not a date",
        "company-profile event without a data object",
        "a line is not JSON",
    ):
        assert expected in reasons
    assert count(engine) == 1


def _relinks(engine) -> list[tuple[str, dict]]:
    with engine.connect() as conn:
        rows = conn.execute(select(jobs.c.kind, jobs.c.payload).where(jobs.c.kind.in_(RELINK_KINDS)))
        return sorted((r.kind, r.payload) for r in rows)


def test_a_run_that_loads_companies_queues_their_relink(engine, settings, tmp_path):
    run(engine, settings, "gb_ch_streaming", SAMPLE)  # inserts one company
    assert _relinks(engine) == sorted((kind, {"country": "GB"}) for kind in RELINK_KINDS)
    with engine.begin() as conn:
        conn.execute(delete(jobs))
    run(engine, settings, "gb_ch_streaming", SAMPLE)  # writes nothing: nothing to relink
    assert _relinks(engine) == []
    write(tmp_path / "renamed.jsonl", [profile(company_name="GLENCOYNE ENGINEERING LIMITED")])
    run(engine, settings, "gb_ch_streaming", tmp_path / "renamed.jsonl")
    assert [kind for kind, _ in _relinks(engine)] == sorted(RELINK_KINDS)


def test_an_aborted_run_is_failed_with_its_reason_and_queues_nothing(engine, settings, tmp_path):
    write(tmp_path / "broken.jsonl", ["company_number,name", PROFILE])
    with pytest.raises(SourceAbort) as exc:
        import_into(engine, str(tmp_path / "broken.jsonl"), settings.data_dir, batch_size=1)
    with engine.connect() as conn:
        runs = conn.execute(import_runs.select().where(import_runs.c.source == "gb_ch_streaming")).all()
        src = conn.execute(data_sources.select().where(data_sources.c.id == "gb_ch_streaming")).one()
    assert [r.status for r in runs] == ["failed"]
    assert runs[0].stats["reject_reasons"] == {f"aborted: {exc.value}": 1}
    assert src.last_run["status"] == "failed" and src.last_import_at is None
    assert _relinks(engine) == []


@pytest.mark.parametrize("content", ["", "company_number,name\n1,x\n", '{"company_number": "05954546"}\n'])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.jsonl").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "gb_ch_streaming", tmp_path / "wrong.jsonl")
    assert count(engine) == 0


# -- the live stream ----------------------------------------------------------------------------


@pytest.fixture
def stream_server() -> Iterator[tuple[str, list[str | None]]]:
    """A stream endpoint like Companies House's: events from ?timepoint= on (in timepoint order),
    then a keep-alive newline every 0.1 s until the client goes away."""
    asked: list[str | None] = []
    ordered = sorted(LINES, key=lambda line: json.loads(line)["event"]["timepoint"])

    async def companies(request: Request) -> StreamingResponse:
        since = request.query_params.get("timepoint")
        asked.append(since)

        async def body() -> Iterator[bytes]:  # type: ignore[misc]
            for line in ordered:
                if since is None or json.loads(line)["event"]["timepoint"] >= int(since):
                    yield (line + "\n").encode()
                    await asyncio.sleep(0.05)
            while True:
                yield b"\n"
                await asyncio.sleep(0.1)

        return StreamingResponse(body(), media_type="application/json")

    app = Starlette(routes=[Route("/companies", companies)])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/companies", asked
    server.should_exit = True
    thread.join(10)


def test_follows_a_live_stream_and_resumes(engine, settings, stream_server):
    url, asked = stream_server
    started = time.monotonic()
    _, stats, _ = import_into(engine, url, settings.data_dir, max_seconds=1.5)
    assert time.monotonic() - started < 10  # the never-ending stream was left at the time limit
    assert (stats.read, stats.inserted) == (3, 1)
    assert company(engine, "GB", "05954546")["name"] == "GLENCOYNE ENGINEERING LTD"
    store = TimepointStore(settings.data_dir / "streams" / "gb_ch_streaming.json")
    assert store.get(url) == 140062688  # the highest timepoint, read last
    _, again, _ = import_into(engine, url, settings.data_dir, max_events=1)
    assert asked == [None, "140062688"]  # resumed where the first run stopped
    assert (again.read, again.inserted, again.changes) == (1, 0, 0)
    with engine.connect() as conn:
        statuses = [
            r.status
            for r in conn.execute(import_runs.select().where(import_runs.c.source == "gb_ch_streaming"))
        ]
    assert statuses == ["succeeded", "succeeded"]


def test_stream_http_error_aborts(engine, settings, stream_server):
    url, _ = stream_server
    with pytest.raises(SourceAbort, match="answered HTTP 404"):
        import_into(engine, url.replace("/companies", "/nothing"), settings.data_dir, max_seconds=1)
    assert count(engine, company_changes) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "gb_ch_streaming", SAMPLE)
    data = assert_envelope(client.get("/api/v1/companies/gb/05954546", headers=auth))
    assert (data["name"], data["status"]) == ("GLENCOYNE ENGINEERING LTD", "active")
    assert any(s["id"] == "gb_ch_streaming" for s in data["sources"])
    sources = client.get("/api/v1/public/data-sources")
    assert sources.status_code == 200
    assert "gb_ch_streaming" in sources.text and "Open Government Licence" in sources.text
