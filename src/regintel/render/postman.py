"""OpenAPI 3.1 document → Postman Collection v2.1 (pure: dict in, dict out).

Layout: one folder per tag; bearer auth with `{{apiKey}}` at collection level, inherited by keyed
requests, and `noauth` on public ones; `{{baseUrl}}` as host. A path segment that is a whole
placeholder becomes a Postman path variable (`:ico`); a placeholder inside a segment
(`{ico}.json`) cannot be one in Postman, so it becomes a collection variable (`{{ico}}.json`).
Format: https://schema.getpostman.com/json/collection/v2.1.0/collection.json

With `samples` (parameter name → a value the served database holds), path variables and required query
parameters are filled, and the collection has two top-level folders: RUNNABLE holds the requests that
run on their own (GET, every required value known, no stream, no browser session), so that
`newman run --folder RUNNABLE` is green on a demo install; LATER holds the others (writes, requests
that need an identifier an earlier answer gives, the Server-Sent Events stream that never ends, the
cookie-signed account pages), each still in its tag's folder. With `unavailable` (path → why the
server answers it 501 `NOT_IMPLEMENTED`, a register it has not imported), those operations go to a third
folder, UNAVAILABLE, with the reason in their description: a request that can only answer 501 is not a
request to run.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping
from typing import Any

SCHEMA_URL = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
_METHODS = ("get", "post", "put", "patch", "delete")
_PLACEHOLDER = re.compile(r"\{([^}]+)\}")
_WHOLE = re.compile(r"^\{([^}]+)\}$")
RUNNABLE = "Runnable on this server"
LATER = "Needing earlier answers, a session or a stream"
UNAVAILABLE = "Not available on this server"
_SESSION_PATHS = ("/account", "/oauth", "/mcp")


def to_postman(
    doc: dict[str, Any], samples: dict[str, str] | None = None, unavailable: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The collection for an OpenAPI document (its first server is the `baseUrl` default)."""
    info = doc.get("info", {})
    name = info.get("title", "API")
    version = info.get("version", "")
    values = samples or {}
    missing = unavailable or {}
    folders: dict[str, dict[str, list[dict[str, Any]]]] = {
        kind: {t["name"]: [] for t in doc.get("tags", [])} for kind in (RUNNABLE, LATER, UNAVAILABLE)
    }
    inline_vars: dict[str, str] = {}
    for path, item in doc.get("paths", {}).items():
        for method in _METHODS:
            if method in item:
                op = item[method]
                tag = (op.get("tags") or ["Other"])[0]
                request = _request(doc, path, method, op, inline_vars, values)
                if path in missing:
                    kind = UNAVAILABLE
                    request["request"]["description"] = f"501 on this server: {missing[path]}"
                elif values and _runs_alone(doc, path, method, op, values):
                    kind = RUNNABLE
                else:
                    kind = LATER
                folders[kind].setdefault(tag, []).append(request)
    descriptions = {t["name"]: t.get("description", "") for t in doc.get("tags", [])}
    servers = doc.get("servers") or [{"url": "http://127.0.0.1:8000"}]
    variables = [
        _variable("baseUrl", servers[0]["url"], "Base address of the service"),
        _variable("apiKey", "", "Your API key (ri_…), sent as a bearer token"),
    ]
    variables += [_variable(k, values.get(k, ""), v) for k, v in sorted(inline_vars.items())]

    def tag_folders(kind: str) -> list[dict[str, Any]]:
        return [
            {"name": tag, "description": descriptions.get(tag, ""), "item": items}
            for tag, items in folders[kind].items()
            if items
        ]

    items = tag_folders(LATER)
    if values:
        items = [
            {
                "name": RUNNABLE,
                "description": "Requests that run on their own with the values of this "
                "server's data: `newman run --folder '" + RUNNABLE + "'`.",
                "item": tag_folders(RUNNABLE),
            },
            {
                "name": LATER,
                "description": "Writes, requests taking an identifier an earlier answer "
                "gives (a subscription, a job), the Server-Sent Events stream (it never ends) and the "
                "account pages signed in by a browser session.",
                "item": items,
            },
        ]
    if missing:
        items.append(
            {
                "name": UNAVAILABLE,
                "description": "Operations that answer 501 NOT_IMPLEMENTED on this server because the "
                "register they read is not imported here (each request's description names it).",
                "item": tag_folders(UNAVAILABLE),
            }
        )
    return {
        "info": {
            # Stable across builds of the same API, so re-importing updates instead of duplicating.
            "_postman_id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{name}/{version}")),
            "name": f"{name} {version}".strip(),
            "description": info.get("description", ""),
            "version": version,
            "schema": SCHEMA_URL,
        },
        "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{apiKey}}", "type": "string"}]},
        "variable": variables,
        "item": items,
    }


def _runs_alone(
    doc: dict[str, Any], path: str, method: str, op: dict[str, Any], values: dict[str, str]
) -> bool:
    """A GET outside the session pages, not a stream, whose every path and required value is known."""
    if method != "get" or path.startswith(_SESSION_PATHS):
        return False
    if "text/event-stream" in op.get("responses", {}).get("200", {}).get("content", {}):
        return False
    params = [_resolve(doc, p) for p in op.get("parameters", [])]
    return all(_sample(p, values, path) for p in params if p.get("in") == "path" or p.get("required"))


