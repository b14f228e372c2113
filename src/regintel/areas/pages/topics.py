"""The landing pages of spec 4.7 (one per topic, and per-country directories) and the policy pages, in
Slovak and English. Each topic names the endpoints that answer it (all exist in this service; their keys and
limits are in the endpoint catalogue)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Topic:
    slug: str
    title: dict[str, str]
    text: dict[str, str]
    endpoints: tuple[str, ...]
    links: tuple[tuple[str, str], ...] = ()  # public pages: (href, label)


def _t(sk: str, en: str) -> dict[str, str]:
    return {"sk": sk, "en": en}


TOPICS = {
    t.slug: t
    for t in (
        Topic(
            "antitrust-cases",
            _t("Antimonopolné konania", "Antitrust cases"),
            _t(
                "Rozhodnutia protimonopolného úradu o kartelových dohodách, fúziách, zneužití postavenia a "
                "štátnej pomoci "
                "pri každej firme, s výrokom a rozhodnutiami súdov.",
                "Competition-authority decisions on cartels, mergers, abuse of dominance and state aid for "
                "each company, "
                "with the verdict and the courts' rulings.",
            ),
            ("GET /api/v1/companies/{ico}/amo-cases",),
        ),
        Topic(
            "company-credit-score",
            _t("Kreditné skóre firmy", "Company credit score"),
            _t(
                "Vysvetliteľné kreditné skóre A+ až F a úverový limit z účtovných závierok, insolvencie a "
                "registrových "
                "udalostí, s faktormi, ktoré skóre tvoria.",
                "An explainable A+ to F credit grade and credit limit from financial statements, insolvency "
                "and register "
                "events, with the factors behind it.",
            ),
            ("GET /api/v1/companies/{ico}/credit-score", "GET /api/v1/public/check/{ico}/credit-badge.svg"),
            (("/badge-generator", "Badge generator"),),
        ),
        Topic(
            "company-lookup-api",
            _t("API na vyhľadanie firmy", "Company lookup API"),
            _t(
                "Jedno REST API nad otvorenými obchodnými registrami európskych krajín: vyhľadanie podľa "
                "názvu alebo "
                "identifikátora, výpis záznamu, história zmien a udalostí.",
                "One REST API over the open business registers of European countries: search by name or "
                "identifier, "
                "the full record, its change history and timeline.",
            ),
            (
                "GET /api/v1/companies/{ico}",
                "GET /api/v1/companies/search",
                "GET /api/v1/companies/{ico}/timeline",
            ),
            (("/coverage", "Coverage"),),
        ),
        Topic(
            "data-feeds",
            _t("Dátové kanály", "Data feeds"),
            _t(
                "Verejné kanály bez kľúča: insolvencie (RSS, Atom, JSON, CSV), regulačné správy, rebríčky a "
                "štatistiky.",
                "Public feeds without a key: insolvencies (RSS, Atom, JSON, CSV), regulatory news, rankings "
                "and "
                "statistics.",
            ),
            (
                "GET /api/v1/public/rankings.json",
                "GET /api/v1/public/regulatory-feed",
                "GET /api/v1/public/stats.json",
            ),
            (("/najvacsie-firmy", "Largest companies"),),
        ),
        Topic(
            "eu-funds-recipients",
            _t("Príjemcovia eurofondov", "EU funds recipients"),
            _t(
                "Projekty a príjemcovia fondov EÚ (Kohesio, Financial Transparency System, CORDIS) prepojené "
                "s firmami "
                "z registrov.",
                "EU-funded projects and recipients (Kohesio, Financial Transparency System, CORDIS) linked "
                "to register "
                "companies.",
            ),
            ("GET /api/v1/public/eu-funds/{ico}.json", "GET /api/v1/public/stats/{feed}"),
        ),
        Topic(
            "iban-to-company",
            _t("IBAN na firmu", "IBAN to company"),
            _t(
                "Komu patrí bankový účet: zverejnené účty platiteľov DPH, overenie IBAN pre danú firmu.",
                "Who holds a bank account: the published accounts of VAT payers, and a check of an IBAN "
                "against a "
                "company.",
            ),
            (
                "GET /api/v1/public/iban-lookup/{iban}.json",
                "GET /api/v1/bank-accounts/lookup",
                "POST /api/v1/iban/verify",
            ),
        ),
        Topic(
            "industry-benchmarks",
            _t("Porovnanie v odvetví", "Industry benchmarks"),
            _t(
                "Ako si firma stojí voči podobným firmám toho istého odvetvia NACE: tržby, zisk, "
                "zamestnanci.",
                "How a company compares with its peers of the same NACE industry: revenue, profit, "
                "employees.",
            ),
            ("GET /api/v1/companies/{ico}/peers", "GET /api/v1/public/compare.json"),
            (("/api/v1/public/compare", "Compare companies"),),
        ),
        Topic(
            "insolvency-monitoring",
            _t("Sledovanie insolvencií", "Insolvency monitoring"),
            _t(
                "Konkurzy, reštrukturalizácie a likvidácie z obchodných vestníkov, s upozornením webhookom "
                "pri zmene.",
                "Bankruptcies, restructurings and liquidations from the gazettes, with a webhook when a flag "
                "changes.",
            ),
            (
                "GET /api/v1/public/recent-bankruptcies.rss",
                "GET /api/v1/public/stats/bankrupt",
                "POST /api/v1/watch",
            ),
            (("/api/v1/public/recent-bankruptcies.atom", "Atom feed"),),
        ),
        Topic(
            "kyc-kyb",
            _t("KYC/KYB", "KYC/KYB"),
            _t(
                "Súhrn na poznanie klienta: register, skutoční vlastníci, sankcie, insolvencia, dlhy voči "
                "štátu a "
                "kontrolný zoznam due diligence.",
                "A know-your-business summary: register record, beneficial owners, sanctions, insolvency, "
                "public debts "
                "and a due-diligence checklist.",
            ),
            ("GET /api/v1/companies/{ico}/compliance", "GET /api/v1/companies/{ico}/ultimate-owner"),
        ),
        Topic(
            "lei-lookup",
            _t("Vyhľadanie LEI", "LEI lookup"),
            _t(
                "Identifikátor právnickej osoby (LEI) z GLEIF na firmu z registra a späť.",
                "The GLEIF Legal Entity Identifier to a register company and back.",
            ),
            ("GET /api/v1/public/lei-lookup/{lei}.json",),
        ),
        Topic(
            "nis2-checker",
            _t("Kontrola NIS2", "NIS2 checker"),
            _t(
                "Patrí firma pod smernicu NIS2 ako základný alebo dôležitý subjekt? Podľa odvetvia, veľkosti "
                "a "
                "regulovaných zoznamov, s istotou a dôvodmi.",
                "Is a company in scope of the NIS2 directive as an essential or important entity? By sector, "
                "size and "
                "the regulated lists, with its certainty and reasons.",
            ),
            ("GET /api/v1/companies/{ico}/nis2", "GET /api/v1/public/check/{ico}/nis2-badge.svg"),
        ),
        Topic(
            "public-contracts",
            _t("Verejné zákazky", "Public contracts"),
            _t(
                "Zákazky a zmluvy z TED a registrov zmlúv, pri dodávateľoch z registra; rebríček firiem "
                "podľa hodnoty.",
                "Contracts and awards from TED and the contract registers, at the supplier companies; a "
                "ranking of "
                "companies by value.",
            ),
            ("GET /api/v1/companies/{ico}/contracts", "GET /api/v1/public/rankings/{key}.json"),
            (("/rebricky/public-contracts", "Public-contracts ranking"),),
        ),
        Topic(
            "sanctions-screening",
            _t("Sankčný skríning", "Sanctions screening"),
            _t(
                "Vysvetliteľné porovnanie firiem a osôb so sankčnými zoznamami EÚ, OSN a Spojeného "
                "kráľovstva.",
                "Explainable screening of companies and people against the EU, UN and UK sanctions lists.",
            ),
            ("POST /api/v1/public/screen", "GET /api/v1/companies/{ico}/sanctions"),
        ),
        Topic(
            "shell-address-scan",
            _t("Adresy schránkových firiem", "Shell address scan"),
            _t(
                "Adresy, na ktorých sídli najviac firiem, a firmy na nich.",
                "The addresses where the most companies are registered, and the companies there.",
            ),
            ("GET /api/v1/public/shell-addresses", "GET /api/v1/public/rankings/{key}.json"),
            (("/rebricky/shell-addresses", "Shell addresses"),),
        ),
        Topic(
            "top-statutory-officers",
            _t("Štatutári s najviac funkciami", "Top statutory officers"),
            _t(
                "Osoby v štatutárnych orgánoch mnohých firiem, z verejných registrov (len údaje, ktoré "
                "register "
                "zverejňuje).",
                "People who sit on the boards of many companies, from the public registers (only what the "
                "register "
                "publishes).",
            ),
            ("GET /api/v1/people/search",),
        ),
    )
}

POLICIES = {
    "privacy": _t("Ochrana osobných údajov", "Privacy"),
    "terms": _t("Podmienky používania", "Terms of use"),
    "subprocessors": _t("Sprostredkovatelia", "Subprocessors"),
    "dsa-notice": _t("Oznámenie podľa DSA", "DSA notice"),
    "privacy-request": _t("Žiadosť o osobné údaje", "Privacy request"),
}

DIRECTORY = {
    "title": _t("Firmy v krajine {country}", "Companies in {country}"),
    "text": _t(
        "{entities} právnických osôb z registrov krajiny {country}, z toho {active} aktívnych.",
        "{entities} legal entities from the registers of {country}, {active} of them active.",
    ),
}

UI = {
    "sk": {
        "endpoints": "Ktoré volania API na to odpovedajú",
        "key": "Dátové volania potrebujú kľúč API; tieto stránky a obrázky nie.",
        "docs": "Katalóg volaní",
        "pages": "Verejné stránky",
        "largest": "Najväčšie firmy",
        "browse": "Všetky firmy krajiny",
        "topics": "Témy",
        "none": "Z tejto krajiny zatiaľ nie sú načítané firmy.",
    },
    "en": {
        "endpoints": "The API calls that answer it",
        "key": "Data calls need an API key; these pages and images do not.",
        "docs": "Endpoint catalogue",
        "pages": "Public pages",
        "largest": "Largest companies",
        "browse": "Every company of the country",
        "topics": "Topics",
        "none": "No companies of this country are loaded yet.",
    },
}
