"""Name normalisation shared by storage, search and screening: case, diacritics, punctuation and
legal-form suffixes ("s. r. o.", "spol. s r.o.", "a.s.", "Ltd", "GmbH", …) are folded away."""

from __future__ import annotations

import re
import unicodedata

# Letters that NFKD does not decompose into base + combining mark.
_SPECIAL = str.maketrans({"ß": "ss", "æ": "ae", "ø": "o", "đ": "d", "ł": "l", "þ": "th", "œ": "oe",
                          "ı": "i", "ħ": "h", "ŀ": "l", "&": " and "})

# Legal forms as token sequences after punctuation is removed ("s. r. o." -> "s r o").
_LEGAL_FORMS = [
    "spol s r o", "spol s ro", "s r o", "sro", "a s", "as", "k s", "v o s", "ver obch spol", "s p",
    "z s", "o z", "n o", "druzstvo", "stat podnik", "statny podnik", "akciova spolocnost", "akciova spolecnost",
    "spolocnost s rucenim obmedzenym", "spolecnost s rucenim omezenym", "v likvidacii", "v likvidaci",
    "ltd", "limited", "plc", "llp", "lp", "cic", "unlimited", "public limited company",
    "gmbh", "g m b h", "ag", "kg", "ohg", "gmbh and co kg", "gmbh and co kgaa", "kgaa", "e k", "e v", "eg", "se",
    "mbh", "s n c", "v o f", "s a s u",
    "sa", "s a", "sas", "s a s", "sarl", "s a r l", "sasu", "sci", "eurl", "snc", "scop",
    "asa", "ans", "da", "nuf", "oy", "oyj", "ab", "bv", "b v", "nv", "n v", "vof", "cv",
    "srl", "s r l", "spa", "s p a", "sapa", "snc", "sl", "s l", "slu",
    "sp z o o", "spolka z o o", "s a w likwidacji", "sp k", "sp j", "spolka akcyjna",
    "spolka z ograniczona odpowiedzialnoscia", "spolka komandytowa", "spolka jawna",
    "d o o", "doo", "d d", "dd", "j d o o", "kft", "zrt", "nyrt", "bt", "ou", "as", "sia", "uab", "ab",
    "ltd co", "co ltd", "company limited", "corp", "corporation", "inc", "incorporated", "llc",
    "ee", "ike", "oe", "ae", "tov", "pat", "prat", "tzov", "ltda",
]
_FORM_TOKENS = sorted({tuple(f.split()) for f in _LEGAL_FORMS}, key=len, reverse=True)


def fold(text: str) -> str:
    """Lower case without diacritics: "Žilina" -> "zilina", "Straße" -> "strasse"."""
    text = unicodedata.normalize("NFKD", (text or "").lower().translate(_SPECIAL))
    return "".join(ch for ch in text if not unicodedata.combining(ch))


def tokens(text: str) -> list[str]:
    """Folded alphanumeric tokens."""
    return re.findall(r"[a-z0-9]+", fold(text))


def strip_legal_form(words: list[str]) -> list[str]:
    """Remove legal-form token sequences from the end (and from the start, as in "UAB Vilnius")."""
    changed = True
    while changed and len(words) > 1:
        changed = False
        for form in _FORM_TOKENS:
            n = len(form)
            if len(words) > n and tuple(words[-n:]) == form:
                words = words[:-n]
                changed = True
                break
            if len(words) > n and tuple(words[:n]) == form and n <= 2 and form[0] in _PREFIX_FORMS:
                words = words[n:]
                changed = True
                break
    return words


_PREFIX_FORMS = {"uab", "sia", "as", "ab", "oy", "tov", "pat", "prat", "ou"}


def normalise_name(name: str) -> str:
    """The comparable form of a company name: folded tokens without the legal form."""
    return " ".join(strip_legal_form(tokens(name)))


_POSTCODE = re.compile(r"\b(\d{3}) (\d{2})\b")


def normalise_address(text: str) -> str:
    """The comparable form of an address: folded tokens, with postal codes written "824 12" (SK, CZ,
    GR, SE) joined into one token."""
    return _POSTCODE.sub(r"\1\2", " ".join(tokens(text)))
