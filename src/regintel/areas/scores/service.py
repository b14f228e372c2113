"""The scores area's use cases, shared by its routes and by other areas.

For other areas (compliance, public pages, the LEI record), with a company row as
`regintel.areas.companies.service.resolve_ico` returns it:

    from regintel.areas.scores.service import credit_grade, risk

    credit_grade(conn, row) -> str | None   # today's grade, "A+" … "F"; None when withheld (no statement)
                                            # (memoised by its inputs and the day: see `grade_of_inputs`)
    credit(conn, row) -> CreditScore         # the whole result: score, factors, confidence, missing inputs
    risk(conn, row) -> RiskScore             # risk score 0-100, level and drivers

Each reads the company's statements and insolvency notices (two indexed queries, sent together on
PostgreSQL) and runs the pure models of `regintel.domain.scores` on them; the inputs are read on every
call (only `credit_grade`'s result is memoised, keyed by those inputs and the day), so an answer follows
the data at once.
Payment discipline and tax debts come from the debtor lists the compliance area imports
(`compliance.debtors.standing`: one more read for the lists' dates and one for the company's entries), and
for Czech companies tax reliability also from the VAT payer register's unreliable-payer answer
(`public_money.bank_accounts`, two reads); a country without an imported list reaches the models as
unknown (None) and comes back as a missing input that lowers `confidence`, never as clean. Sanctions
come from the screening area's last screening of the company (`screening.screening_states`: three
reads); a company not screened since it was imported is a missing input too.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from threading import Lock
from typing import Any

from cachetools import LRUCache, cached
from sqlalchemy.engine import Connection

from regintel.areas.compliance import debtors
from regintel.areas.public_money import bank_accounts
from regintel.areas.scores import queries
from regintel.areas.screening import service as screening
from regintel.db.prepared import Read
from regintel.domain.scores.credit import CreditScore, credit_score
from regintel.domain.scores.facts import CompanyFacts, Evidence, InsolvencyEvent
from regintel.domain.scores.figures import Statement, period_end
from regintel.domain.scores.limits import HistoryPoint, grade_history
from regintel.domain.scores.risk import RiskScore, risk_score

Row = Mapping[str, Any]


def today() -> date:
    return datetime.now(UTC).date()


def to_statement(r: Row) -> Statement:
    return Statement(
        year=r["year"],
        currency=r["currency"],
        period_end=period_end(r["period_to"], r["year"]),
        source=r["source"],
        revenue=r["revenue"],
        profit=r["profit"],
        total_assets=r["total_assets"],
        equity=r["equity"],
        liabilities=r["liabilities"],
        employees=r["employees"],
        current_assets=r["current_assets"],
        current_liabilities=r["current_liabilities"],
        retained_earnings=r["retained_earnings"],
        ebit=r["ebit"],
        statement_id=r["id"],
    )


# The company columns `facts` reads: with the country (which decides the VAT register's answer) they are
# the company's part of the credit grade's memo key, so `facts` must read no other column.
FACT_COLUMNS = (
    "country",
    "source",
    "status",
    "founded_on",
    "dissolved_on",
    "in_bankruptcy",
    "in_restructuring",
    "in_liquidation",
    "employees",
    "size_class",
)


def facts(company: Row, events: Sequence[Row]) -> CompanyFacts:
    """The register facts of a company row (its `FACT_COLUMNS`) and its insolvency notices."""
    return CompanyFacts(
        source=company["source"],
        status=company["status"] or "active",
        founded_on=company["founded_on"],
        dissolved_on=company["dissolved_on"],
        in_bankruptcy=bool(company["in_bankruptcy"]),
        in_restructuring=bool(company["in_restructuring"]),
        in_liquidation=bool(company["in_liquidation"]),
        employees=company["employees"],
        size_class=company["size_class"],
        events=tuple(
            InsolvencyEvent(e["event_type"], e["phase"], e["event_date"], e["source"]) for e in events
        ),
    )


VAT_RELIABILITY = ("CZ",)  # VAT payer registers that answer reliable / unreliable (Czech ADIS)


def vat_reliability(conn: Connection, company: Row) -> Evidence | None:
    """The VAT payer register's reliability answer for the company (CZ), None when it has none."""
    if company["country"] not in VAT_RELIABILITY:
        return None
    payers = [
        p
        for p in bank_accounts.company_accounts(conn, company)["vatPayers"]
        if p["status"] in ("reliable", "unreliable")
    ]
    if not payers:
        return None
    p = payers[-1]
    on = date.fromisoformat(p["answeredOn"]) if p["answeredOn"] else None
    return Evidence("unreliable_vat_payer", p["status"] == "unreliable", on, p["source"]["id"])


