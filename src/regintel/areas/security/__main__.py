"""`python -m regintel.areas.security recheck [EVERY_HOURS [MAX_AGE_HOURS]]`: queue the `security.recheck`
job for `regintel worker`. It queues a passive check for every stored check older than MAX_AGE_HOURS
(default `REGINTEL_SECURITY_MAX_AGE_HOURS`, 168) whose host a register still publishes; with EVERY_HOURS
(1-8760) it queues itself again that many hours after each run."""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from regintel.areas.security.service import RECHECK_JOB
from regintel.config import load_settings
from regintel.db.engine import begin_write, make_engine
from regintel.db.jobs import enqueue
from regintel.db.migrate import upgrade

USAGE = "usage: python -m regintel.areas.security recheck [EVERY_HOURS [MAX_AGE_HOURS]] (hours 1-8760)"


def main(argv: list[str]) -> int:
    numbers = argv[1:]
    if (
        not argv
        or argv[0] != "recheck"
        or len(numbers) > 2
        or not all(n.isdigit() and 1 <= int(n) <= 8760 for n in numbers)
    ):
        print(USAGE, file=sys.stderr)
        return 2
    payload = dict(zip(("every_hours", "max_age_hours"), map(int, numbers), strict=False))
    engine = make_engine(load_settings().database_url, pool=False)
    upgrade(engine)
    with begin_write(engine) as conn:
        job = enqueue(
            conn,
            RECHECK_JOB,
            payload,
            now=datetime.now(UTC),
            dedupe_key=f"{RECHECK_JOB}:every" if "every_hours" in payload else None,
        )
    print(f"queued {RECHECK_JOB} job {job}" if job else f"a periodic {RECHECK_JOB} job is already queued")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
