"""Write a large ONRC od_firme.csv for the import benchmark.

    python bench/gen_ro_onrc.py --count 1000000 --out /tmp/od_firme.csv
    python bench/gen_ro_onrc.py --count 1000000 --out /tmp/onrc-set.zip

Deterministic for a seed, streamed row by row, with the documented 20-column `^`-separated header.
CUIs are unique 8-digit bodies with the python-stdnum `ro.cui` check digit; registration numbers are
old-format ONRC numbers (`J40/<n>/<year>`), valid for `ro.onrc`. An output ending in `.zip` is the
published set: od_firme.csv with od_stare_firma.csv (one state a trader, nine in ten "funcțiune"),
n_stare_firma.csv and od_caen_autorizat.csv (one to three CAEN Rev. 2 classes a trader, and a CAEN
Rev. 3 class for one in five).
"""

from __future__ import annotations

import argparse
import random
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

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


STATES = "COD^DENUMIRE\n1048^funcțiune\n1084^radiată\n1090^în insolvență\n1101^dizolvare\n"
CAEN_REV2 = ("6201", "4120", "4711", "5610", "6920", "4941", "1071", "0111", "7022", "4321")
CAEN_REV3 = ("6210", "4100", "4711", "5611", "6920")


def write_set(path: Path, count: int, seed: int) -> None:
    """The zip set: the firms streamed into their member, then the states and CAEN files by number."""
    numbers = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("od_firme.csv", "w", force_zip64=True) as fh:
            for line in generate(count, random.Random(seed)):
                fh.write(line.encode())
                if len(numbers) < count and not line.startswith("DENUMIRE"):
                    numbers.append(line.split("^", 3)[2])
        archive.writestr("n_stare_firma.csv", STATES)
        rng = random.Random(seed + 1)
        with archive.open("od_stare_firma.csv", "w", force_zip64=True) as fh:
            fh.write(b"COD_INMATRICULARE^COD\n")
            for number in numbers:
                code = "1048" if rng.random() < 0.9 else rng.choice(("1084", "1090", "1101"))
                fh.write(f"{number}^{code}\n".encode())
        with archive.open("od_caen_autorizat.csv", "w", force_zip64=True) as fh:
            fh.write(b"COD_INMATRICULARE^COD_CAEN_AUTORIZAT^VER_CAEN_AUTORIZAT\n")
            for number in numbers:
                for code in rng.sample(CAEN_REV2, rng.randint(1, 3)):
                    fh.write(f"{number}^{code}^2\n".encode())
                if rng.random() < 0.2:
                    fh.write(f"{number}^{rng.choice(CAEN_REV3)}^3\n".encode())


if __name__ == "__main__":
    if any(a.endswith(".zip") for a in sys.argv[1:]):
        ap = argparse.ArgumentParser(description=__doc__.strip().split("\n")[0])
        ap.add_argument("--count", type=int, default=1_000_000)
        ap.add_argument("--seed", type=int, default=24)
        ap.add_argument("--out", type=Path, required=True)
        args = ap.parse_args()
        write_set(args.out, args.count, args.seed)
    else:
        main(__doc__, generate, default_seed=24)
