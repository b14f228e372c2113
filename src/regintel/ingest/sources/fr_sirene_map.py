"""Sirene rows (stock CSV columns, or API v3 JSON flattened to the same names) to company records.

Personal data: for a unit whose `statutDiffusionUniteLegale` is not "O" (P: partially diffusible, a
natural person who opted out; N in older files), INSEE masks identity and address fields with
"[ND]"; none of them is imported, and the unit is named "[ND]" as INSEE itself publishes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError
from regintel.ingest.fields import Address, flag, iso_date, join, text
from regintel.ingest.sources.fr_sirene_codes import HEADCOUNT_BANDS, legal_form_name

Row = Mapping[str, Any]
HIDDEN = "[ND]"
SOLE_TRADER = "1000"
NACE_NOMENCLATURE = "NAFRev2"


def value(row: Row, name: str) -> str | None:
    """A field's text; INSEE's "[ND]" (not diffusible) counts as absent."""
    out = text(row.get(name), name)
    return None if out == HIDDEN else out


def siren_of(row: Row) -> str:
    siren = value(row, "siren")
    if siren is None:
        raise RecordError("row without a siren")
    return siren


def unit_record(row: Row) -> CompanyRecord:
    """A legal unit (StockUniteLegale row, or the current period of an API `uniteLegale`)."""
    siren = siren_of(row)
    category = value(row, "categorieJuridiqueUniteLegale")
    state = value(row, "etatAdministratifUniteLegale")
    if state not in (None, "A", "C"):
        raise RecordError(f"etatAdministratifUniteLegale is neither A nor C: {state!r}")
    activity = value(row, "activitePrincipaleUniteLegale")
    nace = activity if value(row, "nomenclatureActivitePrincipaleUniteLegale") == NACE_NOMENCLATURE else None
    return CompanyRecord(
        country="FR",
        national_id=siren,
        name=unit_name(row, category),
        source_record_id=siren,
        published_on=iso_date(
            row.get("dateDernierTraitementUniteLegale"), "dateDernierTraitementUniteLegale"
        ),
        legal_form=category,
        legal_form_name=legal_form_name(category),
        status={"A": "active", "C": "dissolved"}.get(state or ""),
        founded_on=iso_date(value(row, "dateCreationUniteLegale"), "dateCreationUniteLegale"),
        # The current period of a ceased unit starts when it ceased.
        dissolved_on=iso_date(value(row, "dateDebut"), "dateDebut") if state == "C" else None,
        nace_primary=nace,
        nace_codes=(nace,) if nace else None,
        size_class=HEADCOUNT_BANDS.get(value(row, "trancheEffectifsUniteLegale") or ""),
    )


def unit_name(row: Row, category: str | None) -> str | None:
    """The denomination of a legal person; "first name + surname" of a sole trader with a public
    record; "[ND]" for a sole trader who restricted diffusion (no personal field is read)."""
    name = value(row, "denominationUniteLegale") or value(row, "denominationUsuelle1UniteLegale")
    if name:
        return name
    if not (category or "").startswith("1") and not value(row, "nomUniteLegale"):
        return None
    if (row.get("statutDiffusionUniteLegale") or "O") != "O":
        return HIDDEN
    first = value(row, "prenomUsuelUniteLegale") or value(row, "prenom1UniteLegale")
    return join([first, value(row, "nomUsageUniteLegale") or value(row, "nomUniteLegale")], " ")


def is_head_office(row: Row) -> bool:
    head = flag(row.get("etablissementSiege"), "etablissementSiege")
    return bool(head)


def head_office_address(row: Row) -> Address:
    """The head office's address (StockEtablissement columns, or the API `adresseEtablissement`)."""

    def get(name: str) -> str | None:
        return value(row, f"{name}Etablissement")

    number = join([get("numeroVoie"), get("indiceRepetition")], "")
    street = join([number, get("typeVoie"), get("libelleVoie")], " ")
    city = get("libelleCommune") or get("libelleCommuneEtranger")
    postal_code = get("codePostal")
    commune = get("codeCommune")
    address_text = join(
        [
            get("complementAdresse"),
            street,
            get("distributionSpeciale"),
            join([postal_code, city], " "),
            join([get("codeCedex"), get("libelleCedex")], " "),
            get("libellePaysEtranger"),
        ]
    )
    return {
        "street": street,
        "city": city,
        "postal_code": postal_code,
        "municipality_code": commune,
        # The département is the start of the commune code (three characters overseas: 971…976).
        "district_code": (commune[:3] if commune.startswith("97") else commune[:2]) if commune else None,
        "address_text": address_text,
    }
