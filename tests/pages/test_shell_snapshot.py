"""The shell-address ranking read from its statistics snapshot (`pages:shell-addresses`, one per data
version), through HTTP: the same answer as the live GROUP BY, for every country and limit; served from the
stored snapshot; following an import."""

from __future__ import annotations

import orjson
from lxml import html
from sqlalchemy import select, update

from regintel.areas.pages import service
from regintel.areas.stats.snapshots import refresh
from regintel.db.schema import stats_snapshots
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope

PUB = "/api/v1/public/rankings/shell-addresses.json"
ADDRESS = {"address_text": "Hlavná 1, 040 01 Košice", "city": "Košice", "postal_code": "04001"}


def _live(engine, country, limit):
    with engine.connect() as conn:
        return orjson.loads(orjson.dumps(service.live_shell_addresses(conn, country, limit)))


def test_snapshot_gives_the_live_answer(client, companies, engine):
    assert "pages:shell-addresses" in refresh(engine, stale_only=False)
    for country, limit in ((None, 100), (None, 1), ("SK", 100), ("SK", 2), ("CZ", 100), ("DE", 100)):
        query = f"?limit={limit}" + (f"&country={country.lower()}" if country else "")
        assert assert_envelope(client.get(PUB + query))["items"] == _live(engine, country, limit)
    assert assert_envelope(client.get(PUB))["items"][0]["companies"] == 3
    csv_rows = client.get("/api/v1/public/rankings/shell-addresses.csv").text.splitlines()
    assert len(csv_rows) == 1 + 1 + len(_live(engine, None, 100))  # preamble, header, the rows
    page = html.fromstring(client.get("/rebricky/shell-addresses?lang=en").content)
    assert len(page.findall(".//tbody/tr")) == len(_live(engine, None, 100))


def test_requests_read_the_stored_snapshot(client, companies, engine):
    refresh(engine, stale_only=False)
    marker = [{"rank": 1, "address": "marker", "city": None, "postal_code": None, "country": "SK"}]
    marker[0] |= {"companies": 99, "sample": []}
    with engine.begin() as conn:  # what no GROUP BY gives: an answer with it came from the snapshot
        conn.execute(
            update(stats_snapshots)
            .where(stats_snapshots.c.key == "pages:shell-addresses")
            .values(payload={"*": marker, "SK": marker})
        )
    assert assert_envelope(client.get(PUB))["items"] == marker
    assert assert_envelope(client.get(PUB + "?country=cz"))["items"] == []  # not in the snapshot: none


def test_snapshot_follows_an_import(client, companies, engine):
    refresh(engine, stale_only=False)
    before = assert_envelope(client.get(PUB + "?country=sk"))["items"]
    assert "Košice" not in [i["city"] for i in before]
    load_companies(
        engine,
        *(
            CompanyRecord(country="SK", national_id=nid, name=f"Schránka {i} s.r.o.", **ADDRESS)
            for i, nid in enumerate(("50000012", "50000021", "50000039", "50000047"))
        ),
    )
    after = assert_envelope(client.get(PUB + "?country=sk"))["items"]  # a new version: computed, stored
    assert after == _live(engine, "SK", 100) and after[0]["city"] == "Košice" and after[0]["companies"] == 4


def test_coverage_reads_the_public_stats_snapshot(client, companies, engine):
    refresh(engine, stale_only=False)
    with engine.begin() as conn:  # a figure no count gives: an answer with it came from the snapshot
        payload = conn.execute(
            select(stats_snapshots.c.payload).where(stats_snapshots.c.key == "public-stats")
        ).scalar_one()
        conn.execute(
            update(stats_snapshots)
            .where(stats_snapshots.c.key == "public-stats")
            .values(payload=payload | {"entities": 4242})
        )
    assert assert_envelope(client.get("/coverage.json"))["entities"] == 4242
    load_companies(engine, CompanyRecord(country="SK", national_id="50000055", name="Nová s.r.o."))
    client.app.state.pages_cache.clear()  # the page's minute-long cache, not the data, is what kept it
    assert assert_envelope(client.get("/coverage.json"))["entities"] == 13  # a new version: counted live


def test_country_landing_reads_its_largest_from_the_snapshot(client, companies, engine):
    live = client.get("/api/v1/public/firmy-sk").text
    assert "pages:country-largest" in refresh(engine, stale_only=False)
    assert client.get("/api/v1/public/firmy-sk").text == live  # the snapshot gives the live answer
    with engine.connect() as conn:
        assert service.country_largest(conn, "SK", "EUR") == _plain(service.largest(conn, "SK", "EUR", 10))
    with engine.begin() as conn:
        payload = conn.execute(
            select(stats_snapshots.c.payload).where(stats_snapshots.c.key == "pages:country-largest")
        ).scalar_one()
        item = payload["SK"]["items"][0] | {"name": "Marker Largest a.s."}
        conn.execute(
            update(stats_snapshots)
            .where(stats_snapshots.c.key == "pages:country-largest")
            .values(payload=payload | {"SK": {"currency": "EUR", "items": [item]}})
        )
    assert "Marker Largest a.s." in client.get("/api/v1/public/companies-sk").text


def _plain(value):
    return orjson.loads(orjson.dumps(value))
