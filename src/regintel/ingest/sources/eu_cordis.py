"""CORDIS (cordis.europa.eu): the projects of the EU research framework programmes Horizon 2020 (H2020)
and Horizon Europe (HORIZON) and the organisations taking part, from the open-data CSV packages
(`cordis-h2020projects-csv.zip`, `cordis-HORIZONprojects-csv.zip`). Each package holds `project.csv`
(one row per project) and `organization.csv` (one row per participation); both are semicolon-separated,
quoted with double quotes, UTF-8, amounts with a decimal comma (`1234567,5`), dates ISO 8601.

Import each file on its own (`regintel import eu_cordis project.csv`, then `… organization.csv`); the
header says which it is. A participation is shown with its project's title and programme once both are
imported, in either order. An organisation carries its VAT number (`vatNumber`) when it gave one: the
funds area links by it first, then by name and country (docs/funds.md, "Linking")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.ingest.base import RecordError, Source, SourceAbort, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.sources import register
from regintel.ingest.sources.funds_records import (
    Beneficiary,
    CordisParticipation,
    CordisProject,
    amount,
    country,
    day,
    text,
)

INFO = SourceInfo(
    id="eu_cordis",
    name="CORDIS: EU research projects (Horizon 2020, Horizon Europe) and participants",
    publisher="European Commission, Publications Office of the European Union",
    country=None,
    category="public_money",
    formats="CSV (project.csv and organization.csv of the CORDIS open-data packages)",
    licence="CC-BY-4.0 (Commission Decision 2011/833/EU on the reuse of Commission documents)",
    licence_url="https://cordis.europa.eu/about/legal-notice",
    attribution="Source: CORDIS, © European Union",
    url="https://data.europa.eu/data/datasets/cordis-eu-research-projects-under-horizon-europe-2021-2027",
    cadence="monthly",
)
PROJECT_COLUMNS = (
    "id",
    "acronym",
    "status",
    "title",
    "startDate",
    "endDate",
    "totalCost",
    "ecMaxContribution",
    "legalBasis",
    "ecSignatureDate",
    "frameworkProgramme",
    "fundingScheme",
)
ORGANISATION_COLUMNS = (
    "projectID",
    "organisationID",
    "vatNumber",
    "name",
    "SME",
    "activityType",
    "city",
    "country",
    "role",
    "ecContribution",
    "netEcContribution",
    "totalCost",
    "endOfParticipation",
)
FRAMEWORKS = ("H2020", "HORIZON")
PROJECT_URL = "https://cordis.europa.eu/project/id/{id}"


class CordisSource:
    info = INFO

    def parse(
        self, stream: IO[bytes], name: str
    ) -> Iterator[CordisProject | CordisParticipation | RecordError]:
        csv_file = open_csv(stream, delimiter=";")
        if "ecMaxContribution" in csv_file.header:
            yield from csv_file.records(csv_file.index(PROJECT_COLUMNS, "CORDIS project"), _project)
        elif "organisationID" in csv_file.header:
            yield from csv_file.records(
                csv_file.index(ORGANISATION_COLUMNS, "CORDIS organization"), _participation
            )
        else:
            raise SourceAbort(
                f"{name}: neither a CORDIS project.csv nor an organization.csv (no "
                "ecMaxContribution or organisationID column)"
            )

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.funds.importing import run_funds_import

        return run_funds_import(engine, self, location, data_dir)


def _project(row: dict[str, str]) -> CordisProject:
    project_id, title, framework = text(row["id"]), text(row["title"]), text(row["frameworkProgramme"])
    if not project_id or not project_id.isdigit() or not title:
        raise RecordError("project without a numeric id or a title")
    if framework not in FRAMEWORKS:
        raise RecordError(f"framework programme {framework!r} is neither H2020 nor HORIZON")
    return CordisProject(
        project_id=project_id,
        acronym=text(row["acronym"]),
        title=title,
        status=text(row["status"]),
        framework=framework,
        funding_scheme=text(row["fundingScheme"]),
        legal_basis=text(row["legalBasis"]),
        start_on=day(row["startDate"]),
        end_on=day(row["endDate"]),
        signed_on=day(row["ecSignatureDate"]),
        total_cost=amount(row["totalCost"], "de"),
        ec_max_contribution=amount(row["ecMaxContribution"], "de"),
    )


def _participation(row: dict[str, str]) -> CordisParticipation:
    project_id, org_id, name = text(row["projectID"]), text(row["organisationID"]), text(row["name"])
    if not project_id or not org_id or not name:
        raise RecordError("participation without a project id, an organisation id or a name")
    vat = (text(row["vatNumber"]) or "").replace(" ", "").upper() or None
    sme = text(row["SME"])
    return CordisParticipation(
        project_id=project_id,
        organisation_id=org_id,
        beneficiary=Beneficiary(name, country(row["country"]), vat=vat, city=text(row["city"])),
        role=text(row["role"]) or "participant",
        sme=None if sme is None else sme.lower() == "true",
        activity_type=text(row["activityType"]),
        ec_contribution=amount(row["ecContribution"], "de"),
        net_ec_contribution=amount(row["netEcContribution"], "de"),
        total_cost=amount(row["totalCost"], "de"),
        ended=(text(row["endOfParticipation"]) or "").lower() == "true",
    )


SOURCE = register(cast(Source, CordisSource()))
