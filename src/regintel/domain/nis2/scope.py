"""NIS2 scoping (Directive (EU) 2022/2555, Art. 2 and 3): essential, important or out of scope, with
the reasons, the legal references and what was missing. Pure: the caller gathers the facts.

Rules (each has a test named after its reference in tests/nis2/test_scope_rules.py):
- Art. 2(1): Annex I or II entities that are at least medium-sized (Rec. 2003/361/EC) are in scope;
  Art. 3(4) of that Recommendation's Annex (public ownership) does not apply.
- Art. 3(1)(a): Annex I entities above the medium-sized ceilings (large) are essential.
- Art. 3(2): every other in-scope Annex I or II entity is important.
- Art. 2(2)(a)(i) with 3(1)(c): providers of public electronic communications networks or publicly
  available services: in scope whatever their size, essential from medium size, important below.
- Art. 2(2)(a)(ii) with 3(1)(b): qualified trust service providers are essential whatever their size;
  other trust service providers are in scope whatever their size, essential when large.
- Art. 2(2)(a)(iii) with 3(1)(b): TLD name registries and DNS service providers: essential, any size.
- Art. 2(2)(f)(i) with 3(1)(d): public administration entities of central government: essential.
- Art. 2(2)(f)(ii) with 3(2): of regional level, after a national risk-based assessment: important.
- Art. 2(5)(a): local public administration only where the Member State so provides (national).
- Art. 2(7) and 6(35): national security, defence, law enforcement, the judiciary, parliaments and
  central banks are excluded.
- Art. 2(3) with 3(1)(f): critical entities under Directive (EU) 2022/2557: essential, any size.
- Art. 2(2)(b)-(e) with 3(1)(e) / 3(2): entities a Member State identified: as identified.
- Art. 2(4) and 28: domain name registration service providers: Art. 28 duties only.
- Annex I from registers (registers.py): a current authorisation or licence (credit institution, trading
  venue, central counterparty, electricity, gas, heat, water) decides the Annex I sector and entity type
  with the register's certainty; the size rules of Art. 2(1) and 3(1)(a) still apply. Art. 4(1): where
  DORA applies, its rules replace Art. 20, 21, 23 and Chapter VII (noted).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from regintel.domain.nace import digits
from regintel.domain.nis2.registers import RegisteredActivity, outside_annexes_note, register_sector
from regintel.domain.nis2.sectors import SectorMatch, match_company
from regintel.domain.nis2.size import CLASSES, Interval, SizeRange, at_least, size_range

RULESET_VERSION = "nis2-2026.12.1"
DIRECTIVE = "Directive (EU) 2022/2555"
ESSENTIAL, IMPORTANT, OUT = "essential", "important", "out-of-scope"
ORDER = {OUT: 0, IMPORTANT: 1, ESSENTIAL: 2}
CERTAIN, LIKELY, POSSIBLE = "certain", "likely", "possible"

EU_MEMBER_STATES = frozenset(
    {
        "AT",
        "BE",
        "BG",
        "CY",
        "CZ",
        "DE",
        "DK",
        "EE",
        "ES",
        "FI",
        "FR",
        "GR",
        "HR",
        "HU",
        "IE",
        "IT",
        "LT",
        "LU",
        "LV",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SE",
        "SI",
        "SK",
    }
)

# Designations recorded from regulated-activity registers (the `nis2_designations` table).
DESIGNATIONS: dict[str, str] = {
    "qualified_trust_service_provider": (
        "qualified trust service provider (Art. 3(20) of Regulation (EU) No 910/2014)"
    ),
    "trust_service_provider": "trust service provider (Art. 3(19) of Regulation (EU) No 910/2014)",
    "tld_registry": "top-level domain name registry (Art. 6(21))",
    "dns_service_provider": "DNS service provider (Art. 6(20))",
    "public_electronic_communications": "provider of public electronic communications networks or publicly "
    "available electronic communications services (Directive (EU) 2018/1972)",
    "public_administration_central": "public administration entity of central government (Art. 2(2)(f)(i))",
    "public_administration_regional": "public administration entity at regional level (Art. 2(2)(f)(ii))",
    "public_administration_local": "public administration entity at local level (Art. 2(5)(a))",
    "critical_entity": "critical entity under Directive (EU) 2022/2557 (Art. 2(3))",
    "identified_essential": "identified by a Member State as essential (Art. 2(2)(b)-(e), 3(1)(e))",
    "identified_important": "identified by a Member State as important (Art. 2(2)(b)-(e), 3(2))",
    "domain_registration_service": "provider of domain name registration services (Art. 2(4), 6(22))",
}

# Public administration level by national legal-form code (the statistical offices' classifications).
PA_LEVEL_BY_LEGAL_FORM: dict[tuple[str, str], str] = {
    ("SK", "801"): "local",  # Obec, mesto
    ("SK", "803"): "regional",  # Samosprávny kraj
    ("CZ", "801"): "local",  # Obec
    ("CZ", "804"): "regional",  # Kraj
    ("CZ", "325"): "central",  # Organizační složka státu
}
# Member States that use Art. 2(5)(a) for part of their local public administration (transposition.py).
LOCAL_PA_INCLUDED = {
    "CZ": "the Czech act regulates municipalities with extended powers (obce s rozšířenou působností) under "
    "the lower obligations (important); other municipalities are not (not verified in this rule set)",
}
# NACE classes of activities the Directive leaves out (Art. 2(7), Art. 6(35)).
EXCLUDED_NACE = {
    "8422": "Defence activities: public administration in defence is excluded (Art. 2(7))",
    "8423": (
        "Justice and judicial activities: the judiciary is excluded (Art. 6(35)); law enforcement (Art. 2(7))"
    ),
    "8424": (
        "Public order and safety activities: public security and law enforcement are excluded (Art. 2(7))"
    ),
    "6411": "Central banking: central banks are excluded (Art. 6(35)) and are not credit institutions",
}


@dataclass(frozen=True)
class Figures:
    """One enterprise's figures in EUR (intervals: a headcount band is a range, a missing figure is
    unknown) and where they came from."""

    headcount: Interval = Interval()
    turnover: Interval = Interval()
    balance: Interval = Interval()
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Relation:
    """A partner or linked enterprise (Rec. 2003/361/EC Annex Art. 3): its figures count at 100% when
    linked, at the share held when a partner (Annex Art. 6(2)); `unknown` counts between 0 and 100%."""

    kind: str  # linked | partner | unknown
    share: Decimal | None
    figures: Figures
    basis: str
    company: dict[str, Any]

    def fraction(self) -> tuple[Decimal, Decimal]:
        if self.kind == "linked":
            return Decimal(1), Decimal(1)
        if self.kind == "partner" and self.share is not None:
            return self.share / 100, self.share / 100
        return Decimal(0), Decimal(1)


@dataclass(frozen=True)
class Designation:
    kind: str
    source: str
    reference: str | None = None


@dataclass(frozen=True)
class Facts:
    country: str
    status: str | None
    legal_form: str | None
    entity_type: str
    nace_primary: str | None
    nace_codes: list[str] | None
    own: Figures
    relations: list[Relation] = field(default_factory=list)
    designations: list[Designation] = field(default_factory=list)
    previous: Figures | None = None  # the accounting period before the latest, when known (Annex Art. 4(2))
    activities: list[RegisteredActivity] = field(default_factory=list)  # supervisory / licensing registers


@dataclass
class Basis:
    """One way into scope: a sector row reached from NACE, a designation, or the public-administration
    test; `categories` maps each size class to (category, legal references)."""

    kind: str
    label: str
    match: str
    categories: dict[str, tuple[str, list[str]]]
    size_dependent: bool
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Assessment:
    category: str
    certainty: str
    possible_categories: list[str]
    reasons: list[dict[str, Any]]
    bases: list[dict[str, Any]]
    size: dict[str, Any]
    missing: list[dict[str, str]]
    notes: list[str]
    ruleset_version: str = RULESET_VERSION


def _every_size(category: str, refs: list[str]) -> dict[str, tuple[str, list[str]]]:
    return {c: (category, refs) for c in CLASSES}


def _annex_categories(annex: str) -> dict[str, tuple[str, list[str]]]:
    out: dict[str, tuple[str, list[str]]] = {}
    for c in CLASSES:
        if c == "large" and annex == "I":
            out[c] = (ESSENTIAL, ["Art. 2(1)", "Art. 3(1)(a)"])
        elif at_least(c, "medium"):
            out[c] = (IMPORTANT, ["Art. 2(1)", "Art. 3(2)"])
        else:
            out[c] = (OUT, ["Art. 2(1)"])
    return out


def _electronic_communications() -> dict[str, tuple[str, list[str]]]:
    return {
        c: (ESSENTIAL, ["Art. 2(2)(a)(i)", "Art. 3(1)(c)" if c == "medium" else "Art. 3(1)(a)"])
        if at_least(c, "medium")
        else (IMPORTANT, ["Art. 2(2)(a)(i)", "Art. 3(2)"])
        for c in CLASSES
    }


def _trust_services() -> dict[str, tuple[str, list[str]]]:
    return {
        c: (ESSENTIAL, ["Art. 2(2)(a)(ii)", "Art. 3(1)(a)"])
        if c == "large"
        else (IMPORTANT, ["Art. 2(2)(a)(ii)", "Art. 3(2)"])
        for c in CLASSES
    }


_DESIGNATION_RULES: dict[str, tuple[dict[str, tuple[str, list[str]]], bool]] = {
    "qualified_trust_service_provider": (_every_size(ESSENTIAL, ["Art. 2(2)(a)(ii)", "Art. 3(1)(b)"]), False),
    "trust_service_provider": (_trust_services(), True),
    "tld_registry": (_every_size(ESSENTIAL, ["Art. 2(2)(a)(iii)", "Art. 3(1)(b)"]), False),
    "dns_service_provider": (_every_size(ESSENTIAL, ["Art. 2(2)(a)(iii)", "Art. 3(1)(b)"]), False),
    "public_electronic_communications": (_electronic_communications(), True),
    "public_administration_central": (_every_size(ESSENTIAL, ["Art. 2(2)(f)(i)", "Art. 3(1)(d)"]), False),
    "public_administration_regional": (_every_size(IMPORTANT, ["Art. 2(2)(f)(ii)", "Art. 3(2)"]), False),
    "public_administration_local": (_every_size(OUT, ["Art. 2(5)(a)"]), False),
    "critical_entity": (_every_size(ESSENTIAL, ["Art. 2(3)", "Art. 3(1)(f)"]), False),
    "identified_essential": (_every_size(ESSENTIAL, ["Art. 2(2)(b)-(e)", "Art. 3(1)(e)"]), False),
    "identified_important": (_every_size(IMPORTANT, ["Art. 2(2)(b)-(e)", "Art. 3(2)"]), False),
    "domain_registration_service": (_every_size(OUT, ["Art. 2(4)", "Art. 28"]), False),
}
PA_LEVEL_RULES = {
    "central": "public_administration_central",
    "regional": "public_administration_regional",
    "local": "public_administration_local",
}


def _sector_basis(m: SectorMatch) -> Basis | None:
    row = m.row
    detail = {
        "nace": m.code,
        "via": m.via,
        "annex": row.annex,
        "sector": row.sector,
        "subsector": row.subsector,
        "entity_type": row.entity_type,
        "annex_ref": row.annex_ref,
        "justification": row.justification,
    }
    label = (
        f"NACE {m.code} ({m.via}) → Annex {row.annex} {row.sector}"
        + (f"/{row.subsector}" if row.subsector else "")
        + f": {row.entity_type}"
    )
    if row.entity_type == "public_administration_entity":
        return None  # judged with the legal form (see _public_administration)
    if row.entity_type == "public_electronic_communications":
        return Basis("sector", label, m.match, _electronic_communications(), True, detail)
    if row.entity_type == "dns_service_provider":
        return Basis(
            "sector",
            label,
            m.match,
            _every_size(ESSENTIAL, ["Art. 2(2)(a)(iii)", "Art. 3(1)(b)"]),
            False,
            detail,
        )
    return Basis("sector", label, m.match, _annex_categories(row.annex), True, detail)


def _activity_key(b: Basis) -> tuple[str | None, str | None, str | None]:
    return b.detail.get("sector"), b.detail.get("subsector"), b.detail.get("entity_type")


def _register_bases(facts: Facts, notes: list[str]) -> list[Basis]:
    """Annex I sectors from the registers' current authorisations and licences (one basis per entity type)."""
    out: dict[str, Basis] = {}
    for act in facts.activities:
        found = register_sector(act)
        if found is None:
            note = outside_annexes_note(act)
            if note and note not in notes:
                notes.append(note)
            continue
        if act.dora_applies == "yes":
            lex = (
                "DORA (Regulation (EU) 2022/2554) applies to this financial entity: its ICT risk-management "
                "and incident-reporting rules, its governance duties and its supervision replace NIS2 "
                "Art. 20, 21, 23 and Chapter VII (Art. 4(1), recital 28)"
            )
            if lex not in notes:
                notes.append(lex)
        key = f"{found.sector}:{found.subsector}:{found.entity_type}"
        if key in out and out[key].match == CERTAIN:
            out[key].detail["registers"].append(act.register)
            continue
        detail = {
            "annex": found.annex,
            "sector": found.sector,
            "subsector": found.subsector,
            "entity_type": found.entity_type,
            "annex_ref": found.annex_ref,
            "justification": f"{found.definition}; register {act.register}: {act.licence_type}",
            "register_category": act.category,
            "licence_type": act.licence_type,
            "registers": [act.register],
        }
        label = (
            f"Register {act.register} ({act.licence_type}) → Annex {found.annex} {found.sector}"
            + (f"/{found.subsector}" if found.subsector else "")
            + f": {found.entity_type}"
        )
        out[key] = Basis("register", label, found.match, _annex_categories(found.annex), True, detail)
    return list(out.values())


