"""`python -m regintel.areas.regulatory queue [HOURS]`: queue the `regulatory.refresh` job for
`regintel worker` (every five feeds from their published URLs); with HOURS (1-168) the job queues itself
again that many hours after each run. `regintel import <id> FILE_OR_URL` imports one feed at once."""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from regintel.areas.regulatory.jobs import REFRESH_JOB
from regintel.config import load_settings
from regintel.db.engine import begin_write, make_engine
from regintel.db.jobs import enqueue
from regintel.db.migrate import upgrade


def main(argv: list[str]) -> int:
    every = argv[1] if len(argv) == 2 else None
    if (
        not argv
        or argv[0] != "queue"
        or len(argv) > 2
        or (every is not None and not (every.isdigit() and 1 <= int(every) <= 168))
    ):
        print("usage: python -m regintel.areas.regulatory queue [HOURS 1-168]", file=sys.stderr)
        return 2
    payload = {"every_hours": int(every)} if every else {}
    engine = make_engine(load_settings().database_url, pool=False)
    upgrade(engine)
    with begin_write(engine) as conn:
        job = enqueue(
            conn,
            REFRESH_JOB,
            payload,
            now=datetime.now(UTC),
            dedupe_key=f"{REFRESH_JOB}:every" if every else None,
        )
    print(f"queued {REFRESH_JOB} job {job}" if job else f"a {REFRESH_JOB} job is already queued")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
