"""KBO/BCE code meanings regintel acts on: juridical situations (status and insolvency flags) and the
ISO 20275 ELF code of each juridical form.

ELF: the KBO juridical-form codes whose Dutch, French or German description in KBO's `code.csv` is
exactly the name of one Belgian entry of the GLEIF ELF list v1.5 (matched once when this table was
written, and re-checked by `tests/ingest/test_be_kbo.py` against both files). Forms without an exact
single match (for example 514 "NV met een sociaal oogmerk", which matches two ELF entries) have none.
"""

from __future__ import annotations

ELF: dict[str, str] = {
    "001": "YBHM",  # Europese Coöperatieve Vennootschap
    "006": "LWHF",  # Coöperatieve vennootschap met onbeperkte aansprakelijkheid
    "008": "8E2A",  # Coöperatieve vennootschap met beperkte aansprakelijkheid
    "010": "C609",  # Eenpersoons besloten vennootschap met beperkte aansprakelijkheid
    "011": "UW1Y",  # Vennootschap onder firma
    "012": "LWV6",  # Gewone commanditaire vennootschap
    "013": "U2PN",  # Commanditaire vennootschap op aandelen
    "014": "R85P",  # Naamloze vennootschap
    "015": "N5NT",  # Besloten vennootschap met beperkte aansprakelijkheid
    "017": "W3WH",  # Vereniging zonder winstoogmerk
    "025": "ZOK2",  # Landbouwvennootschap
    "026": "Y1Q4",  # Private stichting
    "027": "36KV",  # Europese vennootschap (Societas Europaea)
    "028": "8YLB",  # Instelling zonder winstoogmerk
    "029": "ZUHK",  # Stichting van openbaar nut
    "060": "J5OU",  # Economisch samenwerkingsverband
    "065": "7SJP",  # Europees economisch samenwerkingsverband
    # Coöperatieve vennootschap met onbeperkte aansprakelijkheid, bij wijze van deelneming van publiek recht
    "107": "EXY8",
    "108": "X8ZK",  # Coöperatieve vennootschap met beperkte aansprakelijkheid van publiek recht
    "114": "TPTU",  # Naamloze vennootschap van publiek recht
    "117": "EDMK",  # Vereniging zonder winstoogmerk van publiek recht
    "124": "QZIS",  # Openbare instelling
    "125": "V03J",  # Internationale vereniging zonder winstoogmerk
    # Burgerlijke vennootschap onder vorm van coöperatieve vennootschap met onbeperkte aansprakelijkheid
    "206": "WTLP",
    # Burgerlijke vennootschap onder vorm van coöperatieve vennootschap met beperkte aansprakelijkheid
    "208": "O5HQ",
    "211": "U5KF",  # Burgerlijke vennootschap onder vorm van vennootschap onder firma
    "212": "T922",  # Burgerlijke vennootschap onder vorm van gewone commanditaire vennootschap
    "213": "KLBO",  # Burgerlijke vennootschap onder vorm van commanditaire vennootschap op aandelen
    "214": "XQZX",  # Burgerlijke vennootschap onder vorm van naamloze vennootschap
    # Burgerlijke vennootschap onder vorm van besloten vennootschap met beperkte aansprakelijkheid
    "215": "V8L7",
    "225": "UCT9",  # Burgerlijke Vennootschap onder vorm van Landbouwvennootschap (BV LV)
    "416": "6DGX",  # Dienstverlenende vereniging (Vlaams Gewest)
    "417": "MGCM",  # Opdrachthoudende vereniging (Vlaams Gewest)
    "506": "4E5P",  # Coöperatieve vennootschap met onbeperkte aansprakelijkheid met een sociaal oogmerk
    "508": "2QSA",  # Coöperatieve vennootschap met beperkte aansprakelijkheid met een sociaal oogmerk
    "510": "PVT3",  # Eenpersoons besloten vennootschap met beperkte aansprakelijkheid met een sociaal oogmerk
    "511": "B910",  # Vennootschap onder firma met een sociaal oogmerk
    "512": "XLEO",  # Gewone commanditaire vennootschap met een sociaal oogmerk
    "513": "1TX8",  # Commanditaire vennootschap op aandelen met een sociaal oogmerk
    "515": "JNAD",  # Besloten vennootschap met beperkte aansprakelijkheid met een sociaal oogmerk
    "560": "O59C",  # Economisch samenwerkingsverband met een sociaal oogmerk
    "606": "4E5P",  # Coöperatieve vennootschap met onbeperkte aansprakelijkheid met een sociaal oogmerk
    "608": "2QSA",  # Coöperatieve vennootschap met beperkte aansprakelijkheid met een sociaal oogmerk
    "610": "3W7E",  # Besloten Vennootschap
    "612": "MQH3",  # Commanditaire vennootschap
    "616": "L05H",  # Besloten Vennootschap van publiek recht
    "702": "KM6O",  # Maatschap
    "706": "28FE",  # Coöperatieve vennootschap
    "716": "JAM3",  # Coöperatieve vennootschap van publiek recht
    "721": "CFH5",  # Vennootschap of vereniging zonder rechtspersoonlijkheid
}

# Juridical situations (code.csv category JuridicalSituation), as KBO defines them.
LIQUIDATION = frozenset({"012", "013", "112"})  # voluntary dissolution – liquidation; judicial
#   dissolution or nullity; reopening of the liquidation
BANKRUPTCY = frozenset({"048", "049", "050"})  # opening of bankruptcy (with / without discharge)
RESTRUCTURING = frozenset({"030", "031", "040", "041", "091"})  # judicial composition before / after
#   bankruptcy, provisional / definitive suspension of payment (the pre-1997 and 1997 procedures),
#   suspension under judicial reorganisation (WCO / Book XX)
ENDED = frozenset(
    {
        "006",
        "010",
        "011",
        "014",
        "015",
        "016",
        "017",
        "019",
        "021",
        "022",
        "023",
        "024",
        "025",
        "026",
        "051",
        "052",
        "053",
        "111",
        "999",
    }
)  # stopped: number replaced, dissolution by
#   law, stop in Belgium, closure of liquidation, stops of entities without legal personality and of
#   natural persons, transfer, EDRL stop, mergers and divisions (the absorbed or split entity),
#   closure of bankruptcy (which dissolves a company), striking off from an EEA register, cancelled
