"""Kohesio (kohesio.ec.europa.eu): the European Commission's database of projects co-financed by the EU
cohesion policy funds (ERDF, Cohesion Fund, ESF+, JTF, Interreg) with their beneficiaries, as the project
search exports it to CSV: one row per (project, beneficiary), comma-separated, UTF-8, amounts in euro
with a decimal point, dates ISO 8601.

Kohesio publishes no national identifier of the beneficiary, so the funds area links a beneficiary to a
company by name and country through the resolver (docs/funds.md, "Linking")."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.ingest.base import RecordError, Source, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.sources import register
from regintel.ingest.sources.funds_records import Award, Beneficiary, amount, country, day, text

INFO = SourceInfo(
    id="eu_kohesio",
    name="Kohesio: EU cohesion policy projects and beneficiaries",
    publisher="European Commission, DG Regional and Urban Policy",
    country=None,
    category="public_money",
    formats="CSV export of the Kohesio project search (one row per project and beneficiary)",
    licence="CC-BY-4.0 (Commission Decision 2011/833/EU on the reuse of Commission documents)",
    licence_url="https://commission.europa.eu/legal-notice_en",
    attribution="Source: Kohesio, European Commission (kohesio.ec.europa.eu)",
    url="https://kohesio.ec.europa.eu/en/projects",
    cadence="monthly",
)
COLUMNS = (
    "Project ID",
    "Project name",
    "Beneficiary",
    "Beneficiary country",
    "Total budget",
    "EU contribution",
    "Start date",
    "End date",
    "Fund",
    "Programme",
    "Programme CCI",
    "Project URL",
)
PROJECT_URL = "https://kohesio.ec.europa.eu/en/projects/{id}"


class KohesioSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Award | RecordError]:
        csv_file = open_csv(stream)
        yield from csv_file.records(csv_file.index(COLUMNS, "Kohesio project export"), _award)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.funds.importing import run_funds_import

        return run_funds_import(engine, self, location, data_dir)


def _award(row: dict[str, str]) -> Award:
    project, beneficiary = text(row["Project ID"]), text(row["Beneficiary"])
    if not project or not beneficiary:
        raise RecordError("row without a project id or a beneficiary")
    who = hashlib.sha1(beneficiary.lower().encode(), usedforsecurity=False).hexdigest()[:12]
    programme = text(row["Programme"])
    cci = text(row["Programme CCI"])
    return Award(
        kind="eu_project",
        record_key=f"{project}:{who}",
        beneficiary=Beneficiary(beneficiary, country(row["Beneficiary country"])),
        title=text(row["Project name"]),
        currency="EUR",
        amount=amount(row["Total budget"], "en"),
        eu_amount=amount(row["EU contribution"], "en"),
        programme=f"{programme} ({cci})" if programme and cci else programme or cci,
        fund=text(row["Fund"]),
        start_on=day(row["Start date"]),
        end_on=day(row["End date"]),
        link=text(row["Project URL"]) or PROJECT_URL.format(id=project),
    )


SOURCE = register(cast(Source, KohesioSource()))
