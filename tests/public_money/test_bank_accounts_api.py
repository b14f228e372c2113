"""Bank accounts of the Czech VAT payer register through HTTP: a company's list, IBAN lookup (keyed and
public) and IBAN verification."""

from __future__ import annotations

import pytest

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.public_money.common import import_adis

CSA = "45795908"  # České aerolinie: reliable payer, 1 Czech account and 3 IBANs
JL = "04677285"  # J&L Industries: unreliable payer since 2026-05-12
NOT_PAYER = "07102127"
CSA_IBAN = "CZ7226000000002003630103"  # its 2003630103/2600, as an IBAN
JL_IBAN = "CZ7355000000007770165663"


@pytest.fixture
def payers(engine, settings):
    load_companies(
        engine,
        CompanyRecord(country="CZ", national_id=CSA, name="České aerolinie a.s."),
        CompanyRecord(country="CZ", national_id=JL, name="J&L Industries s.r.o."),
        CompanyRecord(country="CZ", national_id=NOT_PAYER, name="Neplátce s.r.o."),
        CompanyRecord(country="SK", national_id="31322832", name="SLOVNAFT, a.s."),
    )
    import_adis(engine, settings.data_dir)


def test_company_bank_accounts(client, auth, payers):
    data = assert_envelope(
        client.get(f"/api/v1/companies/{CSA}/bank-accounts", headers=auth, params={"country": "cz"})
    )
    assert [(a["iban"], a["account"], a["publishedFrom"], a["current"]) for a in data["accounts"]] == [
        (CSA_IBAN, "2003630103/2600", "2013-04-01", True),
        ("CZ7126000000002003630218", "CZ7126000000002003630218", "2015-08-27", True),
        ("CZ2326000000002003630306", "CZ2326000000002003630306", "2018-05-31", True),
        ("CZ5026000000002003630402", "CZ5026000000002003630402", "2018-05-31", True),
    ]
    assert data["accounts"][0]["bank"] == {
        "code": "2600",
        "name": "Citibank Europe plc, organizační složka",
        "bic": "CITICZPX",
    }
    assert data["accounts"][0]["formatted"] == "CZ72 2600 0000 0020 0363 0103"
    payer = data["vatPayers"][0]
    assert (
        payer["vatId"],
        payer["status"],
        payer["taxOffice"],
        payer["answeredOn"],
        payer["source"]["id"],
    ) == ("CZ45795908", "reliable", "13", "2026-05-14", "cz_adis_crpdph")
    assert data["covered"] is True


def test_unreliable_payer_and_not_a_payer(client, auth, payers):
    jl = assert_envelope(
        client.get(f"/api/v1/companies/{JL}/bank-accounts", headers=auth, params={"country": "cz"})
    )
    assert (jl["vatPayers"][0]["status"], jl["vatPayers"][0]["unreliableSince"], len(jl["accounts"])) == (
        "unreliable",
        "2026-05-12",
        3,
    )
    none = assert_envelope(
        client.get(f"/api/v1/companies/{NOT_PAYER}/bank-accounts", headers=auth, params={"country": "cz"})
    )
    assert (none["vatPayers"][0]["status"], none["accounts"]) == ("not_found", [])
    sk = assert_envelope(client.get("/api/v1/companies/31322832/bank-accounts", headers=auth))
    assert sk == {
        "vatPayers": [],
        "accounts": [],
        "covered": True,
    }  # the Slovak list covers SK, none imported


def test_lookup_any_spelling(client, auth, payers):
    for written in (CSA_IBAN, "cz72 2600 0000 0020 0363 0103", "CZ72-2600-0000-0020-0363-0103"):
        data = assert_envelope(
            client.get("/api/v1/bank-accounts/lookup", headers=auth, params={"iban": written})
        )
        assert data["found"] is True and data["iban"] == CSA_IBAN
        assert [(m["company"]["nationalId"], m["vatId"], m["payerStatus"]) for m in data["matches"]] == [
            (CSA, "CZ45795908", "reliable")
        ]


