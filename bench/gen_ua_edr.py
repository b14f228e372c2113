"""Write a large EDR legal-entity XML (17.1-EX_XML_EDR_UO_FULL layout) for the import benchmark.

    python bench/gen_ua_edr.py --count 1000000 --out /tmp/17.1-EX_XML_EDR_UO_FULL.xml

Deterministic for a seed, streamed record by record, `<DATA><SUBJECT>` with the element names of the
real file (NAME, SHORT_NAME, EDRPOU, OPF, STAN, ADDRESS, REGISTRATION, TERMINATED_INFO, ACTIVITY_KINDS,
FOUNDERS, BENEFICIARIES, SIGNERS), UTF-8. EDRPOU codes are unique, with the check digit python-stdnum
`ua.edrpou` computes. Every record has two founders, one beneficial owner and a head.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from xml.sax.saxutils import escape

from genlib import company_name, day, main
from stdnum.ua import edrpou

FORMS = ["ТОВАРИСТВО З ОБМЕЖЕНОЮ ВІДПОВІДАЛЬНІСТЮ", "ПРИВАТНЕ ПІДПРИЄМСТВО", "ГРОМАДСЬКА ОРГАНІЗАЦІЯ"]
STATES = ["зареєстровано"] * 7 + ["припинено"] * 2 + ["в стані припинення"]
PEOPLE = [
    "ЛУЦЕНКО АНДРІЙ ІВАНОВИЧ",
    "КОВАЛЬ ОЛЕНА ПЕТРІВНА",
    "ШЕВЧЕНКО ТАРАС ГРИГОРОВИЧ",
    "БОНДАР ІРИНА МИХАЙЛІВНА",
    "ТКАЧЕНКО ОЛЕГ ВАСИЛЬОВИЧ",
    "КРАВЧЕНКО НАТАЛІЯ ЮРІЇВНА",
]
KVED = ["41.10", "43.99", "62.01", "46.90", "70.22", "82.30", "85.59", "68.20"]
CITIES = [
    ("01001", "місто Київ"),
    ("79000", "Львівська обл., місто Львів"),
    ("61000", "Харківська обл., місто Харків"),
]


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield '<?xml version="1.0" encoding="UTF-8"?><DATA FORMAT_VERSION="1.0">\n'
    for i in range(count):
        body = f"{2_000_000 + i:07d}"
        code = body + edrpou.calc_check_digit(body)
        form, state = rng.choice(FORMS), rng.choice(STATES)
        name = f'{form} "{company_name(rng, "").upper()}"'
        registered = day(rng, 1995, 2022)
        terminated = (
            (
                f"<TERMINATED_INFO>{day(rng, registered.year, 2024):%d.%m.%Y}; 1001; ліквідація"
                "</TERMINATED_INFO>"
            )
            if state == "припинено"
            else "<TERMINATED_INFO/>"
        )
        postcode, city = rng.choice(CITIES)
        kinds = rng.sample(KVED, 3)
        activities = "".join(
            f"<ACTIVITY_KIND><CODE>{k}</CODE><NAME>Діяльність</NAME>"
            + ("<PRIMARY>так</PRIMARY>" if j == 0 else "")
            + "</ACTIVITY_KIND>"
            for j, k in enumerate(kinds)
        )
        a, b, head = rng.sample(PEOPLE, 3)
        yield (
            f"<SUBJECT><NAME>{escape(name)}</NAME><SHORT_NAME>ТОВ</SHORT_NAME><EDRPOU>{code}</EDRPOU>"
            f"<OPF>{form}</OPF><STAN>{state}</STAN><ADDRESS>Україна, {postcode}, {city}, вулиця Хрещатик, "
            f"будинок {rng.randint(1, 99)}</ADDRESS>"
            f"<REGISTRATION>{registered:%d.%m.%Y}; {registered:%d.%m.%Y}; "
            f"1000{i}</REGISTRATION>{terminated}<AUTHORIZED_CAPITAL>2000,00</AUTHORIZED_CAPITAL>"
            f"<ACTIVITY_KINDS>{activities}</ACTIVITY_KINDS>"
            f"<FOUNDERS><FOUNDER><Name>{a}</Name><Capital>1000.00</Capital><FounderEdr/></FOUNDER>"
            f"<FOUNDER><Name>{b}</Name><Capital>1000.00</Capital><FounderEdr/></FOUNDER></FOUNDERS>"
            f"<BENEFICIARIES><BENEFICIARY><Name>{a}</Name><MediateEdr>Прямий вирішальний вплив</MediateEdr>"
            f"<MediateName>відсоток частки - 50</MediateName><Type>beneficiary</Type></BENEFICIARY>"
            f"</BENEFICIARIES><SIGNERS><SIGNER>{head}; керівник</SIGNER></SIGNERS></SUBJECT>\n"
        )
    yield "</DATA>\n"


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
