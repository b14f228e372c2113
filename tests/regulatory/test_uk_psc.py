"""`/public/stats/uk-psc` (+ `.csv`) over the real Companies House PSC sample (OGL v3.0) imported by the
real importers: rows, the `activeOnly` filter, natural persons left unnamed, the stats index, 4xx."""

from __future__ import annotations

import csv
import io

import pytest

from regintel.domain.types import CompanyRecord
from regintel.ingest.loader import Loader
from tests.helpers import assert_envelope, assert_error
from tests.ingest.import_helpers import run as run_gb
from tests.ingest.test_gb_psc import DIR, SEED, SEEDED, SNAPSHOT

URL = "/api/v1/public/stats/uk-psc"
PERSONS = ("Feldman", "Kuczkowski", "Marc", "Karol")


@pytest.fixture
def psc(engine, settings):
    run_gb(engine, settings, "gb_companies_house", DIR / "basic_company_data_single_row_2024.csv")
    loader = Loader(engine, SEED)
    for number in SEEDED:
        loader.add(CompanyRecord(country="GB", national_id=number, name=f"Seeded company {number}"))
    loader.flush()
    run_gb(engine, settings, "gb_psc", SNAPSHOT)


def test_rows_newest_first_natural_persons_unnamed(client, psc):
    resp = client.get(URL)
    data = assert_envelope(resp)
    assert (data["feed"], data["count"], data["total"], data["active_only"]) == ("uk-psc", 4, 4, False)
    assert data["totals"] == {"entries": 4, "active": 3, "natural_persons": 2, "companies": 4}
    assert [(r["national_id"], r["psc_kind"], r["psc_name"], r["active"]) for r in data["rows"]] == [
        ("08209948", "individual", None, True),
        ("10308742", "individual", None, False),
        ("07731393", "entity", "Companion Care (Services) Limited", True),
        ("07434180", "entity", "Robert Hitchins Limited", True),
    ]
    ceased = data["rows"][1]
    assert (
        ceased["notified_on"],
        ceased["ceased_on"],
        ceased["share_pct_min"],
        ceased["voting_pct_min"],
    ) == ("2016-08-02", "2018-02-27", 75.0, 75.0)
    assert "significant-influence-or-control" in ceased["natures_of_control"]
    assert not any(name in resp.text for name in PERSONS)
    assert "birth" not in resp.text and "nationality" not in resp.text
    assert resp.json()["meta"]["total"] == 4
    assert resp.headers["x-data-license"] == "Open Government Licence v3.0"
    assert resp.headers["cache-control"] == "public, max-age=900"


def test_active_only(client, psc):
    data = assert_envelope(client.get(URL, params={"activeOnly": "true"}))
    assert (data["active_only"], data["total"]) == (True, 3)
    assert all(r["active"] and r["ceased_on"] is None for r in data["rows"])
    assert assert_envelope(client.get(URL, params={"activeOnly": "false", "limit": 1}))["count"] == 1


def test_csv(client, psc):
    resp = client.get(URL + ".csv", params={"activeOnly": "true"})
    assert resp.headers["content-type"] == "text/csv; charset=utf-8"
    preamble, header, *rows = list(csv.reader(io.StringIO(resp.text)))
    assert preamble[0].startswith(
        "# Contains public sector information licensed under the Open Government Licence"
    )
    assert header[:5] == ["country", "national_id", "company_name", "psc_kind", "psc_name"]
    assert len(rows) == 3 and {r[header.index("active")] for r in rows} == {"yes"}
    hitchins = next(r for r in rows if r[1] == "07434180")
    assert (
        hitchins[header.index("natures_of_control")]
        == "ownership-of-shares-75-to-100-percent; voting-rights-75-to-100-percent"
    )
    assert not any(name in resp.text for name in PERSONS)


def test_listed_in_the_stats_index(client):
    feeds = {f["name"]: f for f in assert_envelope(client.get("/api/v1/public/stats.json"))["feeds"]}
    assert feeds["uk-psc"]["json_url"] == "http://testserver/api/v1/public/stats/uk-psc"
    assert feeds["uk-psc"]["csv_url"] == "http://testserver/api/v1/public/stats/uk-psc.csv"
    assert feeds["uk-psc"]["licence"] == "Open Government Licence v3.0"


def test_empty(client):
    data = assert_envelope(client.get(URL))
    assert (data["rows"], data["total"], data["totals"]["entries"]) == ([], 0, 0)
    assert len(client.get(URL + ".csv").text.splitlines()) == 2


@pytest.mark.parametrize(
    "path, params, field",
    [
        (URL, {"activeOnly": "perhaps"}, "activeOnly"),
        (URL, {"active_only": "true"}, "active_only"),
        (URL, {"limit": 101}, "limit"),
        (URL, {"limit": 0}, "limit"),
        (URL + ".csv", {"limit": 501}, "limit"),
    ],
)
def test_bad_input(client, path, params, field):
    assert field in str(assert_error(client.get(path, params=params), 422, "VALIDATION_ERROR"))
