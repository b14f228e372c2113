"""The MCP tools: one entry of `TOOLS` each, a thin call into the services the REST routes use.

A tool is its name, a description, a pydantic input model (`extra="forbid"`: an unknown argument is
refused, as the REST API refuses an unknown parameter; its JSON schema is the tool's input schema), a
function `(conn, ctx, args) -> dict` run in a worker thread with its own connection, and a renderer of
the short text beside the structured result. Adding a tool is adding one `Tool(...)` to `TOOLS`.
Descriptions take their lists (markets, identifier types, dimensions, code lists, event types) from the
constants the API uses, so they never drift.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict
from datetime import datetime
from typing import Any, Literal

from pydantic import ConfigDict, Field
from sqlalchemy.engine import Connection

from regintel.areas.mcp import brief as brief_svc
from regintel.areas.mcp.area_tools import AREA_TOOLS
from regintel.areas.mcp.toolkit import (
    MARKETS,
    Args,
    CompanyArgs,
    Country,
    NationalId,
    Query,
    Tool,
    ToolContext,
    cc,
    company_row,
)
from regintel.db.company_filters import conditions
from regintel.domain.code_lists import CATALOGUE
from regintel.domain.identifiers import IDENTIFIER_TYPES
from regintel.domain.timeline import EVENT_TYPES
from regintel.errors import NotFound
from regintel.services import advanced_search as advanced_svc
from regintel.services import changes as changes_svc
from regintel.services import code_lists as code_lists_svc
from regintel.services import companies as companies_svc
from regintel.services import insolvency_feeds as insolvency_svc
from regintel.services import lookup as lookup_svc
from regintel.services import resolve as resolve_svc
from regintel.services import search as search_svc
from regintel.services import stats as stats_svc
from regintel.services import stats_snapshots as snapshots
from regintel.services import subscriptions as subscriptions_svc
from regintel.services import timeline as timeline_svc
from regintel.services.breakdown import DIMENSIONS
from regintel.services.company_filters import CompanyFilters
from regintel.services.data_sources import list_data_sources
from regintel.services.people import check_purpose


def _line(c: Mapping[str, Any]) -> str:
    flags = [name for name, key in (("bankruptcy", "inBankruptcy"), ("restructuring", "inRestructuring"),
                                    ("liquidation", "inLiquidation")) if c.get(key)]
    status = c.get("status") or "?"
    return f"- {c['name']} ({c['country']} {c['nationalId']}), {status}" + (f", in {', '.join(flags)}" if flags else "")


def _list_text(noun: str) -> Callable[[dict[str, Any]], str]:
    def render(result: dict[str, Any]) -> str:
        items = result["items"]
        total = result.get("total", len(items))
        head = f"{len(items)} {noun} (of {total})" if total != len(items) else f"{len(items)} {noun}"
        return "\n".join([head + ":" if items else f"No {noun}."] + [_line(i) for i in items[:20] if "nationalId" in i])
    return render


# -- company finding -----------------------------------------------------------------------------------

class SearchArgs(Args):
    q: Query
    country: Country
    limit: int = Field(default=10, ge=1, le=50)
    page: int = Field(default=1, ge=1, le=50)


def _search(conn: Connection, ctx: ToolContext, a: SearchArgs) -> dict[str, Any]:
    items, total = search_svc.search(conn, ctx.search(), a.q, cc(a.country), a.limit, a.page)
    return {"items": items, "total": total, "page": a.page}


class ResolveArgs(Args):
    q: str = Field(min_length=1, max_length=300, description="Free text: a name with its town (`Slovnaft a.s., "
                   "Bratislava`) or an identifier in any usual format (IČO, VAT id, LEI)")
    country: Country
    threshold: float = Field(default=resolve_svc.RESOLVE_THRESHOLD, ge=0, le=1)


def _resolve(conn: Connection, ctx: ToolContext, a: ResolveArgs) -> dict[str, Any]:
    best, others = resolve_svc.resolve(conn, ctx.search(), a.q, cc(a.country), a.threshold)
    nearest = [c.as_dict(a.threshold) for c in others[:5]]
    if best is None:
        raise NotFound(f"No entity passes the threshold {a.threshold} for {a.q!r}", details={"candidates": nearest})
    return {"entity": search_svc.summary(best.row), "score": round(best.score, 4),
            "reasons": resolve_svc.reasons(best), "alternatives": nearest}


class AdvancedArgs(CompanyFilters):
    model_config = ConfigDict(extra="forbid")
    sort: Literal["name", "founded_on", "revenue", "updated_at"] = "name"
    direction: Literal["asc", "desc"] | None = None
    page: int = Field(default=1, ge=1, le=500)
    per_page: int = Field(default=20, ge=1, le=50)


def _advanced(conn: Connection, ctx: ToolContext, a: AdvancedArgs) -> dict[str, Any]:
    ref = advanced_svc.reference(conn, ctx.cache())
    direction = a.direction or ("asc" if a.sort == "name" else "desc")
    items, total, exact = advanced_svc.search(conn, a, ref, sort=a.sort, direction=direction, page=a.page,
                                              per_page=a.per_page)
    return {"items": items, "total": total, "totalExact": exact, "page": a.page}


# -- one company -------------------------------------------------------------------------------------------

def _company(conn: Connection, ctx: ToolContext, a: CompanyArgs) -> dict[str, Any]:
    return companies_svc.company_record(conn, company_row(conn, a))


def _amount(value: Any) -> str:
    return f"{value:,.0f}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "?"


def _company_text(r: dict[str, Any]) -> str:
    fin = r.get("latestFinancials")
    text = _line(r).removeprefix("- ")
    if fin:
        text += f"; {fin['year']} revenue {_amount(fin['revenue'])} {fin['currency']}, profit " \
                f"{_amount(fin['profit'])} {fin['currency']}"
    return text + "; sources: " + ", ".join(f"{s['id']} ({s['licence']})" for s in r["sources"])


class IdentifierArgs(Args):
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    type: Literal[IDENTIFIER_TYPES] = Field(description=(  # type: ignore[valid-type]
        "`ico` (national register number in any market), `ic_dph` (Slovak VAT id), `vat` (any VAT id with its "
        "country prefix), `dic` (tax id), `lei`, `duns`, `bvdid`"))
    value: str = Field(min_length=1, max_length=64)
    country: Country


def _identifier(conn: Connection, ctx: ToolContext, a: IdentifierArgs) -> dict[str, Any]:
    items = lookup_svc.by_identifier(conn, a.type, a.value, a.country)
    return {"items": items, "total": len(items)}


class BriefArgs(Args):
    national_id: NationalId
    country: str = Field(default="sk", min_length=2, max_length=2, description="ISO 3166-1 alpha-2, default `sk` "
                         f"(spec 2.2). Markets: {MARKETS}")
    purpose: str | None = Field(default=None, max_length=64, description="Declared processing purpose (one of the "
                                "operator's list, e.g. `kyc`): adds natural persons' birth date, nationality and "
                                "residence")


def _brief(conn: Connection, ctx: ToolContext, a: BriefArgs) -> dict[str, Any]:
    personal = check_purpose(a.purpose, ctx.settings.allowed_purposes)
    return brief_svc.company_brief(conn, companies_svc.get_company_row(conn, a.country, a.national_id),
                                   personal=personal)


class TimelineArgs(CompanyArgs):
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    event_types: list[Literal[EVENT_TYPES]] | None = Field(  # type: ignore[valid-type]
        default=None, max_length=len(EVENT_TYPES), description="Only these event types")
    cursor: str | None = Field(default=None, max_length=200, description="`next_cursor` of the previous page")
    limit: int = Field(default=50, ge=1, le=200)


def _timeline(conn: Connection, ctx: ToolContext, a: TimelineArgs) -> dict[str, Any]:
    row = company_row(conn, a)
    events, next_cursor = timeline_svc.timeline(conn, row, cursor=a.cursor, limit=a.limit,
                                                types=set(a.event_types) if a.event_types else None)
    return {"company": {"country": row["country"], "nationalId": row["national_id"], "name": row["name"]},
            "events": events, "next_cursor": next_cursor}


def _timeline_text(r: dict[str, Any]) -> str:
    lines = [f"{len(r['events'])} events of {r['company']['name']}:"]
    lines += [f"- {e['date']} {e['event_type']}: {e['title']}" for e in r["events"][:20]]
    return "\n".join(lines)


# -- feeds and monitoring ------------------------------------------------------------------------------

class ChangesArgs(Args):
    since: datetime | None = Field(default=None, description="Changes detected at or after (ISO 8601, UTC when no "
                                   "offset)")
    cursor: str | None = Field(default=None, max_length=200, description="`resume_cursor` of an earlier answer")
    country: Country
    field: str | None = Field(default=None, max_length=64, description="Only changes of this field (`name`, "
                              "`in_bankruptcy`, `financials.2023.revenue`, …)")
    source: str | None = Field(default=None, max_length=32, description="Only changes from this source id")
    limit: int = Field(default=50, ge=1, le=200)


def _changes(conn: Connection, ctx: ToolContext, a: ChangesArgs) -> dict[str, Any]:
    flt = changes_svc.make_filter(a.country, a.field, a.source)
    items, next_cursor, resume = changes_svc.list_changes(conn, cursor=a.cursor, since=a.since, flt=flt,
                                                          limit=a.limit, base_url=ctx.settings.base_url)
    return {"items": items, "next_cursor": next_cursor, "resume_cursor": resume}


def _changes_text(r: dict[str, Any]) -> str:
    lines = [f"{len(r['items'])} changes" + (" (more waiting: pass next_cursor)" if r["next_cursor"] else "") + ":"]
    lines += [f"- {c['detected_at']} {c['name']} ({c['country']} {c['ico']}): {c['field']} {c['from']!r} -> "
              f"{c['to']!r}" for c in r["items"][:20]]
    return "\n".join(lines)


class InsolvencyArgs(Args):
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    scope: Literal[tuple(insolvency_svc.SCOPES)] = "any"  # type: ignore[valid-type]
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    phase: Literal[tuple(insolvency_svc.PHASES)] = "start"  # type: ignore[valid-type]
    country: Country
    limit: int = Field(default=50, ge=1, le=200)


def _insolvency(conn: Connection, ctx: ToolContext, a: InsolvencyArgs) -> dict[str, Any]:
    feed = insolvency_svc.recent(conn, scope=a.scope, phase=a.phase, country=cc(a.country), limit=a.limit,
                                 base_url=ctx.settings.base_url)
    return {"items": feed.items, "licence": insolvency_svc.LICENCE, "attribution": feed.attribution}


def _insolvency_text(r: dict[str, Any]) -> str:
    lines = [f"{len(r['items'])} insolvency events ({r['attribution']}):"]
    lines += [f"- {e['date']} {e['name']} ({e['country']} {e['ico']}): {e['title']}" for e in r["items"][:20]]
    return "\n".join(lines)


class MonitoringArgs(Args):
    status: Literal["active", "paused"] | None = None
    page: int = Field(default=1, ge=1, le=100_000)
    per_page: int = Field(default=50, ge=1, le=200)


def _monitoring(conn: Connection, ctx: ToolContext, a: MonitoringArgs) -> dict[str, Any]:
    items, total = subscriptions_svc.list_monitoring(conn, ctx.key_id(), status=a.status, page=a.page,
                                                     per_page=a.per_page)
    return {"items": items, "total": total, "page": a.page}


def _monitoring_text(r: dict[str, Any]) -> str:
    lines = [f"{len(r['items'])} monitoring subscriptions (of {r['total']}):"]
    lines += [f"- #{s['id']} {s.get('status')} -> {s.get('webhook_url')}" for s in r["items"][:20]]
    return "\n".join(lines)


# -- reference data -----------------------------------------------------------------------------------

class BreakdownArgs(CompanyFilters):
    model_config = ConfigDict(extra="forbid")
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    by: Literal[tuple(DIMENSIONS)] = Field(description="Dimension to group by: " + "; ".join(  # type: ignore[valid-type]
        f"`{name}`: {dim.description}" for name, dim in DIMENSIONS.items()))
    limit: int = Field(default=snapshots.BREAKDOWN_LIMIT, ge=1, le=1000)


def _breakdown(conn: Connection, ctx: ToolContext, a: BreakdownArgs) -> dict[str, Any]:
    cache = ctx.cache()

    def compute() -> list[dict[str, Any]]:
        ref = advanced_svc.reference(conn, cache)
        return stats_svc.breakdown(conn, a.by, conditions(a, ref), ref, a.limit)

    if snapshots.unfiltered(a) and a.limit == snapshots.BREAKDOWN_LIMIT:
        items, _ = snapshots.answer(conn, cache, snapshots.breakdown_key(a.by), compute)
    else:
        items, _ = stats_svc.cached(conn, cache, ("breakdown", a.model_dump_json()), compute)
    return {"by": a.by, "items": items, "total": sum(i["count"] for i in items)}


def _breakdown_text(r: dict[str, Any]) -> str:
    lines = [f"{r['total']} companies by {r['by']}:"]
    lines += [f"- {i.get('key')}{' ' + i['label'] if i.get('label') else ''}: {i['count']}" for i in r["items"][:30]]
    return "\n".join(lines)


class CodeListArgs(Args):
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    list_name: Literal[tuple(CATALOGUE)] = Field(description="The code list")  # type: ignore[valid-type]
    code: str | None = Field(default=None, max_length=64, description="One code (any case); answers that item")
    q: str | None = Field(default=None, max_length=200, description="Substring of the code or a name, ignoring case "
                          "and diacritics")
    parent: str | None = Field(default=None, max_length=64, description="Children of this code")
    limit: int = Field(default=50, ge=1, le=1000)


def _code_list(conn: Connection, ctx: ToolContext, a: CodeListArgs) -> dict[str, Any]:
    if a.code:
        return {"items": [asdict(code_lists_svc.get_item(conn, a.list_name, a.code))], "total": 1}
    items, total = code_lists_svc.list_items(conn, a.list_name, parent=a.parent, q=a.q, limit=a.limit)
    return {"items": [asdict(i) for i in items], "total": total}


def _code_list_text(r: dict[str, Any]) -> str:
    return "\n".join([f"{len(r['items'])} codes (of {r['total']}):"] +
                     [f"- {i['code']}: {i['name_en']}" for i in r["items"][:50]])


class SourcesArgs(Args):
    country: Country
    category: str | None = Field(default=None, max_length=32, pattern=r"^[A-Za-z_-]+$",
                                 description="register, lei, financials, insolvency, …")


def _sources(conn: Connection, ctx: ToolContext, a: SourcesArgs) -> dict[str, Any]:
    items = list_data_sources(conn, cc(a.country), a.category)
    return {"items": items, "total": len(items)}


def _sources_text(r: dict[str, Any]) -> str:
    return "\n".join([f"{r['total']} data sources:"] + [
        f"- {s['id']}: {s['name']} ({s['publisher']}), licence {s['licence']}, last import {s['last_import_at']}"
        for s in r["items"]])


CORE_TOOLS: list[Tool] = [
    Tool("search_companies", "Search companies by name",
         "Companies whose name resembles `q` in any word order, forgiving case, diacritics, legal-form suffixes and "
         "typos, best first with a `score` (0-1); an identifier in `q` (IČO, VAT id, LEI) finds its company first. "
         "Use it to find candidates, then `get_company` or `company_brief` for one of them.",
         SearchArgs, _search, _list_text("companies")),
    Tool("resolve_company", "Resolve free text to one company",
         "The single best entity for free text such as `Slovnaft a.s., Bratislava` or an identifier, with a "
         "`score` and the `reasons` that matched, and up to 5 alternatives. A NOT_FOUND error lists the nearest "
         "candidates when nothing passes `threshold`.",
         ResolveArgs, _resolve, lambda r: f"{_line(r['entity']).removeprefix('- ')} (score {r['score']})"),
    Tool("get_company", "Company record",
         "The full core record of one company by national identifier: name, legal form, status, dates, address, "
         "NACE, size, VAT and tax ids, LEI, the insolvency flags `inBankruptcy`, `inRestructuring`, "
         "`inLiquidation`, latest financial statement, identifiers and sources with licences. Without `country` "
         "an identifier held in several markets answers AMBIGUOUS_IDENTIFIER with the candidates.",
         CompanyArgs, _company, _company_text),
    Tool("lookup_identifier", "Companies holding an identifier",
         "Every company holding an identifier of `type` (" + ", ".join(IDENTIFIER_TYPES) + "), validated first "
         "(check digits where the type has them). An empty list means nobody holds it.",
         IdentifierArgs, _identifier, _list_text("companies")),
    Tool("company_brief", "Company brief for an agent",
         "A compact brief of one company (the answer of GET /api/v1/agent/company-brief): a one-line `headline`, "
         "identity, status and insolvency flags, key figures over 5 years, derived `flags` with a severity, the "
         "people holding roles now, insolvency events, the latest changes and the sources with licences.",
         BriefArgs, _brief, lambda r: r["headline"] + "".join(f"\n- [{f['severity']}] {f['text']}" for f in r["flags"])),
    Tool("company_timeline", "Company timeline",
         "One company's events from every source, newest first: gazette notices (bankruptcy, restructuring, "
         "liquidation, with court and file number), register changes, founding, dissolution, LEI registration. "
         "Event types: " + ", ".join(EVENT_TYPES) + ". Paginated by `cursor`.",
         TimelineArgs, _timeline, _timeline_text),
    Tool("recent_changes", "Recent changes across companies",
         "Field-level changes of all companies, oldest first, to follow the log: keep `resume_cursor` and pass it "
         "as `cursor` next time. `since` starts at a detection time; filters `country`, `field`, `source`.",
         ChangesArgs, _changes, _changes_text),
    Tool("advanced_search", "Filter companies",
         "Companies matching every given filter (the 41 filters of /companies/advanced-search: country, status, "
         "legal_form, name_contains, nace, size_class, region, nuts3, founded_from/to, revenue_min/max, "
         "in_bankruptcy, has_lei, …; list filters take arrays), sorted and paginated. `total` is exact up to "
         "10,000.",
         AdvancedArgs, _advanced, _list_text("companies")),
    Tool("insolvency_events", "Recent insolvency events",
         "The latest bankruptcy and restructuring events (gazette notices and register flags), newest first, "
         "with court, file number and a link to the notice. CC BY 4.0: quote the `attribution`.",
         InsolvencyArgs, _insolvency, _insolvency_text),
    Tool("stats_breakdown", "Company statistics by dimension",
         "Companies grouped by `by`, biggest groups first, each with count, share and how many are active, in "
         "bankruptcy, restructuring and liquidation. Takes every filter of `advanced_search`.",
         BreakdownArgs, _breakdown, _breakdown_text),
    Tool("code_list", "Code lists",
         "Decode or search a reference list: " + ", ".join(f"`{name}` ({info.title})" for name, info in
                                                            CATALOGUE.items()) + ".",
         CodeListArgs, _code_list, _code_list_text),
    Tool("data_sources", "Data sources and licences",
         "The sources regintel's data comes from: publisher, licence, attribution to show, URL, update cadence, "
         "last import and row count.",
         SourcesArgs, _sources, _sources_text),
    Tool("monitoring_subscriptions", "Monitoring subscriptions of this key",
         "This API key's monitoring subscriptions (webhooks on a company's insolvency flips), newest first, with "
         "delivery figures.",
         MonitoringArgs, _monitoring, _monitoring_text),
]
TOOLS: list[Tool] = CORE_TOOLS + AREA_TOOLS
BY_NAME: dict[str, Tool] = {tool.name: tool for tool in TOOLS}