def test_lookup_unknown_and_invalid(client, auth, payers):
    data = assert_envelope(
        client.get("/api/v1/bank-accounts/lookup", headers=auth, params={"iban": "CZ6508000000192000145399"})
    )
    assert (data["found"], data["matches"], data["covered"]) == (False, [], True)
    sk = assert_envelope(
        client.get("/api/v1/bank-accounts/lookup", headers=auth, params={"iban": "SK5009000000000000123457"})
    )
    assert (sk["found"], sk["covered"], sk["bank"]["bic"]) == (False, False, "GIBASKBX")
    for bad in ("CZ7226000000002003630104", "XX00", "CZ72 2600", "é" * 60):
        assert_error(
            client.get("/api/v1/bank-accounts/lookup", headers=auth, params={"iban": bad}),
            422,
            "VALIDATION_ERROR",
        )
    assert_error(client.get("/api/v1/bank-accounts/lookup", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/bank-accounts/lookup", params={"iban": CSA_IBAN}), 401, "UNAUTHORIZED")


def test_public_iban_lookup(client, payers):
    resp = client.get(f"/api/v1/public/iban-lookup/{JL_IBAN}.json")
    data = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=3600"
    assert [(m["company"]["name"], m["payerStatus"]) for m in data["matches"]] == [
        ("J&L Industries s.r.o.", "unreliable")
    ]
    assert_error(client.get("/api/v1/public/iban-lookup/CZ00.json"), 422, "VALIDATION_ERROR")
    assert_error(
        client.get(f"/api/v1/public/iban-lookup/{JL_IBAN}.json", params={"x": "1"}), 422, "VALIDATION_ERROR"
    )


VERDICTS = [
    (CSA, CSA_IBAN, "yes", "published by the company"),
    (CSA, JL_IBAN, "no", "published by another VAT payer (CZ04677285)"),
    (CSA, "CZ6508000000192000145399", "no", "not among the accounts the company publishes"),
    (NOT_PAYER, CSA_IBAN, "no", "published by another VAT payer"),
    (NOT_PAYER, "CZ6508000000192000145399", "unknown", "the company is not a VAT payer"),
]


def test_verify(client, auth, payers):
    for ico, iban, belongs, reason in VERDICTS:
        data = assert_envelope(
            client.post("/api/v1/iban/verify", headers=auth, json={"ico": ico, "country": "cz", "iban": iban})
        )
        assert data["belongs"] == belongs and data["reason"].startswith(reason)
        assert data["company"]["nationalId"] == ico


def test_verify_company_without_a_register_is_unknown(client, auth, payers, engine):
    data = assert_envelope(
        client.post(
            "/api/v1/iban/verify",
            headers=auth,
            json={"ico": "31322832", "iban": "SK50 0900 0000 0000 0012 3457"},
        )
    )
    assert (data["belongs"], data["source"]) == ("unknown", None)
    assert data["reason"] == "the company's VAT payer record is not imported"  # the Slovak list is not here
    load_companies(engine, CompanyRecord(country="AT", national_id="123456a", name="Muster GmbH"))
    data = assert_envelope(
        client.post(
            "/api/v1/iban/verify",
            headers=auth,
            json={"ico": "123456a", "country": "at", "iban": "SK50 0900 0000 0000 0012 3457"},
        )
    )
    assert "no register of published accounts covers AT" in data["reason"]


def test_verify_bad_bodies(client, auth, payers):
    for body in (
        {"ico": CSA, "country": "cz", "iban": "CZ00"},
        {"ico": CSA, "iban": CSA_IBAN, "extra": 1},
        {"ico": 45795908, "country": "cz", "iban": CSA_IBAN},
        {"ico": CSA},
        {},
    ):
        assert_error(client.post("/api/v1/iban/verify", headers=auth, json=body), 422, "VALIDATION_ERROR")
    assert_error(
        client.post(
            "/api/v1/iban/verify", headers=auth, json={"ico": "12345679", "country": "cz", "iban": CSA_IBAN}
        ),
        404,
        "NOT_FOUND",
    )
    assert_error(client.post("/api/v1/iban/verify", json={"ico": CSA, "iban": CSA_IBAN}), 401, "UNAUTHORIZED")


ORLEN_KRS = "0000028860"
ORLEN_IBAN = "PL62102010260000190206882106"


@pytest.fixture
def orlen(engine, settings):
    from regintel.ingest.runner import run_import
    from regintel.ingest.sources.pl_biala_lista_vat import SOURCE as WHITE_LIST
    from tests.public_money.common import FIXTURES

    load_companies(engine, CompanyRecord(country="PL", national_id=ORLEN_KRS, name="ORLEN SPÓŁKA AKCYJNA"))
    path = FIXTURES / "pl_biala_lista_vat" / "wl_api_search_nip_7740001454_date_2026-09-01.json"
    first = run_import(engine, WHITE_LIST, str(path), settings.data_dir)[1]
    again = run_import(engine, WHITE_LIST, str(path), settings.data_dir)[1]
    assert (first.inserted, again.unchanged, again.inserted + again.updated) == (1, 1, 0)


def test_polish_white_list_accounts(client, auth, orlen):
    data = assert_envelope(
        client.get(f"/api/v1/companies/{ORLEN_KRS}/bank-accounts", headers=auth, params={"country": "pl"})
    )
    assert len(data["accounts"]) == 236 and data["covered"] is True
    assert (data["vatPayers"][0]["vatId"], data["vatPayers"][0]["status"]) == ("PL7740001454", "active")
    assert data["accounts"][0]["bank"]["bic"] == "BPKOPLPWXXX"
    found = assert_envelope(
        client.get("/api/v1/bank-accounts/lookup", headers=auth, params={"iban": ORLEN_IBAN})
    )
    assert [m["company"]["nationalId"] for m in found["matches"]] == [ORLEN_KRS]
    verdict = assert_envelope(
        client.post(
            "/api/v1/iban/verify", headers=auth, json={"ico": ORLEN_KRS, "country": "pl", "iban": ORLEN_IBAN}
        )
    )
    assert (verdict["belongs"], verdict["source"]["id"], verdict["asOf"]) == (
        "yes",
        "pl_biala_lista_vat",
        "2026-10-08",
    )


def test_polish_white_list_malformed_answer(engine, settings, tmp_path):
    from regintel.areas.public_money.tables import vat_payers
    from regintel.ingest.base import SourceAbort
    from regintel.ingest.runner import run_import
    from regintel.ingest.sources.pl_biala_lista_vat import SOURCE as WHITE_LIST
    from tests.public_money.common import count

    for body in (
        '{"result": {"subject": {"nip": "77',
        '{"code": "WL-113", "message": "Pole NIP ma nieprawidłową"}',
    ):
        path = tmp_path / "answer.json"
        path.write_text(body, encoding="utf-8")
        with pytest.raises(SourceAbort):
            run_import(engine, WHITE_LIST, str(path), settings.data_dir)
    assert count(engine, vat_payers) == 0


def test_company_bank_accounts_errors(client, auth, payers, engine):
    url = "/api/v1/companies/{}/bank-accounts"
    assert_error(client.get(url.format(CSA), params={"country": "cz"}), 401, "UNAUTHORIZED")
    assert_error(client.get(url.format("12345679"), headers=auth, params={"country": "cz"}), 404, "NOT_FOUND")
    assert_error(
        client.get(url.format("1234"), headers=auth, params={"country": "cz"}), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.get(url.format(CSA), headers=auth, params={"country": "cz", "iban": "x"}),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(client.get(url.format("ž" * 41), headers=auth), 422, "VALIDATION_ERROR")
    load_companies(engine, CompanyRecord(country="SK", national_id=CSA, name="Namesake SK"))
    assert_error(client.get(url.format(CSA), headers=auth), 409, "AMBIGUOUS_IDENTIFIER")
