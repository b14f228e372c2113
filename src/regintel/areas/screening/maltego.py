"""Maltego transform results (the `MaltegoMessage` XML a TDS/iTDS transform answers with): one entity
per sanctions hit, typed by schema, with the list, programmes, score and matched features as fields."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

_TYPES = {
    "person": "maltego.Person",
    "organization": "maltego.Organization",
    "vessel": "maltego.Phrase",
    "aircraft": "maltego.Phrase",
}


def _field(parent: ET.Element, name: str, display: str, value: str) -> None:
    el = ET.SubElement(parent, "Field", Name=name, DisplayName=display, MatchingRule="loose")
    el.text = value


def to_maltego(result: dict[str, Any]) -> bytes:
    """The company's hits as a Maltego transform response."""
    root = ET.Element("MaltegoMessage")
    response = ET.SubElement(root, "MaltegoTransformResponseMessage")
    entities = ET.SubElement(response, "Entities")
    for subject in result["subjects"]:
        for hit in subject["hits"]:
            entity = ET.SubElement(entities, "Entity", Type=_TYPES.get(hit["schema"], "maltego.Phrase"))
            ET.SubElement(entity, "Value").text = hit["caption"]
            ET.SubElement(entity, "Weight").text = str(round(hit["score"] * 100))
            fields = ET.SubElement(entity, "AdditionalFields")
            _field(fields, "regintel.sanctions.id", "Listed entry", hit["id"])
            _field(fields, "regintel.sanctions.list", "Sanctions list", hit["list"]["name"])
            _field(fields, "regintel.sanctions.programmes", "Programmes", "; ".join(hit["programmes"]))
            _field(fields, "regintel.sanctions.score", "Score", f"{hit['score']:.4f}")
            _field(
                fields,
                "regintel.sanctions.subject",
                "Matched subject",
                f"{subject['subject']}: {subject['name']}",
            )
            _field(
                fields,
                "regintel.sanctions.features",
                "Features",
                "; ".join(f"{f['name']}={f['value']}x{f['weight']}" for f in hit["features"]),
            )
            _field(fields, "regintel.sanctions.algorithm", "Algorithm", result["algorithm"])
    messages = ET.SubElement(response, "UIMessages")
    note = ET.SubElement(messages, "UIMessage", MessageType="Inform")
    note.text = (
        f"{result['hit_count']} sanctions hit(s) for {result['name']} at threshold {result['threshold']}"
        + ("" if result["natural_persons_screened"] else "; natural persons not screened (no purpose)")
    )
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))
