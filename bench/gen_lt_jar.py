"""Write a large Lithuanian JAR registered-entities file (JAR_IREGISTRUOTI.csv) for the import benchmark.

    python bench/gen_lt_jar.py --count 1000000 --out /tmp/JAR_IREGISTRUOTI.csv

Deterministic for a seed, streamed row by row, in the documented `|`-separated 10-column layout
with YYYY-MM-DD dates; unique 9-digit codes from 300000000 on; UAB/AB/MB/VšĮ forms and a mix of
legal statuses (most without one, some in liquidation, bankruptcy or restructuring).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from genlib import company_name, day, main

HEADER = (
    "ja_kodas|ja_pavadinimas|adresas|ja_reg_data|form_kodas|form_pavadinimas|stat_kodas|stat_pavadinimas|"
    "stat_data_nuo|formavimo_data"
)
FORMS = [("310", "Uždaroji akcinė bendrovė", "UAB")] * 6 + [
    ("320", "Akcinė bendrovė", "AB"),
    ("960", "Mažoji bendrija", "MB"),
    ("720", "Viešoji įstaiga", "VšĮ"),
]
STATUSES = [("0", "Teisinis statusas neįregistruotas")] * 8 + [
    ("10", "Likviduojamas"),
    ("11", "Bankrutuojantis"),
    ("12", "Restruktūrizuojamas"),
]
PLACES = [
    "Vilnius, Gedimino pr. {n}, LT-01103",
    "Kaunas, Laisvės al. {n}, LT-44249",
    "Klaipėda, Tiltų g. {n}, LT-91246",
]


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield HEADER + "\n"
    for written in range(count):
        code, form_name, short = rng.choice(FORMS)
        status_code, status = rng.choice(STATUSES)
        registered = day(rng, 1991, 2024)
        yield (
            f'{300000000 + written}|{short} "{company_name(rng, "").upper()}"|'
            f"{rng.choice(PLACES).format(n=rng.randint(1, 200))}|{registered.isoformat()}|{code}|{form_name}|"
            f"{status_code}|{status}|{registered.isoformat()}|2026-11-30\n"
        )


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
