"""Regenerate the packaged code-list files in src/regintel/data/codelists/ from shared/data.

Run by hand when a source file changes (`python tools/build_codelist_data.py ../shared/data`). The
service never reads shared/data: it reads only the compact copies written here, whose origin and
licence are stated in src/regintel/data/codelists/README.md.
"""

from __future__ import annotations

import csv
import json
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "regintel" / "data" / "codelists"


def write_csv(name: str, header: list[str], rows: Iterable[list[str]]) -> None:
    with (OUT / name).open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def registeruz(shared: Path, name: str, key: str) -> list[dict[str, object]]:
    return json.loads((shared / "sk_registeruz" / name).read_text(encoding="utf-8"))[key]  # type: ignore[no-any-return]


def names(entry: dict[str, object]) -> list[str]:
    nazov = entry["nazov"]
    assert isinstance(nazov, dict)
    return [nazov.get("sk") or "", nazov.get("en") or ""]


def build_registeruz(shared: Path) -> None:
    """RÚZ codebooks: the JSON bodies become CSV; codes and names are kept as published."""
    write_csv("sk_nace.csv", ["code", "name_sk", "name_en"],
              ([str(e["kod"]), *names(e)] for e in registeruz(shared, "sk-nace.json", "klasifikacie")))
    write_csv("sk_legal_forms.csv", ["code", "name_sk", "name_en"],
              ([str(e["kod"]), *names(e)] for e in registeruz(shared, "pravne-formy.json", "klasifikacie")))
    write_csv("sk_kraje.csv", ["code", "name_sk", "name_en"],
              ([str(e["kod"]), *names(e)] for e in registeruz(shared, "kraje.json", "lokacie")))
    write_csv("sk_okresy.csv", ["code", "kraj", "name_sk", "name_en"],
              ([str(e["kod"]), str(e.get("nadradenaLokacia", "")), *names(e)]
               for e in registeruz(shared, "okresy.json", "lokacie")))
    # `nadradenaLokacia` of a sídlo is RÚZ's internal district id (10-89), kept raw here;
    # the builder maps it to the district code (see ingest/code_lists/places.py).
    write_csv("sk_obce.csv", ["code", "okres_id", "name_sk", "name_en"],
              ([str(e["kod"]), str(e.get("nadradenaLokacia", "")), *names(e)]
               for e in registeruz(shared, "sidla.json", "lokacie")))


def build_elf(shared: Path) -> None:
    """ISO 20275: one row per (code, language); dates and change notes dropped to keep it small."""
    source = shared / "elf_codes" / "elf_code_list_2023-09-28_v1.5.csv"
    with source.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = []
    for r in rows:
        local = r["Entity Legal Form name Local name"]
        translit = r["Entity Legal Form name Transliterated name (per ISO 01-140-10)"]
        out.append([r["ELF Code"], r["Country Code (ISO 3166-1)"], r["Jurisdiction of formation"],
                    r["Country sub-division code (ISO 3166-2)"], r["Language Code (ISO 639-1)"], local,
                    "" if translit == local else translit, r["Abbreviations Local language"],
                    r["Abbreviations transliterated"], r["ELF Status ACTV/INAC"]])
    write_csv("elf_codes.csv", ["code", "country", "jurisdiction", "subdivision", "lang", "name",
                                "name_translit", "abbr", "abbr_translit", "status"], out)


def main(shared: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shared / "nace" / "nace_rev2_eurostat.csv", OUT / "nace_rev2_eurostat.csv")
    shutil.copyfile(shared / "nuts" / "NUTS2021.csv", OUT / "nuts2021.csv")
    build_registeruz(shared)
    build_elf(shared)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data"))
