"""render.postman.to_postman on small hand-made OpenAPI documents (the shapes the app does not have yet)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from regintel.render.postman import LATER, RUNNABLE, UNAVAILABLE, to_postman

SCHEMA = json.loads(
    (Path(__file__).parent / "fixtures" / "schemas" / "postman-collection-v2.1.0.json").read_text(
        encoding="utf-8"
    )
)

DOC = {
    "openapi": "3.1.0",
    "info": {"title": "T", "version": "2.0.0", "description": "d"},
    "servers": [{"url": "https://api.example.org"}],
    "tags": [{"name": "Companies", "description": "c"}, {"name": "Unused"}],
    "paths": {
        "/v1/check/{ico}.json": {
            "get": {
                "tags": ["Companies"],
                "summary": "Check",
                "parameters": [
                    {
                        "name": "ico",
                        "in": "path",
                        "required": True,
                        "description": "IČO",
                        "schema": {"type": "string"},
                    }
                ],
            }
        },
        "/v1/companies/{country}/{id}": {
            "get": {
                "tags": ["Companies"],
                "summary": "By id",
                "security": [{"bearerAuth": []}],
                "parameters": [
                    {
                        "name": "country",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "example": "sk"},
                    },
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "full", "in": "query", "schema": {"type": "boolean", "default": False}},
                    {
                        "name": "lang",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "default": "en"},
                    },
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                ],
            }
        },
        "/v1/jobs": {
            "post": {
                "summary": "Create job",
                "security": [{"bearerAuth": []}, {"apiKeyQuery": []}],
                "requestBody": {
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Job"}}}
                },
            }
        },
    },
    "components": {
        "schemas": {
            "Job": {
                "type": "object",
                "properties": {
                    "kind": {"enum": ["enrich", "report"]},
                    "ids": {"type": "array", "items": {"type": "string"}},
                    "limit": {"anyOf": [{"type": "null"}, {"type": "integer"}]},
                    "note": {"type": "string", "example": "hi"},
                },
            },
        }
    },
}


def test_valid_and_structured():
    collection = to_postman(DOC)
    jsonschema.Draft7Validator(SCHEMA).validate(collection)
    assert [f["name"] for f in collection["item"]] == ["Companies", "Other"]
    assert collection["info"]["name"] == "T 2.0.0"
    assert collection["info"]["_postman_id"] == to_postman(DOC)["info"]["_postman_id"]
    variables = {v["key"]: v["value"] for v in collection["variable"]}
    assert variables == {"baseUrl": "https://api.example.org", "apiKey": "", "ico": ""}


def test_placeholders():
    check, by_id = (i["request"] for i in to_postman(DOC)["item"][0]["item"])
    assert check["url"]["path"] == ["v1", "check", "{{ico}}.json"]
    assert check["url"]["raw"] == "{{baseUrl}}/v1/check/{{ico}}.json"
    assert "variable" not in check["url"]
    assert check["auth"] == {"type": "noauth"}
    assert by_id["url"]["path"] == ["v1", "companies", ":country", ":id"]
    assert by_id["url"]["variable"] == [
        {"key": "country", "value": "sk", "description": ""},
        {"key": "id", "value": "", "description": ""},
    ]
    assert by_id["url"]["query"] == [
        {"key": "full", "value": "false", "description": "", "disabled": True},
        {"key": "lang", "value": "en", "description": "", "disabled": False},
    ]
    assert by_id["url"]["raw"] == "{{baseUrl}}/v1/companies/:country/:id?lang=en"
    assert by_id["header"] == [{"key": "X-Trace", "value": "", "description": ""}]
    assert "auth" not in by_id


def test_json_body_skeleton_from_schema():
    create = to_postman(DOC)["item"][1]["item"][0]["request"]
    assert create["body"]["mode"] == "raw"
    assert json.loads(create["body"]["raw"]) == {"kind": "enrich", "ids": [""], "limit": 0, "note": "hi"}
    assert {"key": "Content-Type", "value": "application/json"} in create["header"]


def test_an_operation_the_server_cannot_answer_is_filed_apart():
    why = "/check: no register of checks is imported"
    collection = to_postman(
        DOC, {"ico": "31322832", "country": "sk", "id": "1"}, {"/v1/check/{ico}.json": why}
    )
    jsonschema.Draft7Validator(SCHEMA).validate(collection)
    tops = {f["name"]: f for f in collection["item"]}
    assert list(tops) == [RUNNABLE, LATER, UNAVAILABLE]
    (companies,) = tops[UNAVAILABLE]["item"]
    (check,) = companies["item"]
    assert check["request"]["description"] == f"501 on this server: {why}"
    runnable = [i["name"] for f in tops[RUNNABLE]["item"] for i in f["item"]]
    assert runnable == ["By id"]


def test_without_unavailable_operations_there_is_no_such_folder():
    collection = to_postman(DOC, {"ico": "31322832", "country": "sk", "id": "1"})
    assert [f["name"] for f in collection["item"]] == [RUNNABLE, LATER]
