"""Write a large Cyprus Registrar of Companies organisations CSV for the import benchmark.

    python bench/gen_cy_drcor.py --count 1000000 --out /tmp/organisations_2026-11-24.csv

Deterministic for a seed, streamed row by row, with the documented 11-column header (UTF-8 BOM,
comma-separated, dd/mm/yyyy dates). Registration numbers run upwards per type (C companies, a few O
and P); one row in fifty is a business name (N), which the importer skips.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from genlib import company_name, day, main

HEADER = (
    "ORGANISATION_NAME,REGISTRATION_NO,ORGANISATION_TYPE_CODE,ORGANISATION_TYPE,ORGANISATION_SUB_TYPE,"
    "NAME_STATUS_CODE,NAME_STATUS,REGISTRATION_DATE,ORGANISATION_STATUS,ORGANISATION_STATUS_DATE,"
    "ADDRESS_SEQ_NO"
)
TYPES = [("C", "Εταιρεία", "Ιδιωτική Εταιρεία Περιορισμένης Ευθύνης με Μετοχές")] * 45 + [
    ("O", "Αλλοδαπή Εταιρεία", ""),
    ("P", "Συνεταιρισμός", "Ομόρρυθμος Συνεταιρισμός"),
    ("N", "Εμπορική Επωνυμία", ""),
]
STATUSES = ["Εγγεγραμμένη"] * 8 + ["Διαγραμμένη", "Υπό Εκκαθάριση"]


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield "\ufeff" + HEADER + "\n"
    for index in range(count):
        kind, kind_text, sub = rng.choice(TYPES)
        founded = day(rng, 1960, 2024)
        status = rng.choice(STATUSES)
        changed = day(rng, founded.year, 2025) if status != "Εγγεγραμμένη" else founded
        yield (
            f'"{company_name(rng, "LIMITED").upper()}",{100_000 + index},{kind},{kind_text},{sub},ACT,Ενεργό,'
            f"{founded:%d/%m/%Y},{status},{changed:%d/%m/%Y},{900_000 + index}\n"
        )


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
