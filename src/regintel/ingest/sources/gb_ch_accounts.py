"""Companies House accounts (UK): the iXBRL documents of filed annual accounts, as the free Accounts Data
Product publishes them (`Accounts_Bulk_Data-YYYY-MM-DD.zip`, one `.html` or `.xml` file per filing, named
`Prod<n>_<n>_<company number>_<balance sheet date YYYYMMDD>.html`), or one such document alone.

The documents are read with `ixbrlparse` (contexts, units, scaled and signed numeric facts). The facts are
looked up by their local name, so the FRC taxonomies (FRS 102 and FRS 105, namespace prefixes `core:` and
`bus:`, 2014 onward) and the older UK GAAP ones (`uk-gaap:`, `uk-bus:`) are read alike:

- the company: `UKCompaniesHouseRegisteredNumber`, else the contexts' entity identifier, else the file name;
- the period: `StartDateForPeriodCoveredByReport` / `EndDateForPeriodCoveredByReport`, else
  `BalanceSheetDate`, else the date in the file name;
- balance sheet, facts of the period's end day without a dimension: `FixedAssets` + `CurrentAssets` (total
  assets; UK formats have no total-assets line), `Equity` (or `ShareholderFunds`, else
  `NetAssetsLiabilities`, equal to it), current liabilities = `Creditors` with the member `WithinOneYear`
  (or `CreditorsDueWithinOneYear`, else current assets − `NetCurrentAssetsLiabilities`, as micro-entity
  balance sheets show it), retained earnings = `Equity` with the member
  `RetainedEarningsAccumulatedLosses` (or `ProfitLossAccountReserve`); liabilities = total assets − equity;
- profit and loss, facts of the period without a dimension: `TurnoverRevenue` (or
  `TurnoverGrossOperatingRevenue`), `ProfitLoss` (or `ProfitLossForPeriod`), `OperatingProfitLoss` (EBIT),
  `AverageNumberEmployeesDuringPeriod`.

Small and micro companies may file without a profit and loss account: those lines stay null. No real filing
was available offline: the fixtures in tests/fixtures/gb_ch_accounts/ are written from the documented iXBRL
layout with invented figures.
"""

from __future__ import annotations

import io
import re
import warnings
import zipfile
from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import IO

from ixbrlparse import IXBRL, ixbrlContext

from regintel.domain.identifiers import parse_national_id
from regintel.domain.types import FinancialRecord, Record, StatementRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.sources import register

INFO = SourceInfo(
    id="gb_ch_accounts",
    name="Companies House accounts (iXBRL)",
    publisher="Companies House",
    country="GB",
    category="financials",
    formats="iXBRL / XBRL accounts (FRS 102, FRS 105, UK GAAP taxonomies): one document or the "
    "Accounts Data Product zip",
    licence="Open Government Licence v3.0",
    licence_url="https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/",
    attribution="Contains public sector information licensed under the Open Government Licence v3.0 "
    "(Companies House)",
    url="https://download.companieshouse.gov.uk/en_accountsdata.html",
    cadence="daily",
)

# Prod223_2311_00012345_20230331.html: the company number and the balance sheet date.
_FILE_NAME = re.compile(r"_(?P<number>[A-Za-z0-9]{8})_(?P<day>\d{8})\.(?:x?html?|xml)$", re.IGNORECASE)
_DOCUMENT = re.compile(r"\.(?:x?html?|xml)$", re.IGNORECASE)

REVENUE = ("TurnoverRevenue", "TurnoverGrossOperatingRevenue")
PROFIT = ("ProfitLoss", "ProfitLossForPeriod", "ProfitLossOnOrdinaryActivitiesAfterTax")
EBIT = ("OperatingProfitLoss",)
EMPLOYEES = ("AverageNumberEmployeesDuringPeriod",)
FIXED_ASSETS = ("FixedAssets",)
CURRENT_ASSETS = ("CurrentAssets",)
EQUITY = ("Equity", "ShareholderFunds", "NetAssetsLiabilities")
CURRENT_LIABILITIES_OLD = ("CreditorsDueWithinOneYear",)
RETAINED_OLD = ("ProfitLossAccountReserve",)
NET_CURRENT_ASSETS = ("NetCurrentAssetsLiabilities",)


