"""The 23 markets: Faker locale, language, currency, share of the entities, legal forms.

Legal-form codes are ISO 20275 ELF codes (GLEIF list v1.5, the codes of the `legal-forms` code
list); Ukraine has no ELF codes, so its forms carry the national KOPFG code as "UA:240".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Form:
    code: str
    abbr: str  # as written in the name
    name: str  # the local name of the form
    weight: int
    large: bool = False  # a public or joint-stock form, chosen mostly for large companies
    prefix: bool = False  # written before the name ("UAB Vilniaus statyba")
    letter: str = ""  # the first letter of a Spanish CIF


@dataclass(frozen=True)
class Variant:
    """A language community of a market (Belgium and Switzerland have two)."""

    locale: str
    lang: str
    share: int
    forms: tuple[Form, ...]


@dataclass(frozen=True)
class Market:
    country: str
    currency: str
    share: int  # entities per thousand
    variants: tuple[Variant, ...]
    director: str  # the title a statutory director carries in this market
    address: str = "street-first"  # street-first | number-first (FR) | uk
    nuts: str = ""  # the NUTS country prefix where it differs (UK, EL)


def _one(locale: str, lang: str, *forms: Form) -> tuple[Variant, ...]:
    return (Variant(locale, lang, 100, forms),)


MARKETS: dict[str, Market] = {
    m.country: m
    for m in (
        Market(
            "FR",
            "EUR",
            130,
            _one(
                "fr_FR",
                "fr",
                Form("6CHY", "SAS", "société par actions simplifiée", 40),
                Form("V9QP", "SARL", "société à responsabilité limitée", 35),
                Form("6CHY", "SASU", "société par actions simplifiée unipersonnelle", 10),
                Form("FY0F", "SCI", "société civile immobilière", 8),
                Form("H1U2", "SNC", "société en nom collectif", 4),
                Form("QVPB", "SA", "société anonyme", 3, large=True),
            ),
            "Président",
            "number-first",
        ),
        Market(
            "GB",
            "GBP",
            120,
            _one(
                "en_GB",
                "en",
                Form("H0PO", "LIMITED", "Private Limited Company", 70),
                Form("H0PO", "LTD", "Private Limited Company", 25),
                Form("B6ES", "PLC", "Public Limited Company", 2, large=True),
                Form("Z0EY", "LLP", "Limited Liability Partnership", 3),
            ),
            "Director",
            "uk",
            "UK",
        ),
        Market(
            "IT",
            "EUR",
            90,
            _one(
                "it_IT",
                "it",
                Form("OV32", "S.r.l.", "Società a responsabilità limitata", 65),
                Form("8GU1", "S.r.l.s.", "Società a responsabilità limitata semplificata", 10),
                Form("CGSO", "S.a.s.", "Società in accomandita semplice", 12),
                Form("T2X1", "S.n.c.", "Società in nome collettivo", 8),
                Form("P418", "S.p.A.", "Società per azioni", 5, large=True),
            ),
            "Amministratore Unico",
        ),
        Market(
            "ES",
            "EUR",
            80,
            _one(
                "es_ES",
                "es",
                Form("DP3Q", "S.L.", "Sociedad de Responsabilidad Limitada", 70, letter="B"),
                Form("R6UT", "S.L.U.", "Sociedad Limitada Unipersonal", 12, letter="B"),
                Form("5RDO", "S.A.", "Sociedad Anónima", 12, large=True, letter="A"),
                Form("1QU8", "S.Coop.", "Sociedad Cooperativa", 6, letter="F"),
            ),
            "Administrador Único",
        ),
        Market(
            "PL",
            "PLN",
            60,
            _one(
                "pl_PL",
                "pl",
                Form("O7XB", "sp. z o.o.", "spółka z ograniczoną odpowiedzialnością", 85),
                Form("BSJT", "sp.k.", "spółka komandytowa", 6),
                Form("629I", "sp.j.", "spółka jawna", 4),
                Form("FJ0E", "S.A.", "spółka akcyjna", 5, large=True),
            ),
            "Prezes Zarządu",
        ),
        Market(
            "UA",
            "UAH",
            50,
            _one(
                "uk_UA",
                "uk",
                Form("UA:240", "TOV", "Tovarystvo z obmezhenoiu vidpovidalnistiu", 85, prefix=True),
                Form("UA:250", "TDV", "Tovarystvo z dodatkovoiu vidpovidalnistiu", 4, prefix=True),
                Form("UA:260", "PT", "Povne tovarystvo", 3, prefix=True),
                Form("UA:230", "PrAT", "Pryvatne aktsionerne tovarystvo", 8, large=True, prefix=True),
            ),
            "Dyrektor",
        ),
        Market(
            "NL",
            "EUR",
            50,
            _one(
                "nl_NL",
                "nl",
                Form("54M6", "B.V.", "besloten vennootschap met beperkte aansprakelijkheid", 85),
                Form("62Y3", "V.O.F.", "vennootschap onder firma", 10),
                Form("CODH", "C.V.", "commanditaire vennootschap", 3),
                Form("B5PM", "N.V.", "naamloze vennootschap", 2, large=True),
            ),
            "Bestuurder",
        ),
        Market(
            "RO",
            "RON",
            50,
            _one(
                "ro_RO",
                "ro",
                Form("XHN1", "SRL", "Societate cu răspundere limitată", 85),
                Form("F68H", "SNC", "Societate în nume colectiv", 4),
                Form("V0FL", "SCS", "Societate în comandită simplă", 3),
                Form("ANDT", "SA", "Societate pe acţiuni", 8, large=True),
            ),
            "Administrator",
        ),
        Market(
            "CZ",
            "CZK",
            45,
            _one(
                "cs_CZ",
                "cs",
                Form("9HLU", "s.r.o.", "Společnost s ručením omezeným", 85),
                Form("CD28", "k.s.", "Společnost komanditní", 3),
                Form("5KU5", "v.o.s.", "Veřejná obchodní společnost", 4),
                Form("6CQN", "a.s.", "Akciová společnost", 8, large=True),
            ),
            "jednatel",
        ),
        Market(
            "BE",
            "EUR",
            40,
            (
                Variant(
                    "nl_BE",
                    "nl",
                    60,
                    (
                        Form("3W7E", "BV", "Besloten Vennootschap", 80),
                        Form("28FE", "CV", "Coöperatieve vennootschap", 5),
                        Form("UW1Y", "VOF", "Vennootschap onder firma", 5),
                        Form("MQH3", "CommV", "Commanditaire vennootschap", 4),
                        Form("R85P", "NV", "Naamloze vennootschap", 6, large=True),
                    ),
                ),
                Variant(
                    "fr_BE",
                    "fr",
                    40,
                    (
                        Form("3W7E", "SRL", "Société à responsabilité limitée", 85),
                        Form("28FE", "SC", "Société coopérative", 9),
                        Form("R85P", "SA", "Société anonyme", 6, large=True),
                    ),
                ),
            ),
            "Bestuurder",
        ),
        Market(
            "GR",
            "EUR",
            30,
            _one(
                "el_GR",
                "el",
                Form("QCA0", "I.K.E.", "Idiotiki Kefalaiouchiki Etaireia", 35),
                Form("H6OR", "E.P.E.", "Etaireia Periorismenis Efthynis", 15),
                Form("TIZ2", "O.E.", "Omorrythmi Etaireia", 20),
                Form("54AL", "E.E.", "Eterorrythmi Etaireia", 15),
                Form("W2NK", "A.E.", "Anonymi Etaireia", 15, large=True),
            ),
            "Diacheiristis",
            nuts="EL",
        ),
        Market(
            "SK",
            "EUR",
            30,
            _one(
                "sk_SK",
                "sk",
                Form("VSZS", "s. r. o.", "Spoločnosť s ručením obmedzeným", 85),
                Form("KB52", "k. s.", "Komanditná spoločnosť", 3),
                Form("5J5Y", "v. o. s.", "Verejná obchodná spoločnosť", 3),
                Form("D18J", "j. s. a.", "Jednoduchá spoločnosť na akcie", 2),
                Form("2EEG", "a. s.", "Akciová spoločnosť", 7, large=True),
            ),
            "konateľ",
        ),
        Market(
            "AT",
            "EUR",
            30,
            _one(
                "de_AT",
                "de",
                Form("AXSB", "GmbH", "Gesellschaft mit beschränkter Haftung", 85),
                Form("ONF1", "KG", "Kommanditgesellschaft", 8),
                Form("JTAV", "OG", "Offene Gesellschaft", 4),
                Form("EQOV", "AG", "Aktiengesellschaft", 3, large=True),
            ),
            "Geschäftsführer",
        ),
        Market(
            "CH",
            "CHF",
            30,
            (
                Variant(
                    "de_CH",
                    "de",
                    70,
                    (
                        Form("3EKS", "GmbH", "Gesellschaft mit beschränkter Haftung", 55),
                        Form("MRSY", "Kollektivgesellschaft", "Kollektivgesellschaft", 5),
                        Form("MVII", "AG", "Aktiengesellschaft", 40, large=True),
                    ),
                ),
                Variant(
                    "fr_CH",
                    "fr",
                    30,
                    (
                        Form("3EKS", "Sàrl", "Société à responsabilité limitée", 55),
                        Form("MVII", "SA", "Société anonyme", 45, large=True),
                    ),
                ),
            ),
            "Geschäftsführer",
        ),
        Market(
            "NO",
            "NOK",
            25,
            _one(
                "no_NO",
                "no",
                Form("YI42", "AS", "Aksjeselskap", 88),
                Form("326Y", "ANS", "Ansvarlig selskap", 5),
                Form("CF5L", "DA", "Ansvarlig selskap med delt ansvar", 5),
                Form("IQGE", "ASA", "Allmennaksjeselskap", 2, large=True),
            ),
            "Daglig leder",
        ),
        Market(
            "FI",
            "EUR",
            25,
            _one(
                "fi_FI",
                "fi",
                Form("DKUW", "Oy", "Osakeyhtiö", 85),
                Form("HEOB", "Ky", "Kommandiittiyhtiö", 8),
                Form("PPMX", "Ay", "Avoin yhtiö", 5),
                Form("K6VE", "Oyj", "Julkinen osakeyhtiö", 2, large=True),
            ),
            "Toimitusjohtaja",
        ),
        Market(
            "IE",
            "EUR",
            20,
            _one(
                "en_IE",
                "en",
                Form("MNQ7", "Limited", "Private Company Limited by Shares", 80),
                Form("LGWG", "DAC", "Designated Activity Company", 10),
                Form("C58S", "CLG", "Company Limited by Guarantee", 8),
                Form("VYAX", "PLC", "Public Limited Company", 2, large=True),
            ),
            "Director",
            "uk",
        ),
        Market(
            "HR",
            "EUR",
            20,
            _one(
                "hr_HR",
                "hr",
                Form("OQWO", "d.o.o.", "Društvo s ograničenom odgovornošću", 75),
                Form("OQWO", "j.d.o.o.", "Jednostavno društvo s ograničenom odgovornošću", 15),
                Form("KP34", "j.t.d.", "Javno trgovačko društvo", 4),
                Form("MF7P", "k.d.", "Komanditno društvo", 2),
                Form("LUMA", "d.d.", "Dioničko društvo", 4, large=True),
            ),
            "Direktor",
        ),
        Market(
            "SI",
            "EUR",
            15,
            _one(
                "sl_SI",
                "sl",
                Form("KBKD", "d.o.o.", "Družba z omejeno odgovornostjo", 88),
                Form("OPDJ", "k.d.", "Komanditna družba", 4),
                Form("SD81", "d.n.o.", "Družba z neomejeno odgovornostjo", 4),
                Form("1OR3", "d.d.", "Delniška družba", 4, large=True),
            ),
            "Direktor",
        ),
        Market(
            "LT",
            "EUR",
            15,
            _one(
                "lt_LT",
                "lt",
                Form("BPLS", "UAB", "Uždaroji akcinė bendrovė", 85, prefix=True),
                Form("SFYA", "MB", "Mažoji bendrija", 8, prefix=True),
                Form("DLCX", "TŪB", "Tikroji ūkinė bendrija", 2, prefix=True),
                Form("81KA", "AB", "Akcinė bendrovė", 5, large=True, prefix=True),
            ),
            "Direktorius",
        ),
        Market(
            "LV",
            "EUR",
            15,
            _one(
                "lv_LV",
                "lv",
                Form("ES2D", "SIA", "Sabiedrība ar ierobežotu atbildību", 90, prefix=True),
                Form("3LCY", "PS", "Pilnsabiedrība", 3, prefix=True),
                Form("1IPK", "KS", "Komandītsabiedrība", 2, prefix=True),
                Form("VJBO", "AS", "Akciju sabiedrība", 5, large=True, prefix=True),
            ),
            "Valdes loceklis",
        ),
        Market(
            "EE",
            "EUR",
            15,
            _one(
                "et_EE",
                "et",
                Form("JC0Y", "OÜ", "Osaühing", 90),
                Form("I1UP", "TÜ", "Täisühing", 2),
                Form("LVEQ", "UÜ", "Usaldusühing", 2),
                Form("9LJA", "AS", "Aktsiaselts", 6, large=True),
            ),
            "Juhatuse liige",
        ),
        Market(
            "CY",
            "EUR",
            15,
            _one(
                "el_CY",
                "el",
                Form("K9L6", "Limited", "Idiotiki Etaireia Periorismenis Efthynis me metoches", 95),
                Form(
                    "BCF5",
                    "Public Limited",
                    "Dimosia Etaireia Periorismenis Efthynis me metoches",
                    5,
                    large=True,
                ),
            ),
            "Director",
            "street-first",
            "CY",
        ),
    )
}

COUNTRIES = tuple(MARKETS)
assert sum(m.share for m in MARKETS.values()) == 1000
