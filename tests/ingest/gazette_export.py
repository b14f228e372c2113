"""Builds PodanieExport answers (the SOAP response of `StiahnutPodaniaOVPodlaTypu`, per the WSDL in
tests/fixtures/sk_obchodny_vestnik/schemas) around notice forms, for the sk_obchodny_vestnik tests.

`python -m tests.ingest.gazette_export` rewrites tests/fixtures/sk_obchodny_vestnik/export_sample.xml
from `notices.json` and the forms in `forms/` (the fixture README says so).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sk_obchodny_vestnik"
SOAP = "http://schemas.xmlsoap.org/soap/envelope/"
ANASOFT = "http://anasoft.com/"


@dataclass(frozen=True)
class Notice:
    id: int
    mark: str
    issue: tuple[int, int]
    day: str
    form: str  # the form document (XML text)

    @property
    def template(self) -> str:
        """SablonaKod: the form's root element (a broken form, in the tests of broken input, has none)."""
        match = re.search(r"<(?:\w+:)?(\w+)[\s>]", re.sub(r"<[?!][^>]*>", "", self.form))
        return match[1] if match else ""


def load_notices(manifest: Path = FIXTURES / "notices.json") -> list[Notice]:
    entries = json.loads(manifest.read_text(encoding="utf-8"))
    return [
        Notice(
            e["id"],
            e["mark"],
            tuple(e["issue"]),
            e["day"],  # type: ignore[arg-type]
            (FIXTURES / "forms" / e["form"]).read_text(encoding="utf-8"),
        )
        for e in entries
    ]


def response_element(notices: list[Notice]) -> ET.Element:
    """`StiahnutPodaniaOVPodlaTypuResponse` holding the notices."""
    ET.register_namespace("", ANASOFT)
    response = ET.Element(f"{{{ANASOFT}}}StiahnutPodaniaOVPodlaTypuResponse")
    result = ET.SubElement(response, f"{{{ANASOFT}}}StiahnutPodaniaOVPodlaTypuResult")
    for notice in notices:
        item = ET.SubElement(result, f"{{{ANASOFT}}}ObchodnyVestnikPodanie")
        for name, value in (
            ("Id", str(notice.id)),
            ("Znacka", notice.mark),
            ("SablonaKod", notice.template),
            ("SablonaVerzia", "1"),
        ):
            ET.SubElement(item, f"{{{ANASOFT}}}{name}").text = value
        issue = ET.SubElement(item, f"{{{ANASOFT}}}ObchodnyVestnik")
        for name, value in (
            ("Cislo", str(notice.issue[0])),
            ("Rocnik", str(notice.issue[1])),
            ("DenVydania", f"{notice.day}T00:00:00"),
        ):
            ET.SubElement(issue, f"{{{ANASOFT}}}{name}").text = value
        ET.SubElement(
            item, f"{{{ANASOFT}}}FormularUdaje"
        ).text = notice.form  # escaped as text, as s:string is
    return response


def build_export(notices: list[Notice]) -> bytes:
    """A SOAP 1.1 envelope around the response, as the service answers."""
    ET.register_namespace("soap", SOAP)
    envelope = ET.Element(f"{{{SOAP}}}Envelope")
    ET.SubElement(envelope, f"{{{SOAP}}}Body").append(response_element(notices))
    ET.indent(envelope)
    return ET.tostring(envelope, encoding="utf-8", xml_declaration=True) + b"\n"


if __name__ == "__main__":
    (FIXTURES / "export_sample.xml").write_bytes(build_export(load_notices()))
