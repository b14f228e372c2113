"""`python -m regintel.areas.screening import <list> PATH`: import a sanctions list (see docs/screening.md).

`regintel import` feeds the company loader; sanctions lists are entries, not companies, so they have
their own command here. `python -m regintel.areas.screening lists` prints the known lists.
"""

from __future__ import annotations

import sys

from regintel.areas.screening.importer import get_list_source, import_list
from regintel.config import load_settings
from regintel.db.engine import make_engine
from regintel.db.migrate import upgrade
from regintel.ingest.base import SourceAbort
from regintel.ingest.sources.sanctions_common import sanction_sources


def main(argv: list[str]) -> int:
    if argv[:1] == ["lists"]:
        for source_id, source in sorted(sanction_sources().items()):
            print(f"{source_id}\t{source.info.formats}\t{source.info.licence}")
        return 0
    if len(argv) != 3 or argv[0] != "import":
        print("usage: python -m regintel.areas.screening import <list> PATH | lists", file=sys.stderr)
        return 2
    settings = load_settings()
    engine = make_engine(settings.database_url, pool=False)
    upgrade(engine)
    try:
        get_list_source(argv[1])
        stats = import_list(engine, argv[1], argv[2])
    except SourceAbort as exc:
        print(f"import aborted: {exc}", file=sys.stderr)
        return 1
    print(stats.as_dict())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