def with_debts(
    f: CompanyFacts, standing: debtors.Standing | None, vat: Evidence | None = None
) -> CompanyFacts:
    """The facts with the debtor lists' answer: the number of creditors whose social or health list names
    the company today, and whether the tax-debtor list does (each with the lists it was read from); `vat`,
    the VAT payer register's unreliable-payer answer, also decides tax reliability (either listing makes
    the company unreliable)."""
    if vat is not None:
        f = replace(f, tax_reliable=not vat.value, tax_evidence=(vat,))
    if standing is None:
        return f
    current = {(e["source"], e["creditor"]): e for e in standing.current}
    pay: list[Evidence] = []
    tax: list[Evidence] = []
    for source, on in sorted(standing.lists.items()):
        if on is None:
            continue
        listed = [e for (src, _), e in current.items() if src == source]
        value: float | bool = sum(float(e["amount"] or 0) for e in listed) if listed else False
        item = Evidence(f"{debtors.KIND[source]}_debtor_list", value, on, source)
        (tax if debtors.KIND[source] == "tax" else pay).append(item)
    tax_debt = standing.tax_debt
    out = replace(f, payment_defaults=standing.payment_defaults, payment_evidence=tuple(pay))
    if tax_debt is not None:
        reliable = not tax_debt and f.tax_reliable is not False
        out = replace(out, tax_reliable=reliable, tax_evidence=f.tax_evidence + tuple(tax))
    return out


def with_screening(f: CompanyFacts, s: screening.Screening | None) -> CompanyFacts:
    """The facts with the company's last sanctions screening: its confirmed hits and name matches, and as
    evidence when it ran, against which list versions, and which entries it found. None: not screened."""
    if s is None:
        return f
    on = s.screened_at.date()
    ev = [
        Evidence("screened_at", s.screened_at.isoformat().replace("+00:00", "Z"), on, None),
        Evidence("lists_current", s.current, on, None),
    ]
    ev += [Evidence("sanctions_list_version", v, on, k) for k, v in sorted(s.lists.items())]
    ev += [Evidence("confirmed_hit", e, on, e.split(":", 1)[0]) for e in s.confirmed]
    ev += [Evidence("name_match", e, on, e.split(":", 1)[0]) for e in s.name_matches]
    return replace(
        f,
        sanctions_hits=len(s.confirmed),
        sanctions_name_matches=len(s.name_matches),
        sanctions_evidence=tuple(ev),
    )


def inputs(
    conn: Connection, company: Row, standing: debtors.Standing | None = None
) -> tuple[CompanyFacts, list[Statement]]:
    """Everything the models read about one company (statements and notices in one round trip on
    PostgreSQL, then the debtor lists unless `standing` was read for a batch already, then its last
    sanctions screening)."""
    read = _read(conn, company, standing)
    return _facts_of(company, *read[1:]), [to_statement(r) for r in read[0]]


_Read = tuple[
    list[dict[str, Any]], list[dict[str, Any]], debtors.Standing, Evidence | None, screening.Screening | None
]


def _read(conn: Connection, company: Row, standing: debtors.Standing | None) -> _Read:
    """(statements, notices, debtor-list standing, VAT register answer, last screening) of one company."""
    stmts, events = queries.statements_and_events(conn, company["id"])
    cid = int(company["id"])
    if standing is None:
        standing = debtors.standing(conn, [company])[cid]
    return (
        stmts,
        events,
        standing,
        vat_reliability(conn, company),
        screening.screening_states(conn, [cid]).get(cid),
    )


