"""Write a large Sirene StockUniteLegale CSV for the import benchmark.

    python bench/gen_fr_sirene.py --count 1000000 --out /tmp/StockUniteLegale-1m.csv.gz

Deterministic for a seed, streamed row by row, with the stock file's header (the 33 columns of the
published file) and its conventions: unquoted values unless needed, ISO dates, NAF rev. 2 codes.
SIRENs are unique with a valid Luhn digit. About 35 % of the units are sole traders (catégorie
juridique 1000, named by nom + prénoms), 3 % of those with restricted diffusion (P, fields "[ND]");
20 % of all units are ceased (C).
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterator

from genlib import FIRST_NAMES, SURNAMES, company_name, day, main, siren

HEADER = [
    "siren",
    "statutDiffusionUniteLegale",
    "unitePurgeeUniteLegale",
    "dateCreationUniteLegale",
    "sigleUniteLegale",
    "sexeUniteLegale",
    "prenom1UniteLegale",
    "prenom2UniteLegale",
    "prenom3UniteLegale",
    "prenom4UniteLegale",
    "prenomUsuelUniteLegale",
    "pseudonymeUniteLegale",
    "identifiantAssociationUniteLegale",
    "trancheEffectifsUniteLegale",
    "anneeEffectifsUniteLegale",
    "dateDernierTraitementUniteLegale",
    "nombrePeriodesUniteLegale",
    "categorieEntreprise",
    "anneeCategorieEntreprise",
    "dateDebut",
    "etatAdministratifUniteLegale",
    "nomUniteLegale",
    "nomUsageUniteLegale",
    "denominationUniteLegale",
    "denominationUsuelle1UniteLegale",
    "denominationUsuelle2UniteLegale",
    "denominationUsuelle3UniteLegale",
    "categorieJuridiqueUniteLegale",
    "activitePrincipaleUniteLegale",
    "nomenclatureActivitePrincipaleUniteLegale",
    "nicSiegeUniteLegale",
    "economieSocialeSolidaireUniteLegale",
    "caractereEmployeurUniteLegale",
]
FORMS = [("5710", "SAS"), ("5499", "SARL"), ("5498", "EURL"), ("5720", "SASU"), ("6540", "SCI"), ("9220", "")]
NAF = [
    "62.01Z",
    "62.02A",
    "47.11D",
    "56.10A",
    "41.20A",
    "68.20B",
    "70.22Z",
    "85.59A",
    "86.21Z",
    "01.21Z",
    "16.10A",
    "32.12Z",
    "43.21A",
    "49.41A",
    "96.02A",
]
BANDS = ["NN", "00", "01", "02", "03", "11", "12", "21", "22", "31", "32", "41", "42", "51", "52", "53"]


def row(index: int, rng: random.Random) -> dict[str, str]:
    created = day(rng, 1960, 2024).isoformat()
    ceased = rng.random() < 0.2
    out = dict.fromkeys(HEADER, "")
    out.update(
        siren=siren(index),
        statutDiffusionUniteLegale="O",
        dateCreationUniteLegale=created,
        dateDernierTraitementUniteLegale=f"{day(rng, 2024, 2024)}T{rng.randint(0, 23):02d}:00:00",
        nombrePeriodesUniteLegale=str(rng.randint(1, 6)),
        dateDebut=day(rng, 2015, 2024).isoformat() if ceased else created,
        etatAdministratifUniteLegale="C" if ceased else "A",
        activitePrincipaleUniteLegale=rng.choice(NAF),
        nomenclatureActivitePrincipaleUniteLegale="NAFRev2",
        nicSiegeUniteLegale=f"{rng.randint(1, 999):03d}{rng.randint(10, 99)}",
        caractereEmployeurUniteLegale=rng.choice("ON"),
        trancheEffectifsUniteLegale=rng.choice(BANDS),
    )
    if rng.random() < 0.35:
        _sole_trader(out, rng)
    else:
        form, suffix = rng.choice(FORMS)
        out.update(
            categorieJuridiqueUniteLegale=form,
            denominationUniteLegale=company_name(rng, suffix).upper(),
            categorieEntreprise=rng.choice(["PME", "PME", "PME", "ETI", "GE"]),
            anneeCategorieEntreprise="2021",
        )
    return out


def _sole_trader(out: dict[str, str], rng: random.Random) -> None:
    out.update(categorieJuridiqueUniteLegale="1000", trancheEffectifsUniteLegale="NN")
    if rng.random() < 0.03:  # restricted diffusion: INSEE masks the identity
        out.update(
            statutDiffusionUniteLegale="P",
            nomUniteLegale="[ND]",
            prenom1UniteLegale="[ND]",
            prenomUsuelUniteLegale="[ND]",
            sexeUniteLegale="[ND]",
        )
        return
    first = rng.choice(FIRST_NAMES).upper()
    out.update(
        sexeUniteLegale=rng.choice("MF"),
        prenom1UniteLegale=first,
        prenomUsuelUniteLegale=first,
        nomUniteLegale=rng.choice(SURNAMES).upper(),
    )


def generate(count: int, rng: random.Random) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, HEADER, lineterminator="\n")
    writer.writeheader()
    for index in range(count):
        writer.writerow(row(index, rng))
        if index % 1000 == 999:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


if __name__ == "__main__":
    main(__doc__, generate, default_seed=552032534)
