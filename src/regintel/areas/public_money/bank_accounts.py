"""Bank accounts published by financial administrations for VAT purposes (the Czech VAT payer register, the
Polish white list, the Slovak list of VAT payers' accounts): a company's accounts, IBAN → company (not from
the Slovak list, spec 4.1), and "does this IBAN belong to this company" (spec 4.1, 4.4, 4.7).

IBANs are parsed and validated with schwifty (check digits, the country's BBAN format and, where the
country publishes them, its bank codes). Answers say which register they come from and as of when."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from schwifty import IBAN
from schwifty.exceptions import SchwiftyException
from sqlalchemy.engine import Connection

from regintel.errors import ValidationFailed
from regintel.ingest.sources import get_source

from .queries import payers as queries

# Payer statuses under which the register publishes the payer's accounts.
LISTS_ACCOUNTS = ("reliable", "unreliable", "active")
# Countries whose financial administration's account register is imported (docs/public-money.md).
COVERED = {"CZ": "cz_adis_crpdph", "PL": "pl_biala_lista_vat", "SK": "sk_fs_dph_iban"}
# IBAN → company searches the Czech register (and the Polish white list), never the Slovak list (spec 4.1:
# a Slovak IBAN is verified for a named company with `POST /iban/verify`).
NOT_LOOKED_UP = ("sk_fs_dph_iban",)
LOOKUP_COVERED = {k: v for k, v in COVERED.items() if v not in NOT_LOOKED_UP}
# Registers whose answers carry the payer's tax reliability (Czech ADIS, Polish white list); the Slovak
# list publishes accounts only, so a Slovak company's reliability stays unknown.
STATUS_COVERED = {k: COVERED[k] for k in ("CZ", "PL")}


def imported_register(conn: Connection, country: str) -> str | None:
    """The country's account register when it is covered and a list of it has been imported: before
    that an empty answer says nothing about the company."""
    source = COVERED.get(country)
    return source if source is not None and queries.source_has_payers(conn, source) else None


def parse_iban(value: str, field: str = "iban") -> IBAN:
    """Any spacing, dashes, dots or case → an IBAN; 422 with schwifty's reason for anything else."""
    try:
        return IBAN(re.sub(r"[\s.\-]", "", value or ""), validate_bban=True)
    except SchwiftyException as exc:
        raise ValidationFailed(
            f"{value!r} is not a valid IBAN: {exc}",
            details=[{"field": field, "in": "query" if field == "iban" else "body", "message": str(exc)}],
        ) from None


def bank(iban: IBAN) -> dict[str, Any]:
    found = iban.bank
    return {
        "code": iban.bank_code or None,
        "name": found.name if found else None,
        "bic": str(iban.bic) if iban.bic else None,
    }


def iban_view(iban: IBAN) -> dict[str, Any]:
    return {
        "iban": iban.compact,
        "formatted": iban.formatted,
        "country": iban.country_code,
        "bank": bank(iban),
    }


def _current(row: Mapping[str, Any], today: date) -> bool:
    return row["published_until"] is None or row["published_until"] >= today


def _licence(source: str) -> dict[str, str]:
    info = get_source(source).info
    return {"id": info.id, "name": info.name, "licence": info.licence, "attribution": info.attribution}


def _day(value: date | None) -> str | None:
    return value.isoformat() if value else None


def company_accounts(conn: Connection, company: Mapping[str, Any]) -> dict[str, Any]:
    payers = queries.company_payers(conn, company)
    accounts = queries.payer_accounts(conn, [int(p["id"]) for p in payers])
    by_payer = {int(p["id"]): p for p in payers}
    today = datetime.now(UTC).date()
    items = []
    for a in accounts:
        payer = by_payer[int(a["payer_id"])]
        view = (
            iban_view(IBAN(a["iban"]))
            if a["iban"]
            else {"iban": None, "formatted": None, "country": None, "bank": None}
        )
        items.append(
            view
            | {
                "account": a["account"],
                "publishedFrom": _day(a["published_from"]),
                "publishedUntil": _day(a["published_until"]),
                "current": _current(a, today),
                "vatId": payer["vat_id"],
                "source": payer["source"],
            }
        )
    return {
        "vatPayers": [_payer(p) for p in payers],
        "accounts": items,
        "covered": company["country"] in COVERED,
    }


