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
from typing import Any, Literal

from pydantic import ConfigDict, Field
from sqlalchemy.engine import Connection

from regintel.areas.companies import lookup as lookup_svc
from regintel.areas.companies import service as companies_svc
from regintel.areas.companies import timeline as timeline_svc
from regintel.areas.feeds import insolvency_feeds as insolvency_svc
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
from regintel.areas.monitoring import subscriptions as subscriptions_svc
from regintel.areas.people.service import check_purpose
from regintel.areas.search import advanced_search as advanced_svc
from regintel.areas.search import service as search_svc
from regintel.areas.search.company_filters import CompanyFilters
from regintel.domain.identifiers import IDENTIFIER_TYPES, IdentifierType
from regintel.domain.timeline import EVENT_TYPES


def _line(c: Mapping[str, Any]) -> str:
    flags = [
        name
        for name, key in (
            ("bankruptcy", "inBankruptcy"),
            ("restructuring", "inRestructuring"),
            ("liquidation", "inLiquidation"),
        )
        if c.get(key)
    ]
    status = c.get("status") or "?"
    return f"- {c['name']} ({c['country']} {c['nationalId']}), {status}" + (
        f", in {', '.join(flags)}" if flags else ""
    )


def _list_text(noun: str) -> Callable[[dict[str, Any]], str]:
    def render(result: dict[str, Any]) -> str:
        items = result["items"]
        total = result.get("total", len(items))
        head = f"{len(items)} {noun} (of {total})" if total != len(items) else f"{len(items)} {noun}"
        return "\n".join(
            [head + ":" if items else f"No {noun}."] + [_line(i) for i in items[:20] if "nationalId" in i]
        )

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


class AdvancedArgs(CompanyFilters):
    model_config = ConfigDict(extra="forbid")
    sort: Literal["name", "founded_on", "revenue", "updated_at"] = "name"
    direction: Literal["asc", "desc"] | None = None
    page: int = Field(default=1, ge=1, le=500)
    per_page: int = Field(default=20, ge=1, le=50)


def _advanced(conn: Connection, ctx: ToolContext, a: AdvancedArgs) -> dict[str, Any]:
    ref = advanced_svc.reference(conn, ctx.cache())
    direction = a.direction or ("asc" if a.sort == "name" else "desc")
    items, total, exact = advanced_svc.search(
        conn, a, ref, sort=a.sort, direction=direction, page=a.page, per_page=a.per_page
    )
    return {"items": items, "total": total, "totalExact": exact, "page": a.page}


# -- one company -------------------------------------------------------------------------------------------


def _company(conn: Connection, ctx: ToolContext, a: CompanyArgs) -> dict[str, Any]:
    return dict(companies_svc.company_record(conn, company_row(conn, a)))


def _amount(value: Any) -> str:
    return f"{value:,.0f}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "?"


def _company_text(r: dict[str, Any]) -> str:
    fin = r.get("latestFinancials")
    text = _line(r).removeprefix("- ")
    if fin:
        text += (
            f"; {fin['year']} revenue {_amount(fin['revenue'])} {fin['currency']}, profit "
            f"{_amount(fin['profit'])} {fin['currency']}"
        )
    return text + "; sources: " + ", ".join(f"{s['id']} ({s['licence']})" for s in r["sources"])


class IdentifierArgs(Args):
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    type: IdentifierType = Field(
        description=(
            "`ico` (national register number in any market), `ic_dph` (Slovak VAT id), `vat` (any VAT id "
            "with its country prefix), `dic` (tax id), `lei`, `duns`, `bvdid`"
        )
    )
    value: str = Field(min_length=1, max_length=64)
    country: Country


def _identifier(conn: Connection, ctx: ToolContext, a: IdentifierArgs) -> dict[str, Any]:
    items = lookup_svc.by_identifier(conn, a.type, a.value, a.country)
    return {"items": items, "total": len(items)}


class BriefArgs(Args):
    national_id: NationalId
    country: str = Field(
        default="sk",
        min_length=2,
        max_length=2,
        description=f"ISO 3166-1 alpha-2, default `sk` (spec 2.2). Markets: {MARKETS}",
    )
    purpose: str | None = Field(
        default=None,
        max_length=64,
        description="Declared processing purpose (one of the "
        "operator's list, e.g. `kyc`): adds natural persons' birth date, nationality and "
        "residence",
    )


def _brief(conn: Connection, ctx: ToolContext, a: BriefArgs) -> dict[str, Any]:
    personal = check_purpose(a.purpose, ctx.settings.allowed_purposes)
    return brief_svc.company_brief(
        conn, companies_svc.get_company_row(conn, a.country, a.national_id), personal=personal
    )


class TimelineArgs(CompanyArgs):
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    event_types: list[Literal[EVENT_TYPES]] | None = Field(  # type: ignore[valid-type]
        default=None, max_length=len(EVENT_TYPES), description="Only these event types"
    )
    cursor: str | None = Field(default=None, max_length=200, description="`next_cursor` of the previous page")
    limit: int = Field(default=50, ge=1, le=200)


def _timeline(conn: Connection, ctx: ToolContext, a: TimelineArgs) -> dict[str, Any]:
    row = company_row(conn, a)
    events, next_cursor = timeline_svc.timeline(
        conn, row, cursor=a.cursor, limit=a.limit, types=set(a.event_types) if a.event_types else None
    )
    return {
        "company": {"country": row["country"], "nationalId": row["national_id"], "name": row["name"]},
        "events": events,
        "next_cursor": next_cursor,
    }


