"""docs/advanced-search.md documents every filter (with the OpenAPI text), the 47 CSV columns in
order, and every breakdown dimension."""

from __future__ import annotations

import re
from pathlib import Path

from regintel.areas.search.company_filters import CompanyFilters
from regintel.areas.search.export import COLUMNS
from regintel.areas.stats.breakdown import DIMENSIONS

DOC = (Path(__file__).resolve().parents[1] / "docs" / "advanced-search.md").read_text(encoding="utf-8")


def test_every_filter_is_documented_with_its_description():
    section = DOC.split("### Filters", 1)[1].split("### How a page is read", 1)[0]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| [^|]+ \| (.+?) \|", section, re.M)}
    missing = {
        name: field.description
        for name, field in CompanyFilters.model_fields.items()
        if rows.get(name) != field.description
    }
    assert missing == {}
    assert len(CompanyFilters.model_fields) >= 30


def test_the_47_columns_in_order():
    listed = re.findall(r"^\d+\. `(\w+)`", DOC, re.M)
    assert listed == list(COLUMNS) and len(listed) == 47


def test_every_breakdown_dimension():
    table = DOC.split("| `by` | groups | notes |", 1)[1]
    documented = set(re.findall(r"^\| `(\w+)`", table, re.M))
    documented |= {
        name
        for names in re.findall(r"^\| (`\w+`(?:, `\w+`)+) \|", table, re.M)
        for name in re.findall(r"`(\w+)`", names)
    }
    assert documented == set(DIMENSIONS)
