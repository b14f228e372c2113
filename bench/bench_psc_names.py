"""`/uk-connections` with foreign corporate PSCs found by name (migration 0028): server-side latency of
`links.uk_connections` on a database with many PSC roles held by entities known only by name.

Builds its own database (SQLite by default, or `--database-url`): `--companies` SK companies, a
tenth as many GB companies, and `--pscs` PSC roles of those GB companies held by name-only entities;
a third of the entries name one of our companies (half of those with its country and number), the
rest name companies we do not hold. Then times `uk_connections` (pooled connection, the service, the
JSON body) over `--calls` companies drawn at random, and prints the query plan of the look-up.

    .venv/bin/python bench/bench_psc_names.py --companies 200000 --pscs 150000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, insert, select, text

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from bench_lookup import percentiles  # noqa: E402

from regintel.api.envelope import dumps  # noqa: E402
from regintel.areas.ownership import links  # noqa: E402
from regintel.areas.ownership.entities import Ctx  # noqa: E402
from regintel.db.engine import make_engine  # noqa: E402
from regintel.db.migrate import upgrade  # noqa: E402
from regintel.db.schema import companies, roles  # noqa: E402
from regintel.domain.names import normalise_name  # noqa: E402

WORDS = "alfa beta gama delta sigma nova terra invest trade stav agro tech data servis group".split()


def ico(n: int) -> str:
    """A valid Slovak IČO (mod-11 check digit) for the n-th company."""
    base = f"{35_000_000 // 10 + n:07d}"
    total = sum(int(d) * w for d, w in zip(base, range(8, 1, -1), strict=True))
    check = (11 - total % 11) % 10
    return base + str(check)


def build(engine: Any, n: int, pscs: int, seed: int) -> None:
    rng = random.Random(seed)
    now = datetime.now(UTC)
    names = [f"{' '.join(rng.sample(WORDS, 3))} {i} s.r.o." for i in range(n)]
    base = {"status": "active", "source": "bench", "created_at": now, "updated_at": now}
    with engine.begin() as conn:
        rows = [
            {**base, "country": "SK", "national_id": ico(i), "name": nm, "name_norm": normalise_name(nm)}
            for i, nm in enumerate(names)
        ]
        rows += [
            {
                **base,
                "country": "GB",
                "national_id": f"{i:08d}",
                "name": f"UK {i} LTD",
                "name_norm": f"uk {i}",
            }
            for i in range(max(1, n // 10))
        ]
        for start in range(0, len(rows), 5000):
            conn.execute(insert(companies), rows[start : start + 5000])
        gb = [i for (i,) in conn.execute(select(companies.c.id).where(companies.c.country == "GB"))]
        out = []
        for k in range(pscs):
            ours = k % 3 == 0
            i = rng.randrange(n)
            name = names[i] if ours else f"foreign {k} gmbh"
            numbered = ours and k % 2 == 0
            out.append(
                {
                    "company_id": gb[k % len(gb)],
                    "role": "shareholder",
                    "holder_key": f"n:bench{k}",
                    "holder_name": name,
                    "holder_name_norm": normalise_name(name),
                    "holder_reg_country": "SK" if numbered else None,
                    "holder_reg_number": ico(i) if numbered else None,
                    "share_pct": 25.0,
                    "source": "gb_psc",
                }
            )
        for start in range(0, len(out), 5000):
            conn.execute(insert(roles), out[start : start + 5000])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--database-url", default="sqlite:////tmp/bench_psc_names.db")
    ap.add_argument("--companies", type=int, default=200_000)
    ap.add_argument("--pscs", type=int, default=150_000)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--reuse", action="store_true", help="time an existing build")
    args = ap.parse_args()
    if args.database_url.startswith("sqlite:///") and not args.reuse:
        Path(args.database_url.removeprefix("sqlite:///")).unlink(missing_ok=True)
    engine = make_engine(args.database_url)
    started = time.perf_counter()
    if not args.reuse:
        upgrade(engine)
        build(engine, args.companies, args.pscs, args.seed)
    built = time.perf_counter() - started
    rng = random.Random(args.seed + 1)
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(roles)).scalar()
        lo, hi = conn.execute(
            select(func.min(companies.c.id), func.max(companies.c.id)).where(companies.c.country == "SK")
        ).one()
        ids = [rng.randint(lo, hi) for _ in range(args.calls)]
        rows = [dict(r) for r in conn.execute(select(companies).where(companies.c.id.in_(ids))).mappings()]
        if engine.dialect.name == "sqlite":
            sample = rows[0]
            plan = conn.execute(
                text(
                    "EXPLAIN QUERY PLAN SELECT id FROM roles WHERE source = 'gb_psc' AND ((holder_reg_number"
                    " = :n AND holder_reg_country = :c) OR holder_name_norm = :m)"
                ),
                {"n": sample["national_id"], "c": "SK", "m": sample["name_norm"]},
            ).all()
            print("plan:", [p[-1] for p in plan])
    wall, cpu, found = [], [], 0
    for row in rows:
        t0, c0 = time.perf_counter(), time.process_time()
        with engine.connect() as conn:
            body = dumps(links.uk_connections(Ctx(conn, personal=False), row))
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        found += body.count(b'"this_company_is_psc"')
    print(
        json.dumps(
            {
                "backend": engine.dialect.name,
                "companies": args.companies,
                "roles": total,
                "build_s": round(built, 1),
                "calls": len(rows),
                "connections_found": found,
                "wall_ms": percentiles(wall),
                "cpu_ms": percentiles(cpu),
            }
        )
    )


if __name__ == "__main__":
    main()
