"""Pure rules of the area: what a published licence type means, and the DORA and NIS2 flags it carries.

- DORA: Regulation (EU) 2022/2554, Art. 2(1) lists the financial entities it covers, letters (a)-(t);
  Art. 2(3) leaves some of them out (small payment and e-money institutions exempt under PSD2 / EMD2,
  small IORPs, insurance intermediaries that are micro, small or medium-sized enterprises ...).
- NIS2: Directive (EU) 2022/2555, Annex I: sector 3 "Banking" (credit institutions) and sector 4
  "Financial market infrastructure" (operators of trading venues, central counterparties); sector 1
  "Energy" (a) electricity, (b) district heating and cooling, (d) gas; sector 6 "Drinking water" and
  7 "Waste water". For an entity DORA covers, DORA's ICT risk-management and incident-reporting rules
  apply instead of NIS2 Art. 20, 21, 23 and Chapter VII (NIS2 Art. 4(1) and recital 28, DORA recital 16).

The labels are the registers' own (Czech and Slovak), compared folded (no case, no diacritics)."""

from __future__ import annotations

from dataclasses import dataclass

from regintel.domain.names import fold


@dataclass(frozen=True)
class Dora:
    applies: str  # yes | no | possible | unknown
    article: str | None
    note: str | None = None


@dataclass(frozen=True)
class Nis2Sector:
    annex: str  # "I"
    sector: str  # "3 Banking"
    subsector: str | None = None


BANKING = Nis2Sector("I", "3 Banking")
FMI = Nis2Sector("I", "4 Financial market infrastructure")
ELECTRICITY = Nis2Sector("I", "1 Energy", "(a) Electricity")
HEATING = Nis2Sector("I", "1 Energy", "(b) District heating and cooling")
GAS = Nis2Sector("I", "1 Energy", "(d) Gas")
WATER = Nis2Sector("I", "6 Drinking water")
WASTE_WATER = Nis2Sector("I", "7 Waste water")
SMALL = "Art. 2(3): exempt when the entity is small enough to be exempt under its sectoral act"

# category: (DORA, NIS2 Annex I sector or None)
FINANCIAL_CATEGORIES: dict[str, tuple[Dora, Nis2Sector | None]] = {
    "credit_institution": (Dora("yes", "Art. 2(1)(a)"), BANKING),
    "payment_institution": (Dora("yes", "Art. 2(1)(b)"), None),
    "small_payment_institution": (
        Dora(
            "no",
            "Art. 2(3)",
            "payment institutions exempt under Directive (EU) 2015/2366 Art. 32 are left out",
        ),
        None,
    ),
    "account_information_service_provider": (Dora("yes", "Art. 2(1)(c)"), None),
    "electronic_money_institution": (Dora("yes", "Art. 2(1)(d)"), None),
    "small_electronic_money_institution": (
        Dora(
            "no", "Art. 2(3)", "e-money institutions exempt under Directive 2009/110/EC Art. 9 are left out"
        ),
        None,
    ),
    "investment_firm": (Dora("yes", "Art. 2(1)(e)"), None),
    "crypto_asset_service_provider": (Dora("yes", "Art. 2(1)(f)"), None),
    "central_securities_depository": (Dora("yes", "Art. 2(1)(g)"), None),
    "central_counterparty": (Dora("yes", "Art. 2(1)(h)"), FMI),
    "trading_venue": (Dora("yes", "Art. 2(1)(i)"), FMI),
    "fund_manager": (
        Dora(
            "possible",
            "Art. 2(1)(k)-(l)",
            "UCITS management companies and AIFMs; "
            "sub-threshold AIFMs (AIFMD Art. 3(2)) are left out by Art. 2(3)",
        ),
        None,
    ),
    "insurance_undertaking": (
        Dora("yes", "Art. 2(1)(n)", "undertakings exempt under Solvency II Art. 4 are left out by Art. 2(3)"),
        None,
    ),
    "insurance_intermediary": (
        Dora(
            "possible", "Art. 2(1)(o)", "left out by Art. 2(3) when a micro, small or medium-sized enterprise"
        ),
        None,
    ),
    "iorp": (
        Dora("yes", "Art. 2(1)(p)", "IORPs with at most 15 members in total are left out by Art. 2(3)"),
        None,
    ),
    "credit_rating_agency": (Dora("yes", "Art. 2(1)(q)"), None),
    "crowdfunding_service_provider": (Dora("yes", "Art. 2(1)(s)"), None),
    "pension_company": (
        Dora(
            "no",
            None,
            "statutory (second- and third-pillar) pension companies that are not "
            "IORPs are not among the Art. 2(1) entities",
        ),
        None,
    ),
    "consumer_credit": (
        Dora(
            "no",
            None,
            "non-bank consumer lenders and credit intermediaries are not among the Art. 2(1) entities",
        ),
        None,
    ),
    "bureau_de_change": (Dora("no", None, "bureaux de change are not among the Art. 2(1) entities"), None),
    "other": (Dora("unknown", None, "licence type not in the mapping (docs/regulated.md)"), None),
}

