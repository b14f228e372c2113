"""What the register file generators share: the command line, a streamed (optionally gzipped) output,
valid register numbers derived from a running index (unique by construction) and plausible words."""

from __future__ import annotations

import argparse
import gzip
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TextIO

Generate = Callable[[int, random.Random], Iterator[str]]


@contextmanager
def output(path: Path | None) -> Iterator[TextIO]:
    """stdout, a text file, or a gzip stream when the name ends in .gz; written as produced."""
    if path is None:
        yield sys.stdout
        return
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8", newline="") as out:  # type: ignore[operator]
        yield out


def write(path: Path | None, generate: Generate, count: int, seed: int) -> None:
    with output(path) as out:
        for chunk in generate(count, random.Random(seed)):
            out.write(chunk)


def main(doc: str, generate: Generate, default_seed: int, argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=doc.strip().split("\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=default_seed)
    parser.add_argument(
        "--out", type=Path, default=None, help="output file (.gz to compress); stdout if omitted"
    )
    args = parser.parse_args(argv)
    write(args.out, generate, args.count, args.seed)


def ico(index: int) -> str:
    """The index-th IČO (CZ/SK): 7 digits and the weighted mod-11 check digit (remainder 0 gives 1,
    remainder 1 gives 0, so every 7-digit body has one)."""
    digits = f"{1_000_000 + index:07d}"
    total = sum(int(d) * w for d, w in zip(digits, range(8, 1, -1), strict=True))
    return digits + str((11 - total % 11) % 10)


def siren(index: int) -> str:
    """The index-th SIREN: 8 digits and a Luhn check digit."""
    body = f"{100_000_000 // 10 + index:08d}"
    total = 0
    for position, digit in enumerate(reversed(body)):
        d = int(digit) * (2 if position % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return body + str((10 - total % 10) % 10)


def orgnr(index: int) -> str | None:
    """The index-th Norwegian organisasjonsnummer (starting with 9), or None when its mod-11 check
    digit would be 10 (such numbers are never issued)."""
    body = f"{91_000_000 + index:08d}"
    total = sum(int(d) * w for d, w in zip(body, (3, 2, 7, 6, 5, 4, 3, 2), strict=True))
    check = 11 - total % 11
    if check == 10:
        return None
    return body + str(0 if check == 11 else check)


FIRST_NAMES = [
    "Jan",
    "Petr",
    "Marie",
    "Eva",
    "Tomáš",
    "Jana",
    "Pierre",
    "Marie-Claire",
    "Émile",
    "Ingrid",
    "Ola",
    "Kari",
    "Bjørn",
    "Siobhan",
    "James",
    "Olivia",
    "Zoë",
    "Søren",
    "François",
    "Léa",
]
SURNAMES = [
    "Novák",
    "Dvořák",
    "Černý",
    "Procházka",
    "Martin",
    "Bernard",
    "Lefèvre",
    "Hansen",
    "Johansen",
    "Berg",
    "Smith",
    "Jones",
    "O'Brien",
    "Williams",
    "Müller",
    "Røed",
    "Dubois",
    "Kovář",
    "Šimek",
    "Brown",
]
WORDS = [
    "Alfa",
    "Nord",
    "Stavby",
    "Energie",
    "Logistik",
    "Invest",
    "Software",
    "Agro",
    "Morava",
    "Fjord",
    "Atlantique",
    "Riverside",
    "Highland",
    "Consulting",
    "Solutions",
    "Trading",
    "Bygg",
    "Transport",
    "Boulangerie",
    "Holdings",
    "Čerstvé pečivo",
    "Développement",
    "Havbruk",
    "Digital",
    "Green",
]


def company_name(rng: random.Random, suffix: str) -> str:
    return f"{rng.choice(WORDS)} {rng.choice(WORDS)} {suffix}".strip()


def day(rng: random.Random, first_year: int = 1990, last_year: int = 2024) -> date:
    return date(rng.randint(first_year, last_year), rng.randint(1, 12), rng.randint(1, 28))
