"""Write a large Registro Imprese list (the layout regintel's it_registro_imprese importer defines)
for the import benchmark.

    python bench/gen_it_registro_imprese.py --count 1000000 --out /tmp/imprese_2026-11-26.csv

Deterministic for a seed, streamed row by row. Partite IVA are unique 7-digit taxpayer numbers, a
real tax-office code and the Luhn check digit (python-stdnum `luhn`, which `it.iva` checks).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from genlib import company_name, day, main
from stdnum import luhn

HEADER = (
    "denominazione;natura_giuridica;codice_fiscale;partita_iva;pv;comune;cap;indirizzo;numero_rea;"
    "data_iscrizione_ri;data_cessazione;ateco;stato"
)
FORMS = [("SOCIETA' A RESPONSABILITA' LIMITATA", "S.R.L.")] * 6 + [
    ("SOCIETA' PER AZIONI", "S.P.A."),
    ("SOCIETA' IN ACCOMANDITA SEMPLICE", "S.A.S."),
    ("SOCIETA' A RESPONSABILITA' LIMITATA SEMPLIFICATA", "S.R.L.S."),
]
PLACES = [
    ("MI", "MILANO", "20121"),
    ("RM", "ROMA", "00184"),
    ("TO", "TORINO", "10121"),
    ("NA", "NAPOLI", "80133"),
]
STATES = ["attiva"] * 8 + ["in liquidazione", "cessata"]


def partita_iva(index: int) -> str:
    body = f"{1_000_000 + index:07d}015"
    return body + luhn.calc_check_digit(body)


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield HEADER + "\n"
    for index in range(count):
        number = partita_iva(index)
        form, suffix = rng.choice(FORMS)
        province, city, cap = rng.choice(PLACES)
        state = rng.choice(STATES)
        founded = day(rng, 1970, 2024)
        ended = f"{day(rng, founded.year, 2025):%d/%m/%Y}" if state == "cessata" else ""
        yield (
            f"{company_name(rng, suffix).upper()};{form};{number};{number};{province};{city};{cap};"
            f"VIA ROMA {rng.randint(1, 200)};{100_000 + index};{founded:%d/%m/%Y};{ended};62.01.00;{state}\n"
        )


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
