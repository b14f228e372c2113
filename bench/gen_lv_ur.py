"""Write a large Latvian Register of Enterprises register.csv for the import benchmark.

    python bench/gen_lv_ur.py --count 1000000 --out /tmp/register.csv

Deterministic for a seed, streamed row by row, with the real 21-column header, `;` separators,
doubled quotes inside names and YYYY-MM-DD dates as in the published file. Registration numbers are
unique 11-digit numbers starting with 4 whose check digit python-stdnum `lv.pvn` accepts (bodies
without a valid check digit are passed over). About a third of the rows are closed (L or R).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from genlib import company_name, day, main
from stdnum.lv import pvn

HEADER = (
    "regcode;sepa;name;name_before_quotes;name_in_quotes;name_after_quotes;without_quotes;regtype;"
    "regtype_text;type;type_text;registered;terminated;closed;address;index;addressid;region;city;atvk;"
    "reregistration_term"
)
TYPES = [("K", "Komercreģistrs", "SIA", "Sabiedrība ar ierobežotu atbildību")] * 6 + [
    ("K", "Komercreģistrs", "IK", "Individuālais komersants"),
    ("K", "Komercreģistrs", "AS", "Akciju sabiedrība"),
    ("B", "Biedrību un nodibinājumu reģistrs", "BDR", "Biedrība"),
    ("U", "Uzņēmumu reģistra žurnāls", "ZEM", "Zemnieku saimniecība"),
]
PLACES = [
    ("Rīga, Brīvības iela {n}", "1010", "0010000"),
    ("Jūrmala, Raiņa iela {n}", "2011", "0130000"),
    ("Liepāja, Jūras iela {n}", "3401", "0170000"),
    ("Ķekavas nov., Ķekava, Rīgas iela {n}", "2123", "0807600"),
]


def regcode(index: int) -> str | None:
    body = f"4{index:09d}"
    return next((body + d for d in "0123456789" if pvn.is_valid(body + d)), None)


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield "sep=;\n" + HEADER + "\n"
    written, index = 0, 1_000_000
    while written < count:
        index += 1
        code = regcode(index)
        if code is None:
            continue
        regtype, regtype_text, kind, kind_text = rng.choice(TYPES)
        quoted = company_name(rng, "").upper()
        name = f'{kind_text} ""{quoted}""'
        registered = day(rng, 1991, 2020)
        closed = rng.choice(["", "", "L", "R", "", ""]) if rng.random() < 0.5 else ""
        terminated = day(rng, registered.year, 2024).isoformat() if closed else ""
        address, index_code, atvk = rng.choice(PLACES)
        yield (
            f'{code};LV00ZZZ{code};"{name}";{kind_text};{quoted};"";0;{regtype};{regtype_text};{kind};'
            f"{kind_text};{registered.isoformat()};{terminated};{closed or ' '};"
            f"{address.format(n=rng.randint(1, 200))};{index_code};{100000000 + written};0;0;{atvk};\n"
        )
        written += 1


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
