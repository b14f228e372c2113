"""Registro Imprese code lists: legal forms (natura giuridica → ISO 20275 ELF, GLEIF list v1.5,
Italy) and the state words of an enterprise."""

from __future__ import annotations

import re

from regintel.domain.names import fold
from regintel.ingest.sources.elf_names import elf_code

# Abbreviation or InfoCamere's two-letter code -> (code, name, ELF)
LEGAL_FORMS: dict[str, tuple[str, str, str]] = {
    "srl": ("SRL", "Società a responsabilità limitata", "OV32"),
    "sr": ("SRL", "Società a responsabilità limitata", "OV32"),
    "srls": ("SRLS", "Società a responsabilità limitata semplificata", "8GU1"),
    "rs": ("SRLS", "Società a responsabilità limitata semplificata", "8GU1"),
    "su": ("SRL", "Società a responsabilità limitata con unico socio", "B5TO"),
    "spa": ("SPA", "Società per azioni", "P418"),
    "sp": ("SPA", "Società per azioni", "P418"),
    "sapa": ("SAPA", "Società in accomandita per azioni", "DLS4"),
    "snc": ("SNC", "Società in nome collettivo", "T2X1"),
    "sn": ("SNC", "Società in nome collettivo", "T2X1"),
    "sas": ("SAS", "Società in accomandita semplice", "CGSO"),
    "as": ("SAS", "Società in accomandita semplice", "CGSO"),
    "ss": ("SS", "Società semplice", "2XXH"),
    "sc": ("SC", "Società cooperativa", "QRZJ"),
    "scarl": ("SCARL", "Società consortile a responsabilità limitata", "BL52"),
    "di": ("DI", "Impresa individuale", "LHBB"),
    "se": ("SE", "Società europea", "VUPE"),
    "geie": ("GEIE", "Gruppo europeo di interesse economico", "634M"),
}


def _key(value: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", fold(value)))


def legal_form(value: str) -> tuple[str | None, str | None, str | None]:
    words = " ".join(value.split())
    if not words:
        return None, None, None
    if _key(words) in LEGAL_FORMS:
        return LEGAL_FORMS[_key(words)]
    elf = elf_code("IT", words)
    known = next((v for v in LEGAL_FORMS.values() if v[2] == elf), None) if elf else None
    return (known[0], words, elf) if known else (words[:16], words, elf)


# (status, in_liquidation, in_bankruptcy, in_restructuring) by folded keyword, the most final first.
State = tuple[str, bool, bool, bool]
STATES: tuple[tuple[str, State], ...] = (
    ("cessat", ("dissolved", False, False, False)),
    ("cancellat", ("dissolved", False, False, False)),
    ("liquidazione giudiziale", ("active", False, True, False)),
    ("fallit", ("active", False, True, False)),
    ("fallimento", ("active", False, True, False)),
    ("concordato", ("active", False, False, True)),
    ("ristrutturazione", ("active", False, False, True)),
    ("liquidazione", ("active", True, False, False)),
    ("scioglimento", ("active", True, False, False)),
    ("inattiv", ("inactive", False, False, False)),
    ("sospes", ("inactive", False, False, False)),
    ("attiv", ("active", False, False, False)),
    ("registrat", ("active", False, False, False)),
)


def state_of(words: str) -> State | None:
    folded = fold(words)
    return next((s for key, s in STATES if key in folded), None)
