"""`regintel demo` includes the national registers added for issue 24, each served over HTTP."""

from __future__ import annotations

import pytest

from regintel.ingest.demo import load_demo
from tests.helpers import assert_envelope

MARKETS = [
    ("lv", "40008223126", "lv_ur", "NEW LATVIAN BALLET"),
    ("ie", "806019", "ie_cro", "JUEL DIGITAL LIMITED"),
    ("fi", "0112038-9", "fi_prh", "Nokia Oyj"),
    ("ch", "CHE279438550", "ch_zefix", "Actor IQ SA"),
    ("ua", "44660866", "ua_edr", None),
    ("pl", "0000121862", "pl_krs", "KPMG SPOLKA Z OGRANICZONA ODPOWIEDZIALNOSCIA"),
    ("hr", "27759560625", "hr_sudreg", "INA-INDUSTRIJA NAFTE, d.d."),
]


@pytest.fixture
def demo(engine, settings):
    # Loaded before the client's app starts (the tests ask for it first): the app's index thread writes
    # while the imports do, and under load the imports' run records waited past SQLite's busy timeout.
    return load_demo(engine, settings.data_dir)


def test_new_registers_load_without_rejects_and_are_served(demo, client, auth):
    stats = {source: s for source, _, s in demo}
    for _, _, source, _ in MARKETS:
        assert stats[source].rejected == 0 and stats[source].inserted >= 1, source
    for country, national_id, source, name in MARKETS:
        data = assert_envelope(client.get(f"/api/v1/companies/{country}/{national_id}", headers=auth))
        assert data["country"] == country.upper()
        assert name is None or data["name"] == name
        assert any(s["id"] == source for s in data["sources"])


def test_catalogue_lists_licence_and_attribution(demo, client):
    for country, _, source, _ in MARKETS:
        entries = assert_envelope(
            client.get(f"/api/v1/public/data-sources?country={country}&category=register")
        )
        entry = next(e for e in entries if e["id"] == source)
        assert entry["licence"] and entry["attribution"] and entry["url"].startswith("https://")
        assert entry["row_count"] >= 1
