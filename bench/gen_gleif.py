"""Write a large LEI-CDF 3.1 XML file (GLEIF golden-copy layout) for the import benchmark.

    python bench/gen_gleif.py --count 1000000 --out /tmp/gleif-lei-1m.xml.gz

Deterministic for a seed and streamed to disk record by record. Every LEI has valid ISO 17442
check digits; SK and CZ entities sit in their business registers (RA000526, RA000163) with valid,
unique IČOs, GB entities in Companies House (RA000585), so those link to companies; DE and US
entities use registers that do not (HRB numbers, RA999999), as in the real golden copy.
`--delta` writes a GLEIF_DELTA_PUBLISHED header instead of a full one.
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO
from xml.sax.saxutils import escape

from stdnum.cz import dic as cz_dic
from stdnum.iso7064 import mod_97_10

NS = "http://www.gleif.org/data/schema/leidata/2016"
MANAGING_LOU = "097900BEFH0000000217"
BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# country, share, RA code, ELF codes with the suffix of the legal name, cities
PROFILES = [
    (
        "SK",
        40,
        "RA000526",
        [("VSZS", "s.r.o."), ("2EEG", "a.s.")],
        ["Bratislava", "Košice", "Žilina", "Prešov"],
    ),
    ("CZ", 30, "RA000163", [("9HLU", "s.r.o."), ("6CQN", "a.s.")], ["Praha", "Brno", "Ostrava", "Plzeň"]),
    ("GB", 15, "RA000585", [("H0PO", "LIMITED")], ["London", "Manchester", "Leeds"]),
    ("DE", 10, "RA000242", [("2HBR", "GmbH")], ["München", "Köln", "Berlin"]),
    ("US", 5, "RA999999", [("8888", "LLC")], ["Wilmington", "New York"]),
]
WORDS = [
    "Agro",
    "Tatra",
    "Dunaj",
    "Stavby",
    "Obchod",
    "Invest",
    "Trans",
    "Energia",
    "Služby",
    "Čierny Orol",
    "Hviezda",
    "Vltava",
    "Morava",
    "Software",
    "Logistik",
    "Nord",
    "Alpha",
    "Kováč",
    "Šťastný",
    "Zelený",
]
STREETS = [
    "Hlavná",
    "Námestie SNP",
    "Mlynské nivy",
    "Václavské náměstí",
    "High Street",
    "Hauptstraße",
    "Main St",
]


def lei(index: int) -> str:
    """A unique LEI for `index`: LOU prefix, the reserved 00, 12 entity characters, check digits."""
    entity, n = "", index
    for _ in range(12):
        n, r = divmod(n, 36)
        entity = BASE36[r] + entity
    base = "5299" + "00" + entity
    return base + mod_97_10.calc_check_digits(base)


def ico(index: int) -> str:
    """A unique valid IČO: 7 digits from a permutation of the index (first digit 0–8) + check digit."""
    body = f"{(index * 7_919 + 1_234_567) % 9_000_000:07d}"
    return body + cz_dic.calc_check_digit_legal(body)


def entity_id(country: str, index: int) -> str | None:
    if country in ("SK", "CZ"):
        return ico(index)
    if country == "GB":
        return f"{(index * 7_919) % 100_000_000:08d}"
    if country == "DE":
        return f"HRB {index % 250_000 + 1}"
    return None


def choose_profile(rng: random.Random) -> tuple:  # type: ignore[type-arg]
    roll, total = rng.randrange(100), 0
    for profile in PROFILES:
        total += profile[1]
        if roll < total:
            return profile
    return PROFILES[-1]


def ts(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def record(index: int, rng: random.Random, now: datetime) -> str:
    country, _, ra, forms, cities = choose_profile(rng)
    elf, suffix = rng.choice(forms)
    name = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {index} {suffix}"
    city = rng.choice(cities)
    address = (
        f"<lei:FirstAddressLine>{escape(rng.choice(STREETS))} {rng.randint(1, 200)}</lei:FirstAddressLine>"
        f"<lei:City>{escape(city)}</lei:City><lei:Country>{country}</lei:Country>"
        f"<lei:PostalCode>{rng.randint(10000, 99999)}</lei:PostalCode>"
    )
    reg_id = entity_id(country, index)
    ra_entity = (
        f"<lei:RegistrationAuthorityEntityID>{escape(reg_id)}</lei:RegistrationAuthorityEntityID>"
        if reg_id
        else ""
    )
    created = now - timedelta(days=rng.randint(400, 12_000))
    initial = now - timedelta(days=rng.randint(30, 3_000))
    status = rng.choices(["ISSUED", "LAPSED", "RETIRED"], [60, 35, 5])[0]
    entity_status = "INACTIVE" if status == "RETIRED" else "ACTIVE"
    return (
        f"<lei:LEIRecord><lei:LEI>{lei(index)}</lei:LEI><lei:Entity>"
        f'<lei:LegalName xml:lang="{country.lower()}">{escape(name)}</lei:LegalName>'
        f'<lei:LegalAddress xml:lang="{country.lower()}">{address}</lei:LegalAddress>'
        f'<lei:HeadquartersAddress xml:lang="{country.lower()}">{address}</lei:HeadquartersAddress>'
        f"<lei:RegistrationAuthority><lei:RegistrationAuthorityID>{ra}</lei:RegistrationAuthorityID>{ra_entity}"
        f"</lei:RegistrationAuthority><lei:LegalJurisdiction>{country}</lei:LegalJurisdiction>"
        f"<lei:EntityCategory>GENERAL</lei:EntityCategory>"
        f"<lei:LegalForm><lei:EntityLegalFormCode>{elf}</lei:EntityLegalFormCode></lei:LegalForm>"
        f"<lei:EntityStatus>{entity_status}</lei:EntityStatus>"
        f"<lei:EntityCreationDate>{ts(created)}</lei:EntityCreationDate></lei:Entity>"
        f"<lei:Registration><lei:InitialRegistrationDate>{ts(initial)}</lei:InitialRegistrationDate>"
        f"<lei:LastUpdateDate>{ts(now - timedelta(days=rng.randint(0, 29)))}</lei:LastUpdateDate>"
        f"<lei:RegistrationStatus>{status}</lei:RegistrationStatus>"
        f"<lei:NextRenewalDate>{ts(initial + timedelta(days=365 * 9))}</lei:NextRenewalDate>"
        f"<lei:ManagingLOU>{MANAGING_LOU}</lei:ManagingLOU>"
        f"<lei:ValidationSources>FULLY_CORROBORATED</lei:ValidationSources></lei:Registration>"
        f"</lei:LEIRecord>\n"
    )


def generate(count: int, seed: int, *, delta: bool = False) -> Iterator[str]:
    """The file's text in pieces: header, one piece per record, footer."""
    rng = random.Random(seed)
    now = datetime(2024, 5, 5, 8, 0, tzinfo=UTC)
    kind = "GLEIF_DELTA_PUBLISHED" if delta else "GLEIF_FULL_PUBLISHED"
    yield (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<lei:LEIData xmlns:lei="{NS}">\n<lei:LEIHeader>'
        f"<lei:ContentDate>{ts(now)}</lei:ContentDate><lei:FileContent>{kind}</lei:FileContent>"
        f"<lei:RecordCount>{count}</lei:RecordCount></lei:LEIHeader>\n<lei:LEIRecords>\n"
    )
    for index in range(count):
        yield record(index, rng, now)
    yield "</lei:LEIRecords>\n</lei:LEIData>\n"


def write(path: Path, count: int, seed: int, *, delta: bool = False) -> None:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as out:  # type: ignore[operator]
        sink: TextIO = out
        for piece in generate(count, seed, delta=delta):
            sink.write(piece)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20240505)
    parser.add_argument("--out", type=Path, default=None, help="output file (.gz to compress)")
    parser.add_argument("--delta", action="store_true", help="write a delta-file header")
    args = parser.parse_args(argv)
    out = args.out or Path(f"gleif-lei-{args.count}.xml")
    write(out, args.count, args.seed, delta=args.delta)
    sys.stderr.write(f"wrote {args.count:,} LEI records to {out}\n")


if __name__ == "__main__":
    main()
