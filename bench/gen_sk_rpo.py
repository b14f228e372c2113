"""Write a large RPO file for the import benchmark: JSON lines of full RPO entities.

Each line is one entity in the RPO API's entity form (time series of `{value, validFrom, validTo}`,
code-list items `{value, code, codelistCode}`), with valid IČO check digits, one or two names,
an address history, a legal form, statutory bodies, partners with deposits and an SK NACE code.
Deterministic for a seed; written line by line, so memory stays flat for any N.

    python bench/gen_sk_rpo.py out/rpo.jsonl --count 1000000 --seed 7
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

FORMS = [
    ("112", "Spoločnosť s ručením obmedzeným", "s.r.o."),
    ("121", "Akciová spoločnosť", "a.s."),
    ("113", "Komanditná spoločnosť", "k.s."),
    ("205", "Družstvo", "družstvo"),
]
NACE = ["62010", "69200", "70220", "41201", "47190", "46900", "56101", "43320", "11070", "49410"]
TOWNS = [
    ("Bratislava", "529346", "81101"),
    ("Košice", "599981", "04001"),
    ("Žilina", "517402", "01001"),
    ("Banská Bystrica", "508438", "97401"),
    ("Nitra", "500011", "94901"),
    ("Prešov", "524336", "08001"),
    ("Trnava", "506745", "91701"),
    ("Trenčín", "505820", "91101"),
]
STREETS = [
    "Hlavná",
    "Štúrova",
    "Námestie SNP",
    "Mierová",
    "Družstevná",
    "Záhradná",
    "Ľudovíta Štúra",
    "Sládkovičova",
]
GIVEN = ["Ján", "Peter", "Mária", "Jana", "Martin", "Zuzana", "Tomáš", "Eva", "Michal", "Lucia"]
FAMILY = ["Novák", "Horváth", "Kováč", "Varga", "Tóth", "Nagy", "Baláž", "Szabó", "Molnár", "Lukáč"]
WORDS = ["Alfa", "Tatra", "Horizont", "Dunaj", "Karpaty", "Sever", "Orion", "Javor", "Vega", "Kamel"]
SK = {"value": "Slovenská republika", "code": "703", "codelistCode": "CL000086"}
EUR = {"value": "EUR", "code": "978", "codelistCode": "CL000040"}


def ico(number: int) -> str:
    """An 8-digit IČO: 7 digits (`number`, below 10**7) and the weighted mod-11 check digit."""
    body = f"{number:07d}"
    remainder = sum(int(d) * w for d, w in zip(body, range(8, 1, -1), strict=True)) % 11
    return body + str((11 - remainder) % 10)


def day(rng: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rng.randrange(max(1, (end - start).days)))


def person(rng: random.Random) -> dict[str, Any]:
    given, family = rng.choice(GIVEN), rng.choice(FAMILY)
    if given.endswith("a"):
        family = family + "ová" if not family.endswith("á") else family
    title = rng.choice(["", "", "Ing. ", "Mgr. "])
    return {"formatedName": f"{title}{given} {family}", "givenNames": [given], "familyNames": [family]}


def address(rng: random.Random, since: date, until: date | None) -> dict[str, Any]:
    town, code, postal = rng.choice(TOWNS)
    out: dict[str, Any] = {
        "validFrom": since.isoformat(),
        "street": rng.choice(STREETS),
        "regNumber": rng.choice([0, rng.randrange(100, 9999)]),
        "buildingNumber": str(rng.randrange(1, 120)),
        "postalCodes": [postal],
        "municipality": {"value": town, "code": code, "codelistCode": "CL000025"},
        "country": SK,
    }
    if until:
        out["validTo"] = until.isoformat()
    return out


def entity(rng: random.Random, n: int) -> dict[str, Any]:
    founded = day(rng, date(1991, 1, 1), date(2025, 12, 31))
    code, form, suffix = rng.choice(FORMS)
    name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {n} {suffix}"
    moved = day(rng, founded, date(2026, 6, 30)) if rng.random() < 0.4 else None
    addresses = [address(rng, founded, moved - timedelta(days=1) if moved else None)]
    if moved:
        addresses.append(address(rng, moved, None))
    directors = [person(rng) for _ in range(rng.randrange(1, 3))]
    partners = [person(rng) for _ in range(rng.randrange(1, 3))]
    capital = rng.choice([5000, 6640, 25000, 100000])
    shares = [capital // len(partners)] * len(partners)
    shares[0] += capital - sum(shares)
    out: dict[str, Any] = {
        "id": 5_000_000 + n,
        "dbModificationDate": "2026-09-30",
        "identifiers": [{"value": ico(3_000_000 + n), "validFrom": founded.isoformat()}],
        "fullNames": [{"value": name, "validFrom": founded.isoformat()}],
        "addresses": addresses,
        "legalForms": [
            {
                "value": {"value": form, "code": code, "codelistCode": "CL000056"},
                "validFrom": founded.isoformat(),
            }
        ],
        "establishment": founded.isoformat(),
        "statutoryBodies": [
            {
                "stakeholderType": {"value": "Konateľ", "code": "1", "codelistCode": "CL010116"},
                "personName": p,
                "address": address(rng, founded, None),
                "validFrom": founded.isoformat(),
            }
            for p in directors
        ],
        "stakeholders": [
            {
                "stakeholderType": {"value": "Spoločník", "code": "2", "codelistCode": "CL010116"},
                "personName": p,
                "validFrom": founded.isoformat(),
            }
            for p in partners
        ],
        "deposits": [
            {"personName": p, "amount": s, "currency": EUR, "validFrom": founded.isoformat()}
            for p, s in zip(partners, shares, strict=True)
        ],
        "equities": [{"value": capital, "currency": EUR, "validFrom": founded.isoformat()}],
        "statisticalCodes": {
            "mainActivity": {"value": "SK NACE", "code": rng.choice(NACE), "codelistCode": "CL005205"}
        },
        "sourceRegister": {
            "value": {"value": "Obchodný register", "code": "1", "codelistCode": "CL010112"},
            "registrationNumbers": [{"value": f"Sro/{n}/B", "validFrom": founded.isoformat()}],
        },
    }
    if rng.random() < 0.05:
        out["termination"] = day(rng, founded, date(2026, 9, 1)).isoformat()
    return out


def entities(count: int, seed: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    if count > 7_000_000:
        raise ValueError("at most 7,000,000 distinct IČOs from this numbering")
    for n in range(count):
        yield entity(rng, n)


def write(path: Path, count: int, seed: int) -> None:
    """Stream `count` entities to `path` (gzip when it ends in .gz)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as out:  # type: ignore[operator]
        for value in entities(count, seed):
            out.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    write(args.path, args.count, args.seed)


if __name__ == "__main__":
    main()
