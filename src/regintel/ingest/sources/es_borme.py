"""Spanish Boletín Oficial del Registro Mercantil (BORME), published daily by the Agencia Estatal
Boletín Oficial del Estado: the Section A PDFs (one per province and issue, "Actos inscritos", the
acts the provincial Registros Mercantiles inscribed), and the XML of the day's summary and of
Section C announcements.

Identity: BORME never prints the CIF (the tax identifier Spain's other sources use). A Section A act
names the company and its registry data, `T <tomo>, L <libro>, F <folio>, S <sección>, H <province>
<sheet>`: the sheet (hoja registral) is opened when the company is first inscribed in its province's
registry and every later act is written on it, so "H CC 11959" (Cáceres, sheet 11959) is the stable
key of the company in that registry. regintel's ES national identifier therefore accepts either a
CIF or a sheet, canonical `H-CC-11959` (`domain.identifiers`). A company moving its domicile to
another province is given a new sheet there: it then appears under a second key (BORME prints the
move, not a link between the sheets). A company known by CIF from another source (GLEIF) is a
separate record: nothing in BORME ties a sheet to a CIF, and names are not matched.

The acts of one company in one PDF are merged into one record (each act states only what it
changed; the later act wins where both state a field), a snapshot of the company as of the issue
date: the name (after a "Cambio de
denominación social" the new one), the legal form read from the name's ending (SL, SA, SLU...,
mapped to ISO 20275 ELF codes), the province as region, the domicile of a "Constitución" or
"Cambio de domicilio social", and the inscription date as `founded_on` for a Constitución.
Semantics: "Disolución" (the company is dissolved and enters liquidation; under the Ley de Sociedades
de Capital it keeps its personality until extinguished) → in liquidation; "Extinción" (the
liquidation is closed and the sheet cancelled) → dissolved, on the inscription date; "Situación
concursal" (a concurso de acreedores, Spain's single insolvency procedure, whether it ends in a
composition or a liquidation) → the bankruptcy flag.

Officers: the acts Nombramientos (appointments), Reelecciones, Ceses/Dimisiones (cessations and
resignations), Revocaciones, and the Socio único of a Declaración de unipersonalidad, are increments,
not the current board: each is a role dated by its inscription (`since` for an appointment, `until`
for a cessation) that the loader applies on top of what earlier issues gave (`SourceInfo.
roles_increments`), so a company's roles from BORME are every appointment seen, ended or not. A
holder whose name ends in a company form is a company (without its sheet: the act does not print it);
every other holder is a natural person.

The XML: the summary (`<sumario>`) lists the day's PDFs and no company; a Section C announcement
(`<documento>`, e.g. a call to a general meeting) names its company by name only. Both are read
and validated, and their items are counted as skipped with that reason: neither identifies a company.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import fields, replace
from functools import cache
from typing import IO

from lxml import etree
from pypdf import PdfReader
from pypdf.errors import PdfReadError

from regintel.domain.names import fold
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.code_lists.files import read_pairs
from regintel.ingest.sources import register
from regintel.ingest.sources.es_borme_acts import Act, Issue, Officer, entries, issue_of, parse_act

INFO = SourceInfo(
    id="es_borme",
    name="BORME – Boletín Oficial del Registro Mercantil (Sección A: actos inscritos)",
    publisher="Agencia Estatal Boletín Oficial del Estado (BOE)",
    country="ES",
    category="register",
    formats="Section A PDF (actos inscritos, one per province); summary and Section C XML (read, "
    "no companies)",
    licence="BOE re-use conditions (free re-use with citation of the source)",
    licence_url="https://www.boe.es/informacion/aviso_legal/index.php",
    attribution="Fuente: Agencia Estatal Boletín Oficial del Estado (BORME)",
    url="https://www.boe.es/diario_borme/",
    cadence="daily",
    roles_increments=True,
)
MAX_PDF_BYTES = 64 << 20
# The name's last word (dots dropped) -> its ELF code.
FORMS: dict[str, str] = {
    "SLNE": "956I",
    "SLU": "R6UT",
    "SLL": "1G29",
    "SLP": "JB2M",
    "SAU": "5RDO",
    "SAL": "R2L8",
    "SAP": "AJ9U",
    "SCOOP": "1QU8",
    "AIE": "I2WU",
    "SL": "DP3Q",
    "SA": "5RDO",
    "SE": "9FPZ",
}
FORM_NAMES = {
    "SL": "Sociedad de Responsabilidad Limitada",
    "SLU": "Sociedad Limitada Unipersonal",
    "SLL": "Sociedad Limitada Laboral",
    "SLP": "Sociedad Limitada Profesional",
    "SLNE": "Sociedad Limitada Nueva Empresa",
    "SA": "Sociedad Anónima",
    "SAU": "Sociedad Anónima Unipersonal",
    "SAL": "Sociedad Anónima Laboral",
    "SAP": "Sociedad Anónima Profesional",
    "SCOOP": "Sociedad Cooperativa",
    "AIE": "Agrupación de Interés Económico",
    "SE": "Sociedad Anónima Europea",
}


# A post as BORME abbreviates it -> (role, title). Posts not listed keep the title as printed under
# `statutory_body` (the registry prints a few dozen abbreviations; these are the common ones).
POSTS: dict[str, tuple[str, str]] = {
    "Adm. Unico": ("director", "Administrador único"),
    "Adm. Solid.": ("director", "Administrador solidario"),
    "Adm. Mancom.": ("director", "Administrador mancomunado"),
    "Consejero": ("director", "Consejero"),
    "Presidente": ("director", "Presidente"),
    "Vicepresid.": ("director", "Vicepresidente"),
    "Con.Delegado": ("director", "Consejero delegado"),
    "Cons.Del.Man": ("director", "Consejero delegado mancomunado"),
    "Cons.Del.Sol": ("director", "Consejero delegado solidario"),
    "Secretario": ("statutory_body", "Secretario"),
    "Vicesecret.": ("statutory_body", "Vicesecretario"),
    "Liquidador": ("statutory_body", "Liquidador"),
    "Liquidador M": ("statutory_body", "Liquidador mancomunado"),
    "Apoderado": ("statutory_body", "Apoderado"),
    "Apo.Manc.": ("statutory_body", "Apoderado mancomunado"),
    "Apo.Sol.": ("statutory_body", "Apoderado solidario"),
    "Apo.Man.Soli": ("statutory_body", "Apoderado mancomunado y solidario"),
    "Auditor": ("auditor", "Auditor"),
    "Aud.Supl.": ("auditor", "Auditor suplente"),
    "Socio único": ("shareholder", "Socio único"),
}


# Provinces BORME writes by their Castilian name where NUTS 2021 uses another one. The Balearic and
# Canary provinces are split by island in NUTS 3, which a province does not tell: none is derived.
PROVINCE_ALIASES = {"alava": "ES211", "guipuzcoa": "ES212", "vizcaya": "ES213", "la coruna": "ES111"}
UNSPLIT_PROVINCES = {"illes balears", "baleares", "las palmas", "santa cruz de tenerife"}


@cache
def _province_nuts3() -> dict[str, str]:
    """Folded province name -> NUTS 3 code, from the packaged NUTS 2021 list: Spain's NUTS 3 regions
    are its provinces (each name also under its alternative spellings, "Alicante/Alacant")."""
    table = dict(PROVINCE_ALIASES)
    for code, name in read_pairs("nuts2021.csv", ";"):
        if code.startswith("ES") and len(code) == 5:
            for spelling in name.split("/"):
                table[fold(spelling).strip()] = code
    return table


def province_nuts3(province: str | None) -> str | None:
    """The NUTS 3 region of a BORME province heading ("CÁCERES" -> ES432), None where NUTS 3 splits
    the province (the islands) or the name is not known."""
    key = fold(province or "").strip()
    return None if key in UNSPLIT_PROVINCES else _province_nuts3().get(key)


class BormeSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        data = stream.read(MAX_PDF_BYTES + 1)
        if len(data) > MAX_PDF_BYTES:
            raise SourceAbort(f"larger than {MAX_PDF_BYTES >> 20} MiB: not a BORME file")
        head = data.lstrip()[:64]
        if head.startswith(b"%PDF"):
            yield from section_a(data)
        elif head.startswith(b"<"):
            yield from xml_items(data)
        else:
            raise SourceAbort("not a BORME file (neither a PDF nor XML)")


def section_a(data: bytes) -> Iterator[CompanyRecord | RecordError]:
    try:
        text = "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise SourceAbort(f"unreadable PDF: {exc}") from None
    try:
        issue = issue_of(text)
    except ValueError as exc:
        raise SourceAbort(str(exc)) from None
    found = entries(text, issue.province)
    if not found:
        raise SourceAbort("a Section A PDF without numbered acts")
    merged: dict[str, CompanyRecord] = {}
    for number, chunk in found:
        try:
            record = to_record(parse_act(number, chunk), issue)
        except RecordError as exc:
            exc.raw = {"act": number, "text": chunk[:2000]}
            yield exc
            continue
        earlier = merged.get(record.national_id)
        merged[record.national_id] = record if earlier is None else merge(earlier, record)
    yield from merged.values()


def merge(earlier: CompanyRecord, later: CompanyRecord) -> CompanyRecord:
    """One record of a company's acts in one issue: each act says only what it changed, so a later
    act's fields win where it states them and the earlier ones stand elsewhere."""
    changes = {
        item.name: getattr(earlier, item.name)
        for item in fields(later)
        if getattr(later, item.name) in (None, ())
    }
    changes["identifiers"] = tuple(dict.fromkeys(earlier.identifiers + later.identifiers))
    if earlier.roles is not None and later.roles is not None:
        # The appointments and cessations of both acts, in the order inscribed (the loader applies
        # them in turn: a cessation then an appointment of one holder leaves the holder in post).
        changes["roles"] = earlier.roles + later.roles
    return replace(later, **changes)


