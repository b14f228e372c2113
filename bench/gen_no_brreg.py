"""Write a large Enhetsregisteret bulk file (a JSON array of enheter, as `enheter_alle.json.gz`) for the
import benchmark.

    python bench/gen_no_brreg.py --count 1000000 --out /tmp/enheter_alle.json.gz

Deterministic for a seed and streamed entry by entry (the array is opened, each enhet written, then
closed). Organisasjonsnummer are unique with a valid mod-11 check digit; about 1 % are bankrupt,
2 % being wound up, 0.5 % in a reconstruction negotiation.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from genlib import FIRST_NAMES, SURNAMES, company_name, day, main, orgnr

FORMS = [
    ("AS", "Aksjeselskap"),
    ("AS", "Aksjeselskap"),
    ("ENK", "Enkeltpersonforetak"),
    ("FLI", "Forening/lag/innretning"),
    ("ASA", "Allmennaksjeselskap"),
    ("DA", "Ansvarlig selskap med delt ansvar"),
]
PLACES = [
    ("0301", "OSLO", "0150"),
    ("4601", "BERGEN", "5003"),
    ("5001", "TRONDHEIM", "7030"),
    ("1103", "STAVANGER", "4035"),
    ("3101", "HALDEN", "1776"),
    ("5501", "TROMSØ", "9008"),
]
NACE = [
    ("06.100", "Utvinning av råolje"),
    ("56.101", "Drift av restauranter og kafeer"),
    ("62.010", "Programmeringstjenester"),
    ("41.200", "Oppføring av bygninger"),
    ("88.911", "Barnehager"),
    ("94.991", "Aktiviteter i andre interesseorganisasjoner ikke nevnt annet sted"),
    ("52.292", "Skipsmegling"),
    ("03.211", "Produksjon av matfisk og skalldyr i hav- og kystbasert akvakultur"),
]
STREETS = ["Karl Johans gate", "Forusbeen", "Elgeseter gate", "Tyvholmen", "Storgata", "Kongens gate"]


def enhet(number: str, rng: random.Random) -> dict[str, object]:
    kode, beskrivelse = rng.choice(FORMS)
    name = (
        f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}"
        if kode == "ENK"
        else company_name(rng, kode if kode in ("AS", "ASA", "DA") else "")
    )
    kommune, poststed, postnummer = rng.choice(PLACES)
    address = {
        "land": "Norge",
        "landkode": "NO",
        "postnummer": postnummer,
        "poststed": poststed,
        "adresse": [f"{rng.choice(STREETS)} {rng.randint(1, 120)}"],
        "kommune": poststed,
        "kommunenummer": kommune,
    }
    roll = rng.random()
    out: dict[str, object] = {
        "organisasjonsnummer": number,
        "navn": name.upper(),
        "organisasjonsform": {"kode": kode, "beskrivelse": beskrivelse},
        "registreringsdatoEnhetsregisteret": day(rng, 1995, 2024).isoformat(),
        "registrertIMvaregisteret": rng.random() < 0.5,
        "forretningsadresse": address,
        "antallAnsatte": rng.choice([0, 0, 1, 2, 5, 10, 25, 120]),
        "harRegistrertAntallAnsatte": True,
        "registrertIForetaksregisteret": kode != "FLI",
        "registrertIStiftelsesregisteret": False,
        "registrertIFrivillighetsregisteret": kode == "FLI",
        "konkurs": roll < 0.01,
        "underAvvikling": 0.01 <= roll < 0.03,
        "underTvangsavviklingEllerTvangsopplosning": False,
        "maalform": "Bokmål",
    }
    for i, (code, text) in enumerate(rng.sample(NACE, rng.randint(1, 3)), 1):
        out[f"naeringskode{i}"] = {"kode": code, "beskrivelse": text}
    if kode != "ENK":
        out["stiftelsesdato"] = day(rng, 1950, 2024).isoformat()
    if out["konkurs"]:
        out["konkursdato"] = day(rng, 2020, 2024).isoformat()
    if 0.03 <= roll < 0.035:
        out["underRekonstruksjonsforhandlingDato"] = day(rng, 2022, 2024).isoformat()
    return out


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield "["
    written, index = 0, 0
    while written < count:
        number = orgnr(index)
        index += 1
        if number is None:
            continue
        yield ("," if written else "") + "\n" + json.dumps(enhet(number, rng), ensure_ascii=False)
        written += 1
    yield "\n]\n"


if __name__ == "__main__":
    main(__doc__, generate, default_seed=923609016)
