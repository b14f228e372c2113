"""Shared by the screening evaluation and benchmark: the real lists parsed from the repository's
fixtures (UN, OFAC, EU, UK) and turned into the matcher's candidates, exactly as the importer and
`areas/screening/index.py` do (names normalised by `domain.screening.normalise_name`)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from regintel.domain.screening import Candidate, ListedName, normalise_identifier, normalise_name  # noqa: E402
from regintel.ingest.sources.sanctions_common import ListedEntry, sanction_sources  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
LISTS = {
    "sanctions_un": FIXTURES / "sanctions_un" / "un_sc_consolidated_list_2026-02-27.xml",
    "sanctions_ofac": FIXTURES / "sanctions_ofac" / "ofac_sdn.csv",
    "sanctions_eu_fsf": FIXTURES / "sanctions_eu_fsf" / "eu_fsf_xml_1_1_sample.xml",
    "sanctions_uk": FIXTURES / "sanctions_uk" / "uk_sanctions_list_sample.xml",
}


def real_entries() -> list[tuple[str, ListedEntry]]:
    sources = sanction_sources()
    return [(list_id, e) for list_id, path in LISTS.items() for e in sources[list_id].parse(path)]


def to_candidate(entry_id: int, e: ListedEntry) -> Candidate:
    names = tuple(ListedName(n.name, n.kind, tuple(normalise_name(n.name).split())) for n in e.names)
    return Candidate(
        entry_id,
        e.schema,
        tuple(n for n in names if n.tokens),
        frozenset(c for c, _ in e.countries),
        tuple(sorted(set(e.birth_dates))),
        frozenset(v for i in e.identifiers if (v := normalise_identifier(i.value))),
    )
