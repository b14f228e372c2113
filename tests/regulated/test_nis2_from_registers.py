"""NIS2 scoping reads the regulated-activity registers: the real importers load the labelled fixtures,
then `/companies/{ico}/nis2` and the sweep answer through HTTP with the register's sector."""

from __future__ import annotations

import pytest

from tests.helpers import assert_envelope
from tests.regulated.common import CZ_EXCHANGE, CZ_GRID, SK_BANK, SK_INSURER, SK_WATER, import_all, load

URL = "/api/v1/companies/{ico}/nis2"


@pytest.fixture
def regulated(engine, settings):
    load(engine)
    import_all(engine, settings.data_dir)


def _scope(client, auth, ico, **params):
    return assert_envelope(client.get(URL.format(ico=ico), headers=auth, params=params))


def _registers(d):
    return [s for s in d["sectors"] if s["kind"] == "register"]


def test_annex_i_3_bank_from_the_nbs_register(client, auth, regulated):
    d = _scope(client, auth, SK_BANK)
    [bank] = _registers(d)
    assert (bank["annex_ref"], bank["entity_type"], bank["match"], bank["registers"]) == (
        "Annex I, 3",
        "credit_institution",
        "certain",
        ["sk_nbs"],
    )
    assert bank["licence_type"] == "Banka" and d["ruleset_version"] == "nis2-2026.12.1"
    # the fixture gives no size: the register fixes the sector, Art. 2(1) leaves the category open
    assert {"important", "out-of-scope"} <= set(d["possible_categories"]) and d["in_scope"] is None
    assert {"headcount", "turnover_eur"} <= {m["input"] for m in d["missing"]}
    assert any("Art. 4(1)" in n for n in d["notes"])  # DORA replaces Art. 20, 21, 23, Chapter VII
    assert any(r["rule"] == "register" for r in d["reasons"])


def test_annex_i_1_a_1_d_electricity_and_gas_distribution_from_eru(client, auth, regulated):
    d = _scope(client, auth, CZ_GRID, country="cz")
    assert sorted((s["subsector"], s["entity_type"]) for s in _registers(d)) == [
        ("electricity", "distribution_system_operator"),
        ("gas", "distribution_system_operator"),
    ]
    assert all(s["registers"] == ["cz_eru"] for s in _registers(d))


def test_annex_i_4_trading_venue_and_annex_i_6_water(client, auth, regulated):
    venue = _scope(client, auth, CZ_EXCHANGE, country="cz")
    assert [s["entity_type"] for s in _registers(venue)] == ["trading_venue_operator"]
    water = _scope(client, auth, SK_WATER)
    assert [(s["annex_ref"], s["entity_type"]) for s in _registers(water)] == [
        ("Annex I, 6", "water_supplier")
    ]


def test_an_insurer_is_supervised_but_no_annex_entity(client, auth, regulated):
    d = _scope(client, auth, SK_INSURER)
    assert _registers(d) == [] and any("not an entity type of NIS2 Annex I or II" in n for n in d["notes"])


def test_the_sweep_reads_the_registers_too(client, auth, regulated):
    body = {
        "identifiers": [{"country": "SK", "national_id": SK_BANK}, {"country": "CZ", "national_id": CZ_GRID}]
    }
    d = assert_envelope(client.post("/api/v1/compliance/nis2-sweep", json=body, headers=auth))
    assert d["processed"] == 2
    # no sizes in the fixtures: the register sector keeps both possible, never a silent "out of scope"
    assert d["certainty"].get("certain", 0) == 0


def test_art_4_1_obligations_of_a_dora_bank_are_replaced_through_http(client, auth, regulated):
    d = assert_envelope(client.get(f"/api/v1/companies/{SK_BANK}/nis2-obligations", headers=auth))
    replaced = [o for o in d["obligations"] if o.get("replaced_by")]
    assert len(replaced) == 17 and all(  # Art. 20, 21, 23 and Chapter VII (NIS2 Art. 4(1), recital 28)
        o["replaced_by"].startswith("Regulation (EU) 2022/2554") for o in replaced
    )
    assert not any(o["applies"] for o in replaced)
