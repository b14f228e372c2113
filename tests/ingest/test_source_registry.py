"""`get_source` imports the one module a source id names; every importer only for `all_sources` or an
id that is no module's name."""

from __future__ import annotations

import subprocess
import sys

import pytest

from regintel.ingest.sources import all_sources, get_source

PROBE = """
import sys
from regintel.ingest.sources import get_source
source = get_source("cz_adis_crpdph")
loaded = sorted(m for m in sys.modules if m.startswith("regintel.ingest.sources."))
print(source.info.id, loaded)
"""


def test_one_source_imports_its_module_alone():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == "cz_adis_crpdph"
    assert "es_borme" not in out and "gb_ch_accounts" not in out  # the PDF and iXBRL importers
    assert "regintel.ingest.sources.cz_adis_crpdph" in out


def test_every_source_is_found_by_its_id():
    for source in all_sources():
        assert get_source(source.info.id) is source


def test_an_unknown_id_is_a_key_error():
    with pytest.raises(KeyError):
        get_source("no_such_register")
    with pytest.raises(KeyError):
        get_source("../os")
