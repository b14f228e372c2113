"""Latin transliteration of Greek (ELOT 743, simplified) and Ukrainian (the 2010 national system).

Greek, Cypriot and Ukrainian names are generated in the Latin form those registers also publish
(GEMI's Latin title, the English extract of the Ukrainian register), because
`regintel.domain.names.normalise_name` folds only Latin script: a Cyrillic or Greek name would
normalise to an empty string and people with the same birth date would share a person key.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

_GREEK_PAIRS = {
    "ου": "ou",
    "αι": "ai",
    "ει": "ei",
    "οι": "oi",
    "μπ": "b",
    "ντ": "nt",
    "γγ": "ng",
    "γκ": "gk",
    "αυ": "av",
    "ευ": "ev",
}
_GREEK = dict(
    zip(
        "αβγδεζηθικλμνξοπρσςτυφχψω",
        [
            "a",
            "v",
            "g",
            "d",
            "e",
            "z",
            "i",
            "th",
            "i",
            "k",
            "l",
            "m",
            "n",
            "x",
            "o",
            "p",
            "r",
            "s",
            "s",
            "t",
            "y",
            "f",
            "ch",
            "ps",
            "o",
        ],
        strict=True,
    )
)

_UKRAINIAN = dict(
    zip(
        "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя'’",
        [
            "a",
            "b",
            "v",
            "h",
            "g",
            "d",
            "e",
            "ie",
            "zh",
            "z",
            "y",
            "i",
            "i",
            "i",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            "",
            "iu",
            "ia",
            "",
            "",
        ],
        strict=True,
    )
)
# At the start of a word these letters take their initial form (Yevhen, Yurii, Yaroslav, Yizhak).
_UKRAINIAN_INITIAL = {"є": "ye", "ї": "yi", "й": "y", "ю": "yu", "я": "ya"}


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def greek(text: str) -> str:
    """ "Παπαδόπουλος" -> "Papadopoulos"."""
    return _words(_strip_accents(text), _greek_word)


def ukrainian(text: str) -> str:
    """ "Гриценко Євген" -> "Hrytsenko Yevhen"."""
    return _words(text, _ukrainian_word)


def _words(text: str, convert: Callable[[str], str]) -> str:
    out: list[str] = []
    word: list[str] = []
    for ch in text + " ":
        if ch.isalpha() or ch in "'’":
            word.append(ch)
            continue
        if word:
            out.append(_recase("".join(word), convert("".join(word).lower())))
            word = []
        out.append(ch)
    return "".join(out)[:-1]


def _recase(source: str, latin: str) -> str:
    if len(source) > 1 and source.isupper():
        return latin.upper()
    return latin[:1].upper() + latin[1:] if source[:1].isupper() else latin


def _greek_word(word: str) -> str:
    out, i = [], 0
    while i < len(word):
        pair = word[i : i + 2]
        if pair in _GREEK_PAIRS:
            out.append(_GREEK_PAIRS[pair] if not (pair == "μπ" and 0 < i < len(word) - 2) else "mp")
            i += 2
            continue
        out.append(_GREEK.get(word[i], word[i]))
        i += 1
    return "".join(out)


def _ukrainian_word(word: str) -> str:
    out = []
    for i, ch in enumerate(word):
        if i == 0 and ch in _UKRAINIAN_INITIAL:
            out.append(_UKRAINIAN_INITIAL[ch])
        elif ch == "г" and i > 0 and word[i - 1] == "з":
            out.append("gh")  # "зг" is "zgh" (Zghurskyi), not "zh"
        else:
            out.append(_UKRAINIAN.get(ch, ch))
    return "".join(out)
