"""The NACE classes of Rev. 2 (2008) and Rev. 2.1 (2025), for the national activity codes that are NACE
classes (CAEN) or refine them by a digit (EMTAK): a code is mapped to its class only when the class
exists in the revision its national version follows."""

from __future__ import annotations

from functools import cache

from regintel.ingest.code_lists.files import read_csv

FILES = {"2": "nace_rev2_eurostat.csv", "2.1": "nace_rev2_1_eurostat.csv"}


@cache
def classes(revision: str) -> frozenset[str]:
    """The classes (`NN.NN`) of a NACE revision ("2" or "2.1")."""
    return frozenset(row["code"] for row in read_csv(FILES[revision]) if row["level"] == "4")


def class_of(digits: str, revision: str) -> str | None:
    """`NN.NN` of a code whose first four digits are the class, if that class is in `revision`."""
    if len(digits) < 4 or not digits[:4].isdigit():
        return None
    code = f"{digits[:2]}.{digits[2:4]}"
    return code if code in classes(revision) else None
