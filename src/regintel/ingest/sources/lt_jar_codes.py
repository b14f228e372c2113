"""Lithuanian JAR code lists, read by their Lithuanian names (folded: no case, no diacritics), since
the names are what the bulk file and the classifiers share: legal forms with their abbreviations
and ISO 20275 ELF codes (GLEIF list v1.5 writes the Lithuanian forms in the plural, JAR in the
singular), and legal statuses with what they mean for our status and insolvency flags."""

from __future__ import annotations

from dataclasses import dataclass

from regintel.domain.names import fold

# folded form_pavadinimas -> (abbreviation, ELF code)
LEGAL_FORMS: dict[str, tuple[str, str]] = {
    "uzdaroji akcine bendrove": ("UAB", "BPLS"),
    "akcine bendrove": ("AB", "81KA"),
    "mazoji bendrija": ("MB", "SFYA"),
    "individuali imone": ("IĮ", "A338"),
    "tikroji ukine bendrija": ("TŪB", "DLCX"),
    "komanditine ukine bendrija": ("KŪB", "LUOA"),
    "zemes ukio bendrove": ("ŽŪB", "UHNL"),
    "kooperatine bendrove (kooperatyvas)": ("KB", "LUGM"),
    "kooperatine bendrove": ("KB", "LUGM"),
    "viesoji istaiga": ("VšĮ", "KWBA"),
    "asociacija": ("A", "F2ZF"),
    "labdaros ir paramos fondas": ("LPF", "HGMH"),
    "biudzetine istaiga": ("BĮ", "K4GR"),
    "valstybes imone": ("VĮ", "4ZF3"),
    "savivaldybes imone": ("SĮ", "YRXK"),
    "europos bendrove": ("EB", "13T9"),
    "europos ekonominiu interesu grupe": ("EEIG", "BGPJ"),
    "europos kooperatine bendrove": ("EKB", "5BY2"),
    "politine partija": ("PP", "X8J8"),
    "profesine sajunga": ("PS", "6JDN"),
    "sodininku bendrija": ("SB", "QG9Y"),
    "bendrija": ("BN", "HJ1Y"),
    "advokatu profesine bendrija": ("APB", "5CIE"),
    "seimyna": ("S", "5TA8"),
}


@dataclass(frozen=True)
class LegalStatus:
    status: str
    in_bankruptcy: bool | None = False
    in_restructuring: bool | None = False
    in_liquidation: bool | None = False


ACTIVE = LegalStatus("active")
# Reorganisation, division, conversion under the Civil Code are corporate changes, not insolvency.
STATUSES: dict[str, LegalStatus] = {
    "teisinis statusas neiregistruotas": ACTIVE,
    "reorganizuojamas": ACTIVE,
    "dalyvaujantis reorganizavime": ACTIVE,
    "pertvarkomas": ACTIVE,
    "dalijamas": ACTIVE,
    "atskiriamas": ACTIVE,
    "dalyvaujantis atskyrime": ACTIVE,
    "likviduojamas": LegalStatus("active", in_liquidation=True),
    "likviduojamas del bankroto": LegalStatus("active", in_bankruptcy=True),
    "bankrutuojantis": LegalStatus("active", in_bankruptcy=True),
    "bankrutaves": LegalStatus("active", in_bankruptcy=True),
    "restrukturizuojamas": LegalStatus("active", in_restructuring=True),
    "likviduotas": LegalStatus("dissolved"),
    "isregistruotas": LegalStatus("dissolved"),
}
# A status this table does not know: the entity is in the register of registered entities, so it
# is active; what the status means for insolvency is not guessed.
UNKNOWN = LegalStatus("active", None, None, None)


def legal_form(name: str | None) -> tuple[str, str] | None:
    return LEGAL_FORMS.get(fold(name or "").strip())


def legal_status(name: str | None) -> LegalStatus:
    return STATUSES.get(fold(name or "").strip(), UNKNOWN)
