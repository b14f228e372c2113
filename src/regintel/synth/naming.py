"""Company names in each market's style, and look-alikes of sanctioned entities.

A name is a core (a surname, two surnames, a trade and a surname, a town and a trade, a coined brand,
initials) plus the legal form where the market writes it: after the name ("Novák s. r. o."), before it
("UAB Vilniaus statyba", `SIA "Koks"`), upper case in Great Britain as Companies House prints it.
"""

from __future__ import annotations

import random
from functools import cache
from importlib.resources import files

from regintel.synth.markets import Form, Market
from regintel.synth.pools import VariantPool
from regintel.synth.words import AND, ENDINGS, ROOTS, TRADES

# Words a sanctions-list name uses for its legal form; the look-alike takes the market's form instead.
_GENERIC = {
    "CO",
    "CO.",
    "COMPANY",
    "LTD",
    "LTD.",
    "LIMITED",
    "LLC",
    "S.A.",
    "SA",
    "INC",
    "INC.",
    "CORP",
    "CORPORATION",
    "GMBH",
    "PJSC",
    "JSC",
    "CJSC",
    "OJSC",
    "PLC",
}
# Spelling variants that transliterations of the same name show (Arabic, Persian, Russian sources).
_TRANSLITERATIONS = (
    ("KH", "H"),
    ("Q", "K"),
    ("OU", "U"),
    ("EE", "I"),
    ("PH", "F"),
    ("W", "V"),
    ("Y", "I"),
    ("J", "DZH"),
    ("CH", "TSCH"),
    ("AI", "AY"),
    ("SH", "SCH"),
    ("C", "K"),
)


def core_name(rng: random.Random, pool: VariantPool, town: str) -> str:
    """The distinctive part of a company name, before its legal form is added."""
    lang = pool.variant.lang
    names, trades = pool.names, TRADES[lang]
    surname = rng.choice(names.last[0])
    pick = rng.random()
    if pick < 0.26:
        return surname
    if pick < 0.34:
        return f"{surname} {AND[lang]} {rng.choice(names.last[0])}"
    if pick < 0.50:
        return f"{rng.choice(trades)} {surname}" if rng.random() < 0.5 else f"{surname} {rng.choice(trades)}"
    if pick < 0.62:
        return f"{town} {rng.choice(trades)}"
    if pick < 0.88:
        brand = rng.choice(ROOTS) + rng.choice(ENDINGS)
        return brand if rng.random() < 0.6 else f"{brand} {rng.choice(trades)}"
    if pick < 0.95:
        initials = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVZ") for _ in range(rng.randint(2, 4)))
        return f"{initials} {rng.choice(trades)}"
    return f"{rng.choice(names.first[0])} {surname}"


def with_form(core: str, form: Form, market: Market) -> str:
    """The registered name: core plus legal form, written the way the market writes it."""
    if form.prefix:
        name = f'{form.abbr} "{core}"' if market.country == "LV" else f"{form.abbr} {core}"
    else:
        name = f"{core} {form.abbr}"
    return name.upper() if market.country == "GB" else name


@cache
def sanctioned_names() -> tuple[str, ...]:
    """Entity names from the UN and OFAC lists shipped in synth/data (see its README)."""
    text = files("regintel.synth").joinpath("data/sanctioned_names.txt").read_text(encoding="utf-8")
    return tuple(line.split("\t", 1)[1] for line in text.splitlines() if line and not line.startswith("#"))


def sanctioned_core(rng: random.Random) -> str:
    """A listed name, varied the way real near-matches vary: spelling, a typo, generic words dropped."""
    words = [w for w in rng.choice(sanctioned_names()).upper().split() if w.strip(",") not in _GENERIC]
    name = " ".join(words).strip(" ,") or "TRADING"
    if rng.random() < 0.5:
        old, new = rng.choice([t for t in _TRANSLITERATIONS if t[0] in name] or [("", "")])
        name = name.replace(old, new, 1) if old else name
    if rng.random() < 0.5 and len(name) > 4:
        i = rng.randrange(1, len(name) - 2)
        name = rng.choice(
            (
                name[:i] + name[i + 1] + name[i] + name[i + 2 :],  # swapped letters
                name[:i] + name[i + 1 :],  # a letter dropped
                name[:i] + name[i] + name[i:],
            )
        )  # a letter doubled
    return name.title() if rng.random() < 0.7 else name
