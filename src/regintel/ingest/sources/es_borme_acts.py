"""The registered acts of a BORME Section A PDF ("Actos inscritos"), read from its text: pure
functions from the extracted text to one `Act` per numbered entry.

An entry is `<number> - <COMPANY NAME>.` followed by the acts inscribed ("Constitución.",
"Nombramientos.", "Cambio de domicilio social.", "Disolución.", "Extinción.", ...) and ends with
`Datos registrales. T <tomo>, L <libro>, F <folio>, S <sección>, H <province> <sheet>, I/A <inscripción>
(<dd.mm.yy>)`. Page headers (boletín, número, cve, section titles, province) are dropped first."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from regintel.ingest.base import RecordError

MONTHS = {
    "enero": 1,
    "febrero": 2,
    "marzo": 3,
    "abril": 4,
    "mayo": 5,
    "junio": 6,
    "julio": 7,
    "agosto": 8,
    "septiembre": 9,
    "setiembre": 9,
    "octubre": 10,
    "noviembre": 11,
    "diciembre": 12,
}
_ISSUE = re.compile(r"Núm\. (\d+) \w+ (\d{1,2}) de (\w+) de (\d{4}) Pág\. \d+")
_CVE = re.compile(r"cve: (BORME-A-\d{4}-\d+-\d+)")
_HEADER_LINES = re.compile(
    r"^(BOLETÍN OFICIAL DEL REGISTRO MERCANTIL|Núm\. \d+ .* Pág\. \d+|cve: BORME-\S+|SECCIÓN PRIMERA|"
    r"Empresarios|"
    r"Actos inscritos|http://www\.boe\.es .*|Verificable en .*)$",
    re.M,
)
_ENTRY = re.compile(r"^(\d{1,7}) - (.+)$", re.M)
_REGISTRY = re.compile(r"Datos registrales\.(.*?)\(\s*(\d{1,2})\.(\d{1,2})\.(\d{2})\s*\)", re.S)
_SHEET = re.compile(r"\bH ([A-Z]{1,2}) ?(\d{1,7})\b")
_NEW_NAME = re.compile(r"Cambio de denominación social\.\s+(.+?)\.\s{2}", re.S)
_ADDRESS = re.compile(r"(?:Cambio de domicilio social\.\s+|Domicilio: )(.+?) \(([^()]+)\)\.", re.S)
KINDS = (
    "Constitución",
    "Nombramientos",
    "Ceses/Dimisiones",
    "Revocaciones",
    "Reelecciones",
    "Cambio de denominación social",
    "Cambio de domicilio social",
    "Cambio de objeto social",
    "Ampliación de capital",
    "Reducción de capital",
    "Declaración de unipersonalidad",
    "Pérdida del caracter de unipersonalidad",
    "Modificaciones estatutarias",
    "Disolución",
    "Extinción",
    "Situación concursal",
    "Fusión por absorción",
    "Escisión",
    "Transformación de sociedad",
    "Otros conceptos",
)


# The acts that name officers or the sole shareholder, and whether they end the post.
OFFICER_ACTS: dict[str, bool] = {
    "Nombramientos": False,
    "Reelecciones": False,
    "Declaración de unipersonalidad": False,
    "Ceses/Dimisiones": True,
    "Revocaciones": True,
    "Pérdida del caracter de unipersonalidad": True,
}
_ACT_MARK = re.compile(
    "|".join(re.escape(f"{k}.") for k in sorted(KINDS, key=len, reverse=True)) + r"|Datos registrales\."
)
# A post as BORME abbreviates it ("Adm. Unico", "Aud.Supl.", "Apo.Man.Soli", "Socio único"): words in
# mixed case, where the holders' names are printed in capitals, then a colon.
_POST = re.compile(r"(?<![^\s.])([A-Z][a-záéíóúñ]+\.?(?:\s?[A-Za-záéíóúñ]+\.?){0,3}):\s*")
# The end of a holder list: a sentence in mixed case after it (an act this parser does not name).
_LIST_END = re.compile(r"\.\s+(?=[A-Z][a-záéíóúñ])")


@dataclass(frozen=True)
class Officer:
    post: str  # as printed: "Adm. Unico", "Auditor", "Socio único"
    name: str  # as printed: "PANIAGUA SANCHEZ JOSE ANTONIO", "DELOITTE SL"
    ended: bool  # a cessation or revocation (or the end of single-member status), not an appointment
    act: str  # the act that names it: "Nombramientos", "Ceses/Dimisiones", ...


@dataclass
class Act:
    number: str
    name: str
    sheet: str  # "H CC 11959"
    inscribed_on: date
    kinds: list[str] = field(default_factory=list)
    new_name: str | None = None
    street: str | None = None
    city: str | None = None
    officers: list[Officer] = field(default_factory=list)


@dataclass
class Issue:
    cve: str  # BORME-A-2015-27-10
    number: int
    published_on: date
    province: str | None


def issue_of(text: str) -> Issue:
    """The issue a Section A PDF's text belongs to, from its first page header."""
    head, cve = _ISSUE.search(text), _CVE.search(text)
    if head is None or cve is None or "Actos inscritos" not in text[:2000]:
        raise ValueError("not a BORME Section A (actos inscritos) PDF: no issue header")
    month = MONTHS.get(head[3].lower())
    if month is None:
        raise ValueError(f"unknown month in the issue header: {head[3]!r}")
    after = text[text.index("Actos inscritos") + len("Actos inscritos") :].lstrip().splitlines()
    province = after[0].strip() if after and not _ENTRY.match(after[0]) else None
    return Issue(cve[1], int(head[1]), date(int(head[4]), month, int(head[2])), province)