def _public_administration(
    facts: Facts, matches: list[SectorMatch]
) -> tuple[Basis | None, dict[str, str] | None]:
    """A public administration entity (Art. 6(35)) is judged by its level: NACE 84 says the activity,
    the legal form says whether it is a public body and, for some codes, its level."""
    pa = [m for m in matches if m.row.entity_type == "public_administration_entity"]
    if not pa:
        return None, None
    m = pa[0]
    level = PA_LEVEL_BY_LEGAL_FORM.get((facts.country, (facts.legal_form or "").strip()))
    public = facts.entity_type == "public_body" or level is not None
    match = m.match if public else POSSIBLE
    detail = {
        "nace": m.code,
        "via": m.via,
        "annex": "I",
        "sector": "public_administration",
        "subsector": None,
        "entity_type": "public_administration_entity",
        "annex_ref": m.row.annex_ref,
        "justification": m.row.justification,
        "level": level,
        "legal_form": facts.legal_form,
    }
    label = f"NACE {m.code} ({m.via}) → Annex I public administration"
    if level == "local" and facts.country in LOCAL_PA_INCLUDED:
        rules, _ = _DESIGNATION_RULES[PA_LEVEL_RULES[level]]
        basis = Basis(
            "public_administration",
            f"{label}, local level (legal form {facts.legal_form})",
            POSSIBLE,
            rules,
            False,
            detail
            | {"open_categories": [IMPORTANT, OUT], "national_deviation": LOCAL_PA_INCLUDED[facts.country]},
        )
        return basis, {
            "input": "municipality_extended_powers",
            "why": LOCAL_PA_INCLUDED[facts.country] + " (Art. 2(5)(a))",
        }
    if level is not None:
        rules, _ = _DESIGNATION_RULES[PA_LEVEL_RULES[level]]
        return Basis(
            "public_administration",
            f"{label}, {level} level (legal form {facts.legal_form})",
            match,
            rules,
            False,
            detail,
        ), None
    # Level unknown: central (essential), regional (important) or local (out of scope) are all open.
    basis = Basis(
        "public_administration",
        f"{label}, level unknown",
        POSSIBLE,
        _every_size(OUT, ["Art. 2(2)(f)", "Art. 2(5)(a)"]),
        False,
        detail | {"open_categories": [ESSENTIAL, IMPORTANT, OUT]},
    )
    return basis, {
        "input": "public_administration_level",
        "why": "central government (essential, Art. 3(1)(d)), regional (important, Art. 2(2)(f)(ii)) "
        "or local level (Art. 2(5)(a)): the legal form does not tell",
    }


