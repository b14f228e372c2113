"""Identifiers hidden in free text: an IČO written with spaces, a VAT id with its country prefix, an
LEI, a national register number of any supported country. Each form is validated with its check
digits (python-stdnum, via `domain.identifiers`) before anything is looked up."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.engine import Connection

from regintel.db import search as db
from regintel.domain.identifiers import NATIONAL_IDS, parse_lei, parse_national_id, parse_vat
from regintel.errors import InvalidIdentifier


@dataclass(frozen=True)
class IdentifierHit:
    company_id: int
    kind: str  # national_id | vat | lei | tax_id
    value: str


_SHAPE = re.compile(r"[A-Za-z]{0,3}[\s./-]*[0-9][0-9A-Za-z\s./-]{3,30}")


def looks_like_identifier(text: str) -> bool:
    """Mostly digits (or an LEI): worth trying as an identifier before a name search."""
    compact = re.sub(r"[\s./-]", "", text or "")
    if not compact or len(compact) > 34:
        return False
    if (
        len(compact) == 20
        and compact.isascii()
        and compact.isalnum()
        and sum(c.isdigit() for c in compact) >= 2
    ):
        return True  # an LEI may start with letters
    digits = sum(ch.isdigit() for ch in compact)
    return bool(_SHAPE.fullmatch(text.strip())) and digits >= max(4, len(compact) // 2)


def find_by_identifier(conn: Connection, text: str, country: str | None = None) -> list[IdentifierHit]:
    """Companies whose national id, VAT id, tax id or LEI is written in `text`, in any usual format."""
    raw = (text or "").strip()
    if not looks_like_identifier(raw):
        return []
    hits: dict[int, IdentifierHit] = {}
    for kind, value, ids in _lookups(conn, raw, country):
        for cid in ids:
            hits.setdefault(cid, IdentifierHit(cid, kind, value))
    return list(hits.values())


def _lookups(conn: Connection, raw: str, country: str | None) -> list[tuple[str, str, list[int]]]:
    out: list[tuple[str, str, list[int]]] = []
    lei = _try(parse_lei, raw)
    if lei:
        ids = db.company_ids_by_column(conn, "lei", lei) or db.company_ids_by_identifier(conn, ["lei"], lei)
        out.append(("lei", lei, ids))
    vat = _try(parse_vat, raw)
    if vat:
        ids = db.company_ids_by_column(conn, "vat_id", vat) or db.company_ids_by_identifier(
            conn, ["vat", "ic_dph"], vat
        )
        if not ids and vat[:2] in ("SK", "CZ"):  # a DIČ is the VAT id without its prefix
            ids = db.company_ids_by_column(conn, "tax_id", vat[2:])
        if not ids and vat[:2] == "CZ" and len(vat) == 10:  # a CZ legal person's VAT id is CZ + IČO
            ids = [int(r["id"]) for r in db.companies_by_national_id(conn, [("CZ", vat[2:])])]
        out.append(("vat", vat, ids))
    pairs = _national_forms(raw, country)
    if pairs:
        rows = db.companies_by_national_id(conn, pairs)
        out.append(("national_id", pairs[0][1], [int(r["id"]) for r in rows]))
    digits = re.sub(r"[\s./-]", "", raw)
    if digits.isdigit() and 8 <= len(digits) <= 10:
        out.append(("tax_id", digits, db.company_ids_by_column(conn, "tax_id", digits)))
    return out


def _national_forms(raw: str, country: str | None) -> list[tuple[str, str]]:
    countries = [country] if country else sorted(NATIONAL_IDS)
    pairs = []
    for cc in countries:
        value = _try(functools.partial(parse_national_id, cc), raw)
        if value:
            pairs.append((cc, value))
    return pairs


def _try(parse: Callable[[str], object], raw: str) -> str | None:
    try:
        return str(parse(raw))
    except InvalidIdentifier:
        return None
