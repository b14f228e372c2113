"""RÚZ accounting units (`/api/uctovna-jednotka`) and statement headers (`/api/uctovna-zavierka`).

A unit becomes a CompanyRecord that also stores its RÚZ id as identifier `ruz_id`, so that a
statement naming only its unit (`idUJ`) resolves in a later batch or a later import. A statement
header becomes a `Statement` (what its reports need to know) and a StatementRecord (its period).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from regintel.domain.identifiers import parse_identifier
from regintel.domain.names import fold
from regintel.domain.types import CompanyRecord, FinancialRecord, StatementRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError
from regintel.ingest.fields import seat

Json = dict[str, Any]
RUZ_ID = "ruz_id"

# Employee bands of the ŠÚ SR code list "veľkosť organizácie" (RÚZ /api/velkosti-organizacie);
# "00" (nezistený, not ascertained) says nothing.
SIZE_BANDS = {
    "01": "0",
    "02": "1",
    "03": "2",
    "04": "3-4",
    "05": "5-9",
    "06": "10-19",
    "07": "20-24",
    "11": "25-49",
    "12": "50-99",
    "21": "100-149",
    "22": "150-199",
    "23": "200-249",
    "24": "250-499",
    "25": "500-999",
    "31": "1000-1999",
    "32": "2000-2999",
    "33": "3000-3999",
    "34": "4000-4999",
    "35": "5000-9999",
    "36": "10000-19999",
    "37": "20000-29999",
    "38": "30000+",
}
STATEMENT_KINDS = {
    "riadna": "ordinary",
    "mimoriadna": "extraordinary",
    "kombinovana": "combined",
    "priebezna": "interim",
}
_MONTH = re.compile(r"(\d{4})-(\d{2})(-\d{2})?")


@dataclass(frozen=True, slots=True)
class Statement:
    """What a report needs from its statement: the company, the period and whether to import it."""

    id: str
    national_id: str | None
    unit_id: str | None
    period_from: str | None
    period_to: str
    kind: str | None
    skip: str | None = None  # why the statement is left out (consolidated, interim)

    def record(self, currency: str = "EUR", **figures: Any) -> StatementRecord:
        # RÚZ holds statements from 2009 on, all in euro (Slovakia's currency since 2009); the
        # header carries no currency, a report names it in `mena`.
        fin = FinancialRecord(
            year=int(self.period_to[:4]),
            currency=currency,
            period_from=self.period_from,
            period_to=self.period_to,
            statement_type=self.kind,
            source_record_id=self.id,
            **figures,
        )
        return StatementRecord(
            country="SK",
            financials=[fin],
            national_id=self.national_id,
            ref=None if self.national_id else (RUZ_ID, self.unit_id or ""),
        )


def text(node: Json, key: str) -> str | None:
    value = node.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RecordError(f"{key} is not text: {str(value)[:60]!r}")
    return str(value).strip() or None


def day(node: Json, key: str) -> date | None:
    value = text(node, key)
    if value is None:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise RecordError(f"{key} is not an ISO 8601 date: {value[:40]!r}") from None


def month(node: Json, key: str) -> str | None:
    """A period bound as RÚZ writes it, `YYYY-MM` (a full date is cut to its month)."""
    value = text(node, key)
    if value is None:
        return None
    found = _MONTH.fullmatch(value)
    if not found or not 1 <= int(found.group(2)) <= 12:
        raise RecordError(f"{key} is not a YYYY-MM period: {value[:40]!r}")
    return f"{found.group(1)}-{found.group(2)}"


def to_company(unit: Json) -> tuple[CompanyRecord, RecordError | None]:
    """The company of an accounting unit, and a `RecordError` when its DIČ had to be left out."""
    ico = text(unit, "ico")
    if not ico:
        raise RecordError("accounting unit without IČO")
    dissolved = day(unit, "datumZrusenia")
    nace = text(unit, "skNace")
    name, record_id, published_on = text(unit, "nazovUJ"), text(unit, "id"), day(unit, "datumPoslednejUpravy")
    legal_form, founded_on = text(unit, "pravnaForma"), day(unit, "datumZalozenia")
    address = seat(
        text(unit, "ulica"),
        (text(unit, "psc") or "").replace(" ", "") or None,
        text(unit, "mesto"),
        region_code=text(unit, "kraj"),
        district_code=text(unit, "okres"),
        municipality_code=text(unit, "sidlo"),
    )
    size_class = SIZE_BANDS.get(text(unit, "velkostOrganizacie") or "")
    dic = text(unit, "dic")
    error = None
    try:
        tax_id = _dic(dic) if dic else None
    except InvalidIdentifier as exc:
        tax_id, error = None, RecordError(f"DIČ left out: {exc.message}", unit)
    rec = CompanyRecord(
        country="SK",
        national_id=ico,
        name=name,
        source_record_id=record_id,
        published_on=published_on,
        legal_form=legal_form,
        status="dissolved" if dissolved else "active",
        founded_on=founded_on,
        dissolved_on=dissolved,
        nace_primary=nace,
        nace_codes=(nace,) if nace else None,
        size_class=size_class,
        tax_id=tax_id,
        identifiers=((RUZ_ID, record_id),) if record_id else (),
        **address,
    )
    return rec, error


def _dic(value: str) -> str:
    """A Slovak DIČ: 10 digits."""
    compact = parse_identifier("dic", value)
    if len(compact) != 10:
        raise InvalidIdentifier(f"{value!r} is not a valid Slovak DIČ (10 digits)")
    return compact


def to_statement(header: Json) -> Statement:
    """The statement a header describes; `RecordError` without an id, a period or a unit."""
    sid = text(header, "id")
    period_to = month(header, "obdobieDo")
    if not sid or not period_to:
        raise RecordError("statement without id or obdobieDo")
    ico, unit = text(header, "ico"), text(header, "idUJ")
    if not ico and not unit:
        raise RecordError(f"statement {sid} names no accounting unit (ico, idUJ)")
    kind = STATEMENT_KINDS.get(fold(text(header, "typ") or ""))
    skip = None
    # One company-year holds one statement: the entity's own annual figures. A group's consolidated
    # statement and an interim one would overwrite them.
    if header.get("konsolidovana") is True:
        skip = "consolidated statement"
    elif kind == "interim":
        skip = "interim statement"
    return Statement(sid, ico, unit, month(header, "obdobieOd"), period_to, kind, skip)
