"""API Recherche d'entreprises (DINUM): the search answer behind annuaire-entreprises.data.gouv.fr.

It aggregates SIRENE (identity, head office), the RNE (dirigeants: directors as natural persons,
auditors as legal persons) and published accounts (`finances`: turnover and net result per year),
which makes it the French source of roles and financial figures. Accepts a search answer
(`{"results": [...]}`, streamed) or JSON lines of result objects.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import IO, Any

from regintel.domain.types import CompanyKey, CompanyRecord, FinancialRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.fields import iso_date, join, text, vat
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.fr_sirene_codes import legal_form_name

INFO = SourceInfo(
    id="fr_recherche_entreprises",
    name="API Recherche d'entreprises",
    publisher="DINUM (data.gouv.fr)",
    country="FR",
    category="register",
    formats="API Recherche d'entreprises JSON: search answer or JSON lines of results",
    licence="Licence Ouverte / Open Licence 2.0",
    licence_url="https://www.etalab.gouv.fr/licence-ouverte-open-licence",
    attribution="Source : API Recherche d'entreprises (DINUM), données INSEE Sirene et INPI RNE "
    "(Licence Ouverte 2.0)",
    url="https://recherche-entreprises.api.gouv.fr/search",
    cadence="daily",
)

# Roles named in `qualite`; anything else is kept as a director-level officer with its title.
_AUDITOR = ("commissaire aux comptes",)
_BOARD = ("administrateur", "membre du conseil", "président du conseil", "vice-président")


class RechercheEntreprisesSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        first = True
        for obj in json_objects(stream, ("results.item",)):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if isinstance(obj, dict) and "results" in obj and "siren" not in obj:
                continue  # a search answer without results
            if first and not (isinstance(obj, dict) and "siren" in obj and "nom_complet" in obj):
                raise SourceAbort("not an API Recherche d'entreprises answer (no siren/nom_complet)")
            first = False
            try:
                yield parse_result(obj)
            except RecordError as exc:
                yield RecordError(exc.reason, {"siren": obj.get("siren") if isinstance(obj, dict) else None})


def parse_result(obj: dict[str, Any]) -> CompanyRecord:
    siren = text(obj.get("siren"), "siren")
    if siren is None:
        raise RecordError("result without siren")
    siege = obj.get("siege") or {}
    if not isinstance(siege, dict):
        raise RecordError("siege is not an object")
    vat_id = next((v for v in (vat(t)[0] for t in obj.get("tva") or [] if isinstance(t, str)) if v), None)
    nature = text(obj.get("nature_juridique"), "nature_juridique")
    active = text(obj.get("etat_administratif"), "etat_administratif")
    return CompanyRecord(
        country="FR",
        national_id=siren,
        name=text(obj.get("nom_raison_sociale") or obj.get("nom_complet"), "nom"),
        source_record_id=siren,
        published_on=iso_date(obj.get("date_mise_a_jour"), "date_mise_a_jour"),
        legal_form=nature,
        legal_form_name=legal_form_name(nature),
        status={"A": "active", "C": "dissolved", "F": "dissolved"}.get(active or "", None),
        founded_on=iso_date(obj.get("date_creation"), "date_creation"),
        dissolved_on=iso_date(obj.get("date_fermeture"), "date_fermeture"),
        street=join(
            [
                text(siege.get("numero_voie"), "numero_voie"),
                text(siege.get("type_voie"), "type_voie"),
                text(siege.get("libelle_voie"), "libelle_voie"),
            ],
            " ",
        ),
        city=text(siege.get("libelle_commune"), "libelle_commune"),
        postal_code=text(siege.get("code_postal"), "code_postal"),
        address_text=text(siege.get("adresse"), "adresse"),
        municipality_code=text(siege.get("commune"), "commune"),
        nace_primary=text(obj.get("activite_principale"), "activite_principale"),
        nace_codes=tuple(c for c in [text(obj.get("activite_principale"), "activite_principale")] if c),
        size_class=text(obj.get("categorie_entreprise"), "categorie_entreprise"),
        vat_id=vat_id,
        identifiers=tuple(("siret", s) for s in [text(siege.get("siret"), "siret")] if s),
        roles=tuple(r for r in (_role(d) for d in obj.get("dirigeants") or []) if r is not None),
        financials=tuple(_finances(obj.get("finances"))),
    )


def _role(item: Any) -> RoleRecord | None:
    if not isinstance(item, dict):
        raise RecordError("a dirigeant is not an object")
    title = text(item.get("qualite"), "qualite")
    lowered = (title or "").lower()
    role = (
        "auditor"
        if lowered.startswith(_AUDITOR)
        else "board_member"
        if lowered.startswith(_BOARD)
        else "director"
    )
    if item.get("type_dirigeant") == "personne morale":
        siren = text(item.get("siren"), "siren")
        name = text(item.get("denomination"), "denomination") or siren
        if name is None:
            return None
        return RoleRecord(role, name, title=title, holder_company=CompanyKey("FR", siren) if siren else None)
    name = join([text(item.get("prenoms"), "prenoms"), text(item.get("nom"), "nom")], " ")
    if name is None:
        return None
    born = text(item.get("date_de_naissance"), "date_de_naissance") or text(
        item.get("annee_de_naissance"), "annee"
    )
    return RoleRecord(
        role,
        name,
        title=title,
        person=PersonRecord(name, birth_date=born, nationality=text(item.get("nationalite"), "nat")),
    )


def _finances(value: Any) -> list[FinancialRecord]:
    if not value:
        return []
    if not isinstance(value, dict):
        raise RecordError("finances is not an object")
    out = []
    for year, figures in sorted(value.items()):
        if not (isinstance(year, str) and year.isdigit() and len(year) == 4 and isinstance(figures, dict)):
            raise RecordError(f"finances entry {year!r} is not a year with figures")
        out.append(
            FinancialRecord(
                int(year),
                "EUR",
                period_from=f"{year}-01",
                period_to=f"{year}-12",
                revenue=_amount(figures.get("ca")),
                profit=_amount(figures.get("resultat_net")),
                statement_type="published accounts",
            )
        )
    return out


def _amount(value: Any) -> Decimal | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise RecordError(f"amount is not a number: {value!r}")
    try:
        return Decimal(str(value))
    except InvalidOperation:
        raise RecordError(f"amount is not a number: {value!r}") from None


SOURCE = register(RechercheEntreprisesSource())
