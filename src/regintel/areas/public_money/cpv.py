"""CPV 2008 (Regulation (EC) No 213/2008): the English labels, and the code filter of `/ted/search`.

The vocabulary ships with regintel (`data/cpv/cpv_2008_en.csv`, 9,454 codes, an EU legal act free to
re-use). Codes are hierarchical by their digits: `45000000` (division) > `45200000` (group) > `45210000`
(class) > …, so a filter code matches every code below it: its significant digits are a prefix."""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from importlib import resources

from regintel.errors import ValidationFailed

_CODE = re.compile(r"([0-9]{2,8})(?:-[0-9])?")


@lru_cache(maxsize=1)
def labels() -> dict[str, str]:
    text = resources.files("regintel").joinpath("data/cpv/cpv_2008_en.csv").read_text(encoding="utf-8-sig")
    return {row["CODE"][:8]: row["EN"] for row in csv.DictReader(text.splitlines())}


def label(code: str | None) -> str | None:
    return labels().get(code[:8]) if code else None


def item(code: str | None) -> dict[str, str | None] | None:
    return {"code": code, "label": label(code)} if code else None


def prefix(value: str) -> str:
    """`71000000`, `71000000-8` or `71` → `71`: the digits a CPV filter matches as a prefix (at least the
    division's two). 422 for anything that is not a CPV code."""
    found = _CODE.fullmatch(value.strip())
    if found is None:
        raise ValidationFailed(
            f"{value!r} is not a CPV code",
            details=[
                {
                    "field": "cpv",
                    "in": "query",
                    "message": "2 to 8 digits, optionally with the check digit (45210000-2)",
                }
            ],
        )
    digits = found.group(1)
    return digits.rstrip("0").ljust(2, "0") if len(digits) == 8 else digits
