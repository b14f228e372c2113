"""`/api/v1/code-lists` through HTTP (spec 2.6, 4.3), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from regintel.ingest.code_lists import data_version
from tests.helpers import assert_envelope, assert_error

BASE = "/api/v1/code-lists"
LISTS = ["nace", "legal-forms", "regions", "districts", "municipalities", "countries", "bank-codes"]


def items(client, path: str, **params: object) -> tuple[list[dict], dict]:
    resp = client.get(f"{BASE}/{path}", params=params)
    data = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=3600"
    return data, resp.json()["meta"]


def codes(client, path: str, **params: object) -> list[str]:
    return [i["code"] for i in items(client, path, **params)[0]]


def test_index_lists_the_seven_lists(client):
    resp = client.get(BASE)
    data = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=3600"
    assert [d["name"] for d in data] == LISTS and resp.json()["meta"]["total"] == 7
    for entry in data:
        assert entry["item_count"] > 0 and entry["title"] and entry["source"] and entry["licence"]
        assert entry["version"] == data_version() and "data-version" not in entry["description"]
    by_name = {d["name"]: d for d in data}
    assert by_name["nace"]["hierarchical"] is True and by_name["nace"]["item_count"] == 1642
    assert by_name["municipalities"]["parent_list"] == "districts"


def test_items_total_limit_and_order(client):
    data, meta = items(client, "nace", limit=10_000)
    assert meta["total"] == len(data) == 1642 and meta["limit"] == 10_000
    assert [i["code"] for i in data] == sorted(i["code"] for i in data)
    data, meta = items(client, "nace", limit=1)
    assert len(data) == 1 and meta["total"] == 1642
    data, meta = items(client, "bank-codes")
    assert len(data) == 5000 and meta["total"] > 20_000


def test_item_shape(client):
    item = assert_envelope(client.get(f"{BASE}/nace/62.01"))
    assert item == {
        "code": "62.01",
        "name_sk": "Počítačové programovanie",
        "name_en": "Computer programming activities",
        "name_sk_fallback": False,
        "name_en_fallback": False,
        "parent": "62.0",
        "level": 4,
        "extra": {"isic": "6201", "section": "J", "level_name": "class"},
    }


@pytest.mark.parametrize(
    "path, parent, expected",
    [
        ("nace", "J", ["58", "59", "60", "61", "62", "63"]),
        ("nace", "j", ["58", "59", "60", "61", "62", "63"]),
        ("nace", "62.01", ["62.01.0"]),
        ("districts", "5", ["501", "502", "503", "504", "505", "506", "507", "508", "509", "510", "511"]),
        ("regions", "SK03", ["SK031", "SK032"]),
        ("nace", "ZZ", []),
    ],
)
def test_parent_filter(client, path, parent, expected):
    data, meta = items(client, path, parent=parent)
    assert [i["code"] for i in data] == expected and meta["total"] == len(expected)


@pytest.mark.parametrize("q", ["zilina", "Žilina", "ŽILINA", "žilina", "  zilina "])
def test_q_ignores_case_and_diacritics(client, q):
    assert codes(client, "municipalities", q=q) == ["517402"]


def test_q_matches_code_and_both_names(client):
    assert "62.01" in codes(client, "nace", q="6201")
    assert "62.01" in codes(client, "nace", q="programovanie")
    assert "62.01" in codes(client, "nace", q="COMPUTER PROGRAMMING")
    assert codes(client, "regions", q="zilinsky") == ["5", "SK-ZI", "SK031"]
    assert codes(client, "countries", q="nemecko") == ["DE"]
    assert "SK:0900" in codes(client, "bank-codes", q="sporitelna")


@pytest.mark.parametrize(
    "q",
    [
        "%",
        "_",
        "62_01",
        "62%01",
        "\\",
        '"',
        "' OR '1'='1",
        "'; DROP TABLE code_list_items; --",
        "*",
        "[a-z]",
        "🙂",
    ],
)
def test_q_metacharacters_are_literal(client, q):
    data, meta = items(client, "nace", q=q)
    assert data == [] and meta["total"] == 0
    assert items(client, "nace", limit=1)[1]["total"] == 1642


def test_q_quote_matches_literally(client):
    data, meta = items(client, "nace", q="'")
    assert meta["total"] == len(data) > 0 and all("'" in i["name_en"] for i in data)
    assert "16.23" in codes(client, "nace", q="builders' carpentry")


def test_q_unicode_scripts(client):
    ukrainian = codes(client, "bank-codes", q="Філія", country="ua")
    assert ukrainian and all(c.startswith("UA:") for c in ukrainian)
    # Greek forms are named by their transliteration; the Greek spelling is only in extra.names.
    assert "54AL" in codes(client, "legal-forms", q="ETERORITHMI")
    assert codes(client, "legal-forms", q="Ετερόρρυθμη") == []


@pytest.mark.parametrize("limit", ["0", "10001", "-1", "abc", ""])
def test_limit_out_of_range_is_a_validation_error(client, limit):
    err = assert_error(client.get(f"{BASE}/nace?limit={limit}"), 422, "VALIDATION_ERROR")
    assert err["details"][0]["field"] == "limit"


def test_q_too_long_and_unknown_parameters_are_refused(client):
    assert_error(client.get(f"{BASE}/nace", params={"q": "x" * 201}), 422, "VALIDATION_ERROR")
    err = assert_error(client.get(f"{BASE}/nace?sort=code"), 422, "VALIDATION_ERROR")
    assert err["details"][0]["field"] == "sort"
    assert_error(client.get(f"{BASE}/countries?parent=SK"), 422, "VALIDATION_ERROR")


def test_unknown_list_and_code_are_not_found(client):
    err = assert_error(client.get(f"{BASE}/no-such-list"), 404, "NOT_FOUND")
    assert err["details"]["lists"] == LISTS
    assert_error(client.get(f"{BASE}/no-such-list/62.01"), 404, "NOT_FOUND")
    assert_error(client.get(f"{BASE}/nace/99.99"), 404, "NOT_FOUND")
    assert_error(client.get(f"{BASE}/bank-codes/SK:9999"), 404, "NOT_FOUND")
    assert_error(client.get(f"{BASE}/nace/%27%20OR%201=1--"), 404, "NOT_FOUND")


@pytest.mark.parametrize(
    "path, code",
    [
        ("bank-codes", "sk:0900"),
        ("countries", "sk"),
        ("legal-forms", "SK:112"),
        ("regions", "sk-zi"),
        ("municipalities", "517402"),
        ("NACE", "62.01.0"),
    ],
)
def test_item_lookup_in_any_case(client, path, code):
    resp = client.get(f"{BASE}/{path}/{code}")
    assert assert_envelope(resp)["code"] == code.upper()
    assert resp.headers["cache-control"] == "public, max-age=3600"


@pytest.mark.parametrize("country", ["SK", "sk", "Sk", " sk "])
def test_bank_codes_by_country(client, country):
    data, meta = items(client, "bank-codes", country=country)
    assert meta["total"] == len(data) == 41
    assert all(i["parent"] == "SK" and i["extra"]["country"] == "SK" for i in data)
    assert "SK:0900" in [i["code"] for i in data]


def test_bank_codes_of_a_country_without_registry_is_empty(client):
    data, meta = items(client, "bank-codes", country="US")
    assert data == [] and meta["total"] == 0


@pytest.mark.parametrize("country", ["XX", "svk", "1", "", "s%"])
def test_bank_codes_invalid_country(client, country):
    err = assert_error(client.get(f"{BASE}/bank-codes", params={"country": country}), 422, "VALIDATION_ERROR")
    assert "country" in err["message"].lower() or err["details"][0]["field"] == "country"


def test_countries(client):
    data, meta = items(client, "countries")
    assert meta["total"] == len(data) == 249
    sk = next(i for i in data if i["code"] == "SK")
    assert (sk["name_sk"], sk["name_en"], sk["extra"]["alpha_3"]) == ("Slovensko", "Slovakia", "SVK")
    assert codes(client, "countries", q="slovak") == ["SK"]


def test_legal_forms_by_country_mix_elf_and_national_codes(client):
    data, _ = items(client, "legal-forms", parent="sk", limit=10_000)
    schemes = {i["extra"]["scheme"] for i in data}
    assert schemes == {"ISO 20275 ELF", "ŠÚ SR legal-form classification"}
    assert {"VSZS", "SK:112"} <= {i["code"] for i in data}


def test_fixed_routes_are_in_the_openapi_document(client):
    doc = client.get("/api/v1/public/openapi.json").json()
    paths = [
        f"{BASE}",
        f"{BASE}/bank-codes",
        f"{BASE}/countries",
        f"{BASE}/{{listName}}",
        f"{BASE}/{{listName}}/{{code}}",
    ]
    for path in paths:
        op = doc["paths"][path]["get"]
        assert op["tags"] == ["Code lists"] and op["summary"] and op["description"]
        assert not op.get("security")
        assert "200" in op["responses"] and "422" in op["responses"]
    params = {p["name"] for p in doc["paths"][f"{BASE}/{{listName}}"]["get"]["parameters"]}
    assert params == {"listName", "parent", "q", "limit"}
    assert {p["name"] for p in doc["paths"][f"{BASE}/bank-codes"]["get"]["parameters"]} == {
        "country",
        "q",
        "limit",
    }
