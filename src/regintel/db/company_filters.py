"""SQL for the company filters: every filter becomes one condition a B-tree index can serve
(prefixes as ranges, flags through partial indexes, the latest financials through their own table)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    ColumnElement,
    FromClause,
    and_,
    column,
    exists,
    false,
    not_,
    or_,
    select,
    table,
    true,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import NullType

from regintel.db.name_trigrams import NameContains
from regintel.db.schema import (
    CITY_LOWER,
    NACE_DIGITS,
    companies,
    company_activities,
    company_sources,
    latest_financials,
    lei_records,
)
from regintel.db.sql_hints import Common, Rare, Unindexed
from regintel.domain.identifiers import parse_country
from regintel.domain.nace import parse_nace_query, prefix_range, section_range
from regintel.domain.names import normalise_name
from regintel.errors import ValidationFailed

# A filter's condition.
Clause = ColumnElement[bool]

if TYPE_CHECKING:
    from regintel.areas.search.company_filters import CompanyFilters

c = companies.c
lf = latest_financials.c
ca = company_activities.c


@dataclass
class Reference:
    """What some filters translate through: NACE sections to divisions, size classes to stored bands."""

    nace_divisions: dict[str, list[str]] = field(default_factory=dict)
    size_bands: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Conditions:
    where: list[ColumnElement[bool]]
    needs_financials: bool  # conditions on `latest_financials` (inner join)


def unindexed(cond: Conditions) -> Conditions:
    return Conditions(
        [Unindexed(w.tested() if isinstance(w, (NameContains, NaceActivity)) else w) for w in cond.where],
        cond.needs_financials,
    )


def conditions(f: CompanyFilters, ref: Reference) -> Conditions:
    built: dict[str, ColumnElement[bool]] = {}
    for name, build in _BUILDERS.items():
        value = getattr(f, name)
        if value is not None:
            built[name] = build(value, ref) if name in _NEEDS_REF else build(value)
    term, country = built.get("name_contains"), built.get("country")
    if isinstance(term, NameContains) and country is not None and f.country:
        # The trigram table tags names with their country: the name filter narrows by it too.
        built["name_contains"] = NameContains(
            term.term, tuple(sorted({parse_country(v) for v in f.country})), covers=country
        )
    financial = [n for n in _FINANCIAL if getattr(f, n) is not None]
    return Conditions(list(built.values()), bool(financial) or f.has_financials is True)


def _in(column: Any) -> Callable[[list[str]], Clause]:
    return lambda values: column.in_(values)


def _upper_in(column: Any) -> Callable[[list[str]], Clause]:
    return lambda values: column.in_([v.upper() for v in values])


def _flag(column: Any) -> Callable[[bool], Clause]:
    # `= true()` is what the partial indexes are declared on (SQLite proves usability from the text).
    return lambda value: column == true() if value else Common(column == false())


def _prefix(column: Any, value: str) -> Clause:
    low, high = prefix_range(value)
    return and_(column >= low, column < high)


def _nace_range(value: str, ref: Reference) -> tuple[str, str]:
    """[low, high) of the digits a `nace` value covers: a section's divisions, or a digit prefix."""
    query = parse_nace_query(value)
    if query.section is None:
        return prefix_range(query.prefix or "")
    divisions = ref.nace_divisions.get(query.section)
    if not divisions:
        raise ValidationFailed(
            f"Unknown NACE section {query.section!r}",
            details=[{"field": "nace", "in": "query", "message": "unknown section"}],
        )
    return section_range(divisions)


class NaceActivity(ColumnElement[bool]):
    """The `nace` filter: the company's primary activity is in one of the ranges or, when it has none
    (ONRC names the classes a trader is authorised for, not a main one), one of its listed activities is.

    Written as `primary in the ranges OR id IN (listed activities in the ranges)`: each side is a range
    scan of its own index (the companies' NACE_DIGITS index, company_activities' (nace_digits,
    company_id)), which SQLite and PostgreSQL union; company_activities holds rows only for companies
    without a primary, so the second side adds just those. `tested()` is the same per row, for a plan
    that walks a sort index: a probe of the activities' primary key instead of gathering every listed
    company up front."""

    inherit_cache = True
    # A boolean condition typed NullType on purpose: as Boolean, SQLite would get `… = 1` appended.
    type = NullType()  # type: ignore[assignment]
    _traverse_internals = [("ranges", InternalTraversal.dp_plain_obj)]

    def __init__(self, ranges: tuple[tuple[str, str], ...]):
        self.ranges = ranges

    def _any(self, digits: Any) -> Clause:
        return or_(*(and_(digits >= low, digits < high) for low, high in self.ranges))

    def candidates(self) -> Clause:
        listed = select(ca.company_id).where(self._any(ca.nace_digits))
        return or_(self._any(NACE_DIGITS), c.id.in_(listed))

    def tested(self) -> Clause:
        listed = exists().where(ca.company_id == c.id, self._any(ca.nace_digits))
        return or_(self._any(NACE_DIGITS), listed)


