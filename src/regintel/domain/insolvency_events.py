"""How gazette notices move the insolvency flags of spec 2.2 and 3.1 (docs/insolvency.md).

Bankruptcy and restructuring are one state machine (a company is in at most one of them), liquidation
is another. Within a state machine the newest notice decides: a notice moves the flags only when it
is newer than every notice of that state machine already known for the company. "Newer" compares
the event date first (the day the notice takes effect), then the phase (on one day an end follows
a start: a proceeding cannot end before it began), then the notice id (the gazette numbers notices
in publication order). So a late-imported older notice is stored for the timeline but never flips a
flag back, and re-reading notices in any order ends in the same flags.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

EVENT_TYPES = ("bankruptcy", "restructuring", "liquidation")
PHASES = ("start", "end")
_GROUP = {"bankruptcy": "insolvency", "restructuring": "insolvency", "liquidation": "liquidation"}
_PHASE_RANK = {"start": 0, "end": 1}


@dataclass(frozen=True)
class Notice:
    event_type: str
    phase: str
    event_date: date
    notice_id: str

    def __post_init__(self) -> None:
        if self.event_type not in EVENT_TYPES:
            raise ValueError(f"unknown insolvency event type {self.event_type!r}")
        if self.phase not in PHASES:
            raise ValueError(f"unknown insolvency event phase {self.phase!r}")


def order_key(notice: Notice) -> tuple[date, int, int, str]:
    """Total order of notices: date, then end after start, then the notice id read as a number."""
    return notice.event_date, _PHASE_RANK[notice.phase], len(notice.notice_id), notice.notice_id


def deciding(new: Iterable[Notice], known: Iterable[Notice]) -> list[Notice]:
    """The new notices that decide their state machine: per machine, the newest new notice when it
    is newer than every known one. `known` must not hold the new notices themselves (a corrected
    notice is judged by its new content, not by its old one)."""
    newest_known: dict[str, tuple[date, int, int, str]] = {}
    for notice in known:
        group, key = _GROUP[notice.event_type], order_key(notice)
        if group not in newest_known or key > newest_known[group]:
            newest_known[group] = key
    best: dict[str, Notice] = {}
    for notice in new:
        group = _GROUP[notice.event_type]
        if group not in best or order_key(notice) > order_key(best[group]):
            best[group] = notice
    return [n for g, n in best.items() if g not in newest_known or order_key(n) > newest_known[g]]


def flag_statement(notices: Iterable[Notice]) -> tuple[bool | None, bool | None, bool | None]:
    """(in_bankruptcy, in_restructuring, in_liquidation) as deciding notices state them, None for
    "not stated". A start sets its flag, an end clears it; `merge_flags` then ends a restructuring
    when a bankruptcy starts and the other way round (spec 2.2)."""
    stated: dict[str, bool] = {}
    for notice in notices:
        stated[notice.event_type] = notice.phase == "start"
    return stated.get("bankruptcy"), stated.get("restructuring"), stated.get("liquidation")
