"""The bundled demo dataset: real open-data records from the registers' own sample files, imported
through the same importers as production data (see `data/demo/LICENCES.md`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from importlib import resources
from pathlib import Path

from sqlalchemy import Engine

from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source

# Registers first, so that GLEIF (a fill-only source) links to companies they describe and only
# fills gaps; then the sources that refer to companies by key (PSC, relationships, gazette).
DEMO_FILES: list[tuple[str, str]] = [
    ("gleif_ra", "gleif/2022-03-23_ra_list_v1.7.csv"),
    ("sk_rpo", "demo/rpo_v1_search_identifier_31322832.json"),
    ("sk_registeruz", "demo/uctovna-jednotka__id-1689373.json"),
    ("sk_registeruz", "demo/uctovna-jednotka__id-442175.json"),
    ("cz_ares", "demo/ekonomicke-subjekty_26168685.json"),
    ("gb_companies_house", "demo/basic_company_data_sample_2021.csv"),
    ("fr_sirene", "demo/StockUniteLegale_sample.csv"),
    ("fr_sirene", "demo/StockUniteLegale_from_api.csv"),
    ("fr_sirene", "demo/StockEtablissement_from_api.csv"),
    ("fr_recherche_entreprises", "demo/search_q_danone_per_page_1.json"),
    ("no_brreg", "demo/enhetsregisteret_api_enheter_923609016.json"),
    ("lv_ur", "demo/ur_register_sample.csv"),
    ("ie_cro", "demo/cro_companies_subset_300.csv"),
    ("fi_prh", "demo/ytj_v3_companies_businessId_0112038-9.json"),
    ("ch_zefix", "demo/zefixrest_v1_firm_CHE279438550.json"),
    ("ua_edr", "demo/edr_uo_full_sample_2records.json"),
    ("pl_krs", "demo/krs_OdpisAktualny_P_0000121862.json"),
    ("hr_sudreg", "demo/detalji_subjekta_mbs_080000604_excerpt.json"),
    ("es_borme", "demo/BORME-A-2015-27-10.pdf"),
    # After the BasicCompanyData file: stream events are later snapshots of the companies it holds.
    ("gb_ch_streaming", "demo/streaming_api_events_sample.jsonl"),
    ("gleif", "demo/bodspipelines_lei-data.xml"),
    ("gleif", "demo/bodspipelines_lei-updates-data2.xml"),
    ("gleif", "demo/20240505-0000-gleif-goldencopy-lei2-intra-day.json.gz"),
    ("gb_psc", "demo/psc_snapshot_sample.jsonl"),
    ("gleif_rr", "demo/bodspipelines_rr-data.xml"),
    ("gleif_rr", "demo/bodspipelines_rr-updates-data2.xml"),
    ("gleif_repex", "demo/bodspipelines_repex-data.xml"),
    # NOT REAL: example notices written from the gazette's official schemas about invented
    # companies, so that the demo shows a restructuring (no real sample has one); see LICENCES.md.
    ("sk_obchodny_vestnik", "demo/obchodny_vestnik_examples.xml"),
]


def iter_demo_files() -> Iterator[tuple[str, Path]]:
    """(source id, file path) of every bundled demo file, in import order."""
    with ExitStack() as stack:
        root = resources.files("regintel") / "data"
        for source, name in DEMO_FILES:
            yield source, stack.enter_context(resources.as_file(root / name))


def load_demo(engine: Engine, data_dir: Path, *, progress: bool = False) -> list[tuple[str, str, LoadStats]]:
    """Import every demo file; running it again changes nothing (the imports are idempotent)."""
    results = []
    for source, path in iter_demo_files():
        _, stats, _ = run_import(engine, get_source(source), str(path), data_dir, progress=progress)
        results.append((source, path.name, stats))
    return results
