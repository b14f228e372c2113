"""What a typed company-name query says besides the name: the legal form (any spelling, mapped to the
ISO 20275 ELF codes and countries it implies) and words naming a country ("Alfachem Polska",
"Telenet Italia", "UK").

Legal forms: the spellings of `domain.names` are reduced to a key (letters run together, a few
synonyms folded: "limited" = "ltd", "spol. s r.o." = "s.r.o."), and keys map to ELF codes through the
abbreviations and local names of the ELF code list (`data/codelists/elf_codes.csv`, the 23 markets)
plus `_MORE_FORMS`, the spellings that list leaves out (it gives no abbreviation for the Czech
"s.r.o.", for instance).

Country words: for the markets and their neighbours, the English names (pycountry: name, common
name) and the local names and adjectives of `_LOCAL_NAMES`. ISO codes are not words of a name, except
"UK". A country word is optional in a name: "Orange Polska" still matches a company of that name.
The code list is static package data, read once.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

import pycountry

from regintel.domain.code_lists import MARKETS
from regintel.domain.names import (
    fold,
    name_legal_forms,
    normalise_name,
    query_legal_forms,
    short_form_at_start,
    split_name_forms,
    tokens,
)

# Spellings whose keys differ but which name the same form.
_SYNONYMS = {
    "limited": "ltd",
    "companylimited": "ltd",
    "ltdco": "ltd",
    "spolsro": "sro",
    "spolecnostsrucenimomezenym": "sro",
    "spolocnostsrucenimobmedzenym": "sro",
    "akciovaspolocnost": "as",
    "akciovaspolecnost": "as",
    "spolkazoo": "spzoo",
    "spolkazograniczonaodpowiedzialnoscia": "spzoo",
    "spolkaakcyjna": "sa",
    "gesmbh": "gmbh",
    "gesellschaftmbh": "gmbh",
    "gesellschaftmitbeschrankterhaftung": "gmbh",
    "publiclimitedcompany": "plc",
    "publiclimited": "plc",
    "aktiengesellschaft": "ag",
    "sasu": "sas",
    "slu": "sl",
    "oyj": "oy",
    "uab": "uab",
}
# ELF codes of spellings the ELF list gives no abbreviation for (key -> codes).
_MORE_FORMS = {
    "sro": ("9HLU", "VSZS"),
    "as": ("6CQN", "2EEG"),
    "ks": ("CD28", "KB52"),
    "vos": ("5KU5", "5J5Y"),
    "jsa": ("D18J",),
    "sarl": ("V9QP",),
    "sas": ("6CHY", "CGSO"),
    "sci": ("FY0F",),
    "snc": ("H1U2",),
    "ae": ("W2NK",),
    "ay": ("PPMX",),
    "dac": ("LGWG",),
    "ltd": ("K9L6",),
    "plc": ("BCF5",),
    "tov": ("UA:240",),
    "tdv": ("UA:250",),
    "pt": ("UA:260",),
    "prat": ("UA:230",),
    "spzoo": ("O7XB",),
}
_MORE_COUNTRIES = {"UA:240": "UA", "UA:250": "UA", "UA:260": "UA", "UA:230": "UA"}

# Names and adjectives a query may use for a country, besides pycountry's English names.
_LOCAL_NAMES = {
    "PL": "polska polski polskie polish",
    "IT": "italia italiana italiano italian",
    "FR": "francaise francais french",
    "GB": "uk britain great britain british england english",
    "ES": "espana espanola spanish",
    "SK": "slovensko slovenska slovak slovakia",
    "CZ": "cesko ceska czech ceska republika czech republic",
    "AT": "osterreich oesterreich austrian",
    "CH": "schweiz suisse svizzera swiss",
    "NO": "norge norsk norwegian",
    "FI": "suomi finnish",
    "IE": "eire irish",
    "NL": "nederland holland dutch",
    "BE": "belgique belgie belgian",
    "RO": "romanian",
    "UA": "ukraina ukrainian",
    "GR": "hellas ellada hellenic greek",
    "HR": "hrvatska croatian",
    "SI": "slovenija slovenian",
    "LT": "lietuva lithuanian",
    "LV": "latvija latvian",
    "EE": "eesti estonian",
    "CY": "kypros cypriot",
    "DE": "deutschland german",
    "DK": "danmark danish",
    "SE": "sverige swedish",
    "HU": "magyarorszag hungarian",
    "PT": "portuguese",
    "LU": "letzebuerg",
    "BG": "bulgaria",
}
_NEIGHBOURS = ("DE", "DK", "SE", "HU", "PT", "LU", "BG", "US")
_PHRASES = {"great britain", "ceska republika", "czech republic", "united kingdom", "united states"}


@dataclass(frozen=True)
class QueryIntent:
    """A name query taken apart. `words` are the normalised name words (legal forms dropped, country
    words kept); `country_words` those of them that name a country, and `countries` the countries they
    name; `forms` the keys of the typed legal forms, `form_codes` their ELF codes and `form_countries`
    where those codes exist; `form_text` the forms as typed."""

    words: tuple[str, ...]
    country_words: tuple[str, ...] = ()
    countries: frozenset[str] = frozenset()
    forms: frozenset[str] = frozenset()
    form_codes: frozenset[str] = frozenset()
    form_countries: frozenset[str] = frozenset()
    form_text: str = ""
    raw_forms: frozenset[str] = frozenset()
    # the words when a legal form at the start is taken as part of the name ("SAS Institute"), if
    # the query starts with one that markets write after the name
    alt_words: tuple[str, ...] = ()

    @property
    def core(self) -> tuple[str, ...]:
        """The name words without country words (all of them when nothing else is left)."""
        core = tuple(w for w in self.words if w not in self.country_words)
        return core or self.words

    @property
    def prefer(self) -> tuple[str, ...]:
        """Countries the query points at: those its words name (narrowed by the legal form when both
        agree), otherwise those of its legal form when they are few."""
        if self.countries:
            both = self.countries & self.form_countries
            return tuple(sorted(both or self.countries))
        return tuple(sorted(self.form_countries)) if len(self.form_countries) <= 3 else ()


def form_key(form: tuple[str, ...] | list[str]) -> str:
    """One key for every spelling of a legal form: ("s", "r", "o") -> "sro", ("limited",) -> "ltd"."""
    key = "".join(form)
    return _SYNONYMS.get(key, key)


@cache
def _elf() -> dict[str, frozenset[str]]:
    """Form key -> ELF codes (markets only), from the ELF list's abbreviations and names."""
    out: dict[str, set[str]] = {}
    text = files("regintel.data").joinpath("codelists/elf_codes.csv").read_text(encoding="utf-8")
    for row in csv.DictReader(text.splitlines()):
        if row["country"] not in MARKETS:
            continue
        cells = [a for cell in (row["abbr"], row["abbr_translit"]) for a in cell.split(";")]
        for cell in [*cells, row["name"], row["name_translit"]]:
            key = form_key(tokens(cell))
            if key:
                out.setdefault(key, set()).add(row["code"])
    for key, codes in _MORE_FORMS.items():
        out.setdefault(key, set()).update(codes)
    return {k: frozenset(v) for k, v in out.items()}


