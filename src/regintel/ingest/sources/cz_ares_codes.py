"""Code lists the ARES records refer to by number only.

ARES publishes `pravniForma` as the ČSÚ legal-form code and the region as the RÚIAN code of the
kraj (VÚSC). The names of the common legal forms and the NUTS 3 code of each kraj are kept here so
an imported company carries them without a second look-up; a code missing here keeps its code and
gets no name.
"""

from __future__ import annotations

# ČSÚ "Klasifikace právních forem" (ARES code list PravniForma): the forms that cover nearly all
# registered entities.
LEGAL_FORMS: dict[str, str] = {
    "101": "Fyzická osoba podnikající dle živnostenského zákona nezapsaná v obchodním rejstříku",
    "102": "Fyzická osoba podnikající dle živnostenského zákona zapsaná v obchodním rejstříku",
    "105": (
        "Fyzická osoba podnikající dle jiných zákonů než živnostenského a zákona o zemědělství "
        "nezapsaná v obchodním rejstříku"
    ),
    "107": "Zemědělský podnikatel – fyzická osoba nezapsaná v obchodním rejstříku",
    "111": "Veřejná obchodní společnost",
    "112": "Společnost s ručením omezeným",
    "113": "Společnost komanditní",
    "117": "Nadace",
    "118": "Nadační fond",
    "121": "Akciová společnost",
    "141": "Obecně prospěšná společnost",
    "145": "Společenství vlastníků jednotek",
    "161": "Ústav",
    "205": "Družstvo",
    "301": "Státní podnik",
    "325": "Organizační složka státu",
    "331": "Příspěvková organizace",
    "421": "Odštěpný závod zahraniční právnické osoby",
    "601": "Vysoká škola",
    "641": "Školská právnická osoba",
    "706": "Spolek",
    "736": "Pobočný spolek",
    "801": "Obec",
    "804": "Kraj",
    "931": "Evropské hospodářské zájmové sdružení",
    "932": "Evropská společnost",
    "933": "Evropská družstevní společnost",
}

# RÚIAN kraj (VÚSC) code -> NUTS 2021 level 3 (for Czechia, NUTS 3 regions are the kraje).
KRAJ_NUTS3: dict[int, str] = {
    19: "CZ010",  # Hlavní město Praha
    27: "CZ020",  # Středočeský kraj
    35: "CZ031",  # Jihočeský kraj
    43: "CZ032",  # Plzeňský kraj
    51: "CZ041",  # Karlovarský kraj
    60: "CZ042",  # Ústecký kraj
    78: "CZ051",  # Liberecký kraj
    86: "CZ052",  # Královéhradecký kraj
    94: "CZ053",  # Pardubický kraj
    108: "CZ063",  # Kraj Vysočina
    116: "CZ064",  # Jihomoravský kraj
    124: "CZ071",  # Olomoucký kraj
    132: "CZ080",  # Moravskoslezský kraj
    141: "CZ072",  # Zlínský kraj
}
