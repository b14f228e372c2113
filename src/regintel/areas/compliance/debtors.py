"""Published debtor lists (`debtor_entries`): the `/debtors` answer and the payment-discipline and
tax-debt inputs of the credit and risk models.

For other areas (the scores models read these; compliance answers with them):

    from regintel.areas.compliance import debtors

    # one read for the lists, one for the entries
    debtors.standing(conn, [row, ...]) -> {company_id: Standing}

A `Standing` says, for a company, whether the lists covering its country are imported (`payment_known`,
`tax_known`) and which current entries it has. A country without an imported list is unknown, never
clean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.compliance import queries
from regintel.db.prepared import Read
from regintel.ingest.base import SourceInfo
from regintel.ingest.sources.sk_debtors import HEALTH_SOURCES, SOCIAL_SOURCE, TAX_SOURCE

Row = Mapping[str, Any]

# The lists each country has: (source, kind). Payment discipline reads the social and health lists, tax
# reliability the tax list.
LISTS: dict[str, tuple[SourceInfo, ...]] = {
    "SK": (SOCIAL_SOURCE.info, *(s.info for s in HEALTH_SOURCES.values()), TAX_SOURCE.info)
}
KIND = {
    SOCIAL_SOURCE.info.id: "social_insurance",
    TAX_SOURCE.info.id: "tax",
    **{s.info.id: "health_insurance" for s in HEALTH_SOURCES.values()},
}
# What a country without an imported list lacks (the spec's debtor lists of the two home markets).
MISSING = {
    "SK": "the Sociálna poisťovňa and health insurers' debtor lists (regintel import sk_socpoist_debtors | "
    "sk_vszp_debtors | sk_dovera_debtors | sk_union_debtors) and the Financial Administration's tax "
    "debtors (sk_fs_tax_debtors)",
    "CZ": "the Czech social-insurance (ČSSZ) and health-insurer (VZP and others) debtor lists: no importer "
    "exists for them yet",
}


@dataclass
class Standing:
    """A company's standing on the debtor lists of its country."""

    country: str
    lists: dict[str, date | None]  # source → newest imported list date (None: not imported)
    current: list[Row] = field(default_factory=list)  # entries on the newest lists
    past: list[Row] = field(default_factory=list)  # entries since delisted

    def imported(self, kinds: tuple[str, ...]) -> dict[str, date]:
        return {s: d for s, d in self.lists.items() if d is not None and KIND[s] in kinds}

    @property
    def payment_known(self) -> bool:
        return bool(self.imported(("social_insurance", "health_insurance")))

    @property
    def tax_known(self) -> bool:
        return bool(self.imported(("tax",)))

    @property
    def payment_defaults(self) -> int | None:
        """Distinct creditors of the social and health lists the company is currently on."""
        if not self.payment_known:
            return None
        return len({e["creditor"] for e in self.current if e["kind"] != "tax"})

    @property
    def tax_debt(self) -> bool | None:
        if not self.tax_known:
            return None
        return any(e["kind"] == "tax" for e in self.current)


def _sources(rows: Sequence[Row]) -> list[str]:
    countries = {r["country"] for r in rows if r["country"] in LISTS}
    return [i.id for c in sorted(countries) for i in LISTS[c]]


def standing_reads(rows: Sequence[Row]) -> list[Read]:
    """The lists' dates that `standing` reads first, for `read_ahead` (the debts follow from them)."""
    sources = _sources(rows)
    return [queries.newest_list_dates_read(sources)] if sources else []


def standing(conn: Connection, rows: Sequence[Row]) -> dict[int, Standing]:
    """The standing of each company on its country's lists (two reads whatever the number of companies)."""
    sources = _sources(rows)
    dates = queries.newest_list_dates(conn, sources) if sources else {}
    out = {
        int(r["id"]): Standing(r["country"], {i.id: dates.get(i.id) for i in LISTS.get(r["country"], ())})
        for r in rows
    }
    ids = [cid for cid, s in out.items() if any(d is not None for d in s.lists.values())]
    for e in queries.company_debts(conn, ids):
        s = out[int(e["company_id"])]
        (s.past if e["delisted_on"] is not None else s.current).append(e)
    return out


def _entry(e: Row) -> dict[str, Any]:
    return {
        "kind": e["kind"],
        "creditor": e["creditor"],
        "source": e["source"],
        "name": e["name"],
        "address": e["address"],
        "amount": float(e["amount"]) if e["amount"] is not None else None,
        "currency": e["currency"],
        "listedSince": e["listed_on"].isoformat(),
        "lastListedOn": e["last_listed_on"].isoformat(),
        "delistedOn": e["delisted_on"].isoformat() if e["delisted_on"] else None,
        "match": e["match"],
    }


def debtors(conn: Connection, row: Row) -> dict[str, Any] | None:
    """The `/debtors` answer, or None when no list covering the company's country is imported."""
    s = standing(conn, [row])[int(row["id"])]
    if not any(d is not None for d in s.lists.values()):
        return None
    total: dict[str, Decimal] = {}
    for e in s.current:
        if e["amount"] is not None:
            total[e["currency"]] = total.get(e["currency"], Decimal(0)) + e["amount"]
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "onList": bool(s.current),
        "paymentDefaults": s.payment_defaults,
        "taxDebt": s.tax_debt,
        "owed": [{"amount": float(v), "currency": c} for c, v in sorted(total.items())],
        "lists": [
            {
                "source": src,
                "kind": KIND[src],
                "listDate": d.isoformat() if d else None,
                "imported": d is not None,
            }
            for src, d in s.lists.items()
        ],
        "current": [_entry(e) for e in s.current],
        "past": [_entry(e) for e in s.past],
    }


def missing_reason(country: str) -> str:
    lists = MISSING.get(country)
    if lists is None:
        return f"no debtor list is known for {country}"
    return f"no debtor list of {country} is imported: {lists}"
