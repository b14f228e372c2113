"""Generate the rows of blocks of entities: a pure function of (parameters, block).

Output rows follow the column lists below, with dates as ISO strings and JSON columns as JSON text
(bookkeeping columns such as `source`, `created_at` and `run_id` are added by the writer). Company and
person ids are assigned here, from the entity's index, so no RETURNING round trip is needed; ids of roles,
ownerships and statements come from the database.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date

from regintel.ingest.sections import activity_digits
from regintel.synth.company import Company, make_company
from regintel.synth.groups import plan
from regintel.synth.layout import BLOCK, SLOTS, block_layout, mix, value
from regintel.synth.pools import MarketPool
from regintel.synth.relations import Context, company_owner_rows, person_roles, statement_rows

DEFAULT_AS_OF = date(2026, 1, 1)

COMPANY_COLUMNS = (
    "id",
    "country",
    "national_id",
    "name",
    "name_norm",
    "legal_form",
    "legal_form_name",
    "status",
    "founded_on",
    "dissolved_on",
    "street",
    "city",
    "postal_code",
    "address_text",
    "address_norm",
    "region_code",
    "district_code",
    "municipality_code",
    "nuts3",
    "nace_primary",
    "nace_codes",
    "size_class",
    "employees",
    "vat_id",
    "tax_id",
    "lei",
    "in_bankruptcy",
    "in_restructuring",
    "in_liquidation",
)
IDENTIFIER_COLUMNS = ("type", "value", "company_id")
ACTIVITY_COLUMNS = ("company_id", "nace_digits")
SOURCE_COLUMNS = ("company_id", "source_record_id", "published_on")
PEOPLE_COLUMNS = (
    "id",
    "person_key",
    "name",
    "name_norm",
    "birth_date",
    "nationality",
    "country_of_residence",
)
ROLE_COLUMNS = (
    "company_id",
    "role",
    "holder_key",
    "person_id",
    "holder_company_id",
    "holder_name",
    "title",
    "share_pct",
    "voting_pct",
    "natures_of_control",
    "since",
    "until",
)
OWNERSHIP_COLUMNS = ("parent_id", "child_id", "kind", "share_pct", "since", "until")
STATEMENT_COLUMNS = (
    "company_id",
    "year",
    "period_from",
    "period_to",
    "currency",
    "revenue",
    "profit",
    "total_assets",
    "equity",
    "liabilities",
    "employees",
    "statement_type",
    "source_record_id",
)


@dataclass(frozen=True)
class Params:
    seed: int
    start: int  # index of the first entity of this run
    count: int
    company_base: int = 0  # company id = company_base + (g - start) + 1
    person_base: int = 0  # person id = person_base + (slot - start * SLOTS) + 1
    as_of: date = DEFAULT_AS_OF

    @property
    def end(self) -> int:
        return self.start + self.count

    def blocks(self) -> range:
        return range(self.start // BLOCK, (self.end + BLOCK - 1) // BLOCK)


@dataclass
class Chunk:
    """Rows per table, in the column orders above."""

    companies: list[tuple[object, ...]] = field(default_factory=list)
    activities: list[tuple[object, ...]] = field(default_factory=list)
    identifiers: list[tuple[object, ...]] = field(default_factory=list)
    sources: list[tuple[object, ...]] = field(default_factory=list)
    people: list[tuple[object, ...]] = field(default_factory=list)
    roles: list[tuple[object, ...]] = field(default_factory=list)
    ownerships: list[tuple[object, ...]] = field(default_factory=list)
    statements: list[tuple[object, ...]] = field(default_factory=list)

    def extend(self, other: Chunk) -> None:
        for name in self.__dataclass_fields__:
            getattr(self, name).extend(getattr(other, name))


def generate(params: Params, pools: dict[str, MarketPool], blocks: range) -> Chunk:
    chunk = Chunk()
    for block in blocks:
        chunk.extend(generate_block(params, pools, block))
    return chunk


def generate_block(params: Params, pools: dict[str, MarketPool], block: int) -> Chunk:
    """All rows of the entities of `block` that fall inside the run."""
    lo = max(params.start, block * BLOCK) - block * BLOCK
    hi = min(params.end, (block + 1) * BLOCK) - block * BLOCK
    layout = block_layout(params.seed, block)
    groups = plan(params.seed, block, lo, hi)
    rng = random.Random(mix(params.seed, block, 3))
    as_of = params.as_of.toordinal()
    companies: dict[int, Company] = {}
    for pos in range(lo, hi):
        g = block * BLOCK + pos
        country, local = layout[pos]
        companies[pos] = make_company(
            rng,
            pools[country],
            g,
            params.company_base + g - params.start + 1,
            value(params.seed, country, local),
            mix(params.seed, g, 5),
            pos in groups.parents,
            as_of,
        )
    ctx = Context(params.seed, params.start, params.person_base, as_of)
    chunk = Chunk()
    hubs = [lo + rng.randrange(hi - lo) for _ in range(2)]
    for pos, c in companies.items():
        chunk.companies.append(c.row)
        # The rows the loader derives from the record (ingest.sections.activity_digits).
        chunk.activities += [(c.id, d) for d in activity_digits(c.nace_codes[0], c.nace_codes)]
        chunk.identifiers += [(t, v, c.id) for t, v in c.identifiers]
        chunk.sources.append((c.id, f"{params.seed}:{c.g}", params.as_of.isoformat()))
        parents = [(e, companies[e.parent]) for e in groups.owners(pos)]
        owned = sum(e.share for e, _ in parents)
        top = groups.top.get(pos)
        top_person = companies[top].g * SLOTS if top is not None else None
        chunk.roles += person_roles(rng, ctx, c, _reuse(rng, companies, pos, lo, hubs), owned, top_person)
        roles, edges = company_owner_rows(c, parents, as_of)
        chunk.roles += roles
        chunk.ownerships += edges
        chunk.statements += statement_rows(rng, c, pools[c.country].market.currency, params.as_of.year)
    chunk.people = ctx.people
    return chunk


def _reuse(
    rng: random.Random, companies: dict[int, Company], pos: int, lo: int, hubs: list[int]
) -> list[int]:
    """A director who already directs an earlier company of the block: a block's two "hub" people
    collect a role in about one company in sixty, others now and then."""
    earlier = [h for h in hubs if h < pos and rng.random() < 0.015]
    if not earlier and pos > lo and rng.random() < 0.06:
        earlier = [rng.randrange(lo, pos)]
    return [companies[earlier[0]].g * SLOTS] if earlier else []
