"""Write a large harvest of Firmenbuch HVD AUSZUG_V2 answers (XML) for the import benchmark.

    python bench/gen_at_firmenbuch.py --count 1000000 --out /tmp/firmenbuch.xml

Deterministic for a seed, streamed entry by entry under one root, in the structure the fixture
`tests/fixtures/at_firmenbuch/auszug_v2_473888w.xml` assumes: FNR and STICHTAG attributes, FIRMA with
FI_DKZ02 name, FI_DKZ03 address and RECHTSFORM, one or two FUN functions with their PER persons. FNs
are unique numbers with a letter (python-stdnum `at.businessid` accepts them).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from genlib import FIRST_NAMES, SURNAMES, company_name, day, main

FORMS = [("GES", "Gesellschaft mit beschränkter Haftung", "GmbH")] * 6 + [
    ("AG", "Aktiengesellschaft", "AG"),
    ("KG", "Kommanditgesellschaft", "KG"),
    ("EU", "Eingetragenes Unternehmen", "e.U."),
]
PLACES = [("1010", "Wien"), ("8010", "Graz"), ("4020", "Linz"), ("5020", "Salzburg"), ("6020", "Innsbruck")]


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<harvest xmlns:fb="ns://firmenbuch.justiz.gv.at/Abfrage/v2">\n'
    for index in range(count):
        code, text, suffix = rng.choice(FORMS)
        plz, city = rng.choice(PLACES)
        fnr = f"{100_000 + index}{'abcdefghikmpstvwxyz'[index % 19]}"
        people = rng.randint(1, 2)
        functions = "".join(
            f"<fb:FUN><fb:FKEN>{'GF' if p == 0 else 'PR'}</fb:FKEN><fb:PNR>{p}</fb:PNR>"
            f"<fb:DATVON>{day(rng, 2000, 2024).isoformat()}</fb:DATVON></fb:FUN>"
            for p in range(people)
        )
        persons = "".join(
            f"<fb:PER><fb:PNR>{p}</fb:PNR><fb:PE_DKZ02><fb:VORNAME>{rng.choice(FIRST_NAMES)}</fb:VORNAME>"
            f"<fb:NACHNAME>{rng.choice(SURNAMES)}</fb:NACHNAME><fb:GEBURTSDATUM>"
            f"{day(rng, 1950, 2000).isoformat()}</fb:GEBURTSDATUM></fb:PE_DKZ02></fb:PER>"
            for p in range(people)
        )
        yield (
            f'<fb:AUSZUG_V2_RESPONSE FNR="{fnr}" STICHTAG="2026-11-30" UMFANG="Kurzinformation"><fb:FIRMA>'
            f"<fb:FI_DKZ02><fb:BEZEICHNUNG>{company_name(rng, suffix)}</fb:BEZEICHNUNG></fb:FI_DKZ02>"
            f"<fb:FI_DKZ03><fb:STELLE>Hauptstraße {rng.randint(1, 200)}</fb:STELLE><fb:PLZ>{plz}</fb:PLZ>"
            f"<fb:ORT>{city}</fb:ORT><fb:STAAT>AUT</fb:STAAT></fb:FI_DKZ03>"
            f"<fb:RECHTSFORM><fb:CODE>{code}</fb:CODE><fb:TEXT>{text}</fb:TEXT></fb:RECHTSFORM></fb:FIRMA>"
            f"{functions}{persons}</fb:AUSZUG_V2_RESPONSE>\n"
        )
    yield "</harvest>\n"


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
