"""Slovak Register of Financial Statements (Register účtovných závierok, RÚZ) of the Ministry of Finance.

Input: RÚZ API JSON (registeruz.sk/cruz-public/api): one accounting unit, statement header or report
object, or JSON lines mixing the three (the bulk form). Records are told apart by their fields and
linked by ids: a statement names its unit (`ico`, or `idUJ` = the unit's RÚZ id), a report its
statement (`idUctovnejZavierky`). Units, statements and reports may come in separate files, in
any order: statements resolve their company in the database (`StatementRecord`), and a report
finds its statement among the recent ones of the same file or through its title page.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import IO, Any

from regintel.domain.types import Record
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.sk_registeruz_reports import figures, tables, template_of
from regintel.ingest.sources.sk_registeruz_units import Json, Statement, month, text, to_company, to_statement

INFO = SourceInfo(
    id="sk_registeruz",
    name="Register účtovných závierok (RÚZ)",
    publisher="Ministerstvo financií Slovenskej republiky (MF SR)",
    country="SK",
    category="financials",
    formats="RÚZ API JSON: accounting unit, statement and report objects, JSON lines of them",
    licence="Slovak public-administration open data (free re-use with attribution)",
    attribution="Zdroj: Register účtovných závierok, MF SR",
    url="https://www.registeruz.sk/cruz-public/api",
    cadence="daily",
    # RPO is the register of record for names, addresses and legal forms; RÚZ repeats them (from
    # the Statistical Office) in its own spelling, so for a company RPO describes they only fill
    # what is empty. A company only RÚZ describes follows RÚZ (renames, dissolution, size band).
    fill_only=True,
    keeps_own_current=True,
)

RECENT_STATEMENTS = (
    10_000  # statements remembered for their reports, which a bulk crawl writes right after them
)


class Recent(OrderedDict[str, Statement]):
    """The last statements seen, bounded, so memory stays flat on any file size."""

    def remember(self, statement: Statement) -> None:
        self[statement.id] = statement
        self.move_to_end(statement.id)
        if len(self) > RECENT_STATEMENTS:
            self.popitem(last=False)


def kind_of(value: Any) -> str | None:
    """unit | statement | annual_report | report | codebook | id_list, or None for anything else."""
    if not isinstance(value, dict):
        return None
    if "klasifikacie" in value or "lokacie" in value:
        return "codebook"
    if isinstance(value.get("id"), list):
        return "id_list"
    if "idUctovnejZavierky" in value or "idSablony" in value or "obsah" in value:
        return "report"
    if "idUJ" in value or "obdobieDo" in value:
        # An annual report (výročná správa) has attachments and no consolidation flag.
        return "annual_report" if "prilohy" in value and "konsolidovana" not in value else "statement"
    if "ico" in value or "nazovUJ" in value:
        return "unit"
    return None


class SkRegisterUz:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError | Skipped]:
        recent = Recent()
        first = True
        for value in json_objects(stream):
            if isinstance(value, RecordError):
                yield value
                continue
            kind = kind_of(value)
            if first and kind not in ("unit", "statement", "report", "annual_report"):
                raise SourceAbort(
                    f"{name} is not RÚZ accounting units, statements or reports "
                    f"({'a ' + kind if kind else 'unknown records'}: "
                    "codebooks and id lists carry no company data)"
                )
            first = False
            try:
                yield from self._items(kind, value, recent)
            except RecordError as exc:
                yield RecordError(exc.reason, value)

    def _items(
        self, kind: str | None, value: Json, recent: Recent
    ) -> Iterator[Record | RecordError | Skipped]:
        if kind == "unit":
            company, problem = to_company(value)
            if problem is not None:
                yield problem
            yield company
        elif kind == "statement":
            statement = to_statement(value)
            recent.remember(statement)
            yield Skipped(statement.skip) if statement.skip else statement.record()
        elif kind == "report":
            yield self._report(value, recent)
        elif kind == "annual_report":
            yield Skipped("annual report (výročná správa): no figures of its own")
        else:
            yield RecordError("not a RÚZ accounting unit, statement or report", value)

    @staticmethod
    def _report(report: Json, recent: Recent) -> Record | Skipped:
        template = template_of(report)
        if not tables(report):
            return Skipped("report without public figures")
        if template is None:
            return Skipped(f"report template {report.get('idSablony')} not mapped")
        statement = recent.get(text(report, "idUctovnejZavierky") or "") or _from_title_page(report)
        if statement.skip:
            return Skipped(statement.skip)
        found = figures(report, template)
        if all(v is None for v in found.values()):
            return Skipped("report without figures in the mapped rows")
        currency = (text(report, "mena") or "EUR").upper()
        if len(currency) != 3 or not currency.isalpha():
            raise RecordError(f"mena is not a currency code: {currency[:10]!r}")
        return statement.record(currency, **found)


def _from_title_page(report: Json) -> Statement:
    """The statement as the report's own title page describes it, when the statement header is not
    among the recent ones (reports in a file of their own)."""
    sid = text(report, "idUctovnejZavierky")
    page = (report.get("obsah") or {}).get("titulnaStrana")
    if not isinstance(page, dict) or not text(page, "ico") or not month(page, "obdobieDo"):
        raise RecordError(
            "report of a statement that is not in this file, without a title page "
            f"(ico, obdobieDo) to place it: statement {sid}"
        )
    header = {
        "id": sid or text(report, "id"),
        "ico": page["ico"],
        "obdobieOd": page.get("obdobieOd"),
        "obdobieDo": page["obdobieDo"],
        "typ": page.get("typZavierky"),
        "konsolidovana": page.get("konsolidovana"),
    }
    return to_statement(header)


register(SkRegisterUz())
