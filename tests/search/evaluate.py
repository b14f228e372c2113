"""Recall of the search endpoints over labelled queries (tests/fixtures/search_eval.jsonl): shared by
the recall-floor test and bench/bench_search_quality.py."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from regintel.domain.name_query import name_form_keys
from regintel.domain.names import normalise_name, tokens

EVAL = Path(__file__).resolve().parent.parent / "fixtures" / "search_eval.jsonl"
# Namesake-heavy queries over a `regintel synth` database (bench/make_search_eval.py --namesakes)
NAMESAKES = EVAL.with_name("search_eval_namesakes.jsonl")
ENDPOINTS = ("autocomplete", "search", "resolve", "reconcile")
# What a user of each endpoint types: autocomplete gets the unfinished queries too.
SKIP = {"search": {"partial", "prefix"}, "resolve": {"partial", "prefix"}, "reconcile": {"partial", "prefix"}}


def load_queries(keys: set[str] | None = None, path: Path = EVAL) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [q for q in lines if keys is None or q["expect"] in keys]


def _key(item: dict[str, Any]) -> tuple[str, str, str]:
    """(entity key, normalised name, whole name folded): the key for recall, the names for
    "equivalent" recall and for namesakes."""
    return (
        f"{item['country']}:{item['nationalId']}",
        normalise_name(item["name"]),
        " ".join(tokens(item["name"])),
    )


def hit(q: dict[str, Any], got: tuple[str, ...]) -> bool:
    """The expected company, or where the query says so (`accept`), a namesake in the same country:
    the same whole name ("name"), the same name and legal form in any spelling ("form") or the same
    name without its legal form ("stem")."""
    if got[0] == q["expect"]:
        return True
    accept = q.get("accept")
    if not accept or got[0].split(":", 1)[0] != q["country"]:
        return False
    if accept == "stem":
        return got[1] == normalise_name(q["name"])
    if accept == "form":
        return got[1] == normalise_name(q["name"]) and name_form_keys(got[2]) == name_form_keys(q["name"])
    return got[2] == " ".join(tokens(q["name"]))


def top5(client: Any, params: dict[str, str], endpoint: str, query: str) -> list[tuple[str, str, str]]:
    if endpoint == "autocomplete":
        body = client.get("/api/v1/companies/autocomplete", params=params | {"q": query, "limit": 5}).json()
        return [_key(i) for i in body["data"]]
    if endpoint == "search":
        body = client.get("/api/v1/companies/search", params=params | {"q": query, "limit": 5}).json()
        return [_key(i) for i in body["data"]]
    if endpoint == "resolve":
        resp = client.get("/api/v1/companies/resolve", params=params | {"q": query})
        body = resp.json()
        if resp.status_code == 200:
            return [_key(body["data"]["entity"])] + [
                _key(c["company"]) for c in body["data"]["alternatives"]
            ][:4]
        return [_key(c["company"]) for c in body["error"]["details"]["candidates"]][:5]
    raise ValueError(endpoint)


def reconcile_top5(
    client: Any, params: dict[str, str], queries: list[str]
) -> list[list[tuple[str, str, str]]]:
    """Reconcile in batches of 10 queries, as OpenRefine sends them."""
    out: list[list[tuple[str, str, str]]] = []
    for start in range(0, len(queries), 10):
        batch = {f"q{i}": {"query": q, "limit": 5} for i, q in enumerate(queries[start : start + 10])}
        body = client.post("/api/v1/reconcile", params=params, data={"queries": json.dumps(batch)}).json()
        out += [
            [
                (r["id"], normalise_name(r["name"]), " ".join(tokens(r["name"])))
                for r in body[f"q{i}"]["result"]
            ]
            for i in range(len(batch))
        ]
    return out


def evaluate(
    client: Any, params: dict[str, str], queries: list[dict[str, Any]], endpoints: Iterable[str] = ENDPOINTS
) -> dict[str, dict[str, Any]]:
    """recall@1 and recall@5 per endpoint, overall and per query kind."""
    report: dict[str, dict[str, Any]] = {}
    for endpoint in endpoints:
        todo = [q for q in queries if q["kind"] not in SKIP.get(endpoint, set())]
        if endpoint == "reconcile":
            answers = reconcile_top5(client, params, [q["query"] for q in todo])
        else:
            answers = [top5(client, params, endpoint, q["query"]) for q in todo]
        report[endpoint] = _recall(todo, answers)
    return report


def _recall(queries: list[dict[str, Any]], answers: list[list[tuple[str, str, str]]]) -> dict[str, Any]:
    """recall@1/@5 by key (or by namesake, see `hit`), and equivalent recall@5: one of the top 5 has
    the target's normalised name (a bigger corpus repeats names, as registers do)."""
    kinds: dict[str, list[tuple[bool, bool, bool]]] = {}
    for q, got in zip(queries, answers, strict=True):
        hits = [hit(q, g) for g in got[:5]]
        norms = {g[1] for g in got[:5]}
        kinds.setdefault(q["kind"], []).append(
            (hits[:1] == [True], any(hits), normalise_name(q["name"]) in norms)
        )
    flat = [hit for hits in kinds.values() for hit in hits]

    def rate(hits: list[tuple[bool, bool, bool]], i: int) -> float:
        return round(sum(h[i] for h in hits) / len(hits), 4) if hits else 0.0

    return {
        "queries": len(flat),
        "recall@1": rate(flat, 0),
        "recall@5": rate(flat, 1),
        "recall@5_equiv": rate(flat, 2),
        "kinds": {
            k: {"n": len(v), "recall@1": rate(v, 0), "recall@5": rate(v, 1), "recall@5_equiv": rate(v, 2)}
            for k, v in kinds.items()
        },
        "misses": [
            q["id"] for q, got in zip(queries, answers, strict=True) if not any(hit(q, g) for g in got[:5])
        ],
    }