def _variable(key: str, value: str, description: str) -> dict[str, Any]:
    return {"key": key, "value": value, "type": "string", "description": description}


def _request(
    doc: dict[str, Any],
    path: str,
    method: str,
    op: dict[str, Any],
    inline_vars: dict[str, str],
    values: dict[str, str],
) -> dict[str, Any]:
    params = [_resolve(doc, p) for p in op.get("parameters", [])]
    by_name = {p["name"]: p for p in params if p.get("in") == "path"}
    segments, path_vars = _segments(path, by_name, inline_vars, values, path)
    query = [
        {
            "key": p["name"],
            "value": _sample(p, values, path),
            "description": p.get("description", ""),
            "disabled": not (p.get("required", False) or f"{path} {p['name']}" in values),
        }
        for p in params
        if p.get("in") == "query"
    ]
    url: dict[str, Any] = {"raw": _raw(segments, query), "host": ["{{baseUrl}}"], "path": segments}
    if query:
        url["query"] = query
    if path_vars:
        url["variable"] = path_vars
    request: dict[str, Any] = {
        "method": method.upper(),
        "header": [
            {"key": p["name"], "value": _sample(p, values, path), "description": p.get("description", "")}
            for p in params
            if p.get("in") == "header"
        ],
        "url": url,
        "description": op.get("description") or op.get("summary", ""),
    }
    if not any(op.get("security", [])):
        request["auth"] = {"type": "noauth"}
    body = _body(doc, op, values)
    if body is not None:
        request["body"] = body
        request["header"].append({"key": "Content-Type", "value": "application/json"})
    return {"name": op.get("summary") or f"{method.upper()} {path}", "request": request, "response": []}


def _segments(
    path: str,
    by_name: dict[str, dict[str, Any]],
    inline_vars: dict[str, str],
    values: dict[str, str],
    template: str,
) -> tuple[list[str], list[dict[str, Any]]]:
    segments, path_vars = [], []
    for segment in path.strip("/").split("/"):
        whole = _WHOLE.match(segment)
        if whole:
            param = by_name.get(whole.group(1), {})
            segments.append(f":{whole.group(1)}")
            path_vars.append(
                {
                    "key": whole.group(1),
                    "value": _sample(param, values, template),
                    "description": param.get("description", ""),
                }
            )
            continue
        for name in _PLACEHOLDER.findall(segment):
            inline_vars.setdefault(name, by_name.get(name, {}).get("description") or f"Path value `{name}`")
        segments.append(_PLACEHOLDER.sub(r"{{\1}}", segment))
    return segments, path_vars


def _raw(segments: list[str], query: list[dict[str, Any]]) -> str:
    raw = "{{baseUrl}}/" + "/".join(segments)
    sent = [f"{q['key']}={q['value']}" for q in query if not q["disabled"]]
    return raw + ("?" + "&".join(sent) if sent else "")


def _sample(param: dict[str, Any], values: dict[str, str], path: str) -> str:
    """A value to prefill: the server's own value for this operation's parameter, else for a path or
    required parameter the server's value of that name, else the parameter's example, else its default,
    else the first of its values, else empty."""
    schema = param.get("schema", {})
    name = param.get("name", "")
    if f"{path} {name}" in values:
        return values[f"{path} {name}"]
    if (param.get("in") == "path" or param.get("required")) and name in values:
        return values[name]
    for value in (param.get("example"), schema.get("example"), schema.get("default")):
        if value is not None:
            return str(value).lower() if isinstance(value, bool) else str(value)
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return str(examples[0])
    choices = [c for part in [schema, *schema.get("anyOf", [])] for c in part.get("enum", [])]
    return str(choices[0]) if choices else ""


def _body(doc: dict[str, Any], op: dict[str, Any], values: dict[str, str]) -> dict[str, Any] | None:
    content = op.get("requestBody", {}).get("content", {})
    media = content.get("application/json")
    if media is None:
        return None
    example = media.get("example")
    if example is None:
        example = _example(doc, media.get("schema", {}), depth=0, values=values)
    return {
        "mode": "raw",
        "raw": json.dumps(example, indent=2, ensure_ascii=False),
        "options": {"raw": {"language": "json"}},
    }


def _example(
    doc: dict[str, Any], schema: dict[str, Any], depth: int, values: dict[str, str], name: str = ""
) -> Any:
    """A skeleton body from a JSON schema: examples and defaults first, else a typed placeholder."""
    schema = _resolve(doc, schema)
    for key in ("example", "default"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = [s for s in schema.get(key, []) if _resolve(doc, s).get("type") != "null"]
        if options:
            return _example(doc, options[0], depth, values, name)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        if depth > 4:
            return {}
        return {
            prop: _example(doc, sub, depth + 1, values, prop)
            for prop, sub in schema.get("properties", {}).items()
        }
    if kind == "array":
        return [_example(doc, schema.get("items", {}), depth + 1, values, name)] if depth <= 4 else []
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    if kind == "string" and name in values:
        return values[name]
    return {"integer": 0, "number": 0, "boolean": False}.get(str(kind), "")


def _resolve(doc: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local `$ref` (`#/components/...`); other nodes are returned as they are."""
    seen = 0
    while isinstance(node, dict) and "$ref" in node and seen < 20:
        target: Any = doc
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        node, seen = target, seen + 1
    return node if isinstance(node, dict) else {}
