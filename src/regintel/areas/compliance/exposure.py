"""`/companies/{ico}/exposure`: the company's exposure to troubled counterparties, as a credit analyst
reads it before extending credit (docs/compliance.md, "Exposure").

Two parts, each computed only from data we hold and saying what it could not see:

- **Counterparties**: every company linked to this one by a current ownership or board relation (its
  shareholders and corporate owners, the companies it holds stakes in, corporate directors), each with
  its distress signals: bankruptcy, restructuring, liquidation, dissolution, an identifier-confirmed
  sanctions hit, current entries on debtor lists. Contagion runs both ways: a distressed parent may
  pull cash out of the company (or stop supporting it), a distressed subsidiary may call on guarantees
  and write down the stake.
- **Public-contract concentration**: how much of the company's public-contract value comes from its
  largest buyers (top share, top 3, Herfindahl-Hirschman index), since losing a dominant buyer is a
  revenue shock.

`level` rolls them up: `high` when a distressed or sanctioned counterparty holds at least 25% of the
company, the company holds at least 50% of a distressed one, or any linked company is sanctioned;
`elevated` for any other distressed link or a concentrated contract book (HHI ≥ 2,500 or one buyer ≥ 50%);
else `low`. Inputs that could not be read are listed in `unknown`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.compliance import debtors, queries, service
from regintel.areas.ownership import relations as ownership_relations
from regintel.areas.ownership.entities import Ctx
from regintel.areas.public_money import contracts as public_contracts
from regintel.areas.screening import service as screening

Row = Mapping[str, Any]
MAX_LINKS = 100
MAX_CONTRACTS = 5_000
OWNER_CONTROL, HOLDING_CONTROL = 25.0, 50.0
HHI_CONCENTRATED, TOP_BUYER_DOMINANT = 2_500.0, 0.5  # US DOJ/FTC 2010 guidelines' "highly concentrated"
RULES_VERSION = "exposure-1"


def _links(conn: Connection, row: Row) -> list[tuple[str, Any]]:
    rel = ownership_relations.relations(Ctx(conn, False), row, False)
    out = [("owner", r) for r in rel.shareholders] + [("owner", r) for r in rel.beneficialOwners]
    out += [("director", r) for r in rel.directors] + [("holding", r) for r in rel.holdings]
    return [(kind, r) for kind, r in out if r.holder.type == "company" and r.holder.nationalId]


def _signals(other: Row, hits: Mapping[str, int] | None, standing: debtors.Standing) -> list[str]:
    out = [
        flag
        for flag, on in (
            ("bankruptcy", other["in_bankruptcy"]),
            ("restructuring", other["in_restructuring"]),
            ("liquidation", other["in_liquidation"]),
            ("dissolved", other["status"] == "dissolved"),
        )
        if on
    ]
    if hits and hits["confirmed"]:
        out.append("sanctioned")
    if standing.current:
        out.append("debtor_list")
    return out


def counterparties(conn: Connection, row: Row, lists_known: bool) -> tuple[list[dict[str, Any]], bool]:
    """The linked companies with their signals (at most MAX_LINKS; True when there were more)."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for kind, r in _links(conn, row):
        key = (r.holder.country or "", r.holder.nationalId or "")
        if key == (row["country"], row["national_id"]):
            continue
        item = merged.setdefault(
            key,
            {
                "country": key[0],
                "nationalId": key[1],
                "name": r.holder.name,
                "relations": [],
                "sharePct": None,
            },
        )
        if kind not in item["relations"]:
            item["relations"].append(kind)
        if r.sharePct is not None and kind in ("owner", "holding"):
            item["sharePct"] = max(item["sharePct"] or 0.0, r.sharePct)
    truncated = len(merged) > MAX_LINKS
    keys = sorted(merged, key=lambda k: -(merged[k]["sharePct"] or 0.0))[:MAX_LINKS]
    rows = {(r["country"], r["national_id"]): r for r in queries.companies_by_keys(conn, keys)}
    standing = debtors.standing(conn, list(rows.values()))
    out = []
    for key in keys:
        item = merged[key]
        other = rows.get(key)
        if other is None:
            out.append(item | {"known": False, "signals": [], "distressed": None, "debtorListsKnown": None})
            continue
        hits = screening.company_hit_summary(conn, int(other["id"])) if lists_known else None
        s = standing[int(other["id"])]
        signals = _signals(other, hits, s)
        out.append(
            item
            | {
                "name": other["name"],
                "known": True,
                "signals": signals,
                "distressed": bool(signals),
                "debtorListsKnown": s.payment_known or s.tax_known,
            }
        )
    return out, truncated


