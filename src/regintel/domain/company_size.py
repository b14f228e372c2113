"""Company size: registers publish headcount bands (`10-19`, `250-499`, `5000+`, `0`); the EU size
classes of Recommendation 2003/361/EC by headcount are micro (< 10), small (< 50), medium (< 250) and
large (250 and more). Turnover and balance-sheet tests are not applied: bands carry headcount only."""

from __future__ import annotations

import re

CATEGORIES = ("micro", "small", "medium", "large")
_BAND = re.compile(r"\s*(\d+)\s*(?:-\s*\d+|\+)?\s*")


def band_floor(band: str | None) -> int | None:
    """The lowest headcount a band allows: `10-19` → 10, `5000+` → 5000, `3` → 3."""
    match = _BAND.fullmatch(band or "")
    return int(match.group(1)) if match else None


def category(band: str | None) -> str | None:
    """The EU size class of a headcount band (or of a size class already written as one), or None
    for a value that is neither."""
    if band is not None and band.strip().lower() in CATEGORIES:
        return band.strip().lower()
    floor = band_floor(band)
    if floor is None:
        return None
    if floor < 10:
        return "micro"
    if floor < 50:
        return "small"
    return "medium" if floor < 250 else "large"
