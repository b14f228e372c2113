"""ISO 20275 ELF codes looked up by a legal form's name, for registers that publish the form in words
(KRS "SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ", sudreg "dioničko društvo"): the packaged GLEIF ELF
list (`data/codelists/elf_codes.csv`) compared without case, diacritics and punctuation. A name that
two codes of the country share maps to neither."""

from __future__ import annotations

from functools import lru_cache

from regintel.domain.names import fold
from regintel.ingest.code_lists.files import read_csv


def _key(name: str) -> str:
    return " ".join("".join(c if c.isalnum() else " " for c in fold(name)).split())


@lru_cache(maxsize=64)
def _table(country: str) -> dict[str, str | None]:
    table: dict[str, str | None] = {}
    for row in read_csv("elf_codes.csv"):
        if row["country"] != country or not row["name"]:
            continue
        key = _key(row["name"])
        table[key] = row["code"] if table.get(key, row["code"]) == row["code"] else None
    return table


def elf_code(country: str, name: str | None) -> str | None:
    """The ELF code of `country` whose name is `name`, or None."""
    return _table(country).get(_key(name)) if name else None