@compiles(NaceActivity)
def _compile_nace(element: NaceActivity, compiler: Any, **kw: Any) -> str:
    return str(compiler.process(element.candidates(), **kw))


def _nace(values: list[str], ref: Reference) -> Clause:
    return NaceActivity(tuple(_nace_range(v, ref) for v in values))


def _size(values: list[str], ref: Reference) -> Clause:
    bands = {b for v in values for b in ref.size_bands.get(v.lower(), [v])}
    return Common(c.size_class.in_(sorted(bands)))  # a handful of classes: each holds many companies


def _name(value: str) -> Clause:
    norm = normalise_name(value)
    if len(norm.replace(" ", "")) < 2:
        raise ValidationFailed(
            "`name_contains` needs at least 2 letters besides legal-form words",
            details=[{"field": "name_contains", "in": "query", "message": "too short"}],
        )
    return NameContains(norm)


def _city(value: str) -> Clause:
    # SQLite's lower() folds ASCII letters only, PostgreSQL's every letter: ask for the forms either
    # backend can have produced, so `bratislava`, `BRATISLAVA` and `Žilina`/`ŽILINA` all match.
    text = value.strip()
    variants = {text.lower(), *(_ascii_lower(v) for v in (text, text.upper(), text.title()))}
    return CITY_LOWER.in_(sorted(variants))


def _ascii_lower(value: str) -> str:
    return "".join(ch.lower() if ch.isascii() else ch for ch in value)


def _utc(value: Any) -> Any:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _has_financials(value: bool) -> Clause:
    # With 1 the query joins latest_financials (see `conditions`), which is the test itself.
    if value:
        return lf.company_id.is_not(None)
    other = latest_financials.alias("lf_none")  # the outer query may join latest_financials itself
    return not_(exists().where(other.c.company_id == c.id))


# EXISTS (a primary-key probe per candidate row) rather than IN (subquery), which SQLite materialises
# whole: a register source or an LEI status holds millions of rows.
def _lei_status(values: list[str]) -> Clause:
    statuses = [v.upper() for v in values]
    return and_(
        Rare(c.lei > ""),
        exists().where(lei_records.c.lei == c.lei, lei_records.c.registration_status.in_(statuses)),
    )


# The screening area's precomputed hits (areas/screening, job `screening.company_hits`), named here as a
# light table so that db/ imports no area.
_sanction_hits = table("company_sanction_hits", column("company_id"))


def _sanctioned(value: bool) -> Clause:
    hit = exists().where(_sanction_hits.c.company_id == c.id)
    return hit if value else Common(not_(hit))


def _source(values: list[str]) -> Clause:
    return exists().where(company_sources.c.company_id == c.id, company_sources.c.source.in_(values))


def _present(column: ColumnElement[Any], rare: bool = False) -> Callable[[bool], Clause]:
    """Has a value: written as a range (`> ''`), which an index serves, unlike IS NOT NULL in SQLite."""

    def build(value: bool) -> Clause:
        if not value:
            return column.is_(None)
        return Rare(column > "") if rare else Common(column > "")

    return build


# The nis2 area's stored scoping (areas/nis2, sweeps and the job `nis2.refresh`), a light table as above.
_nis2_assessments = table("nis2_assessments", column("company_id"), column("category"))
NIS2_SCOPES = ("essential", "important", "out-of-scope")


def _nis2_scope(value: str) -> Clause:
    if value.strip().lower() not in NIS2_SCOPES:
        raise ValidationFailed(
            f"`nis2_scope` is one of {', '.join(NIS2_SCOPES)}",
            details=[{"field": "nis2_scope", "in": "query", "message": "unknown category"}],
        )
    return exists().where(
        _nis2_assessments.c.company_id == c.id, _nis2_assessments.c.category == value.strip().lower()
    )


