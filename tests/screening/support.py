"""Fixture paths and loaders of the screening tests."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine

from regintel.areas.screening.importer import import_list

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
UN = FIXTURES / "sanctions_un" / "un_sc_consolidated_list_2026-02-27.xml"
EU = FIXTURES / "sanctions_eu_fsf" / "eu_fsf_xml_1_1_sample.xml"
UK = FIXTURES / "sanctions_uk" / "uk_sanctions_list_sample.xml"
OFAC_SMALL = FIXTURES / "sanctions_ofac" / "small" / "sdn.csv"
OFAC = FIXTURES / "sanctions_ofac" / "ofac_sdn.csv"
SHARED_FTM = Path(__file__).resolve().parents[3] / "shared" / "data" / "opensanctions_ftm"


def load_lists(engine: Engine, *, un: bool = False) -> None:
    """The EU, UK and (cut) OFAC samples, and the whole UN list when asked."""
    import_list(engine, "sanctions_eu_fsf", EU)
    import_list(engine, "sanctions_uk", UK)
    import_list(engine, "sanctions_ofac", OFAC_SMALL)
    if un:
        import_list(engine, "sanctions_un", UN)
