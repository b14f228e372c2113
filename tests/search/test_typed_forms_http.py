"""A query that types several legal forms ("s. r. o. v likvidácii": the form and "in liquidation") is
written as typed only by a name that carries all of them (issue 15, the 1M namesake set's
`ns-word_order-028`): a namesake carrying one of them is the same form spelled otherwise
(`domain.matching.FORM_SPELLING`), so the larger "Ekotech s. r. o." no longer hides the company in
liquidation behind prominence."""

from __future__ import annotations

import pytest

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope


def _co(country: str, nid: str, name: str, employees: int) -> CompanyRecord:
    return CompanyRecord(
        country=country, national_id=nid, name=name, employees=employees, legal_form=None, status="active"
    )


IN_LIQUIDATION = _co("SK", "48240281", "Ekotech s. r. o. v likvidácii", 1)
LARGER = [
    _co("SK", "36178373", "Ekotech s. r. o.", 46),
    _co("SK", "44015941", "Ekotech s. r. o.", 3),
    _co("CZ", "14124076", "Ekotech s.r.o.", 8),
]


@pytest.fixture
def data(engine):
    load_companies(engine, IN_LIQUIDATION, *LARGER)


def _ask(client, auth, path: str, **params: object) -> list[dict]:
    return assert_envelope(client.get(path, params=params, headers=auth))


def _form_score(item: dict) -> float:
    return next(r["score"] for r in item["reasons"] if r["feature"] == "legalForm")


@pytest.mark.parametrize("path", ["/api/v1/companies/search", "/api/v1/companies/autocomplete"])
@pytest.mark.parametrize("q", ["s. r. o. v likvidácii Ekotech", "Ekotech s.r.o. v likvidacii"])
def test_the_name_with_every_typed_form_comes_first(client, auth, data, path, q):
    items = _ask(client, auth, path, q=q, limit=4)
    assert items[0]["nationalId"] == IN_LIQUIDATION.national_id
    assert _form_score(items[0]) == 1.0 and items[0]["score"] == 1.0
    # the others carry one of the typed forms: the same form, spelled otherwise
    assert {i["nationalId"] for i in items[1:]} == {c.national_id for c in LARGER}
    assert {_form_score(i) for i in items[1:]} == {0.99}
    assert all(i["score"] < 1.0 for i in items[1:])


def test_resolve_takes_the_name_with_every_typed_form(client, auth, data):
    resp = client.get(
        "/api/v1/companies/resolve", params={"q": "Ekotech s. r. o. v likvidácii"}, headers=auth
    )
    body = resp.json()["data"]
    assert body["entity"]["nationalId"] == IN_LIQUIDATION.national_id


def test_one_typed_form_is_written_as_typed_by_both(client, auth, data):
    """A name carrying the typed form and another is still written as typed: prominence decides."""
    items = _ask(client, auth, "/api/v1/companies/search", q="Ekotech s. r. o.", limit=4)
    assert items[0]["nationalId"] == LARGER[0].national_id
    by_id = {i["nationalId"]: i for i in items}
    assert _form_score(by_id[IN_LIQUIDATION.national_id]) == 1.0
    assert by_id[IN_LIQUIDATION.national_id]["score"] == by_id[LARGER[0].national_id]["score"]