def entries(text: str, province: str | None = None) -> list[tuple[str, str]]:
    """(number, the entry's text from its name on) of every numbered entry, page headers removed."""
    body = _HEADER_LINES.sub("", text)
    if province:
        body = re.sub(rf"^{re.escape(province)}$", "", body, flags=re.M)
    starts = list(_ENTRY.finditer(body))
    out = []
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(body)
        out.append((match[1], body[match.start(2) : end]))
    return out


def parse_act(number: str, chunk: str) -> Act:
    """One entry's act; a `RecordError` when it lacks the registry data that identify the company."""
    name_line, _, rest = chunk.partition("\n")
    name = name_line.strip().removesuffix(".").strip()
    flat = " ".join(rest.split("\n"))
    registry = _REGISTRY.search(flat)
    if registry is None:
        raise RecordError(f"act {number} ({name}): no 'Datos registrales ... (dd.mm.yy)'")
    sheet = _SHEET.search(registry[1])
    if sheet is None:
        raise RecordError(f"act {number} ({name}): the registry data name no sheet (H <province> <number>)")
    try:
        inscribed = date(2000 + int(registry[4]), int(registry[3]), int(registry[2]))
    except ValueError:
        raise RecordError(f"act {number} ({name}): the inscription date is not a date") from None
    act = Act(
        number,
        name,
        f"H {sheet[1]} {sheet[2]}",
        inscribed,
        kinds=[k for k in KINDS if f"{k}." in flat or f"{k}:" in flat],
    )
    renamed = _NEW_NAME.search(flat + "  ")
    if renamed:
        act.new_name = renamed[1].strip()
    address = _ADDRESS.search(flat)
    if address:
        act.street, act.city = address[1].strip(), address[2].strip()
    act.officers = officers(flat)
    return act


def officers(flat: str) -> list[Officer]:
    """The holders named by an entry's appointment, re-election, cessation, revocation and
    single-member acts, in the order printed: "Nombramientos.  Adm. Solid.: A;B.  Auditor: X SL." is
    three holders of two posts."""
    marks = list(_ACT_MARK.finditer(flat))
    out: list[Officer] = []
    for i, mark in enumerate(marks):
        act = mark[0].removesuffix(".")
        if act not in OFFICER_ACTS:
            continue
        section = flat[mark.end() : marks[i + 1].start() if i + 1 < len(marks) else len(flat)]
        posts = list(_POST.finditer(section))
        for j, post in enumerate(posts):
            value = section[post.end() : posts[j + 1].start() if j + 1 < len(posts) else len(section)]
            value = _LIST_END.split(value, maxsplit=1)[0].strip().removesuffix(".").strip()
            for name in value.split(";"):
                if name := " ".join(name.split()).removesuffix("."):
                    out.append(Officer(post[1].strip(), name, OFFICER_ACTS[act], act))
    return out
