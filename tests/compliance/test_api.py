"""The compliance area through HTTP: summary, due diligence, bulk, full, risk, obligations, VAT, 501s."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from regintel.areas.screening.hits import refresh_company_hits
from regintel.domain.types import CompanyKey, CompanyRecord, FinancialRecord, PersonRecord, RoleRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.public_money.common import import_adis
from tests.screening.support import load_lists

SK = "31322832"  # healthy, statement 2023, owned by the Czech parent
BANKRUPT = "35757442"
CUBA = "36631124"
CSA = "45795908"  # reliable Czech VAT payer
JL = "04677285"  # unreliable Czech VAT payer
NOT_PAYER = "07102127"


def fin(year: int, revenue: int, profit: int) -> FinancialRecord:
    return FinancialRecord(
        year=year,
        currency="EUR",
        revenue=Decimal(revenue),
        profit=Decimal(profit),
        total_assets=Decimal(revenue),
        equity=Decimal(revenue) // 2,
        liabilities=Decimal(revenue) // 2,
        employees=120,
    )


@pytest.fixture
def data(engine, settings):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=SK,
            name="SLOVNAFT, a.s.",
            status="active",
            legal_form="121",
            founded_on=date(1992, 4, 24),
            vat_id="SK2020372640",
            employees=120,
            financials=[fin(2022, 5_000_000, 400_000), fin(date.today().year - 1, 6_000_000, 500_000)],
            roles=[
                RoleRecord(
                    role="shareholder",
                    holder_name="Ján Novák",
                    share_pct=40.0,
                    person=PersonRecord(name="Ján Novák"),
                ),
                RoleRecord(
                    role="shareholder",
                    holder_name="Stavby Žilina s.r.o.",
                    share_pct=60.0,
                    holder_company=CompanyKey("SK", BANKRUPT),
                ),
            ],
        ),
        CompanyRecord(
            country="SK",
            national_id=BANKRUPT,
            name="Stavby Žilina s.r.o.",
            founded_on=date(2005, 3, 1),
            in_bankruptcy=True,
            financials=[fin(2019, 800_000, -50_000)],
        ),
        CompanyRecord(
            country="SK",
            national_id=CUBA,
            name="BANCO NACIONAL DE CUBA, a.s.",
            roles=[RoleRecord(role="shareholder", holder_name="BNK (UK) Ltd")],
        ),
        CompanyRecord(
            country="CZ", national_id=CSA, name="České aerolinie a.s.", founded_on=date(1992, 1, 1)
        ),
        CompanyRecord(
            country="CZ", national_id=JL, name="J&L Industries s.r.o.", founded_on=date(2015, 1, 1)
        ),
        CompanyRecord(country="CZ", national_id=NOT_PAYER, name="Neplátce s.r.o."),
    )
    import_adis(engine, settings.data_dir)


def get(client, auth, path, ico, **params):
    return client.get(f"/api/v1/companies/{ico}/{path}", headers=auth, params=params)


def test_summary_items_have_source_date_or_reason(client, auth, data):
    s = assert_envelope(get(client, auth, "compliance", SK))
    assert (s["country"], s["nationalId"], s["name"]) == ("SK", SK, "SLOVNAFT, a.s.")
    assert s["identity"]["value"]["vatId"] == "SK2020372640" and s["identity"]["source"] == "test_register"
    assert (s["status"]["status"], s["insolvency"]["status"]) == ("active", "none")
    assert s["beneficialOwnership"]["status"] == "known"
    assert s["creditGrade"]["status"] == "graded" and s["creditGrade"]["value"] in (
        "A+",
        "A",
        "B",
        "C",
        "D",
        "E",
        "F",
    )
    assert s["sanctions"] == {
        "status": "unknown",
        "value": None,
        "source": None,
        "date": None,
        "reason": "no sanctions or debarment list is imported (`regintel screening import`)",
    }
    assert s["taxReliability"]["status"] == "unknown" and "SK" in s["taxReliability"]["reason"]
    for key in (
        "identity",
        "status",
        "insolvency",
        "sanctions",
        "beneficialOwnership",
        "taxReliability",
        "nis2",
        "creditGrade",
    ):
        it = s[key]
        assert it["reason"] if it["status"] == "unknown" else it["source"] and it["date"], key


def test_insolvent_and_unknown_owner(client, auth, data):
    s = assert_envelope(get(client, auth, "compliance", BANKRUPT))
    assert s["insolvency"] == {
        "status": "proceedings",
        "value": {"bankruptcy": True, "restructuring": False, "liquidation": False},
        "source": "test_register",
        "date": s["insolvency"]["date"],
        "reason": None,
    }
    bo = s["beneficialOwnership"]
    assert bo["status"] == "unknown" and bo["value"]["reasonCodes"] == ["NO_OWNER_DATA"] and bo["reason"]


def test_tax_reliability_from_the_czech_register(client, auth, data):
    csa = assert_envelope(get(client, auth, "compliance", CSA, country="cz"))["taxReliability"]
    assert (csa["status"], csa["source"], csa["date"], csa["value"]["vatId"]) == (
        "reliable",
        "cz_adis_crpdph",
        "2026-05-14",
        "CZ45795908",
    )
    jl = assert_envelope(get(client, auth, "compliance", JL, country="CZ"))["taxReliability"]
    assert (jl["status"], jl["value"]["unreliableSince"]) == ("unreliable", "2026-05-12")
    no = assert_envelope(get(client, auth, "compliance", NOT_PAYER, country="cz"))["taxReliability"]
    assert no["status"] == "unknown" and no["reason"] == "not a VAT payer in the register"


def test_sanctions_confirmed_and_name_only(client, auth, engine, data):
    load_lists(engine)
    refresh_company_hits(engine)
    cuba = assert_envelope(get(client, auth, "compliance", CUBA))["sanctions"]
    assert (
        cuba["status"] == "name_match" and cuba["value"]["nameOnly"] >= 1 and cuba["value"]["confirmed"] == 0
    )
    assert cuba["source"] and cuba["date"]
    clean = assert_envelope(get(client, auth, "compliance", SK))["sanctions"]
    assert (clean["status"], clean["value"]["hits"]) == ("clear", 0)
    dd = assert_envelope(get(client, auth, "compliance-dd", CUBA))
    check = next(c for c in dd["checks"] if c["id"] == "sanctions")
    assert check["result"] == "unknown" and check["redFlags"][0]["code"] == "SANCTIONS_NAME_MATCH"


def test_due_diligence(client, auth, data):
    dd = assert_envelope(get(client, auth, "compliance-dd", BANKRUPT))
    assert dd["overall"] == "failed" and dd["rulesVersion"] == "compliance-dd-1"
    checks = {c["id"]: c for c in dd["checks"]}
    assert checks["no_insolvency"]["result"] == "failed"
    assert checks["no_insolvency"]["redFlags"] == [
        {"code": "BANKRUPTCY", "severity": "critical", "message": "in bankruptcy"}
    ]
    assert checks["annual_statement"]["result"] == "failed"  # latest statement 2019
    assert checks["tax_reliability"]["result"] == "unknown" and checks["sanctions"]["result"] == "unknown"
    assert dd["redFlags"][0]["severity"] == "critical"
    ok = assert_envelope(get(client, auth, "compliance-dd", SK))
    assert {c["id"]: c["result"] for c in ok["checks"]} | {"sanctions": "unknown"} == {
        "registered_active": "passed",
        "no_insolvency": "passed",
        "sanctions": "unknown",
        "beneficial_owner": "passed",
        "tax_reliability": "unknown",
        "credit_grade": ok["checks"][5]["result"],
        "annual_statement": "passed",
    }
    assert ok["overall"] in ("review", "failed")


def test_bulk(client, auth, data):
    body = {
        "companies": [
            {"country": "sk", "id": SK},
            {"country": "CZ", "ico": CSA},
            {"country": "sk", "id": "12345679"},
            {"country": "sk", "id": "31322833"},
            {"country": "cz", "id": JL},
        ]
    }
    resp = client.post("/api/v1/companies/bulk-compliance", json=body, headers=auth)
    out = assert_envelope(resp)
    assert (out["found"], out["errors"]) == (3, 2)
    assert [(i["index"], i["country"], i["nationalId"], i["ok"]) for i in out["items"]] == [
        (0, "SK", SK, True),
        (1, "CZ", CSA, True),
        (2, "SK", "12345679", False),
        (3, "SK", "31322833", False),
        (4, "CZ", JL, True),
    ]
    assert out["items"][2]["error"]["code"] in ("NOT_FOUND", "VALIDATION_ERROR")
    assert out["items"][3]["error"]["code"] == "VALIDATION_ERROR"
    assert out["items"][1]["summary"]["taxReliability"]["status"] == "reliable"
    # the batched NIS2 assessment gives what the single summary gives
    assert out["items"][0]["summary"] == assert_envelope(get(client, auth, "compliance", SK))


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"companies": []},
        {"companies": [{"country": "sk", "id": SK}] * 101},
        {"companies": [{"country": "sk", "id": SK, "x": 1}]},
        {"companies": [{"country": "sk"}]},
        {"companies": [{"country": "sk", "id": SK, "ico": SK}]},
        {"companies": [{"country": "sk", "id": 31322832}]},
        {"companies": [{"country": "slovakia", "id": SK}]},
        {"companies": [SK]},
        {"companies": "x" * 100_000},
        {"companies": [{"country": "sk", "id": SK}], "extra": True},
    ],
)
def test_bulk_rejects_bad_bodies(client, auth, data, body):
    assert_error(
        client.post("/api/v1/companies/bulk-compliance", json=body, headers=auth), 422, "VALIDATION_ERROR"
    )


def test_bulk_of_100_and_unicode(client, auth, data):
    body = {"companies": [{"country": "sk", "id": SK}] * 99 + [{"country": "sk", "id": "Žilina💥"}]}
    out = assert_envelope(client.post("/api/v1/companies/bulk-compliance", json=body, headers=auth))
    assert (out["found"], out["errors"], out["items"][99]["error"]["code"]) == (99, 1, "VALIDATION_ERROR")
    assert_error(client.post("/api/v1/companies/bulk-compliance", json=body), 401, "UNAUTHORIZED")


def test_full_sections(client, auth, data):
    out = assert_envelope(get(client, auth, "full", SK))
    sections = out["sections"]
    assert len(sections) == 14 and out["durationMs"] >= 0
    for name in (
        "company",
        "financialHistory",
        "creditScore",
        "risk",
        "relations",
        "ultimateOwner",
        "nis2",
        "timeline",
        "contracts",
        "compliance",
        "obligations",
        "screeningHits",
    ):
        assert sections[name]["present"] is True and sections[name]["reason"] is None, name
    assert sections["company"]["data"]["nationalId"] == SK
    assert sections["sanctions"] == {
        "present": False,
        "durationMs": sections["sanctions"]["durationMs"],
        "data": None,
        "reason": "no sanctions or debarment list is imported (`regintel screening import`)",
    }
    assert sections["bankAccounts"]["present"] is False and "SK" in sections["bankAccounts"]["reason"]
    cz = assert_envelope(get(client, auth, "full", CSA, country="cz"))["sections"]
    assert cz["bankAccounts"]["present"] is True and cz["financialHistory"]["present"] is False


def test_full_survives_a_failing_section(client, auth, data, monkeypatch):
    from regintel.areas.compliance import full

    def boom(conn, row):
        raise RuntimeError("broken")

    monkeypatch.setitem(full.SECTIONS, "risk", boom)
    out = assert_envelope(get(client, auth, "full", SK))["sections"]
    assert out["risk"]["present"] is False and "RuntimeError" in out["risk"]["reason"]
    assert out["nis2"]["present"] is True and out["company"]["present"] is True


def test_supplier_and_supply_chain_risk(client, auth, data):
    sr = assert_envelope(get(client, auth, "supplier-risk", BANKRUPT))
    assert sr["supplierRisk"] == "high" and sr["dueDiligence"] == "failed" and sr["risk"]["score"] > 0
    chain = assert_envelope(get(client, auth, "supply-chain-risk", SK))
    [link] = chain["links"]
    assert (link["relation"], link["nationalId"], link["insolvency"]["bankruptcy"]) == (
        "shareholder",
        BANKRUPT,
        True,
    )
    assert (
        chain["chainRisk"] == max(chain["risk"]["score"], link["risk"]["score"])
        and chain["truncated"] is False
    )
    back = assert_envelope(get(client, auth, "supply-chain-risk", BANKRUPT))
    assert [(lk["relation"], lk["nationalId"]) for lk in back["links"]] == [("holding", SK)]


def test_obligations(client, auth, data):
    late = assert_envelope(get(client, auth, "obligations", BANKRUPT))["obligations"][0]
    assert (late["status"], late["latestYear"], late["periodEnd"], late["deadline"]) == (
        "overdue",
        2019,
        "2020-12-31",
        "2021-09-30",
    )
    assert "431/2002" in late["legalBasis"]
    fresh = assert_envelope(get(client, auth, "obligations", SK))["obligations"][0]
    assert fresh["status"] == "up_to_date" and fresh["latestYear"] == date.today().year - 1
    cz = assert_envelope(get(client, auth, "obligations", CSA, country="cz"))["obligations"][0]
    assert (cz["status"], cz["latestYear"]) == ("overdue", None) and "563/1991" in cz["legalBasis"]


def test_vat_liability_check(client, auth, data):
    sk = assert_envelope(get(client, auth, "vat-liability-check", SK))
    assert (sk["vatRegistration"]["status"], sk["vatRegistration"]["value"]) == ("registered", "SK2020372640")
    assert sk["unreliablePayer"]["status"] == "unknown" and sk["bankAccounts"]["status"] == "unknown"
    assert sk["hasTaxDebt"]["status"] == "unknown" and sk["hasTaxDebt"]["reason"]
    jl = assert_envelope(get(client, auth, "vat-liability-check", JL, country="cz"))
    assert (jl["vatRegistration"]["value"], jl["unreliablePayer"]["status"]) == ("CZ04677285", "unreliable")
    assert jl["bankAccounts"]["status"] == "published" and len(jl["bankAccounts"]["value"]) == 3
    no = assert_envelope(get(client, auth, "vat-liability-check", NOT_PAYER, country="cz"))
    assert no["vatRegistration"]["status"] == "unknown" and no["bankAccounts"]["status"] == "none"


@pytest.mark.parametrize(
    "section, register",
    [("debtors", "debtor"), ("executions", "executions"), ("annual-reports", "filed documents")],
)
def test_sections_without_a_register_are_501(client, auth, data, section, register):
    err = assert_error(get(client, auth, section, SK), 501, "NOT_IMPLEMENTED")
    assert register in err["message"]
    assert_error(get(client, auth, section, "35763469"), 404, "NOT_FOUND")


PATHS = [
    "compliance",
    "compliance-dd",
    "full",
    "supplier-risk",
    "supply-chain-risk",
    "obligations",
    "vat-liability-check",
    "debtors",
]


@pytest.mark.parametrize("path", PATHS)
def test_edges(client, auth, engine, data, path):
    assert_error(client.get(f"/api/v1/companies/{SK}/{path}"), 401, "UNAUTHORIZED")
    assert_error(get(client, auth, path, "35763469"), 404, "NOT_FOUND")
    assert_error(get(client, auth, path, "abc!"), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, path, "Ž" * 41), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, path, SK, nope=1), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, path, SK, country="xx1"), 422, "VALIDATION_ERROR")
    load_companies(engine, CompanyRecord(country="CZ", national_id="31322832", name="Dvojník s.r.o."))
    assert_error(get(client, auth, path, SK), 409, "AMBIGUOUS_IDENTIFIER")
    assert get(client, auth, path, SK, country="sk").status_code in (200, 501)