def _group_figures(facts: Facts) -> tuple[Interval, Interval, Interval, bool]:
    """The enterprise's data with its partners' and linked enterprises' (Annex Art. 6(2)); the last value
    is True when the group may hold members the ownership data does not show."""
    head, turn, bal = facts.own.headcount, facts.own.turnover, facts.own.balance
    for rel in facts.relations:
        low, high = rel.fraction()
        head = head + rel.figures.headcount.scaled(low, high)
        turn = turn + rel.figures.turnover.scaled(low, high)
        bal = bal + rel.figures.balance.scaled(low, high)
    open_group = bool(facts.relations)
    if open_group:
        head, turn, bal = Interval(head.lo), Interval(turn.lo), Interval(bal.lo)
    return head, turn, bal, open_group


def _two_periods(
    facts: Facts, size: SizeRange, open_group: bool, missing: list[dict[str, str]], notes: list[str]
) -> SizeRange:
    """Rec. 2003/361/EC Annex Art. 4(2): crossing a ceiling changes the status only when it happens over
    two consecutive accounting periods. When the latest period's class differs from the one before, the
    earlier class is the estimate (the status is kept) and both stay possible (earlier periods decide)."""
    if facts.previous is None or open_group or not size.determined:
        return size
    prev = size_range(facts.previous.headcount, facts.previous.turnover, facts.previous.balance)
    if not prev.determined or prev.estimate == size.estimate:
        return size
    low, high = sorted((prev.estimate, size.estimate), key=CLASSES.index)
    notes.append(
        f"The latest accounts make the enterprise {size.estimate}, the period before {prev.estimate}: "
        "the status changes only after two consecutive periods (Rec. 2003/361/EC Annex Art. 4(2))"
    )
    missing.append({"input": "earlier_accounts", "why": "whether the earlier status held (Annex Art. 4(2))"})
    return SizeRange(low, high, prev.estimate)


