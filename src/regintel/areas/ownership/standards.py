"""The company's neighbourhood (the `/graph` of a depth and limit) in two open standards:

- FollowTheMoney entities (OpenSanctions, Aleph): `Company`, `Person`, `LegalEntity`, and `Ownership` /
  `Directorship` interval entities, built with the `followthemoney` model (each value is cleaned by its
  property type; a value the type refuses is dropped, never written);
- a Beneficial Ownership Data Standard 0.4 statement package: entity, person and relationship
  statements about the company as declaration subject (validated in the tests with `libcovebods`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import date
from typing import TYPE_CHECKING, Any

import orjson
import pycountry

from regintel.areas.ownership.schemas import Entity, Graph, GraphEdge

if TYPE_CHECKING:
    from followthemoney.model import Model
    from followthemoney.proxy import EntityProxy

OWNING = {"shareholder", "beneficial_owner", "ownership"}
PUBLISHER = {"name": "regintel"}


def ftm_id(entity_id: str) -> str:
    return "regintel-" + entity_id.replace(":", "-")


def _ftm_entity(model: Model, e: Entity) -> EntityProxy:
    schema = {"company": "Company", "person": "Person"}.get(e.type, "LegalEntity")
    proxy = model.make_entity(schema)
    proxy.id = ftm_id(e.id)
    proxy.add("name", e.name)
    if e.country:
        proxy.add("jurisdiction", e.country.lower())
    if e.nationalId:
        proxy.add("registrationNumber", e.nationalId)
    if e.lei:
        proxy.add("leiCode", e.lei)
    if e.status:
        proxy.add("status", e.status)
    if e.personal is not None:
        proxy.add("birthDate", e.personal.birthDate)
        proxy.add("nationality", e.personal.nationality)
        proxy.add("country", e.personal.countryOfResidence)
    return proxy


def _ftm_edge(model: Model, edge: GraphEdge) -> EntityProxy:
    owning = edge.type in OWNING
    proxy = model.make_entity("Ownership" if owning else "Directorship")
    proxy.id = ftm_id(f"{edge.source}>{edge.target}>{edge.type}")
    proxy.add("owner" if owning else "director", ftm_id(edge.source))
    proxy.add("asset" if owning else "organization", ftm_id(edge.target))
    proxy.add("role", edge.type.replace("_", " "))
    if owning and edge.sharePct is not None:
        proxy.add("percentage", f"{edge.sharePct:g}")
    proxy.add("startDate", edge.since.isoformat() if edge.since else None)
    proxy.add("endDate", edge.until.isoformat() if edge.until else None)
    proxy.add("publisher", edge.sources)
    return proxy


def ftm(graph: Graph) -> list[dict[str, Any]]:
    # Imported here: followthemoney parses its YAML schema model on import (about 0.4 s of CPU), which every
    # API worker paid at start-up for an export few requests ask for.
    from followthemoney import model

    return [_ftm_entity(model, n.entity).to_dict() for n in graph.nodes] + [
        _ftm_edge(model, e).to_dict() for e in graph.edges
    ]


def ndjson(items: list[dict[str, Any]]) -> Iterator[bytes]:
    for item in items:
        yield orjson.dumps(item) + b"\n"


def _statement(
    record_id: str,
    record_type: str,
    details: dict[str, Any],
    subject: str,
    today: date,
    source: str | None = None,
) -> dict[str, Any]:
    digest = hashlib.sha256(
        json.dumps([record_id, details], sort_keys=True, default=str).encode()
    ).hexdigest()
    out: dict[str, Any] = {
        "statementId": digest,
        "declarationSubject": subject,
        "statementDate": today.isoformat(),
        "recordId": record_id,
        "recordType": record_type,
        "recordStatus": "new",
        "recordDetails": details,
        "publicationDetails": {
            "publicationDate": today.isoformat(),
            "bodsVersion": "0.4",
            "publisher": PUBLISHER,
        },
    }
    if source:
        out["source"] = {"type": ["officialRegister"], "description": source}
    return out


def _country(code: str | None) -> dict[str, str] | None:
    found = pycountry.countries.get(alpha_2=code.upper()) if code and len(code) == 2 else None
    return {"name": found.name, "code": found.alpha_2} if found else None


SCHEMES = {"GB": ("GB-COH", "Companies House")}


def _bods_entity(e: Entity) -> dict[str, Any]:
    details: dict[str, Any] = {
        "isComponent": False,
        "name": e.name,
        "entityType": {"type": "registeredEntity" if e.type == "company" else "legalEntity"},
    }
    if (where := _country(e.country)) is not None:
        details["jurisdiction"] = where
    ids = []
    if e.nationalId and e.country:
        scheme, name = SCHEMES.get(e.country, (None, f"National company register identifier ({e.country})"))
        ids.append({"id": e.nationalId, "schemeName": name} | ({"scheme": scheme} if scheme else {}))
    if e.lei:
        ids.append({"id": e.lei, "scheme": "XI-LEI", "schemeName": "Global Legal Entity Identifier Index"})
    if ids:
        details["identifiers"] = ids
    return details


def _bods_person(e: Entity) -> dict[str, Any]:
    details: dict[str, Any] = {
        "isComponent": False,
        "personType": "knownPerson",
        "names": [{"type": "legal", "fullName": e.name}],
    }
    if e.personal is not None:
        if e.personal.birthDate:
            details["birthDate"] = e.personal.birthDate
        if (nationality := _country(e.personal.nationality)) is not None:
            details["nationalities"] = [nationality]
        if (residence := _country(e.personal.countryOfResidence)) is not None:
            details["taxResidencies"] = [residence]
    return details


INTERESTS = {
    "shareholder": "shareholding",
    "ownership": "shareholding",
    "beneficial_owner": "otherInfluenceOrControl",
    "director": "boardMember",
    "statutory_body": "boardMember",
}


def _interest(edge: GraphEdge, person: bool) -> dict[str, Any]:
    kind = INTERESTS.get(edge.type, "otherInfluenceOrControl")
    interest: dict[str, Any] = {
        "type": kind,
        "directOrIndirect": "direct",
        "beneficialOwnershipOrControl": person and edge.type == "beneficial_owner",
    }
    band = next((b for b in edge.bands if b.kind == "shares"), None)
    if band is not None:
        interest["type"] = "shareholding"
        interest["share"] = {"exclusiveMinimum": band.moreThan} | (
            {"maximum": band.upTo} if band.upTo else {}
        )
    elif edge.sharePct is not None and kind == "shareholding":
        interest["share"] = {"exact": edge.sharePct}
    if edge.since:
        interest["startDate"] = edge.since.isoformat()
    if edge.until:
        interest["endDate"] = edge.until.isoformat()
    return interest


def bods(graph: Graph, today: date) -> list[dict[str, Any]]:
    subject = graph.root
    kinds = {n.entity.id: n.entity.type for n in graph.nodes}
    out = [
        _statement(
            n.entity.id,
            "person" if n.entity.type == "person" else "entity",
            _bods_person(n.entity) if n.entity.type == "person" else _bods_entity(n.entity),
            subject,
            today,
        )
        for n in graph.nodes
    ]
    for edge in graph.edges:
        details = {
            "isComponent": False,
            "subject": edge.target,
            "interestedParty": edge.source,
            "interests": [_interest(edge, kinds.get(edge.source) == "person")],
        }
        out.append(
            _statement(
                f"{edge.source}>{edge.target}>{edge.type}",
                "relationship",
                details,
                subject,
                today,
                ", ".join(edge.sources),
            )
        )
    return out
