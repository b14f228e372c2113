"""Write a large RÚZ file for the import benchmark: JSON lines mixing accounting units, statement
headers and reports, as a bulk crawl of the RÚZ API would store them.

Every unit (valid IČO, 10-digit DIČ, RÚZ codes) is followed by one to three yearly statements, each
followed by its report: template 687 (Úč MUJ, micro) or 699 (Úč POD) with balance sheets that add
up. Half the statements name their unit only by `idUJ`, as the current API does. Deterministic for
a seed; written line by line, so memory stays flat for any N (N counts lines).

    python bench/gen_sk_registeruz.py out/ruz.jsonl --count 1000000 --seed 7
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

TOWNS = [
    ("Bratislava - mestská časť Ružinov", "1", "102", "529320", "82105"),
    ("Košice - mestská časť Staré Mesto", "8", "802", "599981", "04001"),
    ("Žilina", "5", "511", "517402", "01001"),
    ("Nitra", "4", "403", "500011", "94901"),
    ("Prešov", "7", "707", "524336", "08001"),
    ("Trnava", "2", "207", "506745", "91701"),
]
FORMS = ["112", "112", "112", "121", "205"]
NACE = ["62010", "69200", "70220", "41201", "47190", "46900", "56101", "43320"]
SIZES = ["00", "01", "02", "03", "04", "05", "06", "07", "11", "12", "21"]
WORDS = ["Alfa", "Tatra", "Horizont", "Dunaj", "Karpaty", "Sever", "Orion", "Javor", "Vega", "Šípka"]


def ico(number: int) -> str:
    """An 8-digit IČO: 7 digits (`number`, below 10**7) and the weighted mod-11 check digit."""
    body = f"{number:07d}"
    remainder = sum(int(d) * w for d, w in zip(body, range(8, 1, -1), strict=True)) % 11
    return body + str((11 - remainder) % 10)


def table(
    name: str, first: int, rows: int, columns: int, values: dict[int, tuple[Any, ...]]
) -> dict[str, Any]:
    data: list[str] = []
    for row in range(first, first + rows):
        data += [str(v) for v in values.get(row, ("",) * columns)]
    return {"nazov": {"sk": name}, "data": data}


def micro_tables(a: dict[str, int]) -> list[dict[str, Any]]:
    """Úč MUJ (687): assets r. 1-23, equity and liabilities r. 24-45, income statement r. 1-38."""
    return [
        table("Strana aktív", 1, 23, 2, {1: (a["assets"], ""), 2: (a["fixed"], ""), 14: (a["current"], "")}),
        table(
            "Strana pasív",
            24,
            22,
            2,
            {
                24: (a["assets"], ""),
                25: (a["equity"], ""),
                26: (5000, 5000),
                33: (a["profit"], ""),
                34: (a["liabilities"], ""),
            },
        ),
        table("Výkaz ziskov a strát", 1, 38, 2, {1: (a["revenue"], ""), 38: (a["profit"], "")}),
    ]


def pod_tables(a: dict[str, int]) -> list[dict[str, Any]]:
    """Úč POD (699): assets r. 1-78 (gross, adjustment, net, previous), the rest 2 columns."""
    return [
        table(
            "Strana aktív",
            1,
            78,
            4,
            {
                1: (a["assets"], 0, a["assets"], ""),
                2: (a["fixed"], 0, a["fixed"], ""),
                33: (a["current"], 0, a["current"], ""),
            },
        ),
        table(
            "Strana pasív",
            79,
            67,
            2,
            {
                79: (a["assets"], ""),
                80: (a["equity"], ""),
                81: (5000, 5000),
                100: (a["profit"], ""),
                101: (a["liabilities"], ""),
            },
        ),
        table("Výkaz ziskov a strát", 1, 61, 2, {1: (a["revenue"], ""), 61: (a["profit"], "")}),
    ]


def accounts(rng: random.Random, micro: bool) -> dict[str, int]:
    assets = rng.randrange(5_000, 300_000) if micro else rng.randrange(300_000, 50_000_000)
    fixed = rng.randrange(0, assets // 2)
    equity = rng.randrange(assets // 10, assets)
    profit = rng.randrange(-equity // 4, equity // 2)
    return {
        "assets": assets,
        "fixed": fixed,
        "current": assets - fixed,
        "equity": equity,
        "liabilities": assets - equity,
        "profit": profit,
        "revenue": rng.randrange(assets // 2, assets * 3),
    }


def unit(rng: random.Random, n: int) -> dict[str, Any]:
    town, kraj, okres, sidlo, psc = rng.choice(TOWNS)
    return {
        "id": 1_000_000 + n,
        "ico": ico(4_000_000 + n),
        "dic": f"20{rng.randrange(10**8):08d}",
        "nazovUJ": f"{rng.choice(WORDS)} {rng.choice(WORDS)} {n} s.r.o.",
        "mesto": town,
        "ulica": f"{rng.choice(WORDS)}ova {rng.randrange(1, 99)}",
        "psc": psc,
        "datumZalozenia": f"{rng.randrange(1993, 2019)}-{rng.randrange(1, 13):02d}-01",
        "pravnaForma": rng.choice(FORMS),
        "skNace": rng.choice(NACE),
        "velkostOrganizacie": rng.choice(SIZES),
        "druhVlastnictva": "2",
        "kraj": kraj,
        "okres": okres,
        "sidlo": sidlo,
        "konsolidovana": False,
        "zdrojDat": "SUSR",
        "datumPoslednejUpravy": "2026-09-30",
    }


def statements(rng: random.Random, company: dict[str, Any], n: int) -> Iterator[dict[str, Any]]:
    micro = rng.random() < 0.7
    for k, year in enumerate(range(2026 - rng.randrange(1, 4), 2026)):
        sid, rid = 10_000_000 + n * 4 + k, 20_000_000 + n * 4 + k
        header = {
            "id": sid,
            "idUJ": company["id"],
            "obdobieOd": f"{year}-01",
            "obdobieDo": f"{year}-12",
            "datumZostaveniaK": f"{year}-12-31",
            "typ": "Riadna",
            "konsolidovana": False,
            "idUctovnychVykazov": [rid],
            "zdrojDat": "DATACENTRUM",
            "datumPoslednejUpravy": f"{year + 1}-04-30",
        }
        if rng.random() < 0.5:
            header["ico"] = company["ico"]
        yield header
        figures = accounts(rng, micro)
        yield {
            "id": rid,
            "idUctovnejZavierky": sid,
            "idSablony": 687 if micro else 699,
            "mena": "EUR",
            "pristupnostDat": "Verejné",
            "prilohy": [],
            "obsah": {
                "titulnaStrana": {
                    "ico": company["ico"],
                    "nazovUctovnejJednotky": company["nazovUJ"],
                    "obdobieOd": f"{year}-01",
                    "obdobieDo": f"{year}-12",
                    "typZavierky": "riadna",
                    "konsolidovana": False,
                },
                "tabulky": micro_tables(figures) if micro else pod_tables(figures),
            },
            "zdrojDat": "DATACENTRUM",
            "datumPoslednejUpravy": f"{year + 1}-04-30",
        }


def records(count: int, seed: int) -> Iterator[dict[str, Any]]:
    """`count` lines: units, each followed by its statements and reports."""
    rng = random.Random(seed)
    written, n = 0, 0
    while written < count:
        if n >= 6_000_000:
            raise ValueError("at most 6,000,000 distinct IČOs from this numbering")
        company = unit(rng, n)
        for value in (company, *statements(rng, company, n)):
            if written == count:
                return
            written += 1
            yield value
        n += 1


def write(path: Path, count: int, seed: int) -> None:
    """Stream `count` lines to `path` (gzip when it ends in .gz)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as out:  # type: ignore[operator]
        for value in records(count, seed):
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
