"""GEMI code lists: legal types (metadata/legalTypes) with their ISO 20275 ELF codes (GLEIF list
v1.5, Greece), status words and person roles."""

from __future__ import annotations

from regintel.domain.names import fold
from regintel.ingest.sources.elf_names import elf_code

# legalTypes id -> (abbreviation, name, ELF). Ids as SOURCES.md lists them (1 ΑΕ, 2 ΟΕ, 4 ΕΕ, 8 ΕΠΕ,
# 19 ΙΚΕ, 16 ΑΤΟΜΙΚΗ); a sole trader (ατομική επιχείρηση) has no Greek ELF code.
LEGAL_TYPES: dict[str, tuple[str, str, str | None]] = {
    "1": ("ΑΕ", "Ανώνυμη Εταιρεία", "W2NK"),
    "2": ("ΟΕ", "Ομόρρυθμη Εταιρεία", "TIZ2"),
    "4": ("ΕΕ", "Ετερόρρυθμη Εταιρεία", "54AL"),
    "8": ("ΕΠΕ", "Εταιρεία Περιορισμένης Ευθύνης", "H6OR"),
    "16": ("ΑΤΟΜΙΚΗ", "Ατομική Επιχείρηση", None),
    "19": ("ΙΚΕ", "Ιδιωτική Κεφαλαιουχική Εταιρεία", "QCA0"),
}
_BY_ABBREVIATION = {fold(code): (code, name, elf) for code, name, elf in LEGAL_TYPES.values()}


def legal_form(type_id: str | None, descr: str | None) -> tuple[str | None, str | None, str | None]:
    """(code, name, ELF) of a legalType; an unknown type keeps its description (ELF looked up by name)."""
    if type_id in LEGAL_TYPES:
        return LEGAL_TYPES[type_id]
    if descr:
        head = fold(descr).split("/")[0].strip().replace(".", "")
        if head in _BY_ABBREVIATION:
            return _BY_ABBREVIATION[head]
        return (type_id or descr[:16]), descr, elf_code("GR", descr)
    return type_id, None, None


# (status, in_liquidation, in_bankruptcy, in_restructuring) by folded keyword, the most final first.
State = tuple[str, bool, bool, bool]
_STATES: tuple[tuple[str, State], ...] = (
    ("διαγραφ", ("dissolved", False, False, False)),
    ("πτωχευ", ("active", False, True, False)),
    ("εξυγιαν", ("active", False, False, True)),
    ("εκκαθαρ", ("active", True, False, False)),
    ("λυση", ("active", True, False, False)),
    ("ανενεργ", ("inactive", False, False, False)),
    ("αδραν", ("inactive", False, False, False)),
    ("ενεργ", ("active", False, False, False)),
)


def state_of(words: str, is_active: object) -> State | None:
    folded = fold(words)
    state = next((s for key, s in _STATES if key in folded), None)
    if state is not None:
        return state
    if isinstance(is_active, bool):
        return ("active", False, False, False) if is_active else ("inactive", False, False, False)
    return None


def role_of(title: str) -> str:
    """Partners and shareholders are owners; auditors auditors; every other organ (manager,
    chairman, board member, legal representative) a director."""
    folded = fold(title)
    if "εταιρ" in folded or "μετοχ" in folded:
        return "shareholder"
    if "ελεγκτ" in folded:
        return "auditor"
    return "director"
