"""`/vat/validate` through HTTP against a local fake VIES (tests/public_money/fake_vies.py)."""

from __future__ import annotations

import socket

import pytest

from tests.helpers import assert_envelope, assert_error
from tests.public_money.fake_vies import fake_vies

URL = "/api/v1/vat/validate"


@pytest.fixture
def vies(app_factory):
    with fake_vies() as (base, calls):
        yield app_factory(vies_base_url=base, vies_timeout_seconds=2.0), calls


def test_valid_number_from_vies_then_from_cache(vies):
    client, calls = vies
    resp = client.get(URL, params={"vat": "PL 774-000-14-54"})
    data = assert_envelope(resp)
    assert data == {
        "vat": "PL7740001454",
        "memberState": "PL",
        "country": "PL",
        "number": "7740001454",
        "formatValid": True,
        "formatReason": None,
        "status": "valid",
        "viesResult": "VALID",
        "name": "ORLEN SPÓŁKA AKCYJNA",
        "address": "CHEMIKÓW 7\n09-411 PŁOCK",
        "requestDate": "2026-10-08T04:42:27.326Z",
        "checkedAt": data["checkedAt"],
        "reason": None,
    }
    assert resp.json()["meta"]["cached"] is False and resp.headers["cache-control"] == "public, max-age=86400"
    again = client.get(URL, params={"vat": "pl7740001454"})
    assert assert_envelope(again)["status"] == "valid" and again.json()["meta"]["cached"] is True
    assert calls == ["/ms/PL/vat/7740001454"]


def test_invalid_number_is_a_verdict(vies):
    client, calls = vies
    data = assert_envelope(client.get(URL, params={"vat": "PL5260250995"}))
    assert (data["status"], data["viesResult"], data["name"], data["address"]) == (
        "invalid",
        "INVALID",
        None,
        None,
    )


@pytest.mark.parametrize(
    "vat, reason",
    [
        ("DE136695976", "VIES: MS_UNAVAILABLE"),
        ("FR40303265045", "VIES could not be reached: ReadTimeout"),
        ("IT00743110157", "VIES answered HTTP 500"),
        ("ATU13585627", "VIES answered something that is not JSON"),
    ],
)
def test_no_verdict_is_unavailable_and_not_cached(vies, vat, reason):
    client, calls = vies
    for _ in range(2):
        resp = client.get(URL, params={"vat": vat})
        data = assert_envelope(resp)
        assert (data["status"], data["reason"], data["formatValid"]) == ("unavailable", reason, True)
        assert (
            resp.json()["meta"]["cached"] is False and resp.headers["cache-control"] == "public, max-age=60"
        )
    assert len(calls) == 2


def test_vies_down_entirely(app_factory):
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = app_factory(vies_base_url=f"http://127.0.0.1:{port}", vies_timeout_seconds=0.5)
    data = assert_envelope(client.get(URL, params={"vat": "CZ45795908"}))
    assert data["status"] == "unavailable" and data["reason"].startswith("VIES could not be reached")


def test_greece_is_el(vies):
    client, calls = vies
    data = assert_envelope(client.get(URL, params={"vat": "GR094259216"}))
    assert (data["vat"], data["memberState"], data["country"], data["status"]) == (
        "EL094259216",
        "EL",
        "GR",
        "valid",
    )
    assert calls == ["/ms/EL/vat/094259216"]


def test_bad_format_answers_without_asking_vies(vies):
    client, calls = vies
    data = assert_envelope(client.get(URL, params={"vat": "PL7740001455"}))
    assert (data["status"], data["formatValid"]) == ("format_invalid", False)
    assert "checksum" in data["formatReason"].lower() and calls == []


@pytest.mark.parametrize(
    "params",
    [
        {"vat": "US123456789"},
        {"vat": "XI123456789"},
        {"vat": "123"},
        {"vat": "X" * 41},
        {},
        {"vat": "PL7740001454", "country": "PL"},
        {"vat": "ČŘ12345678"},
    ],
)
def test_bad_input_is_422(vies, params):
    client, calls = vies
    assert_error(client.get(URL, params=params), 422, "VALIDATION_ERROR")
    assert calls == []


@pytest.mark.parametrize(
    "vat",
    [
        "ATU13585627",
        "BE0403170701",
        "BG175074752",
        "CY10259033P",
        "CZ45795908",
        "DE136695976",
        "DK13585628",
        "EE100207415",
        "EL094259216",
        "ESA28015865",
        "FI20774740",
        "FR40303265045",
        "HR33392005961",
        "HU12892312",
        "IE6433435F",
        "IT00743110157",
        "LT119511515",
        "LU15027442",
        "LV40003521600",
        "MT11679112",
        "NL004495445B01",
        "PL7740001454",
        "PT501964843",
        "RO18547290",
        "SE556703748501",
        "SI50223054",
        "SK2020317068",
    ],
)
def test_every_member_state_format(vat):
    from regintel.areas.public_money.vat import check_format, split

    ms, number = split(vat)
    assert check_format(ms, number) is None
    body = number[:-3] if ms == "NL" else number  # NL: the B01 suffix is outside the check
    last = max(i for i, ch in enumerate(body) if ch.isdigit())
    wrong = number[:last] + str((int(number[last]) + 1) % 10) + number[last + 1 :]
    assert check_format(ms, wrong) is not None
