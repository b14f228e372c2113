"""What hangs off a company: its officers, owners and beneficial owners, its parent companies and its
annual statements, as the rows the loader would write for them. Dates are day ordinals here."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from regintel.synth.company import Company
from regintel.synth.finance import statements
from regintel.synth.groups import Edge
from regintel.synth.layout import SLOTS, iso
from regintel.synth.markets import MARKETS
from regintel.synth.people import Person, person

_ADULT = 18 * 366
_DIRECTORS = {"micro": (1, 1, 1, 2), "small": (1, 2), "medium": (2, 3), "large": (3, 3)}
_BANDS = (
    (75, '["ownership-of-shares-75-to-100-percent"]'),
    (50, '["ownership-of-shares-50-to-75-percent"]'),
    (25, '["ownership-of-shares-25-to-50-percent"]'),
)
_CONTROL = json.dumps(["significant-influence-or-control"])
# SQLAlchemy's JSON type stores Python None as the JSON text 'null' (not SQL NULL); so does the loader.
JSON_NULL = "null"


@dataclass
class Context:
    """The block being generated: its seed, id bases and the people already written."""

    seed: int
    start: int
    person_base: int
    as_of: int  # ordinal
    known: dict[int, Person] = field(default_factory=dict)
    people: list[tuple[object, ...]] = field(default_factory=list)

    def person_id(self, slot: int) -> int:
        return self.person_base + slot - self.start * SLOTS + 1

    def use(self, slot: int) -> Person:
        """The person of `slot`; their people row is written the first time they take a role."""
        p = self.known.get(slot)
        if p is None:
            p = self.known[slot] = person(self.seed, slot)
            self.people.append(
                (self.person_id(slot), p.key, p.name, p.name_norm, iso(p.birth), p.nationality, p.residence)
            )
        return p

    def row(
        self,
        c: Company,
        role: str,
        slot: int,
        p: Person,
        title: str | None,
        share: float | None,
        since: int,
        until: int | None = None,
        natures: str = JSON_NULL,
    ) -> tuple[object, ...]:
        return (
            c.id,
            role,
            "p:" + p.key,
            self.person_id(slot),
            None,
            p.name,
            title,
            share,
            None,
            natures,
            iso(since),
            iso(until) if until else None,
        )


def _since(rnd: float, start: int, p: Person, as_of: int) -> int:
    """A role starts within two years of `start`, never before its holder turned 18, never after as_of."""
    return min(as_of, max(start + int(rnd * 700), p.birth + _ADULT))


def person_roles(
    rng: random.Random, ctx: Context, c: Company, reuse: list[int], owned: float, top_person: int | None
) -> list[tuple[object, ...]]:
    """Directors, person shareholders (the `100 - owned` per cent companies do not hold) and
    beneficial owners of company `c`. `reuse` lists slots of earlier companies' directors."""
    rnd = rng.random
    base = c.g * SLOTS
    counts = _DIRECTORS[c.size]
    directors = [base + i for i in range(counts[int(rnd() * len(counts))])] + reuse
    title = MARKETS[c.country].director
    rows = []
    for i, slot in enumerate(directors):
        p = ctx.use(slot)
        since = _since(rnd(), c.founded, p, ctx.as_of)
        until = since + 30 + int(rnd() * 2_000) if i and rnd() < 0.15 else None
        rows.append(
            ctx.row(
                c, "director", slot, p, title, None, since, until if until and until < ctx.as_of else None
            )
        )
    holders = _shareholders(rnd, base, c, owned)
    for slot, share in holders:
        p = ctx.use(slot)
        rows.append(ctx.row(c, "shareholder", slot, p, None, share, _since(rnd(), c.founded, p, ctx.as_of)))
    bands = [(slot, share, next((n for low, n in _BANDS if share >= low), None)) for slot, share in holders]
    for slot, share, natures in bands:
        if natures:
            p = ctx.use(slot)
            rows.append(
                ctx.row(
                    c,
                    "beneficial_owner",
                    slot,
                    p,
                    None,
                    share,
                    _since(rnd(), c.founded, p, ctx.as_of),
                    natures=natures,
                )
            )
    if not any(n for _, _, n in bands):
        # Nobody holds a quarter: the group's controlling person (or the first director) controls.
        slot = top_person if top_person is not None and owned > 0 else base
        p = ctx.use(slot)
        rows.append(
            ctx.row(
                c,
                "beneficial_owner",
                slot,
                p,
                None,
                None,
                _since(rnd(), c.founded, p, ctx.as_of),
                natures=_CONTROL,
            )
        )
    return rows


def _shareholders(rnd: Callable[[], float], base: int, c: Company, owned: float) -> list[tuple[int, float]]:
    """One to three people share what companies do not hold (joint-stock companies mostly list none)."""
    free = round(100.0 - owned, 2)
    if free <= 0 or c.form.large and rnd() < 0.7:
        return []
    slots = [base] if rnd() < 0.7 else [base + 3]
    extra = (0, 0, 1, 2)[int(rnd() * 4)]
    slots += [s for s in (base + 3, base + 1)[:extra] if s not in slots]
    cuts = sorted(round(rnd() * free, 2) for _ in range(len(slots) - 1))
    shares = [round(b - a, 2) for a, b in zip([0.0, *cuts], [*cuts, free], strict=True)]
    return [(s, x) for s, x in zip(slots, shares, strict=True) if x > 0]


def company_owner_rows(
    c: Company, parents: list[tuple[Edge, Company]], as_of: int
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Shareholder roles held by parent companies, and the ownership edges themselves."""
    roles: list[tuple[object, ...]] = []
    edges: list[tuple[object, ...]] = []
    for edge, parent in parents:
        since = iso(min(as_of, max(c.founded, parent.founded)))
        roles.append(
            (
                c.id,
                "shareholder",
                f"c:{parent.country}:{parent.national_id}",
                None,
                parent.id,
                parent.name,
                None,
                edge.share,
                None,
                JSON_NULL,
                since,
                None,
            )
        )
        edges.append((parent.id, c.id, "direct", edge.share, since, None))
    return roles, edges


def statement_rows(
    rng: random.Random, c: Company, currency: str, as_of_year: int
) -> list[tuple[object, ...]]:
    """Three to five annual statements up to last year (or the year before dissolution)."""
    last = (c.dissolved_year or as_of_year) - 1
    years = [y for y in range(last - 2 - int(rng.random() * 3), last + 1) if y >= c.founded_year]
    if not years or rng.random() < 0.05:
        return []
    failing = c.flags[0] or c.flags[1]
    return [
        (
            c.id,
            s.year,
            f"{s.year}-01-01",
            f"{s.year}-12-31",
            s.currency,
            s.revenue,
            s.profit,
            s.total_assets,
            s.equity,
            s.liabilities,
            s.employees,
            "annual",
            None,
        )
        for s in statements(rng, c.country, currency, c.employees, years, failing)
    ]
