"""National transpositions of Directive (EU) 2022/2555 this rule set knows about, with the deviations
from the Directive it takes into account. Facts marked `verified: False` were not checked against the
official text of the act for this rule set (docs/nis2.md says so and how to check); the scoping itself
follows the Directive unless a deviation below changes it."""

from __future__ import annotations

from typing import Any

DIRECTIVE_APPLIES_FROM = "2024-10-18"  # Art. 41(1): Member States apply the measures from 18 October 2024

TRANSPOSITIONS: dict[str, dict[str, Any]] = {
    "SK": {
        "act": "Act No. 69/2018 Coll. on cybersecurity, as amended by Act No. 366/2024 Coll.",
        "act_local": "Zákon č. 69/2018 Z. z. o kybernetickej bezpečnosti v znení zákona č. 366/2024 Z. z.",
        "in_force": "2025-01-01",
        "authority": "Národný bezpečnostný úrad (NBÚ)",
        "source": "https://www.slov-lex.sk/pravne-predpisy/SK/ZZ/2018/69/",
        "deviations": [
            {
                "topic": "terminology",
                "verified": True,
                "text": "The act keeps the term 'prevádzkovateľ základnej služby' (operator of an essential "
                "service) for every regulated entity and sorts them into the Directive's two categories",
            },
            {
                "topic": "registration",
                "verified": False,
                "text": "Entities notify the authority themselves when they meet the criteria (under the "
                "act before the amendment, within 30 days, § 17(1)); the period of the amended act is not "
                "verified here",
            },
        ],
    },
    "CZ": {
        "act": "Act No. 264/2025 Coll. on cybersecurity",
        "act_local": "Zákon č. 264/2025 Sb., o kybernetické bezpečnosti",
        "in_force": "2025-11-01",
        "authority": "Národní úřad pro kybernetickou a informační bezpečnost (NÚKIB)",
        "source": "https://www.e-sbirka.cz/sb/2025/264",
        "deviations": [
            {
                "topic": "categories",
                "verified": False,
                "text": "The act names two regimes, higher obligations ('vyšší povinnosti', essential "
                "entities) and lower obligations ('nižší povinnosti', important entities), with their own "
                "implementing decrees for the security measures",
            },
            {
                "topic": "local public administration",
                "verified": False,
                "text": "The act uses the option of Art. 2(5)(a): municipalities with extended powers "
                "('obce s rozšířenou působností') are regulated (lower obligations); other municipalities "
                "are not",
            },
            {
                "topic": "registration",
                "verified": False,
                "text": "Entities notify the authority within 60 days of meeting the criteria",
            },
        ],
    },
}


def transposition(country: str) -> dict[str, Any] | None:
    return TRANSPOSITIONS.get(country)
