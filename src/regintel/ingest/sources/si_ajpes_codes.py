"""AJPES PRS code lists: legal forms (ISO 20275 ELF, GLEIF list v1.5, Slovenia) and the status words."""

from __future__ import annotations

import re

from regintel.domain.names import fold
from regintel.ingest.sources.elf_names import elf_code

# Abbreviation -> (code, name, ELF)
LEGAL_FORMS: dict[str, tuple[str, str, str]] = {
    "doo": ("d.o.o.", "družba z omejeno odgovornostjo", "KBKD"),
    "dd": ("d.d.", "delniška družba", "1OR3"),
    "sp": ("s.p.", "samostojni podjetnik posameznik", "QW8S"),
    "kd": ("k.d.", "komanditna družba", "OPDJ"),
    "dno": ("d.n.o.", "družba z neomejeno odgovornostjo", "SD81"),
    "kdd": ("k.d.d.", "komanditna delniška družba", "WZ78"),
    "zoo": ("z.o.o.", "zadruga z omejeno odgovornostjo", "RAX7"),
    "zbo": ("z.b.o.", "zadruga brez odgovornosti", "TMVE"),
    "giz": ("GIZ", "gospodarsko interesno združenje", "UDQJ"),
    "egiz": ("EGIZ", "evropsko gospodarsko interesno združenje", "Q2EV"),
    "se": ("SE", "evropska delniška družba", "4A8T"),
    "dvz": ("d.v.z.", "družba za vzajemno zavarovanje", "ICQT"),
}


def legal_form(value: str) -> tuple[str | None, str | None, str | None]:
    words = " ".join(value.split())
    if not words:
        return None, None, None
    key = "".join(re.findall(r"[a-z0-9]+", fold(words)))
    if key in LEGAL_FORMS:
        return LEGAL_FORMS[key]
    return words[:16], words, elf_code("SI", words)


# (status, in_liquidation, in_bankruptcy, in_restructuring) by folded keyword, the most final first.
State = tuple[str, bool, bool, bool]
STATES: tuple[tuple[str, State], ...] = (
    ("izbris", ("dissolved", False, False, False)),
    ("stecaj", ("active", False, True, False)),
    ("prisilna poravnava", ("active", False, False, True)),
    ("poenostavljena prisilna poravnava", ("active", False, False, True)),
    ("preventivno prestrukturiranje", ("active", False, False, True)),
    ("likvidacij", ("active", True, False, False)),
    ("aktiv", ("active", False, False, False)),
    ("vpisan", ("active", False, False, False)),
)


def state_of(words: str) -> State | None:
    folded = fold(words)
    return next((s for key, s in STATES if key in folded), None)