# Folded register labels (ČNB JERRS subject types, NBS register sectors and licence kinds) → category.
_FINANCIAL_LABELS: dict[str, str] = {
    # Czech (ČNB)
    "banka": "credit_institution",
    "pobocka zahranicni banky": "credit_institution",
    "sporitelni a uverni druzstvo": "credit_institution",
    "pojistovna": "insurance_undertaking",
    "zajistovna": "insurance_undertaking",
    "platebni instituce": "payment_institution",
    "poskytovatel platebnich sluzeb maleho rozsahu": "small_payment_institution",
    "poskytovatel sluzby informovani o platebnim uctu": "account_information_service_provider",
    "instituce elektronickych penez": "electronic_money_institution",
    "vydavatel elektronickych penez maleho rozsahu": "small_electronic_money_institution",
    "obchodnik s cennymi papiry": "investment_firm",
    "investicni spolecnost": "fund_manager",
    "penzijni spolecnost": "pension_company",
    "samostatny zprostredkovatel pojisteni": "insurance_intermediary",
    "samostatny zprostredkovatel spotrebitelskeho uveru": "consumer_credit",
    "nebankovni poskytovatel spotrebitelskeho uveru": "consumer_credit",
    "smenarnik": "bureau_de_change",
    "centralni depozitar": "central_securities_depository",
    "organizator regulovaneho trhu": "trading_venue",
    "poskytovatel sluzeb souvisejicich s kryptoaktivy": "crypto_asset_service_provider",
    # Slovak (NBS)
    "pobocka zahranicnej banky": "credit_institution",
    "poistovna": "insurance_undertaking",
    "zaistovna": "insurance_undertaking",
    "platobna institucia": "payment_institution",
    "institucia elektronickych penazi": "electronic_money_institution",
    "obchodnik s cennymi papiermi": "investment_firm",
    "spravcovska spolocnost": "fund_manager",
    "doplnkova dochodkova spolocnost": "iorp",
    "dochodkova spravcovska spolocnost": "pension_company",
    "burza cennych papierov": "trading_venue",
    "centralny depozitar cennych papierov": "central_securities_depository",
    "samostatny financny agent v sektore poistenia alebo zaistenia": "insurance_intermediary",
    "veritel": "consumer_credit",
    "zmenaren": "bureau_de_change",
    "poskytovatel sluzieb kryptoaktiv": "crypto_asset_service_provider",
}

ENERGY_ACTIVITIES: dict[str, Nis2Sector] = {
    "electricity_generation": ELECTRICITY,
    "electricity_transmission": ELECTRICITY,
    "electricity_distribution": ELECTRICITY,
    "electricity_supply": ELECTRICITY,
    "market_operator": ELECTRICITY,
    "gas_production": GAS,
    "gas_transmission": GAS,
    "gas_distribution": GAS,
    "gas_storage": GAS,
    "gas_supply": GAS,
    "heat_generation": HEATING,
    "heat_distribution": HEATING,
    "drinking_water": WATER,
    "waste_water": WASTE_WATER,
}

# ERÚ licence groups (Czech Energy Act 458/2000 Coll., § 4(1)).
ERU_CODES: dict[str, str] = {
    "11": "electricity_generation",
    "12": "electricity_transmission",
    "13": "electricity_distribution",
    "14": "electricity_supply",
    "15": "market_operator",
    "21": "gas_production",
    "22": "gas_transmission",
    "23": "gas_distribution",
    "24": "gas_storage",
    "25": "gas_supply",
    "31": "heat_generation",
    "32": "heat_distribution",
}

# (words that all must appear, activity): first match wins; words are folded stems, SK and CZ alike.
_ENERGY_WORDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("elektr", "vyrob"), "electricity_generation"),
    (("elektr", "prenos"), "electricity_transmission"),
    (("elektr", "distrib"), "electricity_distribution"),
    (("elektr", "dodav"), "electricity_supply"),
    (("elektr", "obchod"), "electricity_supply"),
    (("operator", "trhu"), "market_operator"),
    (("plyn", "uskladn"), "gas_storage"),
    (("plyn", "preprav"), "gas_transmission"),
    (("plyn", "distrib"), "gas_distribution"),
    (("plyn", "vyrob"), "gas_production"),
    (("plyn", "dodav"), "gas_supply"),
    (("plyn", "obchod"), "gas_supply"),
    (("tep", "rozvod"), "heat_distribution"),
    (("tep", "vyrob"), "heat_generation"),
    (("odpadov",), "waste_water"),
    (("kanaliz",), "waste_water"),
    (("pitn",), "drinking_water"),
    (("vodovod",), "drinking_water"),
)


def financial_category(label: str) -> str:
    """The category of a published subject type or licence kind; `other` when the mapping lacks it."""
    return _FINANCIAL_LABELS.get(" ".join(fold(label).split()), "other")


def energy_activity(text: str) -> str:
    """The activity a published licence kind names (ÚRSO, ERÚ wording); `other` when none matches."""
    folded = fold(text)
    code = folded.strip().split(" ")[0] if folded.strip() else ""
    if code in ERU_CODES:
        return ERU_CODES[code]
    for words, activity in _ENERGY_WORDS:
        if all(w in folded for w in words):
            return activity
    return "other"


def dora(category: str) -> Dora:
    return FINANCIAL_CATEGORIES.get(category, FINANCIAL_CATEGORIES["other"])[0]


def nis2_sector(sector: str, category: str) -> Nis2Sector | None:
    """The NIS2 Annex I sector a licence puts its holder in, if any."""
    if sector == "financial":
        return FINANCIAL_CATEGORIES.get(category, FINANCIAL_CATEGORIES["other"])[1]
    return ENERGY_ACTIVITIES.get(category)
