"""Write a large harvest of GEMI open-data API company answers (JSON lines) for the import benchmark.

    python bench/gen_gr_gemi.py --count 1000000 --out /tmp/gemi.jsonl

Deterministic for a seed, one `/companies/{arGemi}` answer a line with the documented fields. AFMs
are unique 8-digit bodies with the check digit python-stdnum `gr.vat` accepts (bodies without one are
passed over); each company has one or two ΚΑΔ activities and one or two persons.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from genlib import SURNAMES, company_name, day, main
from stdnum.gr import vat

TYPES = [(1, "ΑΕ"), (8, "ΕΠΕ"), (19, "ΙΚΕ"), (19, "ΙΚΕ"), (2, "ΟΕ"), (4, "ΕΕ"), (16, "ΑΤΟΜΙΚΗ")]
STATUSES = [(3, "Ενεργή", True)] * 8 + [(7, "Λύση-Εκκαθάριση", False), (17, "Διαγραφή", False)]
KAD = ["62.01.11.01", "47.11.10.00", "56.10.10.01", "41.20.20.01", "10.51.10.01", "68.20.11.00"]
PLACES = [("ΑΘΗΝΑ", "ΑΤΤΙΚΗΣ", "106"), ("ΘΕΣΣΑΛΟΝΙΚΗ", "ΘΕΣΣΑΛΟΝΙΚΗΣ", "546"), ("ΠΑΤΡΑ", "ΑΧΑΪΑΣ", "262")]


def afm(index: int) -> str | None:
    body = f"{80_000_000 + index:08d}"
    return next((body + d for d in "0123456789" if vat.is_valid(body + d)), None)


def generate(count: int, rng: random.Random) -> Iterator[str]:
    written, index = 0, 0
    while written < count:
        index += 1
        number = afm(index)
        if number is None:
            continue
        type_id, type_name = rng.choice(TYPES)
        status_id, status_name, active = rng.choice(STATUSES)
        city, prefecture, post = rng.choice(PLACES)
        record = {
            "arGemi": f"{100_000_000_000 + index:012d}",
            "afm": number,
            "coNameEl": f"{company_name(rng, type_name).upper()}",
            "legalType": {"id": type_id, "descr": type_name},
            "status": {"id": status_id, "descr": status_name, "isActive": active},
            "incorporationDate": day(rng, 1970, 2024).isoformat(),
            "prefecture": {"id": 1, "descr": prefecture},
            "city": city,
            "street": "ΕΡΜΟΥ",
            "streetNumber": str(rng.randint(1, 200)),
            "zipCode": f"{post}{rng.randint(10, 99)}",
            "activities": [
                {"activity": {"id": kad, "descr": ""}, "type": "Κύρια" if i == 0 else "Δευτερεύουσα"}
                for i, kad in enumerate(rng.sample(KAD, rng.randint(1, 2)))
            ],
            "persons": [
                {
                    "personName": f"{rng.choice(SURNAMES).upper()} {i}",
                    "role": "Διαχειριστής",
                    "dtFrom": "2020-01-01",
                    "dtTo": None,
                }
                for i in range(rng.randint(1, 2))
            ],
        }
        yield json.dumps(record, ensure_ascii=False) + "\n"
        written += 1


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
