"""The app against the specification's endpoint list (shared/spec/endpoints.tsv).

Missing operations are reported, not failed: they are implemented over time, and
shared/tools/spec_coverage.py counts them. What the app does implement must carry the auth the
specification gives it, both in the OpenAPI document and in behaviour.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from starlette.routing import compile_path

from regintel.api.openapi import iter_api_routes, iter_operations
from tests.helpers import assert_error

SHARED = Path(__file__).resolve().parents[2] / "shared"
SPEC_TSV = SHARED / "spec" / "endpoints.tsv"
COVERAGE_TOOL = SHARED / "tools" / "spec_coverage.py"
KEY_SCHEMES = {"bearerAuth", "apiKeyQuery"}

pytestmark = pytest.mark.skipif(
    not SPEC_TSV.exists(),
    reason=f"no specification endpoint list at {SPEC_TSV} (shared/ not beside the repo)",
)


def norm(path: str) -> str:
    """Placeholders compare by position only; identical to shared/tools/spec_coverage.py's norm."""
    path = re.sub(r"\{[^}]+\}", "{}", path)
    return path.rstrip("/") or "/"


def _spec_rows() -> list[dict[str, str]]:
    lines = SPEC_TSV.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:] if line.strip()]


def _implemented(client) -> dict[tuple[str, str], tuple[str, dict]]:
    doc = client.get("/api/v1/public/openapi.json").json()
    return {(method.upper(), norm(path)): (path, op) for path, method, op in iter_operations(doc)}


def _schemes(op: dict) -> set[str]:
    return {name for requirement in op.get("security", []) for name in requirement}


def _sample_url(app, method: str, path: str) -> str | None:
    """`path` with its placeholders filled so that the route's own pattern (and convertors) match."""
    for route in iter_api_routes(app):
        if route.path_format == path and method in route.methods:
            pattern, _, _ = compile_path(route.path)
            for filler in ("0", "sk", "x", "00000000-0000-0000-0000-000000000000"):
                url = re.sub(r"\{[^}]+\}", filler, path)
                if pattern.match(url):
                    return url
    return None


def _auth_problem(auth: str, op: dict) -> str | None:
    """Why `op` does not declare the security that spec auth `auth` calls for, or None."""
    schemes = _schemes(op)
    if auth == "key" and schemes != KEY_SCHEMES:
        return f"spec says key (bearerAuth or apiKeyQuery, spec 5), OpenAPI declares {sorted(schemes)}"
    if auth == "key-query" and "apiKeyQuery" not in schemes:
        return f"spec says key in the api_key query, OpenAPI declares {sorted(schemes)}"
    if auth == "key-or-oauth" and not schemes:
        return "spec says key or OAuth, OpenAPI declares no security"
    if auth in ("public", "none", "account") and schemes:
        return f"spec says {auth} (no security declared, spec 4.7/4.8), OpenAPI declares {sorted(schemes)}"
    return None


def test_normalisation_matches_the_coverage_tool():
    if not COVERAGE_TOOL.exists():
        pytest.skip(f"no coverage tool at {COVERAGE_TOOL}")
    spec = importlib.util.spec_from_file_location("spec_coverage", COVERAGE_TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for row in _spec_rows():
        assert norm(row["path"]) == tool.norm(row["path"])
    for path in ["/", "/api/v1/x/", "/a/{b}/{c}.json", "/a/{b}/c"]:
        assert norm(path) == tool.norm(path)


def test_spec_coverage_report(client):
    """Prints which spec operations are implemented (visible with `pytest -s` or `-rA`)."""
    have = _implemented(client)
    rows = _spec_rows()
    covered = [r for r in rows if (r["method"], norm(r["path"])) in have]
    by_section: dict[str, list[int]] = {}
    for r in rows:
        tally = by_section.setdefault(r["section"], [0, 0])
        tally[0] += (r["method"], norm(r["path"])) in have
        tally[1] += 1
    print(f"\nspec operations implemented: {len(covered)}/{len(rows)}")
    for section, (ok, total) in sorted(by_section.items()):
        print(f"  section {section}: {ok}/{total}")
    for r in covered:
        print(f"  {r['method']:6} {r['path']}  [{r['auth']}]")
    assert len({(r["method"], norm(r["path"])) for r in rows}) <= len(rows)
    assert covered, "the app implements none of the specification's operations"


# Keyed in the spec, but how a client finds out what the service offers and how to authenticate is
# public (issue 16): the reconciliation manifest (its queries stay keyed) and the HTML catalogue.
DISCOVERY = {("GET", "/api/v1/reconcile"), ("GET", "/api/v1/docs"), ("GET", "/api/v1/docs/quickstart")}


def test_implemented_spec_operations_declare_the_right_auth(client):
    have = _implemented(client)
    problems = []
    for row in _spec_rows():
        found = have.get((row["method"], norm(row["path"])))
        if found is not None and (row["method"], row["path"]) not in DISCOVERY:
            problem = _auth_problem(row["auth"], found[1])
            if problem:
                problems.append(f"{row['method']} {row['path']}: {problem}")
    assert problems == []


def test_keyed_spec_operations_refuse_calls_without_a_key(client):
    """Behaviour, not only the document: a keyed operation answers 401 before anything else runs."""
    have = _implemented(client)
    checked = 0
    for row in _spec_rows():
        found = have.get((row["method"], norm(row["path"])))
        if found is None or row["auth"] != "key" or (row["method"], row["path"]) in DISCOVERY:
            continue
        url = _sample_url(client.app, row["method"], found[0])
        assert url is not None, f"no sample URL matches {row['method']} {found[0]}"
        resp = client.request(row["method"], url)
        assert_error(resp, 401, "UNAUTHORIZED")
        checked += 1
    assert checked >= 3  # /me and the company records at least
    for method, path in sorted(DISCOVERY):
        assert client.request(method, path).status_code == 200, path
    assert_error(
        client.get("/api/v1/reconcile", params={"queries": '{"q0": {"query": "x"}}'}), 401, "UNAUTHORIZED"
    )