def _payer(p: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "country": p["country"],
        "vatId": p["vat_id"],
        "status": p["status"],
        "unreliableSince": _day(p["status_since"]),
        "taxOffice": p["tax_office"],
        "answeredOn": _day(p["answered_on"]),
        "source": _licence(p["source"]),
    }


def lookup(conn: Connection, value: str) -> dict[str, Any]:
    """IBAN → the VAT payers (and companies) that published it."""
    iban = parse_iban(value)
    today = datetime.now(UTC).date()
    matches = [
        {
            "company": _company(r),
            "vatId": r["vat_id"],
            "payerStatus": r["status"],
            "publishedFrom": _day(r["published_from"]),
            "publishedUntil": _day(r["published_until"]),
            "current": _current(r, today),
            "answeredOn": _day(r["answered_on"]),
            "source": _licence(r["source"]),
        }
        for r in queries.accounts_by_iban(conn, iban.compact, exclude_sources=NOT_LOOKED_UP)
    ]
    return iban_view(iban) | {
        "found": bool(matches),
        "covered": iban.country_code in LOOKUP_COVERED,
        "matches": matches,
    }


def _company(r: Mapping[str, Any]) -> dict[str, Any] | None:
    if r["company_national_id"] is None:
        return None
    return {
        "country": r["company_country"],
        "nationalId": r["company_national_id"],
        "name": r["company_name"],
    }


def verify(conn: Connection, company: Mapping[str, Any], value: str) -> dict[str, Any]:
    """`yes`: the company publishes this IBAN now; `no`: the register lists the company's accounts and this
    one is not among them (or another payer published it); `unknown`: no register covers the answer."""
    iban = parse_iban(value, field="iban")
    today = datetime.now(UTC).date()
    payers = queries.company_payers(conn, company)
    own = {int(p["id"]) for p in payers}
    published = queries.accounts_by_iban(conn, iban.compact)
    mine = [r for r in published if int(r["payer_id"]) in own]
    head = iban_view(iban) | {
        "company": {
            "country": company["country"],
            "nationalId": company["national_id"],
            "name": company["name"],
        }
    }
    if any(_current(r, today) for r in mine):
        r = next(r for r in mine if _current(r, today))
        return head | _answer("yes", "published by the company in its VAT payer register", r)
    if mine:
        return head | _answer(
            "no",
            f"the company published this account until {mine[0]['published_until']}; it no longer does",
            mine[0],
        )
    others = [r for r in published if _current(r, today)]
    if others:
        return head | _answer("no", f"published by another VAT payer ({others[0]['vat_id']})", others[0])
    if any(p["status"] in LISTS_ACCOUNTS for p in payers):
        payer = next(p for p in payers if p["status"] in LISTS_ACCOUNTS)
        return head | {
            "belongs": "no",
            "reason": "not among the accounts the company publishes as a VAT payer",
            "source": _licence(payer["source"]),
            "asOf": _day(payer["answered_on"]),
        }
    reason = (
        "the company is not a VAT payer in the register"
        if payers
        else f"no register of published accounts covers {company['country']} companies"
        if company["country"] not in COVERED
        else "the company is not in the imported list of VAT payers' accounts (it may not be a VAT payer)"
        if queries.source_has_payers(conn, COVERED[company["country"]])
        else "the company's VAT payer record is not imported"
    )
    return head | {
        "belongs": "unknown",
        "reason": reason,
        "source": _licence(payers[0]["source"]) if payers else None,
        "asOf": None,
    }


def _answer(belongs: str, reason: str, row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "belongs": belongs,
        "reason": reason,
        "source": _licence(row["source"]),
        "asOf": _day(row["answered_on"]),
    }
