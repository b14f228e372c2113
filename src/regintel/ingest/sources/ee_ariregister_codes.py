"""e-Business Register (äriregister) code lists: legal forms (as the open data writes them, in words)
with their abbreviations and ISO 20275 ELF codes, the status letters, and counties to NUTS 3.

ELF codes are from GLEIF's list v1.5 (the Estonian entries' local names are these same words)."""

from __future__ import annotations

from dataclasses import dataclass

# ettevotja_oiguslik_vorm -> (abbreviation, ELF code)
LEGAL_FORMS: dict[str, tuple[str, str | None]] = {
    "Osaühing": ("OÜ", "JC0Y"),
    "Aktsiaselts": ("AS", "9LJA"),
    "Füüsilisest isikust ettevõtja": ("FIE", "3UPJ"),
    "Täisühing": ("TÜ", "I1UP"),
    "Usaldusühing": ("UÜ", "LVEQ"),
    "Tulundusühistu": ("TÜH", "VSEV"),
    "Mittetulundusühing": ("MTÜ", "PRTB"),
    "Sihtasutus": ("SA", "1NKP"),
    "Korteriühistu": ("KÜ", "8ZQE"),
    "Hooneühistu": ("HÜ", "6I0P"),
    "Euroopa äriühing": ("SE", "752Q"),
    "Euroopa ühistu": ("SCE", "RXTT"),
    "Euroopa majandushuviühing": ("EMHÜ", "LA47"),
    "Ametiühing": ("AÜ", "J34T"),
    "Erakond": ("Erakond", "GA3A"),
    "Usuline ühendus": ("Usuline ühendus", "CKOS"),
    "Loomeliit": ("Loomeliit", "PMOF"),
    "Avalik-õiguslik juriidiline isik": ("AÕJI", "BE56"),
    # Branches are registered but are not legal persons: no ELF code.
    "Välismaa äriühingu filiaal": ("Filiaal", None),
}


@dataclass(frozen=True)
class Status:
    status: str
    in_bankruptcy: bool = False
    in_liquidation: bool = False


# ettevotja_staatus: R registrisse kantud (entered), L likvideerimisel (in liquidation),
# N pankrotis (declared bankrupt), K kustutatud (deleted from the register).
STATUSES: dict[str, Status] = {
    "R": Status("active"),
    "L": Status("active", in_liquidation=True),
    "N": Status("active", in_bankruptcy=True),
    "K": Status("dissolved"),
}

# County (maakond, the first part of the normalised ADS address) -> NUTS 2021 level 3.
COUNTY_NUTS3: dict[str, str] = {
    "Harju maakond": "EE001",
    "Hiiu maakond": "EE004",
    "Lääne maakond": "EE004",
    "Pärnu maakond": "EE004",
    "Saare maakond": "EE004",
    "Jõgeva maakond": "EE008",
    "Põlva maakond": "EE008",
    "Tartu maakond": "EE008",
    "Valga maakond": "EE008",
    "Viljandi maakond": "EE008",
    "Võru maakond": "EE008",
    "Järva maakond": "EE009",
    "Lääne-Viru maakond": "EE009",
    "Rapla maakond": "EE009",
    "Ida-Viru maakond": "EE00A",
}

# isiku_roll of the persons on the registry card -> our role vocabulary (others: statutory_body,
# with the register's wording as the title).
ROLES: dict[str, str] = {"JUHL": "director", "OSAN": "shareholder"}


def county_nuts3(place: str | None) -> str | None:
    """NUTS 3 of the county (maakond) named in an address or EHAK place name, wherever it stands:
    first in the ADS address ("Harju maakond, Tallinn, …"), last in an EHAK name ("Pirita linnaosa,
    Tallinn, Harju maakond")."""
    for part in (place or "").split(","):
        found = COUNTY_NUTS3.get(part.strip())
        if found:
            return found
    return None


# EMTAK version -> the NACE revision it extends: EMTAK 2008 is NACE Rev. 2 with a national fifth
# digit, EMTAK 2025 NACE Rev. 2.1 (the register's emtak_versioon 3 is EMTAK 2025).
EMTAK_REVISIONS = {"EMTAK 2008": "2", "EMTAK 2025": "2.1"}


def emtak_revision(wording: object, version: object) -> str | None:
    """The NACE revision of an activity's EMTAK version, None when the entry does not say."""
    if isinstance(wording, str) and wording.strip() in EMTAK_REVISIONS:
        return EMTAK_REVISIONS[wording.strip()]
    return "2.1" if str(version).strip() == "3" else None
