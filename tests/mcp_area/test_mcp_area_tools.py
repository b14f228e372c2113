"""The MCP tools over the areas (issue 22), through the SDK client on a real uvicorn server: each answers
exactly what its REST route answers for the same company, with strict arguments and the REST error codes."""

from __future__ import annotations

import pytest

from regintel.areas.mcp.area_tools import AREA_TOOLS
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.mcp_area.test_mcp_http import SLOVNAFT, calls, error_of, rest
from tests.ownership.world import TARGET, load_world
from tests.public_money.common import import_registr, import_ted
from tests.screening.support import load_lists

AREA = {"credit_score", "risk_score", "compliance_summary", "nis2_scope", "company_relations", "ultimate_owner",
        "sanctions_screening", "public_contracts", "ted_search"}
PB = "47547715"  # a supplier of the Czech register of contracts sample (tests/public_money)


def test_area_tools_are_listed_with_strict_schemas():
    assert {t.name for t in AREA_TOOLS} == AREA
    for tool in AREA_TOOLS:
        schema = tool.params.model_json_schema()
        assert schema["additionalProperties"] is False, tool.name
        assert tool.description.startswith(("GET /companies/{ico}/", "GET /ted/search")), tool.name


def test_score_compliance_and_nis2_tools_answer_what_rest_answers(server, api_key, data):
    credit, risk, compliance, nis2 = calls(
        server, api_key, ("credit_score", {"national_id": SLOVNAFT, "country": "sk"}),
        ("risk_score", {"national_id": SLOVNAFT}), ("compliance_summary", {"national_id": SLOVNAFT}),
        ("nis2_scope", {"national_id": SLOVNAFT, "country": "SK"}))
    base = f"/api/v1/companies/{SLOVNAFT}"
    assert not credit.is_error and credit.structured_content == rest(server, api_key, base + "/credit-score")
    assert credit.content[0].text.startswith(f"Credit grade {credit.structured_content['grade']}, score ")
    assert risk.structured_content == rest(server, api_key, base + "/risk")
    assert risk.content[0].text.startswith(f"Risk {risk.structured_content['level']}, score ")
    # the compliance summary carries today's date; the REST call is made the same day
    assert compliance.structured_content == rest(server, api_key, base + "/compliance")
    assert "- sanctions: unknown (no sanctions or debarment list is imported" in compliance.content[0].text
    assert nis2.structured_content == rest(server, api_key, base + "/nis2")
    assert nis2.content[0].text.startswith("NIS2: ")


def test_ownership_tools_answer_what_rest_answers(server, api_key, engine):
    load_world(engine)
    relations, relations_kyc, owner, owner_kyc = calls(
        server, api_key, ("company_relations", {"national_id": TARGET, "country": "sk"}),
        ("company_relations", {"national_id": TARGET, "country": "sk", "purpose": "kyc"}),
        ("ultimate_owner", {"national_id": TARGET, "country": "sk", "max_depth": 5}),
        ("ultimate_owner", {"national_id": TARGET, "country": "sk", "purpose": "kyc"}))
    base = f"/api/v1/companies/{TARGET}"
    assert relations.structured_content == rest(server, api_key, base + "/relations", country="sk")
    assert relations_kyc.structured_content == rest(server, api_key, base + "/relations", country="sk",
                                                    purpose="kyc")
    assert relations.structured_content != relations_kyc.structured_content  # personal details only with purpose
    assert "Jana Nováková (shareholder, 40%)" in relations.content[0].text
    assert owner.structured_content == rest(server, api_key, base + "/ultimate-owner", country="sk", max_depth=5)
    assert owner_kyc.structured_content == rest(server, api_key, base + "/ultimate-owner", country="sk",
                                                purpose="kyc")
    assert "Jana Nováková" in owner.content[0].text


