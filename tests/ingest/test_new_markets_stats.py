"""Issue 24 (ES, LT, EE and the GB change stream): `regintel demo` holds the real ES and GB-stream
records, and the statistics endpoints count every new market's companies, read over HTTP."""

from __future__ import annotations

import pytest

from regintel.ingest.demo import load_demo
from tests.helpers import assert_envelope
from tests.ingest.import_helpers import FIXTURES, run


@pytest.fixture
def demo(engine, settings):
    return load_demo(engine, settings.data_dir)


def test_demo_holds_the_real_es_and_gb_stream_records(client, auth, demo):
    stats = {source: s for source, _, s in demo}
    assert (stats["es_borme"].inserted, stats["es_borme"].rejected) == (25, 0)
    assert stats["gb_ch_streaming"].rejected == 0 and stats["gb_ch_streaming"].read == 3
    spain = assert_envelope(client.get("/api/v1/companies/es/H-CC-11959", headers=auth))
    assert spain["name"] == "VERAJERTE SL" and any(s["id"] == "es_borme" for s in spain["sources"])
    glencoyne = assert_envelope(client.get("/api/v1/companies/gb/05954546", headers=auth))
    assert glencoyne["name"] == "GLENCOYNE ENGINEERING LTD"
    assert any(s["id"] == "gb_ch_streaming" for s in glencoyne["sources"])
    for country, source in (("es", "es_borme"), ("gb", "gb_ch_streaming")):
        entries = assert_envelope(
            client.get(f"/api/v1/public/data-sources?country={country}&category=register")
        )
        entry = next(e for e in entries if e["id"] == source)
        assert entry["licence"] and entry["attribution"] and entry["row_count"] >= 1


def test_stats_count_the_new_markets(client, auth, engine, settings):
    run(engine, settings, "es_borme", FIXTURES / "es_borme" / "BORME-A-2015-27-10.pdf")
    run(engine, settings, "lt_jar", FIXTURES / "lt_jar" / "JAR_IREGISTRUOTI.csv")
    run(
        engine,
        settings,
        "ee_ariregister",
        FIXTURES / "ee_ariregister" / "ettevotja_rekvisiidid__lihtandmed.csv",
    )
    run(
        engine,
        settings,
        "gb_ch_streaming",
        FIXTURES / "gb_ch_streaming" / "streaming_api_events_sample.jsonl",
    )
    public = assert_envelope(client.get("/api/v1/public/stats"))
    countries = {c["country"]: c for c in public["countries"]}
    assert {k: countries[k]["entities"] for k in ("ES", "LT", "EE", "GB")} == {
        "ES": 25,
        "LT": 6,
        "EE": 6,
        "GB": 1,
    }
    assert countries["EE"]["active"] == 5  # one deleted (K)
    assert public["entities"] == 38
    rows = assert_envelope(client.get("/api/v1/companies/stats/breakdown?by=country", headers=auth))
    counted = {r["key"]: r for r in rows}
    assert {k: counted[k]["count"] for k in ("ES", "LT", "EE", "GB")} == {"ES": 25, "LT": 6, "EE": 6, "GB": 1}
    assert (
        counted["EE"]["in_bankruptcy"],
        counted["EE"]["in_liquidation"],
        counted["LT"]["in_restructuring"],
    ) == (1, 1, 1)
    assert counted["ES"]["label"] == "Spain"
