"""The scores area's use cases, shared by its routes and by other areas.

For other areas (compliance, public pages, the LEI record), with a company row as
`regintel.services.companies.resolve_ico` returns it:

    from regintel.areas.scores.service import credit_grade, risk

    credit_grade(conn, row) -> str | None   # today's grade, "A+" … "F"; None when withheld (no statement)
    credit(conn, row) -> CreditScore         # the whole result: score, factors, confidence, missing inputs
    risk(conn, row) -> RiskScore             # risk score 0-100, level and drivers

Each reads the company's statements and insolvency notices (two indexed queries, sent together on
PostgreSQL) and runs the pure models of `regintel.domain.scores` on them; nothing is cached, so an
answer follows the data at once.
Sanctions, tax reliability and payment discipline have no table yet: they reach the models as unknown
(None) and come back as missing inputs that lower `confidence`, never as clean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.scores import queries
from regintel.domain.scores.credit import CreditScore, credit_score
from regintel.domain.scores.facts import CompanyFacts, InsolvencyEvent
from regintel.domain.scores.figures import Statement, period_end
from regintel.domain.scores.limits import HistoryPoint, grade_history
from regintel.domain.scores.risk import RiskScore, risk_score

Row = Mapping[str, Any]


def today() -> date:
    return datetime.now(UTC).date()


def to_statement(r: Row) -> Statement:
    return Statement(year=r["year"], currency=r["currency"], period_end=period_end(r["period_to"], r["year"]),
                     source=r["source"], revenue=r["revenue"], profit=r["profit"], total_assets=r["total_assets"],
                     equity=r["equity"], liabilities=r["liabilities"], employees=r["employees"],
                     statement_id=r["id"])


def facts(company: Row, events: Sequence[Row]) -> CompanyFacts:
    """The register facts of a company row and its insolvency notices."""
    return CompanyFacts(source=company["source"], status=company["status"] or "active",
                        founded_on=company["founded_on"], dissolved_on=company["dissolved_on"],
                        in_bankruptcy=bool(company["in_bankruptcy"]),
                        in_restructuring=bool(company["in_restructuring"]),
                        in_liquidation=bool(company["in_liquidation"]), employees=company["employees"],
                        size_class=company["size_class"],
                        events=tuple(InsolvencyEvent(e["event_type"], e["phase"], e["event_date"], e["source"])
                                     for e in events))


def inputs(conn: Connection, company: Row) -> tuple[CompanyFacts, list[Statement]]:
    """Everything the models read about one company (one round trip on PostgreSQL)."""
    stmts, events = queries.statements_and_events(conn, company["id"])
    return facts(company, events), [to_statement(r) for r in stmts]


def credit(conn: Connection, company: Row, as_of: date | None = None) -> CreditScore:
    return credit_score(*inputs(conn, company), as_of or today())


def credit_grade(conn: Connection, company: Row) -> str | None:
    """Today's credit grade (A+, A, B, C, D, E, F), or None when the model withholds it."""
    return credit(conn, company).grade


def risk(conn: Connection, company: Row, as_of: date | None = None) -> RiskScore:
    return risk_score(*inputs(conn, company), as_of or today())


def credit_and_history(conn: Connection, company: Row) -> tuple[CreditScore, list[HistoryPoint]]:
    f, s = inputs(conn, company)
    return credit_score(f, s, today()), grade_history(f, s)