def to_record(act: Act, issue: Issue) -> CompanyRecord:
    name = act.new_name or act.name
    form = legal_form(name)
    dissolved = "Extinción" in act.kinds
    record = CompanyRecord(
        country="ES",
        national_id=act.sheet,
        name=name,
        source_record_id=f"{issue.cve}/{act.number}",
        published_on=issue.published_on,
        legal_form=form[0] if form else None,
        legal_form_name=FORM_NAMES.get(form[0]) if form else None,
        status="dissolved" if dissolved else None,
        dissolved_on=act.inscribed_on if dissolved else None,
        founded_on=act.inscribed_on if "Constitución" in act.kinds else None,
        street=act.street,
        city=act.city,
        region_code=issue.province,
        nuts3=province_nuts3(issue.province),
        address_text=f"{act.street}, {act.city}" if act.street and act.city else None,
        in_liquidation=True if "Disolución" in act.kinds and not dissolved else None,
        in_bankruptcy=True if "Situación concursal" in act.kinds else None,
        identifiers=(("elf", form[1]),) if form else (),
        roles=tuple(role(officer, act) for officer in act.officers) or None,
    )
    return record


def role(officer: Officer, act: Act) -> RoleRecord:
    """An appointment (since the inscription date) or a cessation (until it). A holder whose name ends
    in a company form (DELOITTE SL) is a company, whose registry sheet the act does not give; any
    other holder is a natural person, behind the purpose gate of personal data. The Socio único of a
    Declaración de unipersonalidad holds all the shares; its reappointment (Reelecciones) says the post
    goes on, not since when."""
    kind, title = POSTS.get(officer.post, ("statutory_body", officer.post))
    person = None if legal_form(officer.name) else PersonRecord(officer.name)
    since = None if officer.ended or officer.act == "Reelecciones" else act.inscribed_on
    return RoleRecord(
        kind,
        officer.name,
        person=person,
        title=title,
        share_pct=100.0 if kind == "shareholder" else None,
        since=since,
        until=act.inscribed_on if officer.ended else None,
    )


