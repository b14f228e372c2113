"""UR entity types (`type` of register.csv) and their ISO 20275 ELF codes (GLEIF ELF list v1.5).

Only the commercial-law forms have an ELF code for Latvia; associations (BDR), foundations (NOD),
farms (ZEM), individual enterprises (IND), religious bodies and branches have none on the list."""

from __future__ import annotations

# type -> (name, ELF code or None)
LEGAL_FORMS: dict[str, tuple[str, str | None]] = {
    "SIA": ("Sabiedrība ar ierobežotu atbildību", "ES2D"),
    "AS": ("Akciju sabiedrība", "VJBO"),
    "IK": ("Individuālais komersants", "BS22"),
    "PS": ("Pilnsabiedrība", "3LCY"),
    "KS": ("Komandītsabiedrība", "1IPK"),
    "EEIG": ("Eiropas Ekonomisko interešu grupa", "5ULL"),
    "SE": ("Eiropas komercsabiedrība", "AZTM"),
    "BDR": ("Biedrība", None),
    "NOD": ("Nodibinājums", None),
    "ZEM": ("Zemnieku saimniecība", None),
    "IND": ("Individuālais uzņēmums", None),
    "KB": ("Kooperatīvā sabiedrība", None),
    "PSV": ("Pašvaldības uzņēmums", None),
    "FIL": ("Filiāle", None),
    "AKF": ("Ārvalsts komersanta filiāle", None),
    "PAR": ("Ārvalsts komersanta pārstāvniecība", None),
    "DRZ": ("Draudze", None),
    "KAT": ("Katoļu baznīcas publisko tiesību juridiskā persona", None),
    "PPA": ("Politisko partiju apvienība", None),
}


def legal_form(code: str | None) -> tuple[str | None, str | None]:
    """(name, ELF code) of a UR type; unknown types keep their code and get neither."""
    return LEGAL_FORMS.get(code or "", (None, None))
