"""Exports of a company's neighbourhood for analysts' tools: IBM i2 Analyst's Notebook import CSV
(entities and links, formula-safe through `render.tabular`) and Maltego transform responses.

i2 imports a CSV through an import specification the analyst maps once; the columns below are stable
so one specification serves every company: an entity's `Identity` is the same id the API uses, so
repeated imports merge. Maltego's transform response is the `MaltegoMessage` XML of its TRX protocol,
with the standard entity types `maltego.Company` (value property `title`) and `maltego.Person`
(`person.fullname`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from xml.etree import ElementTree as ET

from regintel.areas.ownership.schemas import Entity, Graph, Relation, Relations
from regintel.render.tabular import iter_csv

I2_ENTITY_COLUMNS = (
    "Identity",
    "Entity Type",
    "Label",
    "Country",
    "National ID",
    "LEI",
    "Status",
    "Depth",
    "In Cycle",
    "Birth Date",
    "Nationality",
    "Country of Residence",
)
I2_LINK_COLUMNS = (
    "Link ID",
    "From Identity",
    "To Identity",
    "Link Type",
    "Label",
    "Share %",
    "Since",
    "Until",
    "Active",
    "In Cycle",
    "Sources",
)
I2_TYPES = {"company": "Organisation", "person": "Person", "entity": "Organisation"}


def i2_entities(graph: Graph) -> Iterator[str]:
    rows = []
    for node in graph.nodes:
        e = node.entity
        p = e.personal
        rows.append(
            {
                "Identity": e.id,
                "Entity Type": I2_TYPES[e.type],
                "Label": e.name,
                "Country": e.country,
                "National ID": e.nationalId,
                "LEI": e.lei,
                "Status": e.status,
                "Depth": node.depth,
                "In Cycle": node.inCycle,
                "Birth Date": p.birthDate if p else None,
                "Nationality": p.nationality if p else None,
                "Country of Residence": p.countryOfResidence if p else None,
            }
        )
    return iter_csv(rows, I2_ENTITY_COLUMNS)


def i2_links(graph: Graph) -> Iterator[str]:
    rows = [
        {
            "Link ID": f"{e.source}>{e.target}>{e.type}",
            "From Identity": e.source,
            "To Identity": e.target,
            "Link Type": e.type,
            "Label": _label(e.type, e.sharePct),
            "Share %": e.sharePct,
            "Since": e.since,
            "Until": e.until,
            "Active": e.active,
            "In Cycle": e.inCycle,
            "Sources": e.sources,
        }
        for e in graph.edges
    ]
    return iter_csv(rows, I2_LINK_COLUMNS)


def _label(kind: str, share: float | None) -> str:
    text = kind.replace("_", " ")
    return f"{text} {share:g}%" if share is not None else text


def maltego(entities: list[tuple[Entity, dict[str, Any]]]) -> bytes:
    """A `MaltegoTransformResponseMessage` with one entity per item and its extra fields."""
    root = ET.Element("MaltegoMessage")
    response = ET.SubElement(root, "MaltegoTransformResponseMessage")
    listed = ET.SubElement(response, "Entities")
    for entity, fields in entities:
        node = ET.SubElement(
            listed, "Entity", Type="maltego.Person" if entity.type == "person" else "maltego.Company"
        )
        ET.SubElement(node, "Value").text = entity.name
        ET.SubElement(node, "Weight").text = "100"
        extra = ET.SubElement(node, "AdditionalFields")
        values = {
            "regintel.id": entity.id,
            "country": entity.country,
            "national_id": entity.nationalId,
            "lei": entity.lei,
            "status": entity.status,
        }
        if entity.personal is not None:
            values |= {
                "birth_date": entity.personal.birthDate,
                "nationality": entity.personal.nationality,
                "country_of_residence": entity.personal.countryOfResidence,
            }
        for name, value in (values | fields).items():
            if value is not None and value != []:
                field = ET.SubElement(
                    extra,
                    "Field",
                    Name=name,
                    DisplayName=name.replace("_", " ").title(),
                    MatchingRule="strict" if name == "regintel.id" else "loose",
                )
                field.text = ";".join(map(str, value)) if isinstance(value, list) else str(value)
    ET.SubElement(response, "UIMessages")
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))


def relation_fields(r: Relation) -> dict[str, Any]:
    return {
        "role": r.role,
        "title": r.title,
        "share_pct": r.sharePct,
        "voting_pct": r.votingPct,
        "since": r.since,
        "until": r.until,
        "natures_of_control": r.naturesOfControl,
        "source": r.source.id,
        "licence": r.source.licence,
    }


def officers(rel: Relations) -> list[tuple[Entity, dict[str, Any]]]:
    return [(r.holder, relation_fields(r)) for r in rel.directors + rel.otherRoles]


def owners(rel: Relations) -> list[tuple[Entity, dict[str, Any]]]:
    return [(r.holder, relation_fields(r)) for r in rel.shareholders + rel.beneficialOwners]


def companies(graph: Graph) -> list[tuple[Entity, dict[str, Any]]]:
    """The companies of the neighbourhood (parents, subsidiaries, companies sharing people), the company
    itself left out, each with how it links (the edges that touch it)."""
    links: dict[str, list[str]] = {}
    for e in graph.edges:
        links.setdefault(e.source, []).append(f"{e.type}>{e.target}")
        links.setdefault(e.target, []).append(f"{e.source}>{e.type}")
    return [
        (n.entity, {"depth": n.depth, "links": links.get(n.entity.id, [])})
        for n in graph.nodes
        if n.entity.type == "company" and n.entity.id != graph.root
    ]
