"""`python -m regintel.areas.pages contract-totals [HOURS]`: queue the `pages.contract-totals` job for
`regintel worker` (the public-contracts ranking's totals); with HOURS (1-168) the job queues itself again that
many hours after each run. `python -m regintel.areas.pages contract-totals --now` computes them at once."""

from __future__ import annotations

import sys
from datetime import UTC, datetime

from regintel.areas.pages import queries
from regintel.areas.pages.jobs import CONTRACT_TOTALS_JOB
from regintel.config import load_settings
from regintel.db.engine import begin_write, make_engine
from regintel.db.jobs import enqueue
from regintel.db.migrate import upgrade


def main(argv: list[str]) -> int:
    arg = argv[1] if len(argv) == 2 else None
    if (
        not argv
        or argv[0] != "contract-totals"
        or len(argv) > 2
        or (arg is not None and arg != "--now" and not (arg.isdigit() and 1 <= int(arg) <= 168))
    ):
        print("usage: python -m regintel.areas.pages contract-totals [HOURS 1-168 | --now]", file=sys.stderr)
        return 2
    engine = make_engine(load_settings().database_url, pool=False)
    upgrade(engine)
    if arg == "--now":
        with begin_write(engine) as conn:
            rows = queries.refresh_contract_totals(conn, datetime.now(UTC))
        print(f"{rows} contract totals written")
        return 0
    payload = {"every_hours": int(arg)} if arg else {}
    with begin_write(engine) as conn:
        job = enqueue(
            conn,
            CONTRACT_TOTALS_JOB,
            payload,
            now=datetime.now(UTC),
            dedupe_key=f"{CONTRACT_TOTALS_JOB}:every" if arg else None,
        )
    print(
        f"queued {CONTRACT_TOTALS_JOB} job {job}" if job else f"a {CONTRACT_TOTALS_JOB} job is already queued"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