def _local(name: str | None) -> str:
    return (name or "").rsplit(":", 1)[-1]


def _members(context: ixbrlContext | str | None) -> frozenset[str]:
    if not isinstance(context, ixbrlContext):
        return frozenset()
    return frozenset(_local(str(s.get("value", ""))) for s in context.segments or [])


class _Facts:
    """The document's numeric facts by (local name, dimension members, instant or (start, end))."""

    def __init__(self, doc: IXBRL):
        self.values: dict[tuple[str, frozenset[str], object], Decimal] = {}
        self.units: set[str] = set()
        self.instants: set[date] = set()
        for fact in doc.numeric:
            ctx = fact.context
            if fact.value is None or not isinstance(ctx, ixbrlContext):
                continue
            when: object = ctx.instant if ctx.instant else (ctx.startdate, ctx.enddate)
            if ctx.instant:
                self.instants.add(ctx.instant)
            key = (_local(fact.name), _members(ctx), when)
            self.values.setdefault(key, Decimal(str(fact.value)))
            if fact.unit:
                self.units.add(_local(str(fact.unit)).upper())

    def at(self, names: tuple[str, ...], day: date, members: frozenset[str] = frozenset()) -> Decimal | None:
        for name in names:
            if (value := self.values.get((name, members, day))) is not None:
                return value
        return None

    def during(self, names: tuple[str, ...], start: date | None, end: date) -> Decimal | None:
        for name in names:
            for (n, m, when), value in self.values.items():
                if n == name and not m and isinstance(when, tuple) and when[1] == end:
                    if start is None or when[0] in (None, start):
                        return value
        return None


def _texts(doc: IXBRL) -> dict[str, str]:
    out: dict[str, str] = {}
    for fact in doc.nonnumeric:
        if isinstance(fact.value, str) and fact.value.strip():
            out.setdefault(_local(fact.name), fact.value.strip())
    return out


def _day(value: str | None) -> date | None:
    if not value:
        return None
    text = value.strip()
    for pattern in ("%Y-%m-%d", "%d %B %Y", "%d.%m.%Y", "%d/%m/%Y", "%d %b %Y", "%Y%m%d"):
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def _company_number(doc: IXBRL, texts: dict[str, str], file_number: str | None) -> str:
    candidates = [texts.get("UKCompaniesHouseRegisteredNumber")]
    candidates += [
        c.entity.get("identifier") for c in doc.contexts.values() if isinstance(c, ixbrlContext) and c.entity
    ]
    candidates.append(file_number)
    for value in candidates:
        if value:
            try:
                return parse_national_id("GB", value.replace(" ", ""))
            except InvalidIdentifier:
                continue
    raise RecordError(f"no valid Companies House registered number (read {candidates!r})")


