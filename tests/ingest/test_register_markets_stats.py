"""The six register importers of issue 24 (AT, CY, GR, IT, RO, SI) together: each market's companies are
counted by `/public/stats` and `/companies/stats/breakdown?by=country`, and each source is listed."""

from __future__ import annotations

from tests.helpers import assert_envelope
from tests.ingest.import_helpers import FIXTURES, run

IMPORTS = [  # (source, fixture, country, companies it holds, of which active)
    ("at_firmenbuch", "at_firmenbuch/suchefirma_answer.xml", "AT", 3, 2),
    ("cy_drcor", "cy_drcor/organisations_2026-11-24.csv", "CY", 6, 5),
    ("gr_gemi", "gr_gemi/companies_search.json", "GR", 3, 2),
    ("it_registro_imprese", "it_registro_imprese/imprese_2026-11-26.csv", "IT", 6, 5),
    ("ro_onrc", "ro_onrc/od_firme.csv", "RO", 6, 6),
    ("si_ajpes", "si_ajpes/prs_2026-11-27.csv", "SI", 5, 4),
]


def test_every_market_is_counted(engine, settings, client, auth):
    for source, fixture, *_ in IMPORTS:
        assert run(engine, settings, source, FIXTURES / fixture).rejected == 0, source
    public = assert_envelope(client.get("/api/v1/public/stats"))
    by_country = {c["country"]: c for c in public["countries"]}
    breakdown = {
        i["key"]: i
        for i in assert_envelope(client.get("/api/v1/companies/stats/breakdown?by=country", headers=auth))
    }
    overview = {
        c["country"]: c
        for c in assert_envelope(client.get("/api/v1/companies/stats", headers=auth))["byCountry"]
    }
    for source, _, country, total, active in IMPORTS:
        assert by_country[country] == {"country": country, "entities": total, "active": active}, country
        assert breakdown[country]["count"] == total and overview[country]["total"] == total, country
        assert any(s["id"] == source and s["rows"] == total for s in public["sources"]), source
    assert public["entities"] == sum(t for *_, t, _ in IMPORTS)
    assert breakdown["GR"]["in_liquidation"] == 1 and breakdown["GR"]["in_bankruptcy"] == 1
    assert breakdown["RO"]["in_bankruptcy"] == 0  # od_firme.csv alone states no insolvency
    assert breakdown["SI"]["in_restructuring"] == 1 and breakdown["IT"]["in_restructuring"] == 1
    catalogue = {e["id"]: e for e in assert_envelope(client.get("/api/v1/public/data-sources.json"))}
    for source, _, country, total, _ in IMPORTS:
        entry = catalogue[source]
        assert (entry["country"], entry["row_count"]) == (country, total)
        assert entry["licence"] and entry["attribution"] and entry["url"].startswith("https://")
