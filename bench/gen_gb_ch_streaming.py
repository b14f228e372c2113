"""Write a large Companies House Streaming API capture (one JSON event a line) for the import benchmark.

    python bench/gen_gb_ch_streaming.py --count 1000000 --out /tmp/stream.jsonl

Deterministic for a seed, streamed event by event, in the envelope of the real sample
(resource_kind, resource_uri, resource_id, data, event {type, timepoint, published_at}): nine in ten
events are company-profile events of distinct companies (8-digit numbers), one in ten a
filing-history event of a company profiled earlier in the file; timepoints count up.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from genlib import company_name, day, main

STATUSES = ["active"] * 8 + ["liquidation", "dissolved"]
TYPES = ["ltd"] * 8 + ["plc", "llp"]
TOWNS = [("London", "EC1A 1BB"), ("Norwich", "NR16 2HS"), ("Leeds", "LS1 4DY")]


def generate(count: int, rng: random.Random) -> Iterator[str]:
    profiles = 0
    for timepoint in range(1, count + 1):
        if profiles and rng.random() < 0.1:
            number = f"{10_000_000 + rng.randrange(profiles):08d}"
            event = {
                "resource_kind": "filing-history",
                "resource_uri": f"/company/{number}/filing-history/T{timepoint}",
                "resource_id": f"T{timepoint}",
                "data": {
                    "category": "accounts",
                    "date": "2023-11-04",
                    "type": "AA",
                    "transaction_id": f"T{timepoint}",
                    "description": "accounts-with-accounts-type-dormant",
                },
                "event": {"timepoint": timepoint, "published_at": "2023-11-04T14:33:31", "type": "changed"},
            }
        else:
            number = f"{10_000_000 + profiles:08d}"
            profiles += 1
            town, postcode = rng.choice(TOWNS)
            event = {
                "resource_kind": "company-profile",
                "resource_uri": f"/company/{number}",
                "resource_id": number,
                "data": {
                    "company_name": company_name(rng, "LTD").upper(),
                    "company_number": number,
                    "company_status": rng.choice(STATUSES),
                    "type": rng.choice(TYPES),
                    "date_of_creation": day(rng, 1990, 2023).isoformat(),
                    "jurisdiction": "england-wales",
                    "registered_office_address": {
                        "address_line_1": f"{rng.randint(1, 200)} High Street",
                        "locality": town,
                        "postal_code": postcode,
                    },
                    "sic_codes": [rng.choice(["45200", "62020", "70229", "82990"])],
                },
                "event": {"timepoint": timepoint, "published_at": "2023-11-04T14:33:29", "type": "changed"},
            }
        yield json.dumps(event, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