def statement(doc: IXBRL, name: str) -> StatementRecord:
    """The statement of one iXBRL document (`name`: its file name, which may carry number and date)."""
    found = _FILE_NAME.search(name)
    texts = _texts(doc)
    number = _company_number(doc, texts, found["number"] if found else None)
    facts = _Facts(doc)
    end = (
        _day(texts.get("EndDateForPeriodCoveredByReport"))
        or _day(texts.get("BalanceSheetDate"))
        or (_day(found["day"]) if found else None)
        or (max(facts.instants) if facts.instants else None)
    )
    if end is None:
        raise RecordError("no balance sheet date (no period end, balance sheet date or dated fact)")
    start = _day(texts.get("StartDateForPeriodCoveredByReport"))
    currencies = facts.units - {"PURE", "SHARES"}
    monetary = {u for u in currencies if len(u) == 3 and u.isalpha()}
    if len(monetary) > 1:
        raise RecordError(f"figures in several currencies: {sorted(monetary)}")
    fixed = facts.at(FIXED_ASSETS, end)
    current = facts.at(CURRENT_ASSETS, end)
    total = None if fixed is None and current is None else (fixed or Decimal(0)) + (current or Decimal(0))
    equity = facts.at(EQUITY, end)
    if total is None and equity is None:
        raise RecordError(f"no balance sheet of {end.isoformat()} (neither assets nor equity)")
    if not monetary:
        raise RecordError("no currency unit on the figures")
    current_liabilities = facts.at(("Creditors",), end, frozenset({"WithinOneYear"}))
    if current_liabilities is None:
        current_liabilities = facts.at(CURRENT_LIABILITIES_OLD, end)
    net_current = facts.at(NET_CURRENT_ASSETS, end)
    if current_liabilities is None and current is not None and net_current is not None:
        # Micro-entity balance sheets (FRS 105) show net current assets, not the creditors line.
        current_liabilities = current - net_current
    retained = facts.at(("Equity",), end, frozenset({"RetainedEarningsAccumulatedLosses"}))
    if retained is None:
        retained = facts.at(("RetainedEarningsAccumulatedLosses",) + RETAINED_OLD, end)
    employees = facts.during(EMPLOYEES, start, end)
    if start is None:
        start = next(
            (w[0] for (n, m, w) in facts.values if isinstance(w, tuple) and w[1] == end and w[0]), None
        )
    money = Decimal("0.01")
    fin = FinancialRecord(
        year=end.year,
        currency=monetary.pop(),
        period_from=start.isoformat() if start else None,
        period_to=end.isoformat(),
        revenue=_q(facts.during(REVENUE, start, end), money),
        profit=_q(facts.during(PROFIT, start, end), money),
        total_assets=_q(total, money),
        equity=_q(equity, money),
        liabilities=_q(total - equity if total is not None and equity is not None else None, money),
        employees=int(employees) if employees is not None else None,
        current_assets=_q(current, money),
        current_liabilities=_q(current_liabilities, money),
        retained_earnings=_q(retained, money),
        ebit=_q(facts.during(EBIT, start, end), money),
        statement_type="annual",
        source_record_id=name,
    )
    return StatementRecord(country="GB", financials=[fin], national_id=number)


def _q(value: Decimal | None, step: Decimal) -> Decimal | None:
    return None if value is None else value.quantize(step)


class AccountsSource:
    info = INFO
    reads_archive = True  # the bulk product is a zip of many documents, each a record

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError | Skipped]:
        head = stream.read(4)
        if head == b"PK\x03\x04":
            stream.seek(0)
            try:
                archive = zipfile.ZipFile(stream)
            except zipfile.BadZipFile as exc:
                raise SourceAbort(f"{name} is not a readable zip: {exc}") from None
            with archive:
                members = [m for m in archive.infolist() if not m.is_dir()]
                if not any(_DOCUMENT.search(m.filename) for m in members):
                    raise SourceAbort(f"{name} holds no .html or .xml accounts document")
                for member in members:
                    if not _DOCUMENT.search(member.filename):
                        yield Skipped("not an accounts document")
                        continue
                    with archive.open(member) as doc:
                        yield self._one(doc.read(), member.filename)
            return
        data = head + stream.read()
        if b"<" not in data[:1024]:
            raise SourceAbort(f"{name} is neither an iXBRL/XBRL document nor a zip of them")
        yield self._one(data, name)

    def _one(self, data: bytes, name: str) -> StatementRecord | RecordError:
        try:
            with warnings.catch_warnings():
                # ixbrlparse warns of each date format it does not transform; the dates are read from
                # their text here (_day).
                warnings.filterwarnings("ignore", "Format .* not implemented", UserWarning)
                warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"ixbrlparse\.")
                doc = IXBRL(io.BytesIO(data), raise_on_error=True)
        except Exception as exc:  # the library raises its own and bs4/value errors alike
            return RecordError(f"{name}: not a readable iXBRL document: {exc}", name)
        try:
            return statement(doc, name)
        except RecordError as exc:
            exc.reason, exc.raw = f"{name}: {exc.reason}", name
            return exc


SOURCE = register(AccountsSource())
