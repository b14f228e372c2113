"""Write a large Companies House BasicCompanyData CSV for the import benchmark.

    python bench/gen_gb_companies_house.py --count 1000000 --out /tmp/BasicCompanyData-2024-11-01.csv

Deterministic for a seed, streamed row by row, with the real 55-column header (leading spaces in some
names included), every value quoted, CRLF line ends and dd/mm/yyyy dates as in the published file.
Company numbers are unique (8 digits, and SC/NI prefixes); statuses follow a plausible mix.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterator

from genlib import company_name, day, main

# The published header, byte for byte (the stray spaces are the product's own).
HEADER = (
    "CompanyName, CompanyNumber,RegAddress.CareOf,RegAddress.POBox,RegAddress.AddressLine1,"
    " RegAddress.AddressLine2,RegAddress.PostTown,RegAddress.County,RegAddress.Country,"
    "RegAddress.PostCode,CompanyCategory,CompanyStatus,CountryOfOrigin,DissolutionDate,"
    "IncorporationDate,Accounts.AccountRefDay,Accounts.AccountRefMonth,Accounts.NextDueDate,"
    "Accounts.LastMadeUpDate,Accounts.AccountCategory,Returns.NextDueDate,Returns.LastMadeUpDate,"
    "Mortgages.NumMortCharges,Mortgages.NumMortOutstanding,Mortgages.NumMortPartSatisfied,"
    "Mortgages.NumMortSatisfied,SICCode.SicText_1,SICCode.SicText_2,SICCode.SicText_3,"
    "SICCode.SicText_4,LimitedPartnerships.NumGenPartners,LimitedPartnerships.NumLimPartners,URI,"
    "PreviousName_1.CONDATE, PreviousName_1.CompanyName, PreviousName_2.CONDATE,"
    " PreviousName_2.CompanyName,PreviousName_3.CONDATE, PreviousName_3.CompanyName,"
    "PreviousName_4.CONDATE, PreviousName_4.CompanyName,PreviousName_5.CONDATE,"
    " PreviousName_5.CompanyName,PreviousName_6.CONDATE, PreviousName_6.CompanyName,"
    "PreviousName_7.CONDATE, PreviousName_7.CompanyName,PreviousName_8.CONDATE,"
    " PreviousName_8.CompanyName,PreviousName_9.CONDATE, PreviousName_9.CompanyName,"
    "PreviousName_10.CONDATE, PreviousName_10.CompanyName,ConfStmtNextDueDate,"
    " ConfStmtLastMadeUpDate"
).split(",")
DMY = "%d/%m/%Y"
PLACES = [
    ("LONDON", "", "ENGLAND", "EC1V 9LT"),
    ("LEEDS", "YORKSHIRE", "ENGLAND", "LS10 2RU"),
    ("SHEFFIELD", "", "UNITED KINGDOM", "S35 2PH"),
    ("EDINBURGH", "", "SCOTLAND", "EH1 1YZ"),
    ("CARDIFF", "", "WALES", "CF10 1AA"),
    ("BELFAST", "COUNTY ANTRIM", "NORTHERN IRELAND", "BT1 5GS"),
]
STREETS = ["HIGH STREET", "OLD STREET", "STATION ROAD", "CHURCH LANE", "PRINCES SQUARE", "PEPPER ROAD"]
CATEGORIES = ["Private Limited Company"] * 8 + [
    "PRI/LTD BY GUAR/NSC (Private, limited by guarantee, no share capital)",
    "Limited Liability Partnership",
    "Public Limited Company",
    "Community Interest Company",
]
STATUSES = (
    ["Active"] * 90
    + ["Liquidation"] * 4
    + ["Active - Proposal to Strike off"] * 3
    + ["In Administration", "Voluntary Arrangement", "Dissolved"]
)
SIC = [
    "78300 - Human resources provision and management of human resources functions",
    "99999 - Dormant Company",
    "47710 - Retail sale of clothing in specialised stores",
    "62090 - Other information technology service activities",
    "70229 - Management consultancy activities other than financial management",
    "68209 - Other letting and operating of own or leased real estate",
    "82990 - Other business support service activities n.e.c.",
    "41201 - Construction of commercial buildings",
]


def number(index: int) -> str:
    prefix = ("", "", "", "", "", "", "", "", "SC", "NI")[index % 10]
    return f"{prefix}{index:0{8 - len(prefix)}d}"


def row(index: int, rng: random.Random) -> list[str]:
    town, county, country, postcode = rng.choice(PLACES)
    status = rng.choice(STATUSES)
    founded = day(rng, 1980, 2024)
    sic = rng.sample(SIC, rng.randint(1, 3))
    cells = {name.strip(): "" for name in HEADER}
    cells.update(
        {
            "CompanyName": company_name(rng, "LIMITED"),
            "CompanyNumber": number(index),
            "RegAddress.AddressLine1": f"{rng.randint(1, 400)} {rng.choice(STREETS)}",
            "RegAddress.PostTown": town,
            "RegAddress.County": county,
            "RegAddress.Country": country,
            "RegAddress.PostCode": postcode,
            "CompanyCategory": rng.choice(CATEGORIES),
            "CompanyStatus": status,
            "CountryOfOrigin": "United Kingdom",
            "IncorporationDate": founded.strftime(DMY),
            "Accounts.AccountRefDay": "31",
            "Accounts.AccountRefMonth": str(rng.randint(1, 12)),
            "Accounts.AccountCategory": rng.choice(
                ["DORMANT", "MICRO ENTITY", "TOTAL EXEMPTION FULL", "SMALL", "FULL"]
            ),
            "Mortgages.NumMortCharges": "0",
            "Mortgages.NumMortOutstanding": "0",
            "Mortgages.NumMortPartSatisfied": "0",
            "Mortgages.NumMortSatisfied": "0",
            "LimitedPartnerships.NumGenPartners": "0",
            "LimitedPartnerships.NumLimPartners": "0",
            "URI": f"http://business.data.gov.uk/id/company/{number(index)}",
            "ConfStmtNextDueDate": day(rng, 2025, 2025).strftime(DMY),
        }
    )
    for i, text in enumerate(sic, 1):
        cells[f"SICCode.SicText_{i}"] = text
    if status == "Dissolved":
        cells["DissolutionDate"] = day(rng, 2024, 2024).strftime(DMY)
    return [cells[name.strip()] for name in HEADER]


def generate(count: int, rng: random.Random) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    buffer.write(",".join(HEADER) + "\r\n")  # the header is the one line the product does not quote
    for index in range(1, count + 1):
        writer.writerow(row(index, rng))
        if index % 1000 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


if __name__ == "__main__":
    main(__doc__, generate, default_seed=8209948)
