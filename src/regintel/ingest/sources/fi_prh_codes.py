"""PRH / YTJ codes: company situations, trade-register entries, and company forms → ELF codes.

The company forms of YTJ and the Finnish entries of the ISO 20275 ELF list are the same
classification (the ELF list was drawn from it), so a form is mapped to its ELF code by its Finnish
name (languageCode 1) as the packaged ELF list (`data/codelists/elf_codes.csv`) writes it."""

from __future__ import annotations

from functools import lru_cache

from regintel.ingest.code_lists.files import read_csv

# companySituations[].type (PRH API v3): special situations under way.
BANKRUPTCY = "KONK"  # konkurssi
RESTRUCTURING = "SANE"  # yrityssaneeraus (corporate restructuring)
LIQUIDATION = "SELTILA"  # selvitystila (liquidation)
KNOWN_SITUATIONS = frozenset({BANKRUPTCY, RESTRUCTURING, LIQUIDATION})

TRADE_REGISTER = "1"  # registeredEntries[].register: the Trade Register (kaupparekisteri)
VAT_REGISTER = "6"  # registeredEntries[].register: the VAT register (arvonlisäverorekisteri)
CEASED = "4"  # registeredEntries[].type of the trade-register entry once the company ceased


@lru_cache(maxsize=1)
def elf_by_finnish_name() -> dict[str, str]:
    return {
        row["name"].lower(): row["code"]
        for row in read_csv("elf_codes.csv")
        if row["country"] == "FI" and row["lang"] == "fi"
    }
