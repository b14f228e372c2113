"""A small set of companies that exercises every advanced-search filter and statistics dimension."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

from regintel.domain.types import CompanyKey, CompanyRecord, FinancialRecord, LeiRecord
from tests.builders import load_companies

LEI_SLOVNAFT = "097900BGCY0000006315"
LEI_SKODA = "097900BGCY0000006412"
SHELL = {"street": "Hlavná 1", "postal_code": "81101", "city": "Bratislava"}


def fin(year: int, currency: str, revenue: int, profit: int = 0, **kw: object) -> FinancialRecord:
    return FinancialRecord(
        year=year,
        currency=currency,
        revenue=Decimal(revenue),
        profit=Decimal(profit),
        total_assets=Decimal(revenue) * 2,
        equity=Decimal(revenue) // 2,
        **kw,
    )  # type: ignore[arg-type]


RECORDS = [
    CompanyRecord(
        country="SK",
        national_id="31322832",
        name="SLOVNAFT, a.s.",
        legal_form="121",
        status="active",
        founded_on=date(1992, 4, 24),
        street="Vlčie hrdlo 1",
        postal_code="82412",
        city="Bratislava",
        region_code="1",
        district_code="102",
        municipality_code="529346",
        nuts3="SK010",
        nace_primary="19200",
        nace_codes=["19200", "46710"],
        size_class="1000-1999",
        employees=2000,
        vat_id="SK2020372640",
        lei=LEI_SLOVNAFT,
        financials=[
            fin(2022, "EUR", 5_000_000_000, 90_000_000),
            fin(2023, "EUR", 6_000_000_000, 100_000_000),
        ],
    ),
    CompanyRecord(
        country="SK",
        national_id="35757442",
        name="Stavby Žilina s.r.o.",
        legal_form="112",
        founded_on=date(2005, 3, 1),
        street="Hurbanova 5",
        postal_code="01001",
        city="Žilina",
        region_code="5",
        district_code="511",
        nuts3="SK031",
        nace_primary="41.20",
        size_class="10-19",
        employees=12,
        in_bankruptcy=True,
        financials=[fin(2021, "EUR", 800_000, -50_000)],
    ),
    CompanyRecord(
        country="SK",
        national_id="36631124",
        name="Nord Consulting s.r.o.",
        legal_form="112",
        status="dissolved",
        founded_on=date(2010, 1, 15),
        dissolved_on=date(2020, 6, 30),
        region_code="1",
        nuts3="SK010",
        nace_primary="62010",
        size_class="1",
        employees=1,
        **SHELL,
    ),
    CompanyRecord(
        country="SK",
        national_id="00151653",
        name="Shell One s.r.o.",
        legal_form="112",
        founded_on=date(2019, 5, 5),
        nace_primary="62.01",
        size_class="2",
        in_liquidation=True,
        region_code="1",
        nuts3="SK010",
        **SHELL,
    ),
    CompanyRecord(
        country="SK",
        national_id="44444443",
        name="Shell Two s.r.o.",
        legal_form="101",
        founded_on=date(2021, 2, 2),
        nace_primary="70220",
        **SHELL,
    ),
    CompanyRecord(
        country="CZ",
        national_id="00177041",
        name="ŠKODA AUTO a.s.",
        legal_form="121",
        founded_on=date(1991, 1, 1),
        city="Mladá Boleslav",
        postal_code="29301",
        nuts3="CZ020",
        region_code="27",
        nace_primary="29100",
        size_class="5000-9999",
        employees=30000,
        vat_id="CZ00177041",
        lei=LEI_SKODA,
        financials=[fin(2023, "CZK", 1_000_000_000_000, 5)],
    ),
    CompanyRecord(
        country="CZ",
        national_id="27082440",
        name='=HYPERLINK("http://x") s.r.o.',
        legal_form="112",
        founded_on=date(2003, 7, 7),
        city="Praha",
        postal_code="11000",
        nuts3="CZ010",
        nace_primary="62.02",
        in_restructuring=True,
    ),
    CompanyRecord(
        country="FR",
        national_id="552100554",
        name="Société Française SA",
        legal_form="5599",
        founded_on=date(1955, 5, 5),
        city="Paris",
        postal_code="75001",
        nuts3="FR101",
        nace_primary="62.01Z",
        size_class="250-499",
        financials=[fin(2023, "EUR", 2_000_000, 150_000)],
    ),
    CompanyRecord(
        country="GB",
        national_id="00000006",
        name="London Widgets Ltd",
        legal_form="ltd",
        founded_on=date(2018, 8, 8),
        city="London",
        postal_code="SW1A 1AA",
        nuts3="UKI32",
        nace_primary="62012",
    ),
    CompanyRecord(
        country="NO",
        national_id="923609016",
        name="Fjord Havbruk AS",
        legal_form="AS",
        city="Bergen",
        postal_code="5003",
        nace_primary="03.211",
        status="inactive",
    ),
]
LEIS = [
    LeiRecord(
        lei=LEI_SLOVNAFT,
        legal_name="SLOVNAFT, a.s.",
        registration_status="ISSUED",
        company=CompanyKey("SK", "31322832"),
        next_renewal=datetime(2027, 1, 1, tzinfo=UTC),
    ),
    LeiRecord(
        lei=LEI_SKODA,
        legal_name="ŠKODA AUTO a.s.",
        registration_status="LAPSED",
        company=CompanyKey("CZ", "00177041"),
    ),
]
ALL = {r.national_id for r in RECORDS}


def load(engine: object) -> None:
    load_companies(engine, *RECORDS, *LEIS)  # type: ignore[arg-type]