def test_sanctions_tool_needs_lists_then_answers_what_rest_answers(server, api_key, engine, data):
    (before,) = calls(server, api_key, ("sanctions_screening", {"national_id": SLOVNAFT}))
    assert error_of(before)["code"] == "NOT_IMPLEMENTED"  # never a clean answer without a list
    load_lists(engine)
    screened, low = calls(server, api_key, ("sanctions_screening", {"national_id": SLOVNAFT, "country": "sk"}),
                          ("sanctions_screening", {"national_id": SLOVNAFT, "threshold": 0.5}))
    assert screened.structured_content == rest(server, api_key, f"/api/v1/companies/{SLOVNAFT}/sanctions")
    assert low.structured_content == rest(server, api_key, f"/api/v1/companies/{SLOVNAFT}/sanctions", threshold=0.5)
    assert {v["id"] for v in screened.structured_content["lists"]} >= {"sanctions_eu_fsf", "sanctions_uk"}


@pytest.fixture
def contracted(engine, settings):
    load_companies(engine, CompanyRecord(country="CZ", national_id=PB, name="P+B elektromontáže, spol. s r.o."),
                   CompanyRecord(country="FR", national_id="326912557", name="ESPACES VERTS LEMIRE"))
    import_registr(engine, settings.data_dir)
    import_ted(engine, settings.data_dir)


def test_public_money_tools_answer_what_rest_answers(server, api_key, contracted):
    contracts, page2, ted, ted_fr = calls(
        server, api_key, ("public_contracts", {"national_id": PB, "country": "cz"}),
        ("public_contracts", {"national_id": PB, "country": "cz", "page": 2, "per_page": 2}),
        ("ted_search", {}), ("ted_search", {"country": "fr", "per_page": 5}))
    assert contracts.structured_content["items"] == rest(server, api_key, f"/api/v1/companies/{PB}/contracts",
                                                         country="cz")
    assert contracts.structured_content["total"] == 4
    assert contracts.content[0].text.startswith("4 public contracts (of 4):")
    assert page2.structured_content["items"] == rest(server, api_key, f"/api/v1/companies/{PB}/contracts",
                                                     country="cz", page=2, per_page=2)
    assert ted.structured_content["items"] == rest(server, api_key, "/api/v1/ted/search")
    assert ted.structured_content["total"] >= 1
    assert ted_fr.structured_content["items"] == rest(server, api_key, "/api/v1/ted/search", country="fr",
                                                      per_page=5)


BAD_CALLS = [
    ("credit_score", {"national_id": "00000000"}, "NOT_FOUND"),
    ("credit_score", {"national_id": SLOVNAFT, "purpose": "kyc"}, "VALIDATION_ERROR"),  # not an argument here
    ("risk_score", {}, "VALIDATION_ERROR"),
    ("compliance_summary", {"national_id": "12345678", "country": "sk"}, "VALIDATION_ERROR"),  # check digit
    ("nis2_scope", {"national_id": SLOVNAFT, "country": "Slovakia"}, "VALIDATION_ERROR"),
    ("company_relations", {"national_id": SLOVNAFT, "purpose": "curiosity"}, "VALIDATION_ERROR"),
    ("ultimate_owner", {"national_id": SLOVNAFT, "max_depth": 0}, "VALIDATION_ERROR"),
    ("ultimate_owner", {"national_id": SLOVNAFT, "max_paths": 10**9}, "VALIDATION_ERROR"),
    ("sanctions_screening", {"national_id": SLOVNAFT, "threshold": 1.5}, "VALIDATION_ERROR"),
    ("public_contracts", {"national_id": SLOVNAFT, "per_page": 101}, "VALIDATION_ERROR"),
    ("ted_search", {"cpv": "abc"}, "VALIDATION_ERROR"),
    ("ted_search", {"date_from": "2025-02-01", "date_to": "2025-01-01"}, "VALIDATION_ERROR"),
    ("ted_search", {"currency": "euro"}, "VALIDATION_ERROR"),
    ("ted_search", {"buyer": ""}, "VALIDATION_ERROR"),
    ("ted_search", {"q": "roads"}, "VALIDATION_ERROR"),  # unknown argument
    ("public_contracts", {"national_id": "Ω" * 41}, "VALIDATION_ERROR"),
]


def test_bad_area_calls_are_tool_errors_with_rest_codes(server, api_key, data):
    results = calls(server, api_key, *[(name, args) for name, args, _ in BAD_CALLS])
    assert [error_of(r)["code"] for r in results] == [code for _, _, code in BAD_CALLS]