@cache
def _code_countries() -> dict[str, str]:
    text = files("regintel.data").joinpath("codelists/elf_codes.csv").read_text(encoding="utf-8")
    out = {row["code"]: row["country"] for row in csv.DictReader(text.splitlines()) if row["country"]}
    return out | _MORE_COUNTRIES


def form_codes(keys: frozenset[str] | set[str]) -> frozenset[str]:
    elf = _elf()
    return frozenset(code for key in keys for code in elf.get(key, ()))


def code_country(code: str | None) -> str | None:
    return _code_countries().get(code or "")


@cache
def _country_words() -> dict[tuple[str, ...], str]:
    """Folded word sequences (one or two words) -> ISO country code."""
    out: dict[tuple[str, ...], str] = {("uk",): "GB"}
    for code in (*MARKETS, *_NEIGHBOURS):
        country = pycountry.countries.get(alpha_2=code)
        names = [getattr(country, attr, "") for attr in ("name", "common_name")] if country else []
        for name in names:
            words = tuple(tokens(name))
            if 1 <= len(words) <= 2:
                out.setdefault(words, code)
        local = _LOCAL_NAMES.get(code, "")
        for phrase in _PHRASES:
            if phrase in local:
                out.setdefault(tuple(phrase.split()), code)
                local = local.replace(phrase, " ")
        for word in local.split():
            out.setdefault((word,), code)
    return out


