"""The sanctions factor through HTTP: "not screened" is a missing input, "screened, no hit" earns the
factor, a name match costs half of it, a hit an identifier confirms is a knock-out; the evidence names
when the company was screened and against which list versions."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from regintel.areas.screening.hits import refresh_company_hits
from regintel.areas.screening.importer import import_list
from regintel.domain.types import CompanyRecord, FinancialRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.screening.support import UN, load_lists

CLEAN = ("SK", "36631124")
CUBA = ("SK", "31322832")  # the name of an OFAC-listed bank: a name match, no identifier
BNK = ("GB", "06527449")  # the registration number of "BNK (UK) Ltd" on the UK list: confirmed
LATE = ("SK", "35763469")  # imported after the screening ran


def fin() -> FinancialRecord:
    return FinancialRecord(
        year=2024,
        currency="EUR",
        period_from="2024-01",
        period_to="2024-12",
        revenue=Decimal(1_000_000),
        profit=Decimal(60_000),
        total_assets=Decimal(800_000),
        equity=Decimal(300_000),
        liabilities=Decimal(500_000),
        employees=20,
        statement_type="ordinary",
    )


def record(key: tuple[str, str], name: str) -> CompanyRecord:
    return CompanyRecord(
        country=key[0], national_id=key[1], name=name, founded_on=date(2008, 4, 1), financials=[fin()]
    )


@pytest.fixture
def screened(engine):
    load_companies(
        engine,
        record(CLEAN, "Tatra Pekáreň s.r.o."),
        record(CUBA, "BANCO NACIONAL DE CUBA, a.s."),
        record(BNK, "BNK (UK) LIMITED"),
    )
    load_lists(engine)
    refresh_company_hits(engine)
    load_companies(engine, record(LATE, "Zelená Lúka s.r.o."))
    return engine


def get(client, auth, key, what):
    url = f"/api/v1/companies/{key[1]}/{what}"
    return assert_envelope(client.get(url, params={"country": key[0]}, headers=auth))


def sanctions(body):
    return next(f for f in body["factors"] if f["code"] == "sanctions")


def test_not_screened_is_a_missing_input(client, auth, screened):
    body = get(client, auth, LATE, "credit-score")
    f = sanctions(body)
    assert (f["available"], f["points"], f["evidence"]) == (False, None, [])
    assert f["note"] == "not screened since imported"
    assert "sanctions.sanctions_screening" in body["missing_inputs"]
    assert body["model_version"] == "credit-2026.12.1"
    risk = get(client, auth, LATE, "risk")
    assert "sanctions_screening" in risk["missing_inputs"]
    assert not {"sanctioned", "sanctions_name_match"} & set(risk["checked"])


def test_screened_without_a_hit_earns_the_factor(client, auth, screened):
    late = get(client, auth, LATE, "credit-score")
    body = get(client, auth, CLEAN, "credit-score")
    f = sanctions(body)
    assert (f["available"], f["value"], f["points"], f["note"]) == (True, 0, 5.0, "screened: no hit")
    assert "sanctions.sanctions_screening" not in body["missing_inputs"]
    assert body["confidence"] == pytest.approx(late["confidence"] + 0.05)
    ev = {(e["input"], e["source"]): e["value"] for e in f["evidence"]}
    assert ev[("lists_current", None)] is True
    versions = {src: v for (name, src), v in ev.items() if name == "sanctions_list_version"}
    assert versions == {"sanctions_eu_fsf": 1, "sanctions_ofac": 1, "sanctions_uk": 1}
    assert all(e["date"] == f["evidence"][0]["date"] for e in f["evidence"])
    assert (
        ev[("screened_at", None)].startswith(f["evidence"][0]["date"])
        and ev[("screened_at", None)][-1] == "Z"
    )
    assert {s["id"] for s in body["sources"]} >= set(versions)
    risk = get(client, auth, CLEAN, "risk")
    assert "sanctions_screening" not in risk["missing_inputs"]
    assert {"sanctioned", "sanctions_name_match"} <= set(risk["checked"]) and risk["drivers"] == []


def test_a_name_match_costs_half_the_factor(client, auth, screened):
    body = get(client, auth, CUBA, "credit-score")
    f = sanctions(body)
    assert (f["value"], f["points"], body["caps"]) == (0, 2.5, [])
    names = [e["value"] for e in f["evidence"] if e["input"] == "name_match"]
    assert names and all(n.startswith("sanctions_ofac:") for n in names)
    clean = get(client, auth, CLEAN, "credit-score")
    assert body["score"] < clean["score"]
    risk = get(client, auth, CUBA, "risk")
    driver = next(d for d in risk["drivers"] if d["code"] == "sanctions_name_match")
    assert driver["points"] == 10 and "not confirmed" in driver["description"]
    assert risk["model_version"] == "risk-2026.12.1"


def test_a_confirmed_hit_is_a_knock_out(client, auth, screened):
    body = get(client, auth, BNK, "credit-score")
    f = sanctions(body)
    assert (f["value"], f["points"], f["note"]) == (1, 0.0, "confirmed hits (a knock-out)")
    assert [e["value"] for e in f["evidence"] if e["input"] == "confirmed_hit"] == ["sanctions_uk:BEL0107"]
    assert (body["score"], body["grade"], body["caps"]) == (15.0, "F", ["sanctioned"])
    risk = get(client, auth, BNK, "risk")
    assert [d["code"] for d in risk["drivers"]] == ["sanctioned"] and risk["score"] == 60
    assert risk["level"] == "severe"


def test_a_list_import_after_the_screening_marks_it_stale_until_it_runs_again(client, auth, screened):
    import_list(screened, "sanctions_un", UN)
    f = sanctions(get(client, auth, CLEAN, "credit-score"))
    ev = {(e["input"], e["source"]): e["value"] for e in f["evidence"]}
    # still the last known answer (an earlier screening is not "not screened"), said to be behind the lists
    assert (f["points"], ev[("lists_current", None)]) == (5.0, False)
    assert ("sanctions_list_version", "sanctions_un") not in ev
    refresh_company_hits(screened)
    f = sanctions(get(client, auth, CLEAN, "credit-score"))
    ev = {(e["input"], e["source"]): e["value"] for e in f["evidence"]}
    assert (ev[("lists_current", None)], ev[("sanctions_list_version", "sanctions_un")]) == (True, 1)
