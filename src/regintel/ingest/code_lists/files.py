"""The packaged source files of the code lists (src/regintel/data/codelists, see its README.md)."""

from __future__ import annotations

import csv
import hashlib
import io
from importlib import resources
from importlib.abc import Traversable


def data_dir() -> Traversable:
    return resources.files("regintel").joinpath("data", "codelists")


def read_csv(name: str) -> list[dict[str, str]]:
    """Rows of a packaged CSV file as dicts (stripped cells; a UTF-8 BOM is tolerated)."""
    with io.TextIOWrapper(data_dir().joinpath(name).open("rb"), encoding="utf-8-sig", newline="") as fh:
        return [{k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(fh)]


def read_pairs(name: str, separator: str) -> list[tuple[str, str]]:
    """(key, value) per line after the header, split at the first separator only: the NUTS file
    leaves ";" unquoted inside some names ("Tanzania; United Republic of")."""
    with io.TextIOWrapper(data_dir().joinpath(name).open("rb"), encoding="utf-8-sig", newline="") as fh:
        lines = [line.strip() for line in fh.read().splitlines()[1:]]
    return [(key.strip(), value.strip()) for key, _, value in (ln.partition(separator) for ln in lines if ln)]


def digest_files(digest: hashlib._Hash) -> None:
    """Feed every packaged file, in a stable order, into `digest`."""
    for entry in sorted(data_dir().iterdir(), key=lambda e: e.name):
        if entry.is_file():
            digest.update(entry.name.encode())
            digest.update(entry.read_bytes())