def country_of_word(words: tuple[str, ...]) -> str | None:
    return _country_words().get(words)


def parse(text: str) -> QueryIntent:
    """Take a typed name apart (see `QueryIntent`); words are normalised as `normalise_name` does."""
    words = tokens(text)
    removed: list[tuple[str, ...]] = []
    tail: list[str] = []  # country words after the legal form ("Alfachem sp. z o.o. Polska")
    while True:
        words, forms = query_legal_forms(words)
        removed += forms
        end = _country_at_end(words)
        if end is None or not query_legal_forms(words[: -len(end)])[1]:
            break
        tail = list(end) + tail
        words = words[: -len(end)]
    words = words + tail
    if not removed and short_form_at_start(words):
        removed.append((words[0],))
        words = words[1:]
    country_words: list[str] = []
    countries: set[str] = set()
    table = _country_words()
    i = 0
    while i < len(words):
        for n in (2, 1):
            seq = tuple(words[i : i + n])
            if len(seq) == n and seq in table and len(words) > n:
                country_words += seq
                countries.add(table[seq])
                i += n
                break
        else:
            i += 1
    keys = frozenset(form_key(f) for f in removed)
    codes = form_codes(keys)
    form_countries = frozenset(filter(None, (code_country(c) for c in codes)))
    form_text = " ".join(" ".join(f) for f in removed)
    plain = tuple(split_name_forms(tokens(text))[0])
    alt = plain if len(plain) > len(words) else ()
    return QueryIntent(
        tuple(words),
        tuple(country_words),
        frozenset(countries),
        keys,
        codes,
        form_countries,
        form_text,
        frozenset("".join(f) for f in removed),
        alt,
    )


def _country_at_end(words: list[str]) -> tuple[str, ...] | None:
    table = _country_words()
    for n in (2, 1):
        if len(words) > n and tuple(words[-n:]) in table:
            return tuple(words[-n:])
    return None


@lru_cache(maxsize=1 << 16)
def name_form_keys(name: str) -> frozenset[str]:
    """Keys of the legal forms a stored name carries."""
    return frozenset(form_key(f) for f in name_legal_forms(name))


@lru_cache(maxsize=1 << 16)
def name_raw_forms(name: str) -> frozenset[str]:
    """The legal forms a stored name carries, letters run together, no synonyms ("limited")."""
    return frozenset("".join(f) for f in name_legal_forms(name))


@dataclass(frozen=True)
class FormMatch:
    """How a company's legal form compares with the typed one: `same` (by key or ELF code), `known`
    (the company shows a form at all), `spelling` (written as typed)."""

    same: bool
    known: bool
    spelling: bool


def compare_form(query: QueryIntent, code: str | None, name: str) -> FormMatch | None:
    """None when the query typed no legal form. A known ELF code outside the typed form's codes
    decides without reading the name (the cheap, common case among many candidates)."""
    if not query.forms:
        return None
    if code and code in query.form_codes:
        return FormMatch(True, True, bool(query.raw_forms & name_raw_forms(name)))
    if code and code_country(code) is not None:
        return FormMatch(False, True, False)
    keys = name_form_keys(name)
    same = bool(keys & query.forms)
    return FormMatch(same, bool(keys) or bool(code), same and bool(query.raw_forms & name_raw_forms(name)))


def same_words(query: QueryIntent, name: str) -> bool:
    """Whether a name holds exactly the query's words, legal form aside, in any order."""
    return sorted(normalise_name(name).split()) == sorted(query.words)


__all__ = [
    "FormMatch",
    "QueryIntent",
    "code_country",
    "compare_form",
    "country_of_word",
    "fold",
    "form_codes",
    "form_key",
    "name_form_keys",
    "name_raw_forms",
    "parse",
    "same_words",
]
