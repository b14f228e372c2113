"""The Slovak and English texts of the pages that come in both languages (`?lang=sk|en`)."""

from __future__ import annotations

HEATMAP = {
    "sk": {
        "heading": "Mapa firiem podľa krajov",
        "intro": "Počet právnických osôb v každom kraji (NUTS 3) Slovenska "
        "a Česka podľa adresy sídla v registri. Tmavšia farba znamená viac firiem.",
        "legend_low": "menej",
        "legend_high": "viac",
        "table_caption": "Firmy podľa kraja (rovnaké čísla ako mapa)",
        "region_label": "Kraj",
        "companies_label": "Firmy",
        "regions_link": "Firmy podľa krajov",
    },
    "en": {
        "heading": "Company heat map",
        "intro": "Legal entities per NUTS 3 region of Slovakia and Czechia, by "
        "the registered address. A darker colour means more companies.",
        "legend_low": "fewer",
        "legend_high": "more",
        "table_caption": "Companies by region (the map's figures)",
        "region_label": "Region",
        "companies_label": "Companies",
        "regions_link": "Companies by region",
    },
}

REGIONS = {
    "sk": {
        "heading": "Firmy podľa krajov",
        "intro": "Právnické osoby a aktívne firmy v každom regióne NUTS 3, "
        "pre všetky krajiny, ktorých záznamy nesú kód NUTS 3.",
        "empty": "Žiadny záznam zatiaľ nemá kód NUTS 3.",
        "country": "Krajina",
        "region": "Región",
        "companies": "Firmy",
        "active": "Aktívne",
        "map": "Mapa",
    },
    "en": {
        "heading": "Companies by region",
        "intro": "Legal entities and active companies per NUTS 3 region, for "
        "every country whose records carry a NUTS 3 code.",
        "empty": "No record carries a NUTS 3 code yet.",
        "country": "Country",
        "region": "Region",
        "companies": "Companies",
        "active": "Active",
        "map": "Map",
    },
}

TECHNOLOGIES = {
    "sk": {
        "heading": "Technológie firiem",
        "intro": "Koľko skontrolovaných domén firiem (z {checked}) ukazuje "
        "danú technológiu alebo poštovú službu, podľa pasívnych kontrol (pravidlá {version}). Domény "
        "pochádzajú "
        "z registrov.",
        "empty": "Žiadna skontrolovaná doména zatiaľ neukázala známu technológiu.",
        "none_checked": "Zatiaľ nebola skontrolovaná žiadna doména firmy, preto tu nie sú žiadne čísla.",
        "name": "Technológia",
        "category": "Kategória",
        "domains": "Domény",
    },
    "en": {
        "heading": "Technologies of companies",
        "intro": "How many checked company domains (of {checked}) show "
        "each technology or mail provider, from passive checks (rules {version}). The domains come from the "
        "registers.",
        "empty": "No checked domain has shown a known technology yet.",
        "none_checked": "No company domain has been checked yet, so there are no figures here.",
        "name": "Technology",
        "category": "Category",
        "domains": "Domains",
    },
}
