"""ONRC code lists: legal forms (ISO 20275 ELF, GLEIF list v1.5, Romania), the company states of
`n_stare_firma.csv` read by their words, the județ → NUTS 3 table, ONRC's county number → NUTS 3
(`data/codelists/ro_judete_nuts3.csv`) and CAEN codes → NACE classes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from regintel.domain.names import fold
from regintel.ingest.code_lists.files import data_dir, read_csv
from regintel.ingest.sources.nace_revisions import class_of

# ONRC writes FORMA_JURIDICA as the abbreviation ("SRL") or in words; both are keyed here (folded).
LEGAL_FORMS: dict[str, tuple[str, str, str | None]] = {
    "srl": ("SRL", "Societate cu răspundere limitată", "XHN1"),
    "societate cu raspundere limitata": ("SRL", "Societate cu răspundere limitată", "XHN1"),
    "sa": ("SA", "Societate pe acțiuni", "ANDT"),
    "societate pe actiuni": ("SA", "Societate pe acțiuni", "ANDT"),
    "snc": ("SNC", "Societate în nume colectiv", "F68H"),
    "societate in nume colectiv": ("SNC", "Societate în nume colectiv", "F68H"),
    "scs": ("SCS", "Societate în comandită simplă", "V0FL"),
    "societate in comandita simpla": ("SCS", "Societate în comandită simplă", "V0FL"),
    "sca": ("SCA", "Societate în comandită pe acțiuni", "SWMK"),
    "societate in comandita pe actiuni": ("SCA", "Societate în comandită pe acțiuni", "SWMK"),
    "pfa": ("PFA", "Persoană fizică autorizată", "FJQ8"),
    "persoana fizica autorizata": ("PFA", "Persoană fizică autorizată", "FJQ8"),
    "ii": ("II", "Întreprindere individuală", "DUGD"),
    "intreprindere individuala": ("II", "Întreprindere individuală", "DUGD"),
    "if": ("IF", "Întreprindere familială", None),  # no ELF code for it on the v1.5 list
    "intreprindere familiala": ("IF", "Întreprindere familială", None),
    "ra": ("RA", "Regie autonomă", "CUGP"),
    "regie autonoma": ("RA", "Regie autonomă", "CUGP"),
    "gie": ("GIE", "Grup de interes economic", "EFBR"),
    "grup de interes economic": ("GIE", "Grup de interes economic", "EFBR"),
    "geie": ("GEIE", "Grupul european de interes economic", "4V0A"),
    "se": ("SE", "Societate europeană", "1CDX"),
    "societate europeana": ("SE", "Societate europeană", "1CDX"),
    "sce": ("SCE", "Societate cooperativă europeană", "UWEE"),
    "societate cooperativa": ("SCOOP", "Societate cooperativă", "7B9H"),
    "scoop": ("SCOOP", "Societate cooperativă", "7B9H"),
    "cooperativa agricola": ("CA", "Cooperativă agricolă", "I15K"),
}


def legal_form(value: str) -> tuple[str | None, str | None, str | None]:
    """(code, name, ELF) of a FORMA_JURIDICA; an unknown form keeps its words as code and name."""
    words = " ".join(value.split())
    if not words:
        return None, None, None
    key = " ".join(re.findall(r"[a-z0-9]+", fold(words)))
    return LEGAL_FORMS.get(key.replace(" ", "") if len(key) <= 6 else key, (words[:16], words, None))


@dataclass(frozen=True)
class State:
    status: str
    in_liquidation: bool = False
    in_restructuring: bool = False
    in_bankruptcy: bool = False


# The two codes SOURCES.md names, for a file set without n_stare_firma.csv.
KNOWN_CODES = {"1048": "funcțiune", "1084": "radiată"}

# n_stare_firma.csv names states in words ("funcțiune", "radiată", "dizolvare", "lichidare
# voluntară", "în insolvență", "faliment", "reorganizare judiciară", "suspendare temporară a
# activității", ...). Read by keyword, the most final first: a struck-off company (radiată) is gone
# whatever else the row says.
_RULES: tuple[tuple[str, State], ...] = (
    ("radiat", State("dissolved")),
    ("faliment", State("active", in_bankruptcy=True)),
    ("reorganizare", State("active", in_restructuring=True)),
    ("insolvent", State("active", in_bankruptcy=True)),
    ("lichidare", State("active", in_liquidation=True)),
    ("dizolvat", State("active", in_liquidation=True)),
    ("dizolvare", State("active", in_liquidation=True)),
    ("suspend", State("inactive")),
    ("inactiv", State("inactive")),
    ("functiune", State("active")),
)


def state_of(words: str) -> State | None:
    folded = fold(words)
    return next((state for key, state in _RULES if key in folded), None)


def combined(states: list[State]) -> State:
    """A company may carry several states (in insolvency and in liquidation): all flags together, the
    status of the most final one."""
    order = {"dissolved": 0, "inactive": 1, "active": 2}
    status = min((s.status for s in states), key=order.__getitem__)
    return State(
        status,
        any(s.in_liquidation for s in states),
        any(s.in_restructuring for s in states),
        any(s.in_bankruptcy for s in states),
    )


@lru_cache(maxsize=1)
def _judete() -> dict[str, str]:
    table: dict[str, str] = {}
    for nuts_id, name in (r.split(";", 1) for r in _nuts_rows()):
        if nuts_id.startswith("RO") and len(nuts_id) == 5:
            table[" ".join(re.findall(r"[a-z]+", fold(name)))] = nuts_id
    table["municipiul bucuresti"] = table["bucuresti"]
    return table


def _nuts_rows() -> list[str]:
    return data_dir().joinpath("nuts2021.csv").read_text(encoding="utf-8").splitlines()[1:]


def nuts3(judet: str) -> str | None:
    """The NUTS 3 region of a județ (for Romania, NUTS 3 regions are the județe and Bucharest)."""
    key = " ".join(re.findall(r"[a-z]+", fold(judet)))
    return _judete().get(key) or _judete().get(key.removeprefix("judetul ").strip())


@lru_cache(maxsize=1)
def _counties() -> dict[str, str]:
    return {row["onrc_county"]: row["nuts3"] for row in read_csv("ro_judete_nuts3.csv")}


def county_nuts3(county: str | None) -> str | None:
    """The NUTS 3 region of ONRC's county number (the "40" of "J40/…"), for a trader whose ADR_JUDET is
    empty or unknown."""
    return _counties().get(county) if county else None


# VER_CAEN_AUTORIZAT -> the NACE revision the CAEN revision is built on: CAEN Rev. 2 (2008) is NACE
# Rev. 2 at class level, CAEN Rev. 3 (in force from 2025) is NACE Rev. 2.1 at class level.
CAEN_REVISIONS = {"2": "2", "3": "2.1"}


def caen_revision(version: str) -> str | None:
    """ "2"/"3" of a VER_CAEN_AUTORIZAT ("2", "Rev. 2", "CAEN Rev.3"); empty is Rev. 2, the revision the
    file carried before 2025; anything else None."""
    digits = "".join(c for c in version if c.isdigit()) or "2"
    return digits if digits in CAEN_REVISIONS else None


@lru_cache(maxsize=8192)  # a few hundred classes in two revisions: parsed once, not once a row
def caen_class(code: str, version: str) -> str | None:
    """The NACE class (`NN.NN`, of the CAEN revision's NACE revision) of a 4-digit CAEN class, or None
    when the code is not a class of that revision."""
    revision = caen_revision(version)
    if revision is None or len(code) != 4:
        return None
    return class_of(code, CAEN_REVISIONS[revision])
