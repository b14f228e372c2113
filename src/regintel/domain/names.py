"""Name normalisation shared by storage, search and screening: case, diacritics, punctuation and
legal-form suffixes ("s. r. o.", "spol. s r.o.", "a.s.", "Ltd", "GmbH", …) are folded away."""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

import icu

# Letters that NFKD does not decompose into base + combining mark.
_SPECIAL = str.maketrans(
    {
        "ß": "ss",
        "æ": "ae",
        "ø": "o",
        "đ": "d",
        "ł": "l",
        "þ": "th",
        "œ": "oe",
        "ı": "i",
        "ħ": "h",
        "ŀ": "l",
        "&": " and ",
    }
)

# Legal forms as token sequences after punctuation is removed ("s. r. o." -> "s r o").
_LEGAL_FORMS = [
    "spol s r o",
    "spol s ro",
    "s r o",
    "sro",
    "a s",
    "as",
    "k s",
    "v o s",
    "ver obch spol",
    "s p",
    "z s",
    "o z",
    "n o",
    "druzstvo",
    "stat podnik",
    "statny podnik",
    "akciova spolocnost",
    "akciova spolecnost",
    "spolocnost s rucenim obmedzenym",
    "spolecnost s rucenim omezenym",
    "v likvidacii",
    "v likvidaci",
    "ltd",
    "limited",
    "plc",
    "llp",
    "lp",
    "cic",
    "unlimited",
    "public limited company",
    "gmbh",
    "g m b h",
    "ag",
    "kg",
    "ohg",
    "gmbh and co kg",
    "gmbh and co kgaa",
    "kgaa",
    "e k",
    "e v",
    "eg",
    "se",
    "mbh",
    "s n c",
    "v o f",
    "s a s u",
    "sa",
    "s a",
    "sas",
    "s a s",
    "sarl",
    "s a r l",
    "sasu",
    "sci",
    "eurl",
    "snc",
    "scop",
    "asa",
    "ans",
    "da",
    "nuf",
    "oy",
    "oyj",
    "ab",
    "bv",
    "b v",
    "nv",
    "n v",
    "vof",
    "cv",
    "srl",
    "s r l",
    "spa",
    "s p a",
    "sapa",
    "snc",
    "sl",
    "s l",
    "slu",
    "sp z o o",
    "spolka z o o",
    "s a w likwidacji",
    "sp k",
    "sp j",
    "spolka akcyjna",
    "spolka z ograniczona odpowiedzialnoscia",
    "spolka komandytowa",
    "spolka jawna",
    "d o o",
    "doo",
    "d d",
    "dd",
    "j d o o",
    "kft",
    "zrt",
    "nyrt",
    "bt",
    "ou",
    "as",
    "sia",
    "uab",
    "ab",
    "ltd co",
    "co ltd",
    "company limited",
    "corp",
    "corporation",
    "inc",
    "incorporated",
    "llc",
    "ee",
    "ike",
    "oe",
    "ae",
    "tov",
    "pat",
    "prat",
    "tzov",
    "ltda",
]
# Forms spelled out in Ukrainian and Greek, as the registers write them, in the Latin letters `tokens`
# transliterates them to ("Товариство з обмеженою відповідальністю" is ТОВ): without them every Ukrainian
# LLC shared four words and a search for its name ranked a Latin namesake first.
_SPELLED_FIRST = [  # written before the name
    "tovaristvo z obmezenou vidpovidalnistu",
    "tovaristvo z dodatkovou vidpovidalnistu",
    "privatne pidpriemstvo",
    "akcionerne tovaristvo",
    "privatne akcionerne tovaristvo",
    "publicne akcionerne tovaristvo",
    "fizicna osoba pidpriemec",
    "derzavne pidpriemstvo",
    "komunalne pidpriemstvo",
]
_SPELLED_LAST = [
    "anonyme etaireia",
    "etaireia periorismenes euthynes",
    "idiotike kephalaiouchike etaireia",
    "omorrythme etaireia",
    "eterorrythme etaireia",
    "demosia etaireia ltd",
    "demosia etaireia",
]
_LEGAL_FORMS += _SPELLED_FIRST + _SPELLED_LAST
_FORM_TOKENS = sorted({tuple(f.split()) for f in _LEGAL_FORMS}, key=len, reverse=True)


def fold(text: str) -> str:
    """Lower case without diacritics: "Žilina" -> "zilina", "Straße" -> "strasse"."""
    text = unicodedata.normalize("NFKD", (text or "").lower().translate(_SPECIAL))
    if text.isascii():
        return text
    return _COMBINING.sub("", text)


