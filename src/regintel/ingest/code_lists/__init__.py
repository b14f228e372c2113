"""Build the 7 code lists from the packaged files and installed packages, and load them.

`load_code_lists(conn)` is idempotent: it compares the data version stored with each list against
`data_version()` (a hash of the packaged files, of these builders and of the pycountry and schwifty
versions) and the stored item counts against the rows present, and rebuilds only when they differ.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from importlib import metadata
from pathlib import Path

from sqlalchemy.engine import Connection

from regintel.db import code_lists as db
from regintel.domain import code_lists as domain
from regintel.domain.code_lists import CATALOGUE, CodeListItem
from regintel.ingest.code_lists.files import digest_files
from regintel.ingest.code_lists.legal_forms import build_legal_forms
from regintel.ingest.code_lists.nace import build_nace
from regintel.ingest.code_lists.places import build_districts, build_municipalities, build_regions
from regintel.ingest.code_lists.reference import build_bank_codes, build_countries

BUILDERS: dict[str, Callable[[], list[CodeListItem]]] = {
    "nace": build_nace,
    "legal-forms": build_legal_forms,
    "regions": build_regions,
    "districts": build_districts,
    "municipalities": build_municipalities,
    "countries": build_countries,
    "bank-codes": build_bank_codes,
}


def build_items(name: str) -> list[CodeListItem]:
    """The items of one list, in source order."""
    return BUILDERS[name]()


@cache
def data_version() -> str:
    """A fingerprint of everything the lists are built from; it changes whenever a list may change."""
    digest = hashlib.sha256()
    digest_files(digest)
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.name.encode() + module.read_bytes())
    for source in (domain.__file__, db.__file__):
        digest.update(Path(source).read_bytes())
    for package in ("pycountry", "schwifty"):
        digest.update(f"{package}=={metadata.version(package)}".encode())
    return digest.hexdigest()[:16]


def load_code_lists(conn: Connection, *, force: bool = False) -> bool:
    """Replace every list's items in the caller's transaction unless they are current; True if loaded."""
    version = data_version()
    if not force and db.is_current(conn, CATALOGUE, version):
        return False
    db.lock_code_lists(conn)
    # Another process may have loaded the lists while this one waited for the lock.
    if not force and db.is_current(conn, CATALOGUE, version):
        return False
    db.replace_code_lists(conn, [(info, build_items(name)) for name, info in CATALOGUE.items()], version)
    return True
