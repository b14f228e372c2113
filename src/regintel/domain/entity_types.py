"""Entity type of a company from its national legal-form code (the `entity_type` breakdown).

Types: `sole_trader`, `company` (capital companies), `partnership`, `cooperative`, `non_profit`
(associations, foundations, churches, parties, chambers), `public_body`, `branch` (of a foreign or
domestic undertaking), `other`; `unknown` when the code is missing or the country has no table here.

Tables follow the published classifications the registers use: the Slovak and Czech statistical
legal-form codes (ŠÚ SR "Právna forma" / ČSÚ "Právní forma", 3 digits), the French INSEE "catégories
juridiques" (4 digits, typed by their first one or two), Norway's Enhetsregisteret organisation forms
and the Companies House company categories (as coded by `ingest.sources.gb_companies_house_codes`).
"""

from __future__ import annotations

TYPES = (
    "sole_trader",
    "company",
    "partnership",
    "cooperative",
    "non_profit",
    "public_body",
    "branch",
    "other",
    "unknown",
)

# (first code, last code, type) over the 3-digit codes; the first matching range wins.
_SK_RANGES = [
    (100, 110, "sole_trader"),
    (111, 111, "partnership"),
    (112, 112, "company"),
    (113, 113, "partnership"),
    (114, 114, "company"),
    (116, 120, "non_profit"),
    (121, 121, "company"),
    (123, 123, "company"),
    (124, 124, "cooperative"),
    (125, 125, "company"),
    (131, 131, "cooperative"),
    (201, 241, "cooperative"),
    (251, 271, "cooperative"),
    (301, 399, "public_body"),
    (411, 411, "company"),
    (421, 421, "branch"),
    (422, 422, "sole_trader"),
    (431, 432, "company"),
    (433, 435, "public_body"),
    (436, 436, "company"),
    (501, 536, "branch"),
    (601, 621, "public_body"),
    (701, 799, "non_profit"),
    (801, 804, "public_body"),
    (931, 931, "branch"),
    (951, 951, "branch"),
]
_CZ_RANGES = [
    (100, 110, "sole_trader"),
    (111, 111, "partnership"),
    (112, 112, "company"),
    (113, 113, "partnership"),
    (117, 118, "non_profit"),
    (121, 121, "company"),
    (141, 141, "non_profit"),
    (145, 145, "other"),
    (161, 161, "non_profit"),
    (201, 299, "cooperative"),
    (301, 399, "public_body"),
    (421, 423, "branch"),
    (424, 424, "sole_trader"),
    (425, 425, "branch"),
    (501, 525, "branch"),
    (601, 661, "public_body"),
    (701, 761, "non_profit"),
    (771, 805, "public_body"),
    (906, 907, "non_profit"),
    (931, 931, "other"),
    (932, 932, "company"),
    (933, 933, "cooperative"),
]
_NO = {
    "ENK": "sole_trader",
    "AS": "company",
    "ASA": "company",
    "BA": "company",
    "SE": "company",
    "ANS": "partnership",
    "DA": "partnership",
    "KS": "partnership",
    "SA": "cooperative",
    "BRL": "cooperative",
    "NUF": "branch",
    "STI": "non_profit",
    "FLI": "non_profit",
    "ORGL": "public_body",
    "STAT": "public_body",
    "SF": "public_body",
    "KF": "public_body",
    "FKF": "public_body",
    "IKS": "public_body",
    "KOMM": "public_body",
    "FYLK": "public_body",
    "ADOS": "public_body",
    "KIRK": "non_profit",
}
_GB = {
    "ltd": "company",
    "plc": "company",
    "old-plc": "company",
    "unlimited": "company",
    "ltd-s30": "company",
    "se": "company",
    "icvc": "company",
    "pcc": "company",
    "cic": "company",
    "royal-charter": "other",
    "llp": "partnership",
    "lp": "partnership",
    "scot-partnership": "partnership",
    "ltd-guar-nsc": "non_profit",
    "ltd-guar-nsc-ex": "non_profit",
    "cio": "non_profit",
    "scio": "non_profit",
    "ips": "cooperative",
    "reg-society": "cooperative",
    "fe-college": "public_body",
    "overseas-entity": "branch",
    "uk-establishment": "branch",
    "oversea-company": "branch",
}
# INSEE: by the first two digits where they split a group, else by the first digit.
_FR_TWO = {"52": "partnership", "53": "partnership", "62": "other", "63": "cooperative", "65": "company"}
_FR_ONE = {
    "1": "sole_trader",
    "2": "other",
    "3": "branch",
    "4": "public_body",
    "5": "company",
    "6": "company",
    "7": "public_body",
    "8": "non_profit",
    "9": "non_profit",
}


def entity_type(country: str | None, legal_form: str | None) -> str:
    code = (legal_form or "").strip()
    if not code:
        return "unknown"
    if country in ("SK", "CZ"):
        return _by_range(_SK_RANGES if country == "SK" else _CZ_RANGES, code)
    if country == "FR":
        if not (code.isdigit() and len(code) == 4):
            return "unknown"
        return _FR_TWO.get(code[:2]) or _FR_ONE.get(code[0], "other")
    if country == "NO":
        return _NO.get(code.upper(), "other")
    if country == "GB":
        return _GB.get(code.lower(), "other")
    return "unknown"


def _by_range(ranges: list[tuple[int, int, str]], code: str) -> str:
    if not (code.isdigit() and len(code) == 3):
        return "unknown"
    value = int(code)
    return next((kind for first, last, kind in ranges if first <= value <= last), "other")
