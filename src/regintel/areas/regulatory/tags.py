"""The tag rule set of the regulatory feed (docs/regulatory-feed.md, "Tags"): a tag applies when one of
its patterns matches the entry's title, summary or the publisher's own categories, folded (lower case,
no diacritics), so the Slovak and Czech wordings match as the English ones do. Pure."""

from __future__ import annotations

import re

from regintel.domain.names import fold

# tag → patterns on folded text. English first, then the Slovak and Czech stems (folded: "spotrebiteľ"
# and "spotřebitel" both read "spotrebitel").
RULES: dict[str, tuple[str, ...]] = {
    "nis2": (r"\bnis ?2\b", r"\bnis directive\b", r"network and information security"),
    "cybersecurity": (r"cyber", r"kybernet", r"ransomware", r"\bvulnerabilit", r"\bcsirt\b", r"\bphishing"),
    "dora": (r"\bdora\b", r"digital operational resilience", r"\bict (risk|third[- ]party|related incident)"),
    "aml": (
        r"\baml[ar]?\b",
        r"\bcft\b",
        r"money laundering",
        r"terrorist financing",
        r"legalizaci",
        r"prani penez",
        r"financovani terorismu",
        r"financovania terorizmu",
    ),
    "sanctions": (
        r"\bsanctions\b",
        r"restrictive measures",
        r"asset freez",
        r"medzinarodn\w* sankci",
        r"mezinarodni\w* sankc",
        r"sankcni balic",
    ),
    "mica": (r"\bmica\b", r"crypto", r"krypto", r"stablecoin", r"\bcasps?\b"),
    "payments": (
        r"\bpsd ?[23]\b",
        r"\bpsr\b",
        r"payment (service|system|institution)s?",
        r"instant payment",
        r"platobn",
        r"platebn",
        r"\bsepa\b",
    ),
    "capital-requirements": (
        r"\bcrr ?[23]?\b",
        r"\bcrd ?[456]?\b",
        r"capital requirement",
        r"\bbasel\b",
        r"stress test",
        r"zatazov\w* test",
        r"kapitalov",
        r"\bmrel\b",
        r"own funds",
    ),
    "consumer-protection": (r"consumer", r"spotrebitel", r"mis-?selling"),
    "sustainability": (
        r"\besg\b",
        r"sustainab",
        r"climate",
        r"green bond",
        r"\bsfdr\b",
        r"udrzateln",
        r"udrzitel",
        r"klimat",
    ),
    "insurance": (r"insur", r"solvency ii", r"poistov", r"pojist", r"pension"),
    "markets": (
        r"\bmifid",
        r"\bmifir\b",
        r"market abuse",
        r"prospectus",
        r"short selling",
        r"\bemir\b",
        r"investment (firm|fund)s?",
        r"\bucits\b",
        r"\baifm",
        r"kapitalov\w* tr",
    ),
    "monetary-policy": (
        r"monetary policy",
        r"interest rates?\b",
        r"inflation",
        r"menov\w* politik",
        r"urokov\w* (sadzb|sazb)",
        r"inflaci",
    ),
    "ai": (r"\bai act\b", r"artificial intelligence", r"umel\w* inteligenc"),
    "data-protection": (r"\bgdpr\b", r"data protection", r"ochran\w* (osobnych )?udaj"),
    "consultation": (r"consultation", r"konzultac", r"call for (evidence|input)"),
    "enforcement": (
        r"\bfined?\b",
        r"\bfines\b",
        r"penalt",
        r"enforcement",
        r"\bpokut",
        r"administrative (sanction|measure)s?",
    ),
}
# NIS2 and DORA are cybersecurity law: an entry about them is about cybersecurity too.
IMPLIES: dict[str, tuple[str, ...]] = {"nis2": ("cybersecurity",), "dora": ("cybersecurity",)}
TAGS = tuple(sorted(RULES))
_COMPILED = {tag: re.compile("|".join(f"(?:{p})" for p in patterns)) for tag, patterns in RULES.items()}


def tags_of(title: str, summary: str, categories: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The rule set's tags for one entry, in the order of `TAGS`."""
    text = fold(" ".join((title, summary, *categories)))
    found = {tag for tag in TAGS if _COMPILED[tag].search(text)}
    found |= {implied for tag in list(found) for implied in IMPLIES.get(tag, ())}
    return tuple(tag for tag in TAGS if tag in found)


def parse_tag(value: str) -> str | None:
    """A tag as a filter gives it (any case) → the rule set's tag, or None when there is no such tag."""
    tag = value.strip().lower()
    return tag if tag in RULES else None