def _facts_of(
    company: Row,
    events: Sequence[Row],
    standing: debtors.Standing | None,
    vat: Evidence | None,
    state: screening.Screening | None,
) -> CompanyFacts:
    return with_screening(with_debts(facts(company, events), standing, vat), state)


def company_reads(company_id: int) -> list[Read]:
    """What `inputs` reads of one company besides the debtor lists and its screening, for `read_ahead`."""
    return queries.company_reads(company_id)


def credit(
    conn: Connection, company: Row, as_of: date | None = None, standing: debtors.Standing | None = None
) -> CreditScore:
    return credit_score(*inputs(conn, company, standing), as_of or today())


def credits(
    conn: Connection, companies: Sequence[Row], standings: Mapping[int, debtors.Standing] | None = None
) -> dict[int, CreditScore]:
    """Today's credit scores of several companies from one read of their statements, one of their
    notices and three of their screenings (bulk compliance); `standings` their debtor-list entries when
    already read."""
    if standings is None:
        standings = debtors.standing(conn, companies)
    ids = [int(c["id"]) for c in companies]
    stmts, events = queries.statements_and_events_of(conn, ids)
    screenings = screening.screening_states(conn, ids)
    on = today()
    out: dict[int, CreditScore] = {}
    for c in companies:
        cid = int(c["id"])
        f = _facts_of(c, events[cid], standings.get(cid), vat_reliability(conn, c), screenings.get(cid))
        out[cid] = credit_score(f, [to_statement(r) for r in stmts[cid]], on)
    return out


def credit_grade(
    conn: Connection, company: Row, standing: debtors.Standing | None = None, as_of: date | None = None
) -> str | None:
    """Today's credit grade (A+, A, B, C, D, E, F), or None when the model withholds it; `standing` the
    company's debtor-list entries when already read."""
    return grade_of_inputs(company, *_read(conn, company, standing), as_of or today())


def _grade_key(
    company: Row,
    stmts: Sequence[Row],
    events: Sequence[Row],
    standing: debtors.Standing,
    vat: Evidence | None,
    state: screening.Screening | None,
    on: date,
) -> Hashable:
    return (
        tuple(company[c] for c in FACT_COLUMNS),
        tuple(tuple(r.values()) for r in stmts),
        tuple(tuple(r.values()) for r in events),
        standing.country,
        tuple(sorted(standing.lists.items())),
        tuple(tuple(e.values()) for e in (*standing.current, *standing.past)),
        vat,
        None
        if state is None
        else (
            state.screened_at,
            tuple(sorted(state.lists.items())),
            state.current,
            state.confirmed,
            state.name_matches,
        ),
        on,
    )


# The grade is asked for on every LEI record (the high-volume by-lei path), and a company's inputs stay
# the same call after call: building the model's inputs and running it took a fifth of that request's CPU
# (docs/performance.md, sessions 16 and 17). The rows are read on each call and the key is made of them as
# read (the company's `FACT_COLUMNS`, every column of its statements, notices and debtor-list entries, the
# lists' dates, the VAT answer, the screening), so a changed statement, notice, debtor list or screening is
# a new key at once, and nothing is built on a hit; the day is part of the key because the age,
# legal-event and staleness rules move with it. Only the grade is kept: the whole CreditScore carries
# evidence values that inputs equal under == (False and 0.0, 1 and True) would print differently, the grade
# does not. On PostgreSQL the LEI path runs in the thread pool, hence the lock.
@cached(LRUCache(maxsize=8192), key=_grade_key, lock=Lock(), info=True)
def grade_of_inputs(
    company: Row,
    stmts: Sequence[Row],
    events: Sequence[Row],
    standing: debtors.Standing,
    vat: Evidence | None,
    state: screening.Screening | None,
    on: date,
) -> str | None:
    f = _facts_of(company, events, standing, vat, state)
    return credit_score(f, [to_statement(r) for r in stmts], on).grade


def risk(conn: Connection, company: Row, as_of: date | None = None) -> RiskScore:
    return risk_score(*inputs(conn, company), as_of or today())


def credit_and_history(conn: Connection, company: Row) -> tuple[CreditScore, list[HistoryPoint]]:
    f, s = inputs(conn, company)
    return credit_score(f, s, today()), grade_history(f, s)