def _interval_json(value: Interval) -> dict[str, Any]:
    return {"min": value.lo, "max": value.hi}


def assess(facts: Facts) -> Assessment:
    matches = match_company(facts.nace_primary, facts.nace_codes)
    head, turn, bal, open_group = _group_figures(facts)
    size = size_range(head, turn, bal)
    missing: list[dict[str, str]] = []
    notes: list[str] = []
    size = _two_periods(facts, size, open_group, missing, notes)
    bases: list[Basis] = []
    for d in facts.designations:
        if d.kind in _DESIGNATION_RULES:
            rules, dependent = _DESIGNATION_RULES[d.kind]
            bases.append(
                Basis(
                    "designation",
                    DESIGNATIONS[d.kind],
                    CERTAIN,
                    rules,
                    dependent,
                    {"designation": d.kind, "source": d.source, "reference": d.reference},
                )
            )
    bases.extend(_register_bases(facts, notes))
    proven = {_activity_key(b) for b in bases if b.kind == "register" and b.match == CERTAIN}
    for m in matches:
        basis = _sector_basis(m)
        if basis is not None:
            bases.append(basis)
    pa_basis, pa_missing = _public_administration(facts, matches)
    if pa_basis is not None:
        bases.append(pa_basis)
    if pa_missing:
        missing.append(pa_missing)
    if (
        pa_basis is not None
        and pa_basis.detail.get("level") == "local"
        and facts.country not in LOCAL_PA_INCLUDED
    ):
        notes.append(
            f"A Member State may bring local public administration into scope (Art. 2(5)(a)); this rule "
            f"set records no such choice for {facts.country}"
        )
    excluded = EXCLUDED_NACE.get((digits(facts.nace_primary) or "")[:4])
    if excluded:
        notes.append(excluded)
    if facts.nace_primary is None and not facts.nace_codes:
        missing.append(
            {
                "input": "nace",
                "why": "no NACE activity is recorded: the sector (Annex I or II) cannot be told",
            }
        )
    size_dependent = any(b.size_dependent and b.match != POSSIBLE for b in bases)
    sizes = size.classes()

    def cats(b: Basis) -> set[str]:
        found = {b.categories[s][0] for s in sizes}
        return found | set(b.detail.get("open_categories", []))

    floor = max((min(ORDER[c] for c in cats(b)) for b in bases if b.match == CERTAIN), default=0)
    ceiling = max((max(ORDER[c] for c in cats(b)) for b in bases), default=0)
    open_ = {c for b in bases for c in cats(b)} | {OUT}
    if facts.nace_primary is None and not facts.nace_codes:
        open_, ceiling = set(ORDER), ORDER[ESSENTIAL]  # any sector is possible
    possible = sorted((c for c in open_ if floor <= ORDER[c] <= ceiling), key=lambda c: -ORDER[c])
    leading = [(ORDER[b.categories[size.estimate][0]], b) for b in bases if b.match in (CERTAIN, LIKELY)]
    best = max(leading, key=lambda t: t[0], default=(0, None))
    category = [c for c, n in ORDER.items() if n == max(best[0], floor)][0]
    deciding = best[1] if best[0] >= floor else None

    status = (facts.status or "active").lower()
    if status == "dissolved":
        return _final(
            OUT,
            CERTAIN,
            [OUT],
            [
                {
                    "rule": "dissolved",
                    "category": OUT,
                    "legal_reference": ["Art. 2(1)"],
                    "text": "The entity is dissolved: it provides no services in the Union",
                }
            ],
            bases,
            size,
            head,
            turn,
            bal,
            facts,
            [],
            notes,
        )
    if facts.country not in EU_MEMBER_STATES:
        notes.append(
            f"{facts.country} is not an EU Member State: NIS2 reaches entities established outside the "
            "Union only through services they provide in it (Art. 2(1)) and, for the digital entity "
            "types of Art. 26(1)(b), through a representative in the Union (Art. 26(3))"
        )
        in_scope = [c for c in possible if c != OUT]
        reason = {
            "rule": "not_in_member_state",
            "category": OUT,
            "legal_reference": ["Art. 2(1)", "Art. 26"],
            "text": f"Established in {facts.country}, outside the EU: no national transposition applies",
        }
        if in_scope:
            missing.append(
                {
                    "input": "services_in_union",
                    "why": "whether the entity provides its services in the Union (Art. 2(1), 26)",
                }
            )
        return _final(
            OUT,
            POSSIBLE if in_scope else CERTAIN,
            [OUT, *in_scope],
            [reason],
            bases,
            size,
            head,
            turn,
            bal,
            facts,
            missing,
            notes,
        )
    if status == "inactive":
        missing.append(
            {
                "input": "status",
                "why": "the register marks the entity inactive: whether it still provides services",
            }
        )

    reasons: list[dict[str, Any]] = []
    for b in bases:
        c, refs = b.categories[size.estimate]
        reasons.append(
            {
                "rule": b.kind,
                "category": c,
                "legal_reference": refs,
                "match": b.match,
                "text": f"{b.label} ({b.match}); at size {size.estimate}: {c}",
            }
        )
    if not bases:
        reasons.append(
            {
                "rule": "no_sector",
                "category": OUT,
                "legal_reference": ["Art. 2(1)", "Annex I", "Annex II"],
                "text": "No NACE activity or designation of the entity falls in Annex I or II",
            }
        )
    for b in bases:
        if b.kind == "sector" and _activity_key(b) in proven:
            continue  # a register proves the activity the NACE code only suggests
        if b.match != CERTAIN and ORDER[max(cats(b), key=ORDER.__getitem__)] > 0:
            missing.append(
                {
                    "input": f"activity:{b.detail.get('entity_type') or b.detail.get('designation')}",
                    "why": f"whether the entity is a {b.detail.get('entity_type', '')} "
                    f"({b.detail.get('annex_ref', b.label)}): NACE alone makes it {b.match}",
                }
            )
    if not size.determined and any(b.size_dependent for b in bases):
        for name, value in (("headcount", head), ("turnover_eur", turn), ("balance_sheet_eur", bal)):
            if not value.known:
                missing.append(
                    {
                        "input": name,
                        "why": f"size class is between {size.lowest} and {size.highest} "
                        "(Rec. 2003/361/EC Annex Art. 2)",
                    }
                )
        if open_group:
            missing.append(
                {
                    "input": "group",
                    "why": "the ownership data shows partner or linked enterprises, "
                    "whose whole group is not known (Annex Art. 6(2))",
                }
            )
    if len(possible) == 1:
        certainty = CERTAIN
    elif (
        (facts.nace_primary is None and not proven)
        or pa_missing
        or (size_dependent and head.unknown and turn.unknown and bal.unknown)
    ):
        certainty = POSSIBLE
    elif deciding is not None or category == OUT:
        certainty = LIKELY
    else:
        certainty = POSSIBLE
    if category == OUT and any(b.kind == "sector" for b in bases):
        notes.append(
            "A Member State may still identify the entity whatever its size (Art. 2(2)(b)-(e)); no "
            "such identification is recorded"
        )
    return _final(category, certainty, possible, reasons, bases, size, head, turn, bal, facts, missing, notes)


