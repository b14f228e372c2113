"""NIS2 sectors from supervisory and licensing registers: a current authorisation of a national bank or a
licence of an energy regulator says what the entity does, which NACE codes only suggest.

Each (register sector, category) maps to the Annex I entity type the authorisation or licence is the legal
definition of (categories as `areas/regulated/rules.py` names them):

- credit institution (ČNB "banka", NBS "banka"): Annex I, 3 "credit institutions as defined in point (1)
  of Article 4 of Regulation (EU) No 575/2013" - the authorisation is that definition: certain;
- operator of a trading venue (regulated market, MTF, OTF): Annex I, 4 (point (24) of Art. 4 of
  Directive 2014/65/EU); central counterparty: Annex I, 4 (point (1) of Art. 2 of Regulation (EU)
  No 648/2012): certain;
- electricity licences (Czech Energy Act 458/2000 § 4 groups 11-15, Slovak Act 251/2012 permits):
  Annex I, 1(a) - producers (Art. 2(38) of Directive (EU) 2019/944), transmission and distribution system
  operators (Art. 2(35), 2(29)), electricity undertakings carrying out the function of supply (Art.
  2(57), 2(12)): certain; the market operator licence (group 15) is "likely" a nominated electricity market
  operator (Art. 2(8) of Regulation (EU) 2019/943), which the licence alone does not prove;
- gas licences (groups 21-25): Annex I, 1(d) - natural gas undertakings, TSOs, DSOs, storage system
  operators, supply undertakings (Directive 2009/73/EC Art. 2): certain;
- heat licences (groups 31-32): Annex I, 1(b) operators of district heating or district cooling (Art. 2(19)
  of Directive (EU) 2018/2001): distribution certain; generation "likely" (a heat producer supplies a
  distribution network mostly, but may produce for its own site);
- regulated drinking-water and waste-water entities (ÚRSO, Act 442/2002): Annex I, 6 and 7: certain (the
  regulator lists them for that activity; the Annex's exclusion of entities for which it is a non-essential
  part of their business does not fit a regulated utility).

Other financial categories (insurers, payment and e-money institutions, investment firms, fund managers,
pension companies, ...) are not in NIS2's Annexes: they are noted, with DORA where it applies.
A register activity decides the sector, never the size: Art. 2(1) still applies (a small credit
institution is out of scope unless a Member State identifies it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RegisteredActivity:
    """A current authorisation or licence a register publishes for the company."""

    register: str  # the source id (sk_nbs, cz_cnb_jerrs, cz_eru, sk_urso)
    sector: str  # financial | energy
    category: str  # the regulated area's category (credit_institution, electricity_distribution, ...)
    licence_type: str  # as published
    dora_applies: str | None = None  # yes | no | possible | unknown (financial only)


@dataclass(frozen=True)
class RegisterSector:
    annex: str
    sector: str
    subsector: str | None
    entity_type: str
    annex_ref: str
    match: str
    definition: str


def _energy(subsector: str, entity_type: str, point: str, match: str, definition: str) -> RegisterSector:
    return RegisterSector("I", "energy", subsector, entity_type, f"Annex I, 1({point})", match, definition)


ED = "Directive (EU) 2019/944"
GD = "Directive 2009/73/EC"
REGISTER_SECTORS: dict[tuple[str, str], RegisterSector] = {
    ("financial", "credit_institution"): RegisterSector(
        "I",
        "banking",
        None,
        "credit_institution",
        "Annex I, 3",
        "certain",
        "credit institution (point (1) of Art. 4(1) of Regulation (EU) No 575/2013)",
    ),
    ("financial", "trading_venue"): RegisterSector(
        "I",
        "financial_market_infrastructure",
        None,
        "trading_venue_operator",
        "Annex I, 4",
        "certain",
        "operator of a trading venue (point (24) of Art. 4 of Directive 2014/65/EU)",
    ),
    ("financial", "central_counterparty"): RegisterSector(
        "I",
        "financial_market_infrastructure",
        None,
        "central_counterparty",
        "Annex I, 4",
        "certain",
        "central counterparty (point (1) of Art. 2 of Regulation (EU) No 648/2012)",
    ),
    ("energy", "electricity_generation"): _energy(
        "electricity", "producer", "a", "certain", f"producer (Art. 2(38) of {ED})"
    ),
    ("energy", "electricity_transmission"): _energy(
        "electricity",
        "transmission_system_operator",
        "a",
        "certain",
        f"transmission system operator (Art. 2(35) of {ED})",
    ),
    ("energy", "electricity_distribution"): _energy(
        "electricity",
        "distribution_system_operator",
        "a",
        "certain",
        f"distribution system operator (Art. 2(29) of {ED})",
    ),
    ("energy", "electricity_supply"): _energy(
        "electricity",
        "supply_undertaking",
        "a",
        "certain",
        f"electricity undertaking carrying out supply (Art. 2(57), 2(12) of {ED})",
    ),
    ("energy", "market_operator"): _energy(
        "electricity",
        "nominated_electricity_market_operator",
        "a",
        "likely",
        "nominated electricity market operator (Art. 2(8) of Regulation (EU) 2019/943)",
    ),
    ("energy", "gas_production"): _energy(
        "gas", "natural_gas_undertaking", "d", "certain", f"natural gas undertaking (Art. 2(1) of {GD})"
    ),
    ("energy", "gas_transmission"): _energy(
        "gas",
        "transmission_system_operator",
        "d",
        "certain",
        f"transmission system operator (Art. 2(4) of {GD})",
    ),
    ("energy", "gas_distribution"): _energy(
        "gas",
        "distribution_system_operator",
        "d",
        "certain",
        f"distribution system operator (Art. 2(6) of {GD})",
    ),
    ("energy", "gas_storage"): _energy(
        "gas", "storage_system_operator", "d", "certain", f"storage system operator (Art. 2(10) of {GD})"
    ),
    ("energy", "gas_supply"): _energy(
        "gas", "supply_undertaking", "d", "certain", f"supply undertaking (Art. 2(8) of {GD})"
    ),
    ("energy", "heat_distribution"): _energy(
        "district_heating_and_cooling",
        "district_heating_operator",
        "b",
        "certain",
        "operator of district heating (Art. 2(19) of Directive (EU) 2018/2001)",
    ),
    ("energy", "heat_generation"): _energy(
        "district_heating_and_cooling",
        "district_heating_operator",
        "b",
        "likely",
        "operator of district heating (Art. 2(19) of Directive (EU) "
        "2018/2001), when the heat goes to a distribution network",
    ),
    ("energy", "drinking_water"): RegisterSector(
        "I",
        "drinking_water",
        None,
        "water_supplier",
        "Annex I, 6",
        "certain",
        "supplier or distributor of water intended for human consumption (Art. 2(1)(a) of Directive (EU) "
        "2020/2184)",
    ),
    ("energy", "waste_water"): RegisterSector(
        "I",
        "waste_water",
        None,
        "waste_water_undertaking",
        "Annex I, 7",
        "certain",
        "undertaking collecting, disposing of or treating urban waste water (Art. 2 of Directive 91/271/EEC)",
    ),
}


def register_sector(activity: RegisteredActivity) -> RegisterSector | None:
    return REGISTER_SECTORS.get((activity.sector, activity.category))


def outside_annexes_note(activity: RegisteredActivity) -> str | None:
    """For a supervised financial entity whose category no Annex lists: what that means (with DORA)."""
    if activity.sector != "financial" or register_sector(activity) is not None:
        return None
    dora = {
        "yes": "DORA (Regulation (EU) 2022/2554) covers it",
        "possible": "DORA may cover it (Art. 2(3))",
        "no": "DORA does not list it",
    }.get(activity.dora_applies or "", "DORA coverage unknown")
    return (
        f"Supervised as {activity.category.replace('_', ' ')} ({activity.register}: "
        f"{activity.licence_type}): not an entity type of NIS2 Annex I or II; {dora}"
    )