# Combining marks left by NFKD (the diacritics of Latin, Greek and Cyrillic scripts and the rest of
# the combining blocks): one regex pass instead of a Python test per character.
_COMBINING = re.compile("[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def tokens(text: str) -> list[str]:
    """Folded alphanumeric tokens; letters of other scripts (Cyrillic, Greek, …) transliterated to Latin
    first, so that "ТОВ «Парус»" gives ["tov", "parus"] where it gave nothing (and Ukrainian, Greek and
    Bulgarian names could not be found)."""
    folded = fold(text)
    if not folded.isascii():
        folded = _to_latin().transliterate(folded).lower()
    return re.findall(r"[a-z0-9]+", folded)


_DIGRAPHS = re.compile(r"([aou])e")


def spelling_key(name_norm: str) -> str:
    """A normalised name with the digraphs that stand for umlauts written as the bare vowel (ae, oe, ue →
    a, o, u), so that "Dräger" (`drager`) and "Draeger", as an English-language register writes it, share
    one key. Both sides of a comparison take it; it is a key to look up by, not a name to show."""
    return _DIGRAPHS.sub(r"\1", name_norm)


def person_name_key(name: str) -> str:
    """The name as person keys read it (`ingest.sections.person_key`): `normalise_name` as it was before
    other scripts were transliterated (Latin letters and digits only, legal forms stripped), or for a name
    that leaves empty (Cyrillic, Greek) the folded name itself, so that two such people never share one
    key. Frozen: changing its output would give the people already stored new keys, and the next import
    would add them a second time. An ASCII name gives `normalise_name(name)`."""
    words = re.findall(r"[a-z0-9]+", fold(name))
    return " ".join(strip_legal_form(words)) or " ".join(fold(name).split())


@cache
def _to_latin() -> icu.Transliterator:
    # ICU's own rules (CLDR), loaded once per process: any script to Latin, the modifier letters it writes
    # for soft and hard signs (ʹ ʺ) dropped so that a word stays one token, then plain ASCII.
    return icu.Transliterator.createInstance("Any-Latin; [:Lm:] Remove; Latin-ASCII")


_Forms = tuple[dict[str, list[tuple[int, tuple[str, ...]]]], dict[str, list[tuple[int, tuple[str, ...]]]]]


def strip_legal_form(words: list[str], forms: _Forms | None = None) -> list[str]:
    """Remove legal-form token sequences from the end (and from the start, as in "UAB Vilnius"),
    longest form first, until none is left."""
    return split_legal_form(words, forms)[0]


def split_legal_form(
    words: list[str], forms: _Forms | None = None, any_start: bool = False
) -> tuple[list[str], list[tuple[str, ...]]]:
    """`strip_legal_form`, also returning the forms removed (outermost first). `any_start` lets
    every form of four letters or more stand at the start too ("sp. z o.o. Alfachem", as a query
    may put it), besides the forms markets write first ("UAB", "SIA")."""
    by_last, by_first = forms or _STORED
    removed: list[tuple[str, ...]] = []
    while len(words) > 1:
        best: tuple[int, int, int] | None = (
            None  # (rank of the form, 0 = at the end / 1 = at the start, length)
        )
        for rank, form in by_last.get(words[-1], ()):
            if len(words) > len(form) and tuple(words[-len(form) :]) == form:
                best = (rank, 0, len(form))
                break
        starts = by_first.get(words[0], ())
        if any_start:
            starts = [*starts, *_ANY_START.get(words[0], ())]
        for rank, form in starts:
            if len(words) > len(form) and tuple(words[: len(form)]) == form:
                best = min(best, (rank, 1, len(form))) if best else (rank, 1, len(form))
                break
        if best is None:
            break
        if best[1] == 0:
            removed.append(tuple(words[-best[2] :]))
            words = words[: -best[2]]
        else:
            removed.append(tuple(words[: best[2]]))
            words = words[best[2] :]
    return words, removed


def _index(token_forms: list[tuple[str, ...]], prefix_forms: set[str]) -> _Forms:
    by_last: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    by_first: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for rank, form in enumerate(token_forms):
        by_last.setdefault(form[-1], []).append((rank, form))
        if (len(form) <= 2 and form[0] in prefix_forms) or " ".join(form) in _SPELLED_FIRST:
            by_first.setdefault(form[0], []).append((rank, form))
    return by_last, by_first


_PREFIX_FORMS = {"uab", "sia", "as", "ab", "oy", "tov", "pat", "prat", "ou"}
_STORED = _index(_FORM_TOKENS, _PREFIX_FORMS)

# Spellings of legal forms that a query drops but stored names keep: the normalised name enters
# person keys and what imports compare, so widening `_LEGAL_FORMS` would change existing keys. Written
# with dots ("I.K.E.", "S.r.l.s.", "d.n.o.") their letters stayed in the query and matched nearly every
# Greek or Italian name: the slowest searches at 10M (30-40 ms in the index alone).
_QUERY_ONLY_FORMS = [
    "a e",
    "e e",
    "o e",
    "e p e",
    "epe",
    "i k e",
    "s r l s",
    "srls",
    "s l u",
    "s coop",
    "c v",
    "d n o",
    "dno",
    "j s a",
    "j t d",
    "jtd",
    "k d",
    "og",
    "commv",
    "sc",
    "s c",
    "scs",
    "kollektivgesellschaft",
    "public limited",
    "tu",
    "uu",
    "ay",
    "ky",
    "clg",
    "dac",
    "mb",
    "tub",
    "ks",
    "ps",
    "pt",
    "tdv",
    "sp z oo",
    "spzoo",
    "spolka z oo",
    "ges m b h",  # the Austrian spellings of GmbH ("Ges.m.b.H.", "Gesellschaft m.b.H.")
    "gesmbh",
    "gesellschaft m b h",
    "gesellschaft mbh",
    "gesellschaft mit beschrankter haftung",
]
_QUERY_FORMS = sorted({*_FORM_TOKENS, *(tuple(f.split()) for f in _QUERY_ONLY_FORMS)}, key=len, reverse=True)
_QUERY = _index(_QUERY_FORMS, _PREFIX_FORMS | {"mb", "tub", "ks", "ps", "pt", "tdv"})


# Forms a query may put first although no market writes them so ("s.r.o. Biobau", "LTD THORPE"): those
# of three letters or more, or written in several parts; not two letters in one word, which are more
# often initials ("AG Engineering", "SA Trading"). Scoring also tries such a start as part of the name.
_ANY_START: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
for _rank, _form in enumerate(_QUERY_FORMS):
    if len("".join(_form)) >= 3 or len(_form) > 1:
        _ANY_START.setdefault(_form[0], []).append((_rank, _form))


# Two-letter forms written as one word ("SA", "KG", "AG", "BV"), which `_ANY_START` leaves out.
_SHORT_FORMS = frozenset(f[0] for f in _QUERY_FORMS if len(f) == 1 and len(f[0]) == 2)


def short_form_at_start(words: list[str]) -> bool:
    """Whether a query starts with a two-letter legal form and has a name after it ("SA Stavocom", "KG
    Infochem"). Such a start may as well be initials ("SA Trading"), so a caller that takes it as the
    form also keeps it as a possible name word."""
    return len(words) > 1 and words[0] in _SHORT_FORMS


def query_legal_forms(words: list[str]) -> tuple[list[str], list[tuple[str, ...]]]:
    """A typed query's words without its legal forms (every spelling, at either end), and the forms."""
    return split_legal_form(words, _QUERY, any_start=True)


def split_name_forms(words: list[str]) -> tuple[list[str], list[tuple[str, ...]]]:
    """A stored name's words without its legal forms (every spelling a query knows), and the forms."""
    if len(words) < 2 or words[-1] not in _QUERY[0] and words[0] not in _QUERY[1]:
        return words, []  # the common case, decided without a call
    return split_legal_form(words, _QUERY)


def name_legal_forms(name: str) -> list[tuple[str, ...]]:
    """The legal forms a stored name carries, as token sequences ("Alfachem sp. z o.o." -> [("sp", "z",
    "o", "o")])."""
    return split_legal_form(tokens(name), _QUERY)[1]


# Imports normalise the same names over and over (people in many roles, sources repeating them).
@lru_cache(maxsize=1 << 16)
def normalise_name(name: str) -> str:
    """The comparable form of a company name: folded tokens without the legal form."""
    return " ".join(strip_legal_form(tokens(name)))


def normalise_query(text: str) -> str:
    """The comparable form of a typed query: as `normalise_name`, and also without the legal-form
    spellings that stored names keep (`_QUERY_ONLY_FORMS`)."""
    return " ".join(strip_legal_form(tokens(text), _QUERY))


_POSTCODE = re.compile(r"\b(\d{3}) (\d{2})\b")


def normalise_address(text: str) -> str:
    """The comparable form of an address: folded tokens, with postal codes written "824 12" (SK, CZ,
    GR, SE) joined into one token."""
    return _POSTCODE.sub(r"\1\2", " ".join(tokens(text)))
