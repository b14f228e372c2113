"""The MCP tools over the areas (issue 22), through the SDK client on a real uvicorn server: each answers
exactly what its REST route answers for the same company, with strict arguments and the REST error codes."""

from __future__ import annotations

from regintel.areas.mcp.area_tools import AREA_TOOLS
from tests.mcp_area.test_mcp_http import SLOVNAFT, calls, error_of, rest
from tests.ownership.world import TARGET, load_world
from tests.screening.support import load_lists

AREA = {"credit_score", "nis2_scope", "company_relations", "ultimate_owner", "sanctions_screening"}


def test_area_tools_are_listed_with_strict_schemas():
    assert {t.name for t in AREA_TOOLS} == AREA
    for tool in AREA_TOOLS:
        schema = tool.params.model_json_schema()
        assert schema["additionalProperties"] is False, tool.name
        assert tool.description.startswith("GET /companies/{ico}/"), tool.name


def test_score_and_nis2_tools_answer_what_rest_answers(server, api_key, data):
    credit, nis2 = calls(
        server,
        api_key,
        ("credit_score", {"national_id": SLOVNAFT, "country": "sk"}),
        ("nis2_scope", {"national_id": SLOVNAFT, "country": "SK"}),
    )
    base = f"/api/v1/companies/{SLOVNAFT}"
    assert not credit.is_error and credit.structured_content == rest(server, api_key, base + "/credit-score")
    assert credit.content[0].text.startswith(f"Credit grade {credit.structured_content['grade']}, score ")
    assert nis2.structured_content == rest(server, api_key, base + "/nis2")
    assert nis2.content[0].text.startswith("NIS2: ")


def test_ownership_tools_answer_what_rest_answers(server, api_key, engine):
    load_world(engine)
    relations, relations_kyc, owner, owner_kyc = calls(
        server,
        api_key,
        ("company_relations", {"national_id": TARGET, "country": "sk"}),
        ("company_relations", {"national_id": TARGET, "country": "sk", "purpose": "kyc"}),
        ("ultimate_owner", {"national_id": TARGET, "country": "sk", "max_depth": 5}),
        ("ultimate_owner", {"national_id": TARGET, "country": "sk", "purpose": "kyc"}),
    )
    base = f"/api/v1/companies/{TARGET}"
    assert relations.structured_content == rest(server, api_key, base + "/relations", country="sk")
    assert relations_kyc.structured_content == rest(
        server, api_key, base + "/relations", country="sk", purpose="kyc"
    )
    assert (
        relations.structured_content != relations_kyc.structured_content
    )  # personal details only with purpose
    assert "Jana Nováková (shareholder, 40%)" in relations.content[0].text
    assert owner.structured_content == rest(
        server, api_key, base + "/ultimate-owner", country="sk", max_depth=5
    )
    assert owner_kyc.structured_content == rest(
        server, api_key, base + "/ultimate-owner", country="sk", purpose="kyc"
    )
    assert "Jana Nováková" in owner.content[0].text


def test_sanctions_tool_needs_lists_then_answers_what_rest_answers(server, api_key, engine, data):
    (before,) = calls(server, api_key, ("sanctions_screening", {"national_id": SLOVNAFT}))
    assert error_of(before)["code"] == "NOT_IMPLEMENTED"  # never a clean answer without a list
    load_lists(engine)
    screened, low = calls(
        server,
        api_key,
        ("sanctions_screening", {"national_id": SLOVNAFT, "country": "sk"}),
        ("sanctions_screening", {"national_id": SLOVNAFT, "threshold": 0.5}),
    )
    assert screened.structured_content == rest(server, api_key, f"/api/v1/companies/{SLOVNAFT}/sanctions")
    assert low.structured_content == rest(
        server, api_key, f"/api/v1/companies/{SLOVNAFT}/sanctions", threshold=0.5
    )
    assert {v["id"] for v in screened.structured_content["lists"]} >= {"sanctions_eu_fsf", "sanctions_uk"}


BAD_CALLS = [
    ("credit_score", {"national_id": "00000000"}, "NOT_FOUND"),
    ("credit_score", {"national_id": SLOVNAFT, "purpose": "kyc"}, "VALIDATION_ERROR"),  # not an argument here
    ("credit_score", {}, "VALIDATION_ERROR"),
    ("nis2_scope", {"national_id": "12345678", "country": "sk"}, "VALIDATION_ERROR"),  # check digit
    ("nis2_scope", {"national_id": SLOVNAFT, "country": "Slovakia"}, "VALIDATION_ERROR"),
    ("company_relations", {"national_id": SLOVNAFT, "purpose": "curiosity"}, "VALIDATION_ERROR"),
    ("ultimate_owner", {"national_id": SLOVNAFT, "max_depth": 0}, "VALIDATION_ERROR"),
    ("ultimate_owner", {"national_id": SLOVNAFT, "max_paths": 10**9}, "VALIDATION_ERROR"),
    ("sanctions_screening", {"national_id": SLOVNAFT, "threshold": 1.5}, "VALIDATION_ERROR"),
    (
        "sanctions_screening",
        {"national_id": SLOVNAFT, "lists": ["eu"]},
        "VALIDATION_ERROR",
    ),  # unknown argument
    ("company_relations", {"national_id": "Ω" * 41}, "VALIDATION_ERROR"),
]


def test_bad_area_calls_are_tool_errors_with_rest_codes(server, api_key, data):
    results = calls(server, api_key, *[(name, args) for name, args, _ in BAD_CALLS])
    assert [error_of(r)["code"] for r in results] == [code for _, _, code in BAD_CALLS]
