"""Words company names are made of, per language: trades, "and", brand-name roots, and the real
town lists used where Faker has no real place names for a market (its fr_FR, en_GB and en_IE cities
are invented, and lt_LT, lv_LV, et_EE and el_CY have no address provider)."""

from __future__ import annotations

TRADES: dict[str, tuple[str, ...]] = {
    "sk": ("Stavby", "Trans", "Servis", "Obchod", "Agro", "Elektro", "Reality", "Invest", "Consulting", "Technika",
           "Drevo", "Potraviny"),
    "cs": ("Stavby", "Trans", "Servis", "Obchod", "Agro", "Elektro", "Reality", "Invest", "Strojírna", "Technika",
           "Dřevo", "Potraviny"),
    "fr": ("Conseil", "Transports", "Bâtiment", "Immobilier", "Services", "Distribution", "Ingénierie",
           "Industrie", "Habitat", "Boulangerie", "Automobiles", "Logistique"),
    "en": ("Consulting", "Properties", "Holdings", "Construction", "Logistics", "Services", "Engineering",
           "Trading", "Developments", "Solutions", "Foods", "Motors"),
    "ro": ("Construct", "Trans", "Impex", "Consulting", "Agro", "Servicii", "Comert", "Invest", "Distributie",
           "Prod", "Imobiliare", "Tehnic"),
    "uk": ("Budinvest", "Agro", "Trans", "Tekhnobud", "Servis", "Torh", "Prom", "Invest", "Ukrbud", "Enerho",
           "Kharchoprom", "Lohistyk"),
    "el": ("Techniki", "Kataskeves", "Emporiki", "Metafores", "Tourismos", "Trofima", "Symvouleftiki",
           "Ktimatiki", "Energeiaki", "Viomichania", "Ependytiki", "Agrotiki"),
    "nl": ("Bouw", "Transport", "Installatie", "Advies", "Holding", "Vastgoed", "Logistiek", "Techniek", "Handel",
           "Beheer", "Diensten", "Groep"),
    "no": ("Bygg", "Transport", "Eiendom", "Holding", "Elektro", "Rør", "Maskin", "Invest", "Service",
           "Regnskap", "Consult", "Entreprenør"),
    "fi": ("Rakennus", "Kuljetus", "Kiinteistöt", "Sähkö", "Konsultointi", "Metalli", "Puu", "Palvelut",
           "Tekniikka", "Invest", "Kauppa", "Logistiikka"),
    "de": ("Bau", "Transporte", "Immobilien", "Holding", "Elektro", "Technik", "Handel", "Beratung", "Service",
           "Invest", "Logistik", "Verwaltung"),
    "pl": ("Budownictwo", "Transport", "Handel", "Usługi", "Nieruchomości", "Consulting", "Invest", "Instalacje",
           "Serwis", "Logistyka", "Produkcja", "Technika"),
    "lt": ("Statyba", "Transportas", "Prekyba", "Paslaugos", "Investicijos", "Logistika", "Technika", "Agro",
           "Baldai", "Statybos", "Medis", "Servisas"),
    "lv": ("Būvniecība", "Transports", "Tirdzniecība", "Pakalpojumi", "Investīcijas", "Loģistika", "Tehnika",
           "Nams", "Agro", "Koks", "Serviss", "Būve"),
    "et": ("Ehitus", "Transport", "Kinnisvara", "Kaubandus", "Teenused", "Invest", "Logistika", "Tehnika", "Puit",
           "Agro", "Konsultatsioonid", "Grupp"),
    "sl": ("Gradbeništvo", "Transport", "Trgovina", "Storitve", "Inženiring", "Nepremičnine", "Invest",
           "Logistika", "Elektro", "Gradnje", "Servis", "Les"),
    "es": ("Construcciones", "Transportes", "Inversiones", "Servicios", "Distribuciones", "Inmobiliaria",
           "Consultores", "Ingeniería", "Logística", "Promociones", "Gestión", "Alimentación"),
    "it": ("Costruzioni", "Trasporti", "Immobiliare", "Servizi", "Impianti", "Consulting", "Edilizia",
           "Commerciale", "Logistica", "Ingegneria", "Distribuzione", "Investimenti"),
    "hr": ("Gradnja", "Transport", "Trgovina", "Usluge", "Inženjering", "Nekretnine", "Invest", "Logistika",
           "Elektro", "Graditeljstvo", "Servis", "Drvo"),
}

AND: dict[str, str] = {"sk": "a", "cs": "a", "fr": "et", "en": "&", "ro": "și", "uk": "i", "el": "kai",
                       "nl": "en", "no": "og", "fi": "ja", "de": "&", "pl": "i", "lt": "ir", "lv": "un",
                       "et": "ja", "sl": "in", "es": "y", "it": "e", "hr": "i"}

ROOTS = ("Agro", "Auto", "Bio", "Eko", "Elektro", "Euro", "Geo", "Info", "Inter", "Medi", "Metal", "Nova", "Omni",
         "Proma", "Stavo", "Tech", "Tele", "Terra", "Trans", "Uni", "Vita", "Alfa", "Delta", "Prima", "Astra", "Nord",
         "Sol", "Lux", "Mega", "Multi")
ENDINGS = ("tech", "trans", "mont", "med", "plast", "soft", "com", "net", "tex", "pro", "form", "line", "lab",
           "wood", "stav", "log", "bau", "gas", "chem", "flex")