_BUILDERS: dict[str, Callable[..., Clause]] = {
    "country": lambda values: Common(c.country.in_([parse_country(v) for v in values])),
    "status": lambda values: Common(c.status.in_(values)),
    "legal_form": _in(c.legal_form),
    "name_contains": _name,
    "source": _source,
    "sanctioned": _sanctioned,
    "in_bankruptcy": _flag(c.in_bankruptcy),
    "in_restructuring": _flag(c.in_restructuring),
    "in_liquidation": _flag(c.in_liquidation),
    "insolvent": lambda v: (
        or_(c.in_bankruptcy == true(), c.in_restructuring == true())
        if v
        else Common(and_(c.in_bankruptcy == false(), c.in_restructuring == false()))
    ),
    "nace": _nace,
    "size_class": _size,
    "employees_min": lambda v: c.employees >= v,
    "employees_max": lambda v: c.employees <= v,
    "region": _in(c.region_code),
    "district": _in(c.district_code),
    "municipality": _in(c.municipality_code),
    "nuts2": lambda vs: or_(*(_prefix(c.nuts3, v.upper()) for v in vs)),
    "nuts3": _upper_in(c.nuts3),
    "postal_code": lambda v: _prefix(c.postal_code, v.strip().upper()),
    "city": _city,
    "founded_from": lambda v: c.founded_on >= v,
    "founded_to": lambda v: c.founded_on <= v,
    "dissolved_from": lambda v: c.dissolved_on >= v,
    "dissolved_to": lambda v: c.dissolved_on <= v,
    "updated_since": lambda v: c.updated_at >= _utc(v),
    "has_financials": _has_financials,
    "financial_year_min": lambda v: lf.year >= v,
    "currency": lambda v: lf.currency == v.upper(),
    "revenue_min": lambda v: lf.revenue >= v,
    "revenue_max": lambda v: lf.revenue <= v,
    "profit_min": lambda v: lf.profit >= v,
    "profit_max": lambda v: lf.profit <= v,
    "equity_min": lambda v: lf.equity >= v,
    "equity_max": lambda v: lf.equity <= v,
    "total_assets_min": lambda v: lf.total_assets >= v,
    "total_assets_max": lambda v: lf.total_assets <= v,
    "has_lei": _present(c.lei, rare=True),
    "lei_status": _lei_status,
    "vat_registered": _present(c.vat_id),
    "nis2_scope": _nis2_scope,
}
_NEEDS_REF = {"nace", "size_class"}
_FINANCIAL = (
    "financial_year_min",
    "currency",
    "revenue_min",
    "revenue_max",
    "profit_min",
    "profit_max",
    "equity_min",
    "equity_max",
    "total_assets_min",
    "total_assets_max",
)


def base_query(cond: Conditions, *columns: Any, outer_financials: bool = False) -> Any:
    """SELECT `columns` FROM companies (joined to latest_financials when needed) WHERE every condition.

    `outer_financials` joins latest_financials as a LEFT JOIN even when conditions test it: the
    conditions then reject the rows without statements all the same, and SQLite, which never reorders
    a LEFT JOIN, keeps `companies` as the outer loop (needed to walk a companies sort index)."""
    source: FromClause
    if outer_financials:
        source = companies.join(latest_financials, lf.company_id == c.id, isouter=True)
    elif cond.needs_financials:
        source = companies.join(latest_financials, lf.company_id == c.id)
    else:
        source = companies
    return select(*columns).select_from(source).where(*cond.where)


def reference(conn: Any) -> Reference:
    """Built from the `nace` code list (divisions by section) and the headcount bands stored."""
    from regintel.db.schema import code_list_items
    from regintel.domain.company_size import category

    divisions: dict[str, list[str]] = {}
    for code, parent in conn.execute(
        select(code_list_items.c.code, code_list_items.c.parent).where(
            code_list_items.c.list_name == "nace", code_list_items.c.level == 2
        )
    ):
        divisions.setdefault(parent, []).append(code)
    bands: dict[str, list[str]] = {}
    for (band,) in conn.execute(select(c.size_class).where(c.size_class.is_not(None)).distinct()):
        kind = category(band)
        if kind:
            bands.setdefault(kind, []).append(band)
    return Reference(divisions, bands)
