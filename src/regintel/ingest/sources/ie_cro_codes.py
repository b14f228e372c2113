"""CRO company types and statuses.

Company types: the CRO writes "LTD - Private Company Limited by Shares" (code, dash, name); the code
is kept as the legal form and mapped to its ISO 20275 ELF code (GLEIF ELF list v1.5, Ireland).

Statuses (`company_status` of the full CRO file): how each reads in regintel's terms. The CRO keeps a
company after it ends, so a dissolved company is a row too."""

from __future__ import annotations

from dataclasses import dataclass

# CRO type code -> ELF code (a "DAC" is limited by shares unless the type name says guarantee)
ELF: dict[str, str] = {
    "LTD": "MNQ7",  # Private Company Limited by Shares
    "DAC": "LGWG",  # Designated Activity Company (limited by shares)
    "DAC-G": "5AX8",  # Designated Activity Company limited by guarantee
    "CLG": "C58S",  # Company Limited by Guarantee
    "PLC": "VYAX",  # Public Limited Company
    "ULC": "KMFX",  # Private Unlimited Company
    "PUC": "URQH",  # Public Unlimited Company
    "PULC": "FF1D",  # Public Unlimited Company that has no share capital
    "SE": "JXDX",  # Societas Europaea
    "EEIG": "363J",
}


@dataclass(frozen=True)
class State:
    status: str
    in_liquidation: bool | None = None
    in_restructuring: bool | None = None
    in_bankruptcy: bool | None = None


# Normal: on the register and trading as far as the CRO knows. Strike Off Listed: the CRO has
# listed it to be struck off (usually for missing annual returns); it still exists until struck off.
# Liquidation: a winding-up (voluntary or by the court) is under way; Ireland has no separate
# "bankruptcy" of a company, an insolvent company is wound up, so liquidation is reported as
# in_liquidation only. Examinership is the Irish court rescue procedure: in_restructuring.
# Receivership is a secured creditor's enforcement, not an insolvency procedure of the company.
STATES: dict[str, State] = {
    "normal": State("active", False, False, False),
    "strike off listed": State("active", False, False, False),
    "liquidation": State("active", True, False, False),
    "in liquidation": State("active", True, False, False),
    "receivership": State("active", False, False, False),
    "in receivership": State("active", False, False, False),
    "examinership": State("active", False, True, False),
    "under examination": State("active", False, True, False),
    "dissolved": State("dissolved", False, False, False),
    "deregistered": State("dissolved", False, False, False),
    "struck off": State("dissolved", False, False, False),
    "converted": State("dissolved", False, False, False),
    "amalgamated": State("dissolved", False, False, False),
}