def legal_form(name: str) -> tuple[str, str] | None:
    """(form, ELF code) from the name's ending as BORME writes it ("VERAJERTE SL", "X S.L.U.")."""
    words = re.sub(r"(?<=\b[A-Z])\.\s?(?=[A-Z]\b)", "", name.upper()).replace(".", " ").split()
    form = words[-1] if words else ""
    return (form, FORMS[form]) if form in FORMS and len(words) > 1 else None


def xml_items(data: bytes) -> Iterator[Skipped]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise SourceAbort(f"not well-formed XML: {exc}") from None
    if root.tag == "sumario":
        items = root.findall("./diario/seccion/emisor/item")
        if root.findtext("meta/pub") != "BORME" or not items:
            raise SourceAbort("a <sumario> that is not a BORME summary (no meta/pub BORME or no items)")
        for item in items:
            if not (item.get("id") or "").startswith("BORME-"):
                raise SourceAbort(f"a summary item without a BORME id: {item.get('id')!r}")
            yield Skipped("summary item: lists a PDF, names no company (import the Section A PDF)")
        return
    if root.tag == "documento":
        ident = root.findtext("metadatos/identificador") or ""
        if not ident.startswith("BORME-") or not (root.findtext("metadatos/titulo") or "").strip():
            raise SourceAbort(
                "a <documento> that is not a BORME announcement (no BORME identificador / titulo)"
            )
        yield Skipped("Section C announcement: names its company by name only (no registry sheet, no CIF)")
        return
    raise SourceAbort(f"not a BORME XML (root <{root.tag!s}>, expected <sumario> or <documento>)")


SOURCE = register(BormeSource())
