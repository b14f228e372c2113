"""The obligations NIS2 puts on essential and important entities (Directive (EU) 2022/2555, Chapters IV
and VII), one entry each, with its article, its deadline and the categories it binds. National acts
transpose these articles; where this rule set knows a national difference (transposition.py), the entry
for that country says so."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from regintel.domain.nis2.scope import ESSENTIAL, IMPORTANT, OUT
from regintel.domain.nis2.transposition import DIRECTIVE_APPLIES_FROM, transposition

BOTH = (ESSENTIAL, IMPORTANT)
# Entity types that register with ENISA's registry (Art. 27(1)).
ART27_TYPES = frozenset(
    {
        "dns_service_provider",
        "tld_registry",
        "domain_registration_service",
        "cloud_computing_service_provider",
        "data_centre_service_provider",
        "content_delivery_network_provider",
        "managed_service_provider",
        "managed_security_service_provider",
        "online_marketplace",
        "online_search_engine_or_social_network",
    }
)


@dataclass(frozen=True)
class Obligation:
    id: str
    title: str
    article: str
    deadline: str
    deadline_iso: str | None  # ISO 8601 duration after the triggering event, or a date
    applies_to: tuple[str, ...]
    trigger: str  # ongoing | incident | change | date


_M = "Art. 21(2)"
OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        "management_approval",
        "Management bodies approve the cybersecurity risk-management measures, oversee "
        "their implementation and can be held liable for infringements",
        "Art. 20(1)",
        "ongoing, from the national act's entry into force",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "management_training",
        "Members of the management bodies follow cybersecurity training; regular "
        "training is encouraged for employees",
        "Art. 20(2)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "risk_analysis_policy",
        "Policies on risk analysis and information system security",
        f"{_M}(a)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation("incident_handling", "Incident handling", f"{_M}(b)", "ongoing", None, BOTH, "ongoing"),
    Obligation(
        "business_continuity",
        "Business continuity (backup management, disaster recovery) and crisis management",
        f"{_M}(c)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "supply_chain_security",
        "Supply chain security, including the relationships with direct suppliers and service providers",
        f"{_M}(d)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "secure_development",
        "Security in network and information systems acquisition, development and "
        "maintenance, including vulnerability handling and disclosure",
        f"{_M}(e)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "effectiveness_assessment",
        "Policies and procedures to assess the effectiveness of the risk-management measures",
        f"{_M}(f)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "cyber_hygiene_training",
        "Basic cyber hygiene practices and cybersecurity training",
        f"{_M}(g)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "cryptography",
        "Policies and procedures on the use of cryptography and, where appropriate, encryption",
        f"{_M}(h)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "hr_access_assets",
        "Human resources security, access control policies and asset management",
        f"{_M}(i)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "mfa_secure_communications",
        "Multi-factor or continuous authentication, secured voice, video and "
        "text communications and secured emergency communication systems",
        f"{_M}(j)",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
    Obligation(
        "early_warning",
        "Early warning of a significant incident to the CSIRT or competent authority",
        "Art. 23(4)(a)",
        "within 24 hours of becoming aware of the significant incident",
        "PT24H",
        BOTH,
        "incident",
    ),
    Obligation(
        "incident_notification",
        "Incident notification with an initial assessment of severity and impact",
        "Art. 23(4)(b)",
        "within 72 hours of becoming aware of the significant incident (24 hours for trust "
        "service providers' incidents affecting their trust services)",
        "PT72H",
        BOTH,
        "incident",
    ),
    Obligation(
        "final_report",
        "Final report (description, root cause, mitigation, cross-border impact); an "
        "intermediate report on request (Art. 23(4)(c)), a progress report if still ongoing (23(4)(e))",
        "Art. 23(4)(d)",
        "within one month of the incident notification",
        "P1M",
        BOTH,
        "incident",
    ),
    Obligation(
        "inform_recipients",
        "Inform the recipients of the services of significant incidents likely to "
        "affect them and of significant cyber threats and the remedies they can take",
        "Art. 23(1)-(2)",
        "without undue delay",
        None,
        BOTH,
        "incident",
    ),
    Obligation(
        "registration",
        "Submit name, address, contacts, Member States served, sector and IP ranges to "
        "the competent authority (Art. 3(4)); the digital entity types of Art. 27 register with the "
        "ENISA registry; changes within two weeks (Art. 3(4)) or three months (Art. 27(3))",
        "Art. 3(4), Art. 27",
        "at the latest by 17 April 2025 (Art. 3(3)-(4)); Art. 27 entities by 17 "
        "January 2025; or the national act's period",
        "2025-04-17",
        BOTH,
        "date",
    ),
    Obligation(
        "supervision",
        "Cooperate with supervision: essential entities are supervised ex ante "
        "(inspections, regular and targeted audits, security scans; Art. 32), important entities ex "
        "post, on evidence of non-compliance (Art. 33); fines up to EUR 10 million or 2% (essential) / "
        "EUR 7 million or 1.4% (important) of worldwide annual turnover (Art. 34(4)-(5))",
        "Art. 32, Art. 33, Art. 34",
        "ongoing",
        None,
        BOTH,
        "ongoing",
    ),
)


# NIS2 Art. 4(1): where a sector-specific act's risk-management or notification rules are at least
# equivalent, "the relevant provisions of this Directive, including the provisions on supervision and
# enforcement laid down in Chapter VII, shall not apply"; recital 28 names DORA as that act for financial
# entities, whose Member States "should therefore not apply the provisions of this Directive on
# cybersecurity risk-management and reporting obligations, and information sharing and supervision and
# enforcement". So Chapter IV's governance duties (Art. 20: they are the management's approval and
# training for the Art. 21 measures, which DORA Art. 5(2) and 5(4) lay on the management body for the ICT
# risk-management framework), Art. 21, Art. 23 and Chapter VII (Art. 32-34) are replaced; registration
# (Art. 3(4), 27) is neither risk management, reporting nor supervision, and stays.
DORA_REPLACES = {
    "Art. 20": "Regulation (EU) 2022/2554 (DORA), Art. 5(2) and 5(4) (the management body's duties)",
    "Art. 21": "Regulation (EU) 2022/2554 (DORA), Art. 5-16 (ICT risk management)",
    "Art. 23": "Regulation (EU) 2022/2554 (DORA), Art. 17-23 (ICT-related incident reporting)",
    "Art. 32": "Regulation (EU) 2022/2554 (DORA), Art. 46-50 (competent authorities, supervision, penalties)",
}


def obligations_for(
    category: str, country: str, entity_types: set[str], dora: bool = False
) -> dict[str, Any]:
    """Every obligation with whether it applies to an entity of `category` in `country`; with `dora` (a
    financial entity DORA covers) the Art. 20, 21 and 23 obligations and Chapter VII supervision are
    replaced (Art. 4(1), recital 28)."""
    national = transposition(country)
    registration = next(
        (d for d in (national or {}).get("deviations", []) if d["topic"] == "registration"), None
    )
    items = []
    for o in OBLIGATIONS:
        applies = category in o.applies_to
        item: dict[str, Any] = {
            "id": o.id,
            "title": o.title,
            "legal_reference": f"Directive (EU) 2022/2555, {o.article}",
            "national_reference": national["act"] if national else None,
            "deadline": o.deadline,
            "deadline_iso": o.deadline_iso,
            "trigger": o.trigger,
            "applies_to": list(o.applies_to),
            "applies": applies,
            "national_note": None,
        }
        replaced = (
            next((v for k, v in DORA_REPLACES.items() if o.article.startswith(k)), None) if dora else None
        )
        if replaced:
            item["applies"] = False
            item["replaced_by"] = replaced
            item["national_note"] = "NIS2 Art. 4(1): the sector-specific act applies instead"
        if o.id == "supervision" and item["applies"]:
            item["regime"] = "ex ante (Art. 32)" if category == ESSENTIAL else "ex post (Art. 33)"
        if o.id == "registration":
            item["enisa_registry"] = bool(entity_types & ART27_TYPES)
            if registration is not None:
                item["national_note"] = registration["text"] + (
                    "" if registration["verified"] else " (not verified in this rule set)"
                )
        items.append(item)
    return {
        "category": category,
        "applies_from": national["in_force"] if national else DIRECTIVE_APPLIES_FROM,
        "transposition": national,
        "obligations": items,
        "applicable_count": sum(1 for i in items if i["applies"]) if category != OUT else 0,
    }
