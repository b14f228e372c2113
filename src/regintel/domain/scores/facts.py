"""What the models know about a company besides its statements, and its state on a past day."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from regintel.domain.company_size import category
from regintel.domain.scores.figures import Statement

EVENT_KINDS = ("bankruptcy", "restructuring", "liquidation")


@dataclass(frozen=True)
class Evidence:
    """One input a factor read: its name, value, the day it refers to and the source that said it."""

    input: str
    value: str | float | int | bool | None
    on: date | None
    source: str | None


@dataclass(frozen=True)
class InsolvencyEvent:
    kind: str  # bankruptcy | restructuring | liquidation
    phase: str  # start | end
    on: date
    source: str


@dataclass(frozen=True)
class CompanyFacts:
    """Register facts. For the sanctions, tax and payment inputs None means unknown (not screened, or no
    list imported for the company's country), never "clean"."""

    source: str
    status: str = "active"  # active | dissolved | inactive
    founded_on: date | None = None
    dissolved_on: date | None = None
    in_bankruptcy: bool = False
    in_restructuring: bool = False
    in_liquidation: bool = False
    employees: int | None = None
    size_class: str | None = None
    events: tuple[InsolvencyEvent, ...] = ()
    # Hits an identifier confirms on the sanctions and debarment lists; None when never screened.
    sanctions_hits: int | None = None
    sanctions_name_matches: int = 0  # the other hits of that screening: name matches for a reviewer
    tax_reliable: bool | None = None  # not on an unreliable-payer or tax-debtor list
    payment_defaults: int | None = None  # creditors whose published debtor list currently names the company
    # What the last two were read from (one Evidence per list consulted: the list, its date, its source).
    payment_evidence: tuple[Evidence, ...] = ()
    tax_evidence: tuple[Evidence, ...] = ()
    sanctions_evidence: tuple[Evidence, ...] = ()  # the screening: when, the list versions, the hits

    def size_category(self, statement: Statement | None) -> tuple[str | None, Evidence | None]:
        """The EU size class by headcount: the statement's, else the register's count, else its band."""
        if statement is not None and statement.employees is not None:
            return category(str(statement.employees)), Evidence(
                "employees", statement.employees, statement.period_end, statement.source
            )
        if self.employees is not None:
            return category(str(self.employees)), Evidence("employees", self.employees, None, self.source)
        found = category(self.size_class)
        return found, None if found is None else Evidence("size_class", self.size_class, None, self.source)


def facts_on(facts: CompanyFacts, on: date) -> CompanyFacts:
    """The company as it stood on `on`: flags from the dated insolvency notices up to that day (the
    register's current flags carry no date, so they only count today), status from the dissolution
    date, and only the notices published by then."""
    events = tuple(e for e in facts.events if e.on <= on)
    state = {kind: False for kind in EVENT_KINDS}
    for e in sorted(events, key=lambda e: e.on):
        state[e.kind] = e.phase == "start"
        if e.kind == "bankruptcy" and e.phase == "start":
            state["restructuring"] = False
        if e.kind == "restructuring" and e.phase == "start":
            state["bankruptcy"] = False
    dissolved = facts.dissolved_on is not None and facts.dissolved_on <= on
    founded = facts.founded_on if facts.founded_on is None or facts.founded_on <= on else None
    return replace(
        facts,
        events=events,
        status="dissolved" if dissolved else "active",
        founded_on=founded,
        in_bankruptcy=state["bankruptcy"],
        in_restructuring=state["restructuring"],
        in_liquidation=state["liquidation"],
        sanctions_hits=None,
        sanctions_name_matches=0,
        sanctions_evidence=(),
        tax_reliable=None,
        payment_defaults=None,
        payment_evidence=(),
        tax_evidence=(),
    )
