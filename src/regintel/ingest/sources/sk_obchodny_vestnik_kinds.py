"""What a Slovak gazette notice does to a proceeding, read from its kind label and operative text.

Texts are compared folded (lower case, no diacritics: "vyhlásení" -> "vyhlaseni"). A petition
("návrh na vyhlásenie konkurzu") names what was asked, not what was decided, so petition phrases are
removed first; a start found next to a refusal, a stop or an annulment ("zamieta", "zastavuje",
"zrušuje uznesenie") is no start. Ends are checked before starts and bankruptcy before
restructuring: a notice that ends a restructuring by declaring bankruptcy is a bankruptcy start, and
the bankruptcy then ends the restructuring (spec 2.2). Old-law composition ("vyrovnanie", zákon
328/1991) is read as restructuring, its successor under zákon 7/2005. See docs/sources/sk_obchodny_vestnik.md.
"""

from __future__ import annotations

import re

from regintel.domain.names import fold

Kind = tuple[str, str]  # (event_type, phase)

_PETITION = re.compile(r"\bnavrh\w*\s+(?:\w+\s+)?na\s+(?:vyhlasenie|povolenie|zrusenie|skoncenie)\s+\w+")
_REFUSAL = re.compile(
    r"\b(?:zamieta|zamietnut\w*|odmieta|odmietnut\w*|zastavuje|zastaven\w*|"
    r"zrusuje\s+uznesenie|zrusenie\s+uznesenia|zrusuje\s+rozhodnutie)\b"
)

_RULES: list[tuple[Kind, re.Pattern[str]]] = [
    (kind, re.compile(pattern))
    for kind, pattern in [
        (
            ("bankruptcy", "end"),
            r"\b(?:zrusen\w*|zrusuje|skoncen\w*|ukoncen\w*)\s+konkurz\w*"
            r"|\bkonkurz\w*\s+(?:sa\s+|je\s+)?(?:konci|skonceny|zrusuje|zruseny)\b",
        ),
        (("bankruptcy", "start"), r"\bvyhlas\w*\s+konkurz\w*|\bkonkurz\w*\s+(?:sa\s+)?vyhlasuje\b"),
        (
            ("restructuring", "end"),
            r"\b(?:skoncen\w*|ukoncen\w*|zrusen\w*|zrusuje)\s+(?:restrukturalizac|vyrovnani)\w*"
            r"|\b(?:restrukturalizaci\w*|vyrovnani\w*)\s+(?:sa\s+|je\s+)?(?:konci|skoncen\w*)\b"
            r"|\bpotvrd\w*\s+(?:restrukturalizacn\w*\s+plan|vyrovnani)\w*",
        ),
        (("restructuring", "start"), r"\bpovol\w*\s+(?:restrukturalizac|vyrovnani)\w*"),
    ]
]

_LIQUIDATION_START = re.compile(r"\bvstup\w*\s+do\s+likvidacie|\bzrus\w*\s+(?:\w+\s+){0,2}s\s+likvidaciou")
_LIQUIDATION_END = re.compile(
    r"\bskoncen\w*\s+likvidacie|\blikvidacia\s+(?:bola\s+|je\s+)?skoncen\w*|"
    r"\bukoncen\w*\s+likvidacie"
)


def classify(*texts: str | None) -> Kind | None:
    """The (event type, phase) of the first text that names one, or None (the notice neither starts
    nor ends a bankruptcy or restructuring: a meeting of creditors, a sale, a refused petition …)."""
    for raw in texts:
        if not raw:
            continue
        folded = _PETITION.sub(" ", fold(raw))
        for kind, pattern in _RULES:
            if pattern.search(folded):
                if kind[1] == "start" and _REFUSAL.search(folded):
                    return None
                return kind
    return None


def classify_register_filing(kind: str | None, text: str | None) -> Kind | None:
    """A commercial-register filing: liquidation starts with its entry into liquidation and ends with
    the deletion of the company after it ("výmaz" of a company in liquidation)."""
    folded, label = fold(text or ""), fold(kind or "")
    if _LIQUIDATION_END.search(folded) or ("vymaz" in label and "likvidac" in folded):
        return "liquidation", "end"
    if _LIQUIDATION_START.search(folded):
        return "liquidation", "start"
    return None
