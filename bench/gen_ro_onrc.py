"""Write a large ONRC od_firme.csv for the import benchmark.

    python bench/gen_ro_onrc.py --count 1000000 --out /tmp/od_firme.csv

Deterministic for a seed, streamed row by row, with the documented 20-column `^`-separated header.
CUIs are unique 8-digit bodies with the python-stdnum `ro.cui` check digit; registration numbers are
old-format ONRC numbers (`J40/<n>/<year>`), valid for `ro.onrc`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from genlib import company_name, day, main
from stdnum.ro import cui

HEADER = (
    "DENUMIRE^CUI^COD_INMATRICULARE^DATA_INMATRICULARE^EUID^FORMA_JURIDICA^ADR_TARA^ADR_JUDET^"
    "ADR_LOCALITATE^ADR_DEN_STRADA^ADR_NR_STRADA^ADR_BLOC^ADR_SCARA^ADR_ETAJ^ADR_APARTAMENT^"
    "ADR_COD_POSTAL^ADR_SECTOR^ADR_COMPLETARE^WEB^TARA_FIRMA_MAMA"
)
FORMS = ["SRL"] * 7 + ["SA", "PFA", "II", "SNC"]
PLACES = [
    ("40", "Municipiul București", "București", "0201"),
    ("12", "Cluj", "Cluj-Napoca", "4001"),
    ("35", "Timiș", "Timișoara", "3000"),
    ("22", "Iași", "Iași", "7000"),
    ("23", "Ilfov", "Voluntari", "0771"),
]


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield HEADER + "\n"
    for index in range(count):
        body = str(1_000_000 + index)
        number = body + cui.calc_check_digit(body)
        county, judet, city, post = rng.choice(PLACES)
        founded = day(rng, 1991, 2024)
        reg = f"J{county}/{index % 99_999 + 1}/{founded.year}"
        form = rng.choice(FORMS)
        yield (
            f"{company_name(rng, form).upper()}^{number}^{reg}^{founded.isoformat()}^ROONRC.{reg}^{form}^"
            f"România^{judet}^{city}^Str. Unirii^{rng.randint(1, 200)}^^^^^{post}{rng.randint(10, 99)}^^^^\n"
        )


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
