"""`/companies/advanced-search.csv`: the 47 export columns and a keyset walk over the matches.

Rows are read 1,000 at a time in id order (`id > last`), each page with its identifiers and sources in
two more queries (their SQL in `queries.py`), and handed on as they come: memory stays flat whatever the
export size.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import RowMapping

from regintel.areas.search import queries
from regintel.db.company_filters import Conditions, Reference
from regintel.domain.company_size import category
from regintel.domain.nace import digits, eu_class

ROW_CAP = 100_000
PAGE = 1_000
GLEIF_RECORD = "https://search.gleif.org/#/record/{lei}"

COLUMNS = (
    "country",
    "national_id",
    "name",
    "legal_form",
    "legal_form_name",
    "status",
    "founded_on",
    "dissolved_on",
    "in_bankruptcy",
    "in_restructuring",
    "in_liquidation",
    "street",
    "postal_code",
    "city",
    "address",
    "region_code",
    "district_code",
    "municipality_code",
    "nuts2",
    "nuts3",
    "nace_primary",
    "nace_codes",
    "nace_section",
    "nace_division",
    "nace_class",
    "size_class",
    "size_category",
    "employees",
    "vat_id",
    "tax_id",
    "lei",
    "lei_registration_status",
    "lei_next_renewal",
    "financial_year",
    "currency",
    "revenue",
    "profit",
    "total_assets",
    "equity",
    "liabilities",
    "financial_employees",
    "identifiers",
    "sources",
    "created_at",
    "updated_at",
    "api_url",
    "gleif_url",
)
assert len(COLUMNS) == 47


def iter_rows(
    engine: Engine, cond: Conditions, ref: Reference, base_url: str, limit: int
) -> Iterator[dict[str, Any]]:
    """Matching companies as export rows, in id order, at most `limit`."""
    sections = {d: s for s, divisions in ref.nace_divisions.items() for d in divisions}
    with engine.connect() as conn:
        last, produced = 0, 0
        while produced < limit:
            rows = list(conn.execute(queries.export_page(cond, last, min(PAGE, limit - produced))).mappings())
            if not rows:
                return
            ids = [r["id"] for r in rows]
            idents = _grouped(conn.execute(queries.export_identifiers(ids)), "{1}:{2}")
            sources = _grouped(conn.execute(queries.export_sources(ids)), "{1}")
            for row in rows:
                yield export_row(
                    row, sections, idents.get(row["id"], []), sources.get(row["id"], []), base_url
                )
            produced += len(rows)
            last = ids[-1]


def _grouped(result: Any, template: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for row in result:
        out.setdefault(row[0], []).append(template.format(*row))
    return out


def export_row(
    row: RowMapping, sections: Mapping[str, str], idents: list[str], sources: list[str], base_url: str
) -> dict[str, Any]:
    code_digits = digits(row["nace_primary"])
    division = code_digits[:2] if code_digits else None
    out = {k: row[k] for k in COLUMNS if k in row}
    out.update(
        address=row["address_text"],
        nuts2=row["nuts3"][:4] if row["nuts3"] else None,
        nace_codes=row["nace_codes"] or None,
        nace_section=sections.get(division or ""),
        nace_division=division,
        nace_class=eu_class(row["nace_primary"]),
        size_category=category(row["size_class"]),
        identifiers=idents,
        sources=sources,
        api_url=f"{base_url.rstrip('/')}/api/v1/companies/{row['country'].lower()}/{row['national_id']}",
        gleif_url=GLEIF_RECORD.format(lei=row["lei"]) if row["lei"] else None,
    )
    return out
