"""Lithuanian Register of Legal Entities (Juridinių asmenų registras, JAR), kept by VĮ Registrų
centras: the open-data bulk file of registered legal entities `JAR_IREGISTRUOTI.csv`, `|`-separated,
UTF-8, dates YYYY-MM-DD, header `ja_kodas|ja_pavadinimas|adresas|ja_reg_data|form_kodas|
form_pavadinimas|stat_kodas|stat_pavadinimas|stat_data_nuo|formavimo_data`.

Identifier: `ja_kodas`, the 9-digit legal-entity code (juridinio asmens kodas). python-stdnum has no
validator for it (`lt.asmens` checks the 11-digit personal code, `lt.pvm` the VAT code, a different
number), so only its shape (9 digits) is checked. The VAT code is issued apart from the entity
code: none is derived.

Status: every row is a registered entity, so `active`; `stat_pavadinimas`, the JAR legal status
(teisinis statusas), adds the flags: "Teisinis statusas neįregistruotas" (no status: operating),
"Likviduojamas" (being liquidated) → in liquidation; "Bankrutuojantis" (bankruptcy proceedings),
"Bankrutavęs" (bankrupt), "Likviduojamas dėl bankroto" → bankrupt flag; "Restruktūrizuojamas"
(restructuring under the Law on Insolvency of Legal Persons) → restructuring; reorganisation,
division and conversion are corporate changes, not insolvency. An unknown status leaves the flags
unstated. Deregistered entities are published in a separate file (JAR_ISREGISTRUOTI, not read here).

Legal forms are matched by name to an abbreviation and ISO 20275 ELF code (`lt_jar_codes`).
`formavimo_data`, the date the file was generated, is the snapshot date: an older file never
overwrites a newer one. JAR's open data names no officers or owners (the management-body dataset
only says which bodies exist), so no people are imported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import iso_date
from regintel.ingest.sources import register
from regintel.ingest.sources.lt_jar_codes import legal_form, legal_status

INFO = SourceInfo(
    id="lt_jar",
    name="Juridinių asmenų registras – registered legal entities (open data)",
    publisher="VĮ Registrų centras (State Enterprise Centre of Registers)",
    country="LT",
    category="register",
    formats="JAR_IREGISTRUOTI.csv (`|`-separated, UTF-8), plain, .gz or .zip",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Source: Register of Legal Entities of the Republic of Lithuania, VĮ Registrų centras "
    "(data.gov.lt)",
    url="https://data.gov.lt/datasets/gov/rc/jar/iregistruoti",
    cadence="daily",
)
REQUIRED = (
    "ja_kodas",
    "ja_pavadinimas",
    "adresas",
    "ja_reg_data",
    "form_kodas",
    "form_pavadinimas",
    "stat_pavadinimas",
    "formavimo_data",
)
_POSTCODE = re.compile(r"\bLT-(\d{5})\b")


class JarSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        csv_file = open_csv(stream, delimiter="|")
        columns = csv_file.index(REQUIRED, "JAR JAR_IREGISTRUOTI.csv")
        yield from csv_file.records(columns, to_record)


def to_record(row: dict[str, str]) -> CompanyRecord:
    code = row["ja_kodas"].strip()
    if not (code.isdigit() and len(code) == 9):
        raise RecordError(f"ja_kodas is not a 9-digit legal-entity code: {code!r}")
    form_name = row["form_pavadinimas"].strip() or None
    form = legal_form(form_name)
    state = legal_status(row["stat_pavadinimas"])
    address = row["adresas"].strip() or None
    postcode = _POSTCODE.search(address or "")
    return CompanyRecord(
        country="LT",
        national_id=code,
        name=row["ja_pavadinimas"].strip() or None,
        source_record_id=code,
        published_on=iso_date(row["formavimo_data"], "formavimo_data"),
        legal_form=form[0] if form else row["form_kodas"].strip() or None,
        legal_form_name=form_name,
        status=state.status,
        founded_on=iso_date(row["ja_reg_data"], "ja_reg_data"),
        address_text=address,
        postal_code=f"LT-{postcode[1]}" if postcode else None,
        in_bankruptcy=state.in_bankruptcy,
        in_restructuring=state.in_restructuring,
        in_liquidation=state.in_liquidation,
        identifiers=(("elf", form[1]),) if form else (),
    )


SOURCE = register(JarSource())
