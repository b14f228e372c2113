"""The Reconciliation Service API 0.2 (as spoken by OpenRefine): manifest, query batches, suggest,
preview and data extension, over the same resolution as `/companies/resolve` and `/match`.

Entity ids are `<country>:<national id>`, e.g. `SK:31322832`. Scores are 0-100, the scale OpenRefine
shows; `match` is true for a candidate that scores at least 90 and leads the next one by 5 or more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy.engine import Connection

from regintel import __version__
from regintel.areas.search import resolve
from regintel.areas.search.reconcile_props import PROPERTIES, TYPE, property_values
from regintel.areas.search.schemas import (
    EntitySuggestion,
    EntitySuggestions,
    ExtendAnswer,
    Manifest,
    PropertyProposal,
    PropertyRef,
    PropertySuggestion,
    PropertySuggestions,
    PropertyValue,
    ReconCandidate,
    ReconcileBatch,
    ReconFeature,
    TypeRef,
    TypeSuggestions,
)
from regintel.areas.search.service import autocomplete
from regintel.db import search as db
from regintel.domain.identifiers import parse_country
from regintel.errors import InvalidIdentifier
from regintel.search.base import SearchBackend

MAX_BATCH = 200
MAX_LIMIT = 100
AUTO_MATCH, AUTO_MARGIN = 90.0, 5.0

Value = str | float | bool | dict[str, Any]


class PropertyConstraint(BaseModel):
    model_config = ConfigDict(extra="forbid")
    pid: str = Field(max_length=64)
    v: Value | list[Value]


class ReconQuery(BaseModel):
    """One query of a batch (schema reconciliation-query-batch.json of the 0.2 specification)."""

    model_config = ConfigDict(extra="forbid")
    query: str | None = Field(default=None, max_length=500)
    type: str | list[str] | None = None
    limit: float | None = Field(default=None, ge=0)
    properties: list[PropertyConstraint] | None = None
    type_strict: Literal["any", "should", "all"] | None = None

    @model_validator(mode="after")
    def _query_or_properties(self) -> ReconQuery:
        if self.query is None and not self.properties:
            raise ValueError("a query needs `query` or a non-empty `properties` list")
        return self


class ExtendQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ids: list[str] = Field(max_length=MAX_BATCH)
    properties: list[dict[str, Any]] = Field(max_length=len(PROPERTIES) + 20)


def manifest(base: str, key_suffix: str) -> Manifest:
    """The service manifest; `key_suffix` (`?api_key=…` or empty) is carried into every URL it names,
    because reconciliation clients cannot send headers."""
    root = f"{base}/api/v1/reconcile"
    amp = key_suffix.replace("?", "&")
    preview = f"{root}/preview?id={{{{id}}}}{amp}"
    return {
        "versions": ["0.2"],
        "name": "regintel European company registers",
        "identifierSpace": f"{base}/api/v1/companies/",
        "schemaSpace": f"{root}#schema",
        "serviceVersion": __version__,
        "documentation": f"{base}/api/v1/public/swagger",
        "defaultTypes": [TYPE],
        "view": {"url": preview},
        "preview": {"url": preview, "width": 430, "height": 180},
        "suggest": {
            "entity": {"service_url": base, "service_path": f"/api/v1/reconcile/suggest/entity{key_suffix}"},
            "property": {
                "service_url": base,
                "service_path": f"/api/v1/reconcile/suggest/property{key_suffix}",
            },
            "type": {"service_url": base, "service_path": f"/api/v1/reconcile/suggest/type{key_suffix}"},
        },
        "extend": {
            "propose_properties": {
                "service_url": base,
                "service_path": f"/api/v1/reconcile/properties{key_suffix}",
            },
            "property_settings": [],
        },
        "authentication": {
            "type": "apiKey",
            "name": "api_key",
            "in": "query",
            "description": "regintel API key (ri_…)",
        },
    }


def _type_ok(q: ReconQuery) -> bool:
    """Only companies are served: a query restricted to other types gets no candidates, unless the
    type is only a preference (`type_strict: should`)."""
    if q.type is None or q.type_strict == "should":
        return True
    types = [q.type] if isinstance(q.type, str) else q.type
    if not types:
        return True
    ours = [t == TYPE["id"] for t in types]
    return all(ours) if q.type_strict == "all" else any(ours)


def _evidence(q: ReconQuery) -> resolve.Evidence:
    country: str | None = None
    location: list[str] = []
    ids: list[str] = []
    for prop in q.properties or []:
        values = prop.v if isinstance(prop.v, list) else [prop.v]
        texts = [str(v.get("id") or v.get("name") or "") if isinstance(v, dict) else str(v) for v in values]
        pid = prop.pid.lower()
        if pid == "country" and texts:
            try:
                country = parse_country(texts[0])
            except InvalidIdentifier:
                country = "--"  # no company has this country: no candidates, rather than all countries
        elif pid in ("city", "address", "postal_code"):
            location += texts
        elif pid in ("national_id", "ico", "vat", "lei", "ic_dph", "dic", "tax_id"):
            ids += texts
    text = resolve.split_free_text(q.query or "")  # the query may be "name, town" or an identifier
    location += [text.location or ""]
    return resolve.Evidence(
        text.name,
        country,
        ", ".join(t for t in location if t) or None,
        tuple(t for t in ids + list(text.identifiers) if t),
    )


def reconcile_batch(
    conn: Connection, backend: SearchBackend, batch: Mapping[str, ReconQuery]
) -> ReconcileBatch:
    return {qid: {"result": _results(conn, backend, q)} for qid, q in batch.items()}


def _results(conn: Connection, backend: SearchBackend, q: ReconQuery) -> list[ReconCandidate]:
    if not _type_ok(q):
        return []
    limit = max(1, min(int(q.limit or 10), MAX_LIMIT))
    found = resolve.candidates(conn, backend, _evidence(q), limit)
    scores = [round(c.score * 100, 2) for c in found]
    out: list[ReconCandidate] = []
    for i, (cand, score) in enumerate(zip(found, scores, strict=True)):
        lead = score - (scores[i + 1] if i + 1 < len(scores) else 0.0)
        out.append(
            {
                "id": entity_id(cand.row),
                "name": cand.row["name"],
                "score": score,
                "match": i == 0 and score >= AUTO_MATCH and lead >= AUTO_MARGIN,
                "type": [TYPE],
                "description": describe(cand.row),
                "features": _features(cand),
            }
        )
    return out


def _features(cand: resolve.Candidate) -> list[ReconFeature]:
    f = cand.features
    out: list[ReconFeature] = []
    if "name" in f:
        out.append({"id": "name_similarity", "value": f["name"]})
    if "location" in f:
        out.append({"id": "location", "value": f["location"]})
    if "legal_form" in f:
        out.append({"id": "legal_form", "value": f["legal_form"]})
    if "country" in f:
        out.append({"id": "country", "value": bool(f["country"])})
    out.append({"id": "identifier", "value": bool(f.get("identifiers"))})
    return out


def entity_id(row: Mapping[str, Any]) -> str:
    return f"{row['country']}:{row['national_id']}"


def describe(row: Mapping[str, Any]) -> str:
    parts = [f"{row['country']} {row['national_id']}", row["city"], row["status"]]
    return " · ".join(str(p) for p in parts if p)


def parse_entity_id(value: str) -> tuple[str, str] | None:
    country, sep, nid = (value or "").partition(":")
    if not sep or len(country) != 2 or not nid or len(nid) > 40:
        return None
    return country.upper(), nid


def rows_by_entity_ids(conn: Connection, ids: list[str]) -> dict[str, Mapping[str, Any]]:
    pairs = {i: p for i in ids if (p := parse_entity_id(i))}
    rows = db.companies_by_national_id(conn, list(set(pairs.values())))
    by_pair = {(r["country"], r["national_id"]): r for r in rows}
    return {i: by_pair[p] for i, p in pairs.items() if p in by_pair}


def suggest_entities(conn: Connection, backend: SearchBackend, prefix: str, cursor: int) -> EntitySuggestions:
    items = autocomplete(conn, backend, prefix, None, min(cursor + 10, 100), active_only=False)[cursor:]
    rows = rows_by_entity_ids(conn, [f"{i['country']}:{i['nationalId']}" for i in items])
    return EntitySuggestions(
        result=[
            EntitySuggestion(
                id=f"{i['country']}:{i['nationalId']}",
                name=i["name"],
                description=describe(rows[f"{i['country']}:{i['nationalId']}"]),
                notable=[TypeRef(**TYPE)],
            )
            for i in items
            if f"{i['country']}:{i['nationalId']}" in rows
        ]
    )


def suggest_properties(prefix: str) -> PropertySuggestions:
    p = prefix.strip().lower()
    return PropertySuggestions(
        result=[
            PropertySuggestion(id=pid, name=name, description=desc)
            for pid, (name, desc, _) in PROPERTIES.items()
            if not p or pid.startswith(p) or name.lower().startswith(p)
        ]
    )


def suggest_types(prefix: str) -> TypeSuggestions:
    p = prefix.strip().lower()
    hit = not p or TYPE["id"].startswith(p) or TYPE["name"].lower().startswith(p)
    return TypeSuggestions(result=[TypeRef(**TYPE)] if hit else [])


def propose_properties(type_id: str | None, limit: int | None) -> PropertyProposal:
    props: list[PropertyRef] = [{"id": pid, "name": name} for pid, (name, _, _) in PROPERTIES.items()]
    if type_id and type_id != TYPE["id"]:
        props = []
    out: PropertyProposal = {"type": type_id or TYPE["id"], "properties": props[:limit] if limit else props}
    if limit:
        out["limit"] = limit
    return out


def extend(conn: Connection, query: ExtendQuery) -> ExtendAnswer:
    """Property values of the given entities; unknown properties or entities come back empty."""
    pids = [str(p.get("id", "")) for p in query.properties]
    meta: list[PropertyRef] = [
        {"id": pid, "name": PROPERTIES[pid][0] if pid in PROPERTIES else pid} for pid in pids
    ]
    rows = rows_by_entity_ids(conn, query.ids)
    out: dict[str, dict[str, list[PropertyValue]]] = {
        eid: {pid: property_values(pid, rows[eid]) if eid in rows else [] for pid in pids}
        for eid in query.ids
    }
    return {"meta": meta, "rows": out}