TOWNS: dict[str, tuple[str, ...]] = {
    "FR": ("Paris", "Marseille", "Lyon", "Toulouse", "Nice", "Nantes", "Montpellier", "Strasbourg", "Bordeaux",
           "Lille", "Rennes", "Reims", "Toulon", "Saint-Étienne", "Le Havre", "Grenoble", "Dijon", "Angers", "Nîmes",
           "Villeurbanne", "Clermont-Ferrand", "Le Mans", "Aix-en-Provence", "Brest", "Tours", "Amiens", "Limoges",
           "Annecy", "Perpignan", "Metz", "Besançon", "Orléans", "Rouen", "Mulhouse", "Caen", "Nancy", "Argenteuil",
           "Roubaix", "Tourcoing", "Avignon", "Poitiers", "Pau", "La Rochelle", "Calais", "Colmar", "Quimper"),
    "GB": ("London", "Birmingham", "Manchester", "Leeds", "Glasgow", "Sheffield", "Bradford", "Liverpool",
           "Edinburgh", "Bristol", "Cardiff", "Leicester", "Coventry", "Nottingham", "Newcastle upon Tyne",
           "Belfast", "Brighton", "Hull", "Plymouth", "Stoke-on-Trent", "Wolverhampton", "Derby", "Swansea",
           "Southampton", "Aberdeen", "Reading", "Northampton", "Luton", "Milton Keynes", "Norwich", "Exeter",
           "York", "Cambridge", "Oxford", "Bath", "Chester", "Ipswich", "Swindon", "Preston", "Dundee"),
    "IE": ("Dublin", "Cork", "Limerick", "Galway", "Waterford", "Drogheda", "Dundalk", "Swords", "Bray", "Navan",
           "Kilkenny", "Ennis", "Carlow", "Tralee", "Newbridge", "Naas", "Athlone", "Portlaoise", "Mullingar",
           "Wexford", "Letterkenny", "Sligo", "Clonmel", "Celbridge"),
    "LT": ("Vilnius", "Kaunas", "Klaipėda", "Šiauliai", "Panevėžys", "Alytus", "Marijampolė", "Mažeikiai",
           "Jonava", "Utena", "Kėdainiai", "Telšiai", "Tauragė", "Ukmergė", "Visaginas", "Plungė", "Kretinga",
           "Šilutė", "Radviliškis", "Palanga"),
    "LV": ("Rīga", "Daugavpils", "Liepāja", "Jelgava", "Jūrmala", "Ventspils", "Rēzekne", "Valmiera", "Jēkabpils",
           "Ogre", "Tukums", "Cēsis", "Salaspils", "Kuldīga", "Olaine", "Sigulda", "Talsi", "Dobele", "Bauska",
           "Saldus"),
    "EE": ("Tallinn", "Tartu", "Narva", "Pärnu", "Kohtla-Järve", "Viljandi", "Maardu", "Rakvere", "Kuressaare",
           "Sillamäe", "Valga", "Võru", "Jõhvi", "Haapsalu", "Keila", "Paide", "Saue", "Elva", "Tapa", "Põlva"),
    "CY": ("Nicosia", "Limassol", "Larnaca", "Paphos", "Paralimni", "Ayia Napa", "Strovolos", "Lakatamia",
           "Aglantzia", "Engomi", "Germasogeia", "Aradippou", "Latsia", "Polis Chrysochous", "Deryneia",
           "Ypsonas"),
    "NO": ("Oslo", "Bergen", "Trondheim", "Stavanger", "Drammen", "Fredrikstad", "Kristiansand", "Sandnes",
           "Tromsø", "Sarpsborg", "Skien", "Ålesund", "Sandefjord", "Haugesund", "Tønsberg", "Moss", "Porsgrunn",
           "Bodø", "Arendal", "Hamar", "Larvik", "Halden", "Lillehammer", "Molde", "Harstad", "Gjøvik"),
    "ES": ("Madrid", "Barcelona", "Valencia", "Sevilla", "Zaragoza", "Málaga", "Murcia", "Palma", "Las Palmas",
           "Bilbao", "Alicante", "Córdoba", "Valladolid", "Vigo", "Gijón", "Hospitalet de Llobregat", "Vitoria",
           "A Coruña", "Granada", "Elche", "Oviedo", "Badalona", "Cartagena", "Terrassa", "Jerez de la Frontera",
           "Sabadell", "Móstoles", "Santa Cruz de Tenerife", "Pamplona", "Almería", "Burgos", "Santander"),
    "CH": ("Zürich", "Genève", "Basel", "Lausanne", "Bern", "Winterthur", "Luzern", "St. Gallen", "Lugano", "Biel",
           "Thun", "Köniz", "La Chaux-de-Fonds", "Fribourg", "Schaffhausen", "Chur", "Neuchâtel", "Sion", "Zug",
           "Baden", "Aarau", "Olten", "Solothurn", "Wil", "Rapperswil-Jona"),
}

# Street words for markets without a Faker street list: a name is placed before or after them.
STREET_FORMS: dict[str, tuple[str, ...]] = {
    "LT": ("{} g.", "{} g.", "{} pr.", "{} al."),
    "LV": ("{} iela", "{} iela", "{} gatve", "{} prospekts"),
    "EE": ("{} tänav", "{} tee", "{} puiestee", "{} maantee"),
    "CY": ("{} Street", "{} Avenue", "Leoforos {}", "Odos {}"),
    "FR_BE": ("Rue {}", "Avenue {}", "Chaussée de {}", "Place {}", "Boulevard {}"),
    "FR_CH": ("Rue {}", "Avenue {}", "Chemin {}", "Route de {}"),
}
