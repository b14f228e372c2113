"""Firmenbuch legal forms (ISO 20275 ELF, GLEIF list v1.5, Austria) and function codes (FKEN)."""

from __future__ import annotations

import re

from regintel.domain.names import fold
from regintel.ingest.sources.elf_names import elf_code

# Abbreviation or Firmenbuch form code -> (code, name, ELF).
LEGAL_FORMS: dict[str, tuple[str, str, str]] = {
    "gmbh": ("GmbH", "Gesellschaft mit beschränkter Haftung", "AXSB"),
    "gesmbh": ("GmbH", "Gesellschaft mit beschränkter Haftung", "AXSB"),
    "ges": ("GmbH", "Gesellschaft mit beschränkter Haftung", "AXSB"),
    "ag": ("AG", "Aktiengesellschaft", "EQOV"),
    "kg": ("KG", "Kommanditgesellschaft", "ONF1"),
    "og": ("OG", "Offene Gesellschaft", "JTAV"),
    "ohg": ("OHG", "Offene Handelsgesellschaft", "GVPD"),
    "eu": ("e.U.", "Eingetragener Einzelunternehmer", "ECWU"),
    "gen": ("Gen", "Genossenschaft", "8XDW"),
    "ps": ("PS", "Privatstiftung", "5WWO"),
    "se": ("SE", "Europäische Gesellschaft (SE)", "O65B"),
    "sce": ("SCE", "Europäische Genossenschaft (SCE)", "69H1"),
    "ewiv": ("EWIV", "Europäische wirtschaftliche Interessenvereinigung", "DM88"),
    "vvag": ("VVaG", "Versicherungsverein auf Gegenseitigkeit", "CAQ1"),
    "spk": ("SPK", "Sparkasse", "JQOI"),
}


def _key(value: str) -> str:
    return "".join(re.findall(r"[a-z0-9]+", fold(value)))


def legal_form(code: str | None, text: str | None) -> tuple[str | None, str | None, str | None]:
    """(code, name, ELF) from the form code and/or its words; an unknown form keeps what it was given."""
    for value in (code, text):
        if value and _key(value) in LEGAL_FORMS:
            return LEGAL_FORMS[_key(value)]
    elf = elf_code("AT", text)
    if text and elf:
        return code or text[:16], text, elf
    return code or (text[:16] if text else None), text, None


# FKEN -> (role, title)
FUNCTIONS: dict[str, tuple[str, str]] = {
    "GF": ("director", "Geschäftsführer"),
    "VS": ("director", "Vorstand"),
    "VV": ("director", "Vorstandsvorsitzender"),
    "IH": ("director", "Inhaber"),
    "PR": ("statutory_body", "Prokurist"),
    "AR": ("statutory_body", "Aufsichtsrat"),
    "LI": ("statutory_body", "Liquidator"),
    "GS": ("shareholder", "Gesellschafter"),
    "KM": ("shareholder", "Kommanditist"),
    "KP": ("shareholder", "Komplementär"),
}