def concentration(conn: Connection, row: Row) -> dict[str, Any]:
    """The concentration of the company's public contracts by buyer, in the currency most of them use."""
    total, items = public_contracts.company_contracts(conn, row, 1, MAX_CONTRACTS)
    valued = [c for c in items if c["value"] is not None and c["value"] > 0]
    if not valued:
        return {
            "status": "none" if total == 0 else "no_values",
            "contracts": total,
            "currency": None,
            "value": None,
            "buyers": 0,
            "topBuyers": [],
            "top1Share": None,
            "top3Share": None,
            "hhi": None,
            "concentrated": None,
            "truncated": total > MAX_CONTRACTS,
        }
    by_currency: dict[str, float] = {}
    for c in valued:
        by_currency[c["currency"] or "?"] = by_currency.get(c["currency"] or "?", 0.0) + c["value"]
    currency = max(by_currency, key=lambda k: by_currency[k])
    buyers: dict[str, dict[str, Any]] = {}
    for c in valued:
        if (c["currency"] or "?") != currency:
            continue
        b = c["buyer"]
        key = (
            f"{b['country'] or ''}:{b['nationalId']}" if b["nationalId"] else f"name:{b['name'] or 'unnamed'}"
        )
        entry = buyers.setdefault(
            key,
            {
                "name": b["name"],
                "nationalId": b["nationalId"],
                "country": b["country"],
                "value": 0.0,
                "contracts": 0,
            },
        )
        entry["value"] += c["value"]
        entry["contracts"] += 1
    value = sum(b["value"] for b in buyers.values())
    ranked = sorted(buyers.values(), key=lambda b: -b["value"])
    shares = [b["value"] / value for b in ranked]
    hhi = round(sum((s * 100) ** 2 for s in shares), 1)
    return {
        "status": "computed",
        "contracts": total,
        "currency": currency,
        "value": round(value, 2),
        "buyers": len(ranked),
        "topBuyers": [
            b | {"value": round(b["value"], 2), "share": round(b["value"] / value, 4)} for b in ranked[:5]
        ],
        "top1Share": round(shares[0], 4),
        "top3Share": round(sum(shares[:3]), 4),
        "hhi": hhi,
        "concentrated": hhi >= HHI_CONCENTRATED or shares[0] >= TOP_BUYER_DOMINANT,
        "truncated": total > MAX_CONTRACTS,
    }


def exposure(conn: Connection, row: Row) -> dict[str, Any]:
    lists_known = bool(screening.list_versions(conn))
    links, truncated = counterparties(conn, row, lists_known)
    contracts = concentration(conn, row)
    reasons: list[str] = []
    high = elevated = False
    for lk in links:
        if not lk["distressed"]:
            continue
        share = lk["sharePct"] or 0.0
        what = f"{lk['name']} ({lk['country']} {lk['nationalId']}: {', '.join(lk['signals'])})"
        if "sanctioned" in lk["signals"]:
            high = True
            reasons.append(f"sanctioned counterparty {what}")
        elif "owner" in lk["relations"] and share >= OWNER_CONTROL:
            high = True
            reasons.append(f"a distressed owner holds {share:g}%: {what}")
        elif "holding" in lk["relations"] and share >= HOLDING_CONTROL:
            high = True
            reasons.append(f"a distressed subsidiary ({share:g}% held): {what}")
        else:
            elevated = True
            reasons.append(f"distressed {'/'.join(lk['relations'])}: {what}")
    if contracts["concentrated"]:
        elevated = True
        reasons.append(
            f"public contracts concentrated: top buyer {contracts['top1Share']:.0%}, HHI {contracts['hhi']:g}"
        )
    unknown = []
    if not lists_known:
        unknown.append("sanctions: no sanctions list is imported, counterparties are not screened")
    unchecked = sorted({lk["country"] for lk in links if lk["known"] and not lk["debtorListsKnown"]})
    if unchecked:
        unknown.append("debtor lists: none imported for " + ", ".join(unchecked))
    if any(not lk["known"] for lk in links):
        unknown.append("some linked companies are not in the database (no signals read for them)")
    distressed = [lk for lk in links if lk["distressed"]]
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "asOf": service.today().isoformat(),
        "rulesVersion": RULES_VERSION,
        "level": "high" if high else "elevated" if elevated else "low",
        "reasons": reasons,
        "counterparties": links,
        "truncated": truncated,
        "summary": {
            "linked": len(links),
            "distressed": len(distressed),
            "distressedOwnersPct": round(
                sum(lk["sharePct"] or 0.0 for lk in distressed if "owner" in lk["relations"]), 2
            ),
            "distressedHoldings": sum(1 for lk in distressed if "holding" in lk["relations"]),
        },
        "contracts": contracts,
        "unknown": unknown,
    }
