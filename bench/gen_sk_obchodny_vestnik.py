"""Write a large Obchodný vestník export (a PodanieExport SOAP answer) for the import benchmark.

    python bench/gen_sk_obchodny_vestnik.py --count 1000000 --out /tmp/ov-1m.xml.gz

Each `ObchodnyVestnikPodanie` carries one notice form as escaped XML text, in the shapes of the
publisher's schemas (tests/fixtures/sk_obchodny_vestnik/schemas): about 55 % court resolutions
(`KonkurzARestrukt`: declarations, cancellations, restructuring permitted and ended, and notices that
neither start nor end a proceeding), 15 % liquidators' calls, 10 % register filings, 10 % trustee
notices, 5 % old-law notices and 5 % personal bankruptcies without IČO. Notices concern
`count // 3` companies (valid IČOs), so companies get several notices in date order. Deterministic
for a seed; written notice by notice, so memory stays flat for any N.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, timedelta
from xml.sax.saxutils import escape

from genlib import SURNAMES, company_name, ico, main

START = date(2015, 1, 2)
# Notices are dated at a fixed pace, a million in ten years, so that the file of the first M notices
# is a prefix of the file of N > M (same ids, same days): the import benchmark re-imports such a
# prefix and expects every notice unchanged. A pace that stretched any count over ten years dated
# the prefix's notices later than the same ids of the full file, i.e. corrected them.
PACE = 1_000_000
COURTS = [
    "Okresný súd Bratislava I",
    "Okresný súd Košice I",
    "Okresný súd Žilina",
    "Okresný súd Banská Bystrica",
    "Okresný súd Nitra",
    "Okresný súd Prešov",
    "Okresný súd Trenčín",
    "Okresný súd Trnava",
]
TOWNS = [
    ("Bratislava", "811 01"),
    ("Košice", "040 01"),
    ("Žilina", "010 01"),
    ("Banská Bystrica", "974 01"),
    ("Nitra", "949 01"),
    ("Prešov", "080 01"),
    ("Trenčín", "911 01"),
    ("Trnava", "917 01"),
]
STREETS = ["Hlavná", "Štúrova", "Mlynské nivy", "Námestie SNP", "Mierová", "Kollárova", "Ľudovíta Štúra"]
SUFFIXES = ["s.r.o.", "spol. s r.o.", "a.s.", "k.s.", "družstvo"]
KINDS = [  # (Druh, operative text), of KonkurzARestrukt notices
    ("Uznesenie o vyhlásení konkurzu", "Súd vyhlasuje konkurz na majetok dlžníka {name}."),
    ("Uznesenie o zrušení konkurzu", "Súd zrušuje konkurz vyhlásený na majetok dlžníka {name}."),
    ("Uznesenie o povolení reštrukturalizácie", "Súd povoľuje reštrukturalizáciu dlžníka {name}."),
    (
        "Uznesenie o potvrdení reštrukturalizačného plánu",
        "Súd potvrdzuje reštrukturalizačný plán dlžníka {name}.",
    ),
    ("Oznam o zvolaní schôdze veriteľov", "Súd zvoláva schôdzu veriteľov dlžníka {name}."),
]
HEAD = (
    '<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/'
    'envelope/"><soap:Body><StiahnutPodaniaOVPodlaTypuResponse xmlns="http://anasoft.com/">'
    "<StiahnutPodaniaOVPodlaTypuResult>\n"
)
TAIL = (
    "</StiahnutPodaniaOVPodlaTypuResult></StiahnutPodaniaOVPodlaTypuResponse></soap:Body></soap:Envelope>\n"
)


def x(value: object) -> str:
    return escape(str(value))


def party(tag: str, name: str, number: str, rng: random.Random) -> str:
    town, psc = rng.choice(TOWNS)
    return (
        f"<{tag}><Nazov>{x(name)}</Nazov><ICO>{number}</ICO><Ulica>{x(rng.choice(STREETS))}</Ulica>"
        f"<CisloUl>{rng.randint(1, 120)}</CisloUl><Obec>{x(town)}</Obec><Psc>{psc}</Psc>"
        f"<Stat>Slovenská republika</Stat></{tag}>"
    )


def sidlo(tag: str, rng: random.Random, prefix: str = "") -> str:
    town, psc = rng.choice(TOWNS)
    return (
        f"<{prefix}{tag}><Ulica>{x(rng.choice(STREETS))}</Ulica><Cislo>{rng.randint(1, 120)}</Cislo>"
        f"<Obec>{x(town)}</Obec><Psc>{psc}</Psc><Stat>Slovenská republika</Stat></{prefix}{tag}>"
    )


def court_notice(n: int, name: str, number: str, day: date, rng: random.Random, personal: bool) -> str:
    druh, text = KINDS[0] if personal else rng.choice(KINDS)
    debtor = party("Dlznik", name, "" if personal else number, rng)
    return (
        f"<KonkurzARestrukt><ID>{n}</ID><Autor><Sud>{x(rng.choice(COURTS))}</Sud>"
        f"<SpisovaZnacka>{rng.randint(1, 40)}K/{rng.randint(1, 300)}/{day.year}</SpisovaZnacka><ICS>{n}</ICS>"
        f"<Vydal>JUDr. Sudca</Vydal><VydalFN>sudca</VydalFN><Odoslal>súd</Odoslal></Autor>"
        f"<DatumVydania>{(day - timedelta(days=4)).strftime('%d.%m.%Y')}</DatumVydania>{debtor}"
        f"<Navrhovatelia>{party('Navrhovatel', name, number, rng)}</Navrhovatelia>"
        f"<Spravcovia>{party('Spravca', 'SPRÁVCA VZOR k.s.', '', rng)}</Spravcovia>"
        f"<Text><Druh>{x(druh)}</Druh><Hlavicka>Konkurzná vec dlžníka {x(name)}</Hlavicka>"
        f"<Rozhodnutie>{x(text.format(name=name))}</Rozhodnutie><Odovodnenie/><Poucenie/><Oznam/></Text>"
        f"</KonkurzARestrukt>"
    )


def liquidation_call(name: str, number: str, day: date, rng: random.Random) -> str:
    ov = "ov:"
    return (
        f'<ov:OznamenieVyzvaLikvidatorov xmlns:ov="/PortalJustice/XmlFormularObchodnyVestnik/" '
        f'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><ov:Likvidatori>'
        f'<ov:LikvidatorTyp Kod="PO">Právnická osoba</ov:LikvidatorTyp><ov:LikvidatorFO xsi:nil="true"/>'
        f"<ov:LikvidatorPO><ov:ObchodneMenoNazov>LIKVIDÁTOR VZOR s.r.o.</ov:ObchodneMenoNazov>"
        f"{sidlo('Sidlo', rng, ov)}</ov:LikvidatorPO></ov:Likvidatori><ov:Podnik>"
        f'<ov:PravnaForma Kod="112">Spoločnosť s ručením obmedzeným</ov:PravnaForma><ov:PravnaFormaIne/>'
        f'<ov:UdajeStatnyPodnik xsi:nil="true"/><ov:Udaje><ObchodneMenoNazov>{x(name)} v likvidácii'
        f"</ObchodneMenoNazov>{sidlo('Sidlo', rng)}</ov:Udaje><ov:Ico>{number}</ov:Ico><ov:Sid/>"
        f'<ov:ZapisRegister><JeObchodnyRegister>true</JeObchodnyRegister><OrSud Kod="BA">Mestský súd '
        f"Bratislava III</OrSud><OrOddiel>Sro</OrOddiel><OrVlozka>{rng.randint(1, 99999)}/B</OrVlozka>"
        f"<InyRegistrovana/><InyRegistracneCislo/></ov:ZapisRegister></ov:Podnik>"
        f"<ov:RozhodnutieNaZaklade>rozhodnutia valného zhromaždenia</ov:RozhodnutieNaZaklade>"
        f"<ov:RozhodnutieDatum>{day - timedelta(days=14)}</ov:RozhodnutieDatum>"
        f"<ov:RozhodnutieDatumZaciatkuLikvidacie>{day - timedelta(days=7)}"
        "</ov:RozhodnutieDatumZaciatkuLikvidacie>"
        f'<ov:VeritelPravnaForma Kod="PO">Právnická osoba</ov:VeritelPravnaForma>'
        f"<ov:PohladavkyLehota>3 mesiace</ov:PohladavkyLehota>"
        f'<ov:PohladavkyAdresaTyp Kod="PO">Právnická osoba</ov:PohladavkyAdresaTyp>'
        f'<ov:PohladavkyAdresaFO xsi:nil="true"/><ov:PohladavkyAdresaPO>'
        "<ov:ObchodneMenoNazov>LIKVIDÁTOR VZOR "
        f"s.r.o.</ov:ObchodneMenoNazov>{sidlo('Sidlo', rng, ov)}</ov:PohladavkyAdresaPO>"
        f"</ov:OznamenieVyzvaLikvidatorov>"
    )


def register_filing(name: str, number: str, rng: random.Random) -> str:
    spaced = f"{number[:2]} {number[2:5]} {number[5:]}"
    if rng.random() < 0.5:
        kind, text = (
            "Výmaz",
            f"Obchodné meno: {name} v likvidácii, IČO: {spaced}. Výmaz po skončení likvidácie.",
        )
    else:
        kind, text = "Zmeny", f"Obchodné meno: {name}, IČO: {spaced}. Dátum vstupu do likvidácie: 01.02.2024."
    return (
        f"<ORPodanie><ORZnacka>Sro {rng.randint(1, 99999)}/B</ORZnacka><SudKod>BA</SudKod>"
        f"<SudNazov>Mestský súd Bratislava III</SudNazov><TypKod>{kind[0]}</TypKod>"
        f"<TypNazov>{kind}</TypNazov>"
        f"<TextPodania>{x(text)}</TextPodania></ORPodanie>"
    )


def trustee_notice(name: str, number: str, rng: random.Random) -> str:
    return (
        f'<ov:OznameniaSpravcov xmlns:ov="/PortalJustice/XmlFormularObchodnyVestnik/"><ov:Upadca>'
        f"<ov:ObchodneMenoNazov>{x(name)}</ov:ObchodneMenoNazov>{sidlo('Sidlo', rng, 'ov:')}"
        f'<ov:Ico>{number}</ov:Ico></ov:Upadca><ov:Spravca><ov:Typ Kod="PO">Právnická osoba</ov:Typ>'
        f"<ov:CeleMeno><TitulPred/><TitulZa/><Meno/><Priezvisko/></ov:CeleMeno>"
        f"<ov:ObchodneMenoNazov>SPRÁVCA VZOR k.s.</ov:ObchodneMenoNazov>{sidlo('Sidlo', rng, 'ov:')}"
        f"<ov:Kontakt/></ov:Spravca><ov:SpisovaZnackaSpravcovskehoSpisu>S1</ov:SpisovaZnackaSpravcovskehoSpisu>"
        f'<ov:Sud Kod="BA1">Okresný súd Bratislava I</ov:Sud><ov:SpisovaZnackaSudnehoSpisu>1K/1/2024'
        f'</ov:SpisovaZnackaSudnehoSpisu><ov:DruhPodania Kod="S">Ponuka na predaj majetku</ov:DruhPodania>'
        f"<ov:TextPodania>Správca ponúka majetok úpadcu na predaj.</ov:TextPodania></ov:OznameniaSpravcov>"
    )


def old_law(name: str, number: str, rng: random.Random) -> str:
    town, psc = rng.choice(TOWNS)
    return (
        f'<KonkurzyAVyrovnania><KrajskySud Kod="KSBA">Krajský súd v Bratislave</KrajskySud>'
        f"<SpisovaZnacka>{rng.randint(1, 40)}K {rng.randint(1, 300)}/04</SpisovaZnacka>"
        f"<ObchodneMenoNazov>{x(name)}</ObchodneMenoNazov><Ico>{number}</Ico><Sidlo><Ulica>"
        f"{x(rng.choice(STREETS))}</Ulica><Cislo>1</Cislo><Obec>{x(town)}</Obec><Psc>{psc}</Psc>"
        f'<Stat>Slovenská republika</Stat></Sidlo><ZverejnujeTyp Kod="VK">Vyhlásenie konkurzu</ZverejnujeTyp>'
        f"<SudZverejnuje>Súd vyhlásil konkurz na majetok úpadcu {x(name)}.</SudZverejnuje>"
        "</KonkurzyAVyrovnania>"
    )


def form(n: int, rng: random.Random, day: date) -> tuple[str, str]:
    """(SablonaKod, the form document) of the n-th notice."""
    index = rng.randrange(max(1, n // 3 + 1))
    rng_company = random.Random(index)  # a company keeps its name whichever notice names it
    number, name = ico(index), company_name(rng_company, rng_company.choice(SUFFIXES))
    roll = rng.random()
    if roll < 0.55:
        return "KonkurzARestrukt", court_notice(n, name, number, day, rng, personal=False)
    if roll < 0.70:
        return "OznamenieVyzvaLikvidatorov", liquidation_call(name, number, day, rng)
    if roll < 0.80:
        return "ORPodanie", register_filing(name, number, rng)
    if roll < 0.90:
        return "OznameniaSpravcov", trustee_notice(name, number, rng)
    if roll < 0.95:
        return "KonkurzyAVyrovnania", old_law(name, number, rng)
    return "KonkurzARestrukt", court_notice(n, f"{rng.choice(SURNAMES)} Vzorový", "", day, rng, personal=True)


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield HEAD
    for n in range(count):
        day = START + timedelta(days=n * 3_650 // PACE)  # in date order; a function of n alone (see PACE)
        template, document = form(n, rng, day)
        yield (
            f"<ObchodnyVestnikPodanie><Id>{5_000_000 + n}</Id><Znacka>K{n:07d}</Znacka><SablonaKod>"
            f"{template}</SablonaKod><SablonaVerzia>1</SablonaVerzia><ObchodnyVestnik><Cislo>"
            f"{day.timetuple().tm_yday}</Cislo><Rocnik>{day.year}</Rocnik><DenVydania>{day}T00:00:00"
            f"</DenVydania></ObchodnyVestnik><FormularUdaje>{x(document)}</FormularUdaje>"
            f"</ObchodnyVestnikPodanie>\n"
        )
    yield TAIL


if __name__ == "__main__":
    main(__doc__ or "", generate, default_seed=11)