def _final(
    category: str,
    certainty: str,
    possible: Iterable[str],
    reasons: list[dict[str, Any]],
    bases: list[Basis],
    size: SizeRange,
    head: Interval,
    turn: Interval,
    bal: Interval,
    facts: Facts,
    missing: list[dict[str, str]],
    notes: list[str],
) -> Assessment:
    seen: set[str] = set()
    unique_missing = []
    for m in missing:
        if m["input"] not in seen:
            seen.add(m["input"])
            unique_missing.append(m)
    size_out = {
        "class": size.estimate,
        "lowest": size.lowest,
        "highest": size.highest,
        "determined": size.determined,
        "legal_reference": "Rec. 2003/361/EC Annex Art. 2, 3, 4, 6",
        "group": {
            "headcount": _interval_json(head),
            "turnover_eur": _interval_json(turn),
            "balance_sheet_eur": _interval_json(bal),
        },
        "own": facts.own.detail,
        "relations": [
            {
                "kind": r.kind,
                "share_pct": r.share,
                "basis": r.basis,
                "company": r.company,
                "figures": r.figures.detail,
            }
            for r in facts.relations
        ],
    }
    return Assessment(
        category,
        certainty,
        sorted(set(possible), key=lambda c: -ORDER[c]),
        reasons,
        [
            {
                "kind": b.kind,
                "label": b.label,
                "match": b.match,
                "size_dependent": b.size_dependent,
                **b.detail,
            }
            for b in bases
        ],
        size_out,
        unique_missing,
        notes,
    )
