"""Companies House CompanyStatus and CompanyCategory values, mapped to our status, insolvency flags
and short legal-form codes. The reasoning is in docs/sources/gb_companies_house.md."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class State:
    status: str | None
    in_bankruptcy: bool | None = False
    in_restructuring: bool | None = False
    in_liquidation: bool | None = False


ACTIVE = State("active")
DISSOLVED = State("dissolved")
LIQUIDATION = State("active", in_liquidation=True)
# Administration (Insolvency Act 1986 Sch. B1) and company voluntary arrangements are rescue
# procedures: the company goes on under a plan with its creditors.
RESCUE = State("active", in_restructuring=True)
# Receivership and "insolvency proceedings": an office-holder realises the assets for creditors, with no
# rescue aim; the nearest of our three states to a bankruptcy.
REALISATION = State("active", in_bankruptcy=True)
UNKNOWN = State(None, None, None, None)

STATUSES: dict[str, State] = {
    "active": ACTIVE,
    "active - proposal to strike off": ACTIVE,
    "live but receiver manager on at least one charge": ACTIVE,
    "dissolved": DISSOLVED,
    "converted/closed": DISSOLVED,
    "closed": DISSOLVED,
    "removed": DISSOLVED,
    "liquidation": LIQUIDATION,
    "in administration": RESCUE,
    "administration": RESCUE,
    "administration order": RESCUE,
    "voluntary arrangement": RESCUE,
    "receivership action": REALISATION,
    "receivership": REALISATION,
    "administrative receiver": REALISATION,
    "receiver manager": REALISATION,
    "receiver manager / administrative receiver": REALISATION,
    # A receiver alongside a CVA: the receiver's realisation is what the creditors face.
    "voluntary arrangement / administrative receiver": REALISATION,
    "voluntary arrangement / receiver manager": REALISATION,
    "insolvency proceedings": REALISATION,
}


def state_of(company_status: str | None) -> State:
    """Our status and flags for a CompanyStatus; an unknown value says nothing (never guessed)."""
    return STATUSES.get((company_status or "").strip().lower(), UNKNOWN)


CATEGORIES: dict[str, str] = {
    "private limited company": "ltd",
    "public limited company": "plc",
    "old public company": "old-plc",
    "limited liability partnership": "llp",
    "limited partnership": "lp",
    "scottish partnership": "scot-partnership",
    "private unlimited company": "unlimited",
    "private unlimited": "unlimited",
    "pri/ltd by guar/nsc (private, limited by guarantee, no share capital)": "ltd-guar-nsc",
    "pri/lbg/nsc (private, limited by guarantee, no share capital, use of 'limited' exemption)": (
        "ltd-guar-nsc-ex"
    ),
    "priv ltd sect. 30 (private limited company, section 30 of the companies act)": "ltd-s30",
    "community interest company": "cic",
    "charitable incorporated organisation": "cio",
    "scottish charitable incorporated organisation": "scio",
    "industrial and provident society": "ips",
    "registered society": "reg-society",
    "royal charter company": "royal-charter",
    "investment company with variable capital": "icvc",
    "european public limited-liability company (se)": "se",
    "further education and sixth form college corps": "fe-college",
    "protected cell company": "pcc",
    "overseas entity": "overseas-entity",
    "other company type": "other",
}


def category_code(category: str | None) -> str | None:
    return CATEGORIES.get((category or "").strip().lower())
