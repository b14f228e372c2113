"""INSEE code lists the Sirene files refer to by code: legal categories (catégories juridiques) and
head-count bands (tranches d'effectifs)."""

from __future__ import annotations

# Catégories juridiques, level III (4 digits): the common forms. Any other code is named by its
# level-I family (its first digit), which INSEE defines for every code.
LEGAL_FORMS: dict[str, str] = {
    "1000": "Entrepreneur individuel",
    "5202": "Société en nom collectif",
    "5306": "Société en commandite simple",
    "5308": "Société en commandite par actions",
    "5485": "Société d'exercice libéral à responsabilité limitée",
    "5498": "SARL unipersonnelle",
    "5499": "Société à responsabilité limitée (sans autre indication)",
    "5599": "SA à conseil d'administration (s.a.i.)",
    "5699": "SA à directoire (s.a.i.)",
    "5710": "SAS, société par actions simplifiée",
    "5720": "Société par actions simplifiée à associé unique ou société par actions simplifiée "
    "unipersonnelle",
    "5785": "Société d'exercice libéral par action simplifiée",
    "5800": "Société européenne",
    "6220": "Groupement d'intérêt économique (GIE)",
    "6540": "Société civile immobilière",
    "6599": "Autre société civile",
    "9220": "Association déclarée",
}
LEGAL_FAMILIES: dict[str, str] = {
    "1": "Entrepreneur individuel",
    "2": "Groupement de droit privé non doté de la personnalité morale",
    "3": "Personne morale de droit étranger",
    "4": "Personne morale de droit public soumise au droit commercial",
    "5": "Société commerciale",
    "6": "Autre personne morale immatriculée au RCS",
    "7": "Personne morale et organisme soumis au droit administratif",
    "8": "Organisme privé spécialisé",
    "9": "Groupement de droit privé",
}


def legal_form_name(code: str | None) -> str | None:
    if not code:
        return None
    return LEGAL_FORMS.get(code) or LEGAL_FAMILIES.get(code[:1])


# Tranches d'effectifs salariés: code -> the band, written as a head-count range. "NN" (no salaried
# staff in the reference year) is published as "0" like "00".
HEADCOUNT_BANDS: dict[str, str] = {
    "NN": "0",
    "00": "0",
    "01": "1-2",
    "02": "3-5",
    "03": "6-9",
    "11": "10-19",
    "12": "20-49",
    "21": "50-99",
    "22": "100-199",
    "31": "200-249",
    "32": "250-499",
    "41": "500-999",
    "42": "1000-1999",
    "51": "2000-4999",
    "52": "5000-9999",
    "53": "10000+",
}