def _timeline_text(r: dict[str, Any]) -> str:
    lines = [f"{len(r['events'])} events of {r['company']['name']}:"]
    lines += [f"- {e['date']} {e['event_type']}: {e['title']}" for e in r["events"][:20]]
    return "\n".join(lines)


# -- feeds and monitoring ------------------------------------------------------------------------------


class InsolvencyArgs(Args):
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    scope: insolvency_svc.Scope = "any"
    # mypy, ignored below: a Literal built from a runtime tuple (pydantic reads it; mypy cannot)
    phase: insolvency_svc.Phase = "start"
    country: Country
    limit: int = Field(default=50, ge=1, le=200)


def _insolvency(conn: Connection, ctx: ToolContext, a: InsolvencyArgs) -> dict[str, Any]:
    feed = insolvency_svc.recent(
        conn,
        scope=a.scope,
        phase=a.phase,
        country=cc(a.country),
        limit=a.limit,
        base_url=ctx.settings.base_url,
    )
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
    items, total = subscriptions_svc.list_monitoring(
        conn, ctx.key_id(), status=a.status, page=a.page, per_page=a.per_page
    )
    return {"items": items, "total": total, "page": a.page}


def _monitoring_text(r: dict[str, Any]) -> str:
    lines = [f"{len(r['items'])} monitoring subscriptions (of {r['total']}):"]
    lines += [f"- #{s['id']} {s.get('status')} -> {s.get('webhook_url')}" for s in r["items"][:20]]
    return "\n".join(lines)


CORE_TOOLS: list[Tool] = [
    Tool(
        "search_companies",
        "Search companies by name",
        "Companies whose name resembles `q` in any word order, forgiving case, diacritics, legal-form "
        "suffixes and typos, best first with a `score` (0-1); an identifier in `q` (IČO, VAT id, LEI) finds "
        "its company first. Use it to find candidates, then `get_company` or `company_brief` for one of "
        "them.",
        SearchArgs,
        _search,
        _list_text("companies"),
    ),
    Tool(
        "get_company",
        "Company record",
        "The full core record of one company by national identifier: name, legal form, status, dates, "
        "address, NACE, size, VAT and tax ids, LEI, the insolvency flags `inBankruptcy`, `inRestructuring`, "
        "`inLiquidation`, latest financial statement, identifiers and sources with licences. Markets: "
        f"{MARKETS}. Without `country` an identifier held in several markets answers AMBIGUOUS_IDENTIFIER "
        "with the candidates.",
        CompanyArgs,
        _company,
        _company_text,
    ),
    Tool(
        "lookup_identifier",
        "Companies holding an identifier",
        "Every company holding an identifier of `type` ("
        + ", ".join(IDENTIFIER_TYPES)
        + "), validated first "
        "(check digits where the type has them). An empty list means nobody holds it.",
        IdentifierArgs,
        _identifier,
        _list_text("companies"),
    ),
    Tool(
        "company_brief",
        "Company brief for an agent",
        "A compact brief of one company (the answer of GET /api/v1/agent/company-brief): a one-line "
        "`headline`, identity, status and insolvency flags, key figures over 5 years, derived `flags` with a "
        "severity, the people holding roles now, insolvency events, the latest changes, the credit grade, "
        "sanctions, NIS2 scope and ultimate owners (each `unknown` with its reason, and then named in "
        "`notCovered`) and the sources with licences. Read it first.",
        BriefArgs,
        _brief,
        lambda r: r["headline"] + "".join(f"\n- [{f['severity']}] {f['text']}" for f in r["flags"]),
    ),
    Tool(
        "company_timeline",
        "Company timeline",
        "One company's events from every source, newest first: gazette notices (bankruptcy, restructuring, "
        "liquidation, with court and file number), register changes, founding, dissolution, LEI "
        "registration. "
        "Event types: " + ", ".join(EVENT_TYPES) + ". Paginated by `cursor`.",
        TimelineArgs,
        _timeline,
        _timeline_text,
    ),
    Tool(
        "advanced_search",
        "Filter companies",
        f"Companies matching every given filter (the {len(CompanyFilters.model_fields)} filters of "
        "/companies/advanced-search: "
        + ", ".join(CompanyFilters.model_fields)
        + "; list filters take arrays), "
        "sorted and paginated. `total` is exact up to 10,000.",
        AdvancedArgs,
        _advanced,
        _list_text("companies"),
    ),
    Tool(
        "insolvency_events",
        "Recent insolvency events",
        "The latest bankruptcy and restructuring events (gazette notices and register flags), newest first, "
        "with court, file number and a link to the notice. CC BY 4.0: quote the `attribution`.",
        InsolvencyArgs,
        _insolvency,
        _insolvency_text,
    ),
    Tool(
        "monitoring_subscriptions",
        "Monitoring subscriptions of this key",
        "This API key's monitoring subscriptions (webhooks on a company's insolvency flips), newest first, "
        "with delivery figures.",
        MonitoringArgs,
        _monitoring,
        _monitoring_text,
    ),
]
TOOLS: list[Tool] = CORE_TOOLS + AREA_TOOLS
BY_NAME: dict[str, Tool] = {tool.name: tool for tool in TOOLS}
