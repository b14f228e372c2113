"""Page languages, Slovak and English: Babel message catalogs (English msgids; the Slovak catalog is
`locale/sk/LC_MESSAGES/messages.po`, extracted with `locale/babel.cfg`), used by Jinja2's i18n extension and
by the routes' own texts, and the choice of a page's language (docs/pages.md, "Languages").

The catalog is compiled from the `.po` file when first used (Babel's own reader and writer), so no binary
`.mo` file is kept beside its source."""

from __future__ import annotations

import gettext as gettext_module
from functools import lru_cache
from gettext import NullTranslations
from importlib.resources import files
from io import BytesIO
from typing import Literal

import pycountry
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from fastapi import Request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

Lang = Literal["sk", "en"]
LANGS: tuple[Lang, ...] = ("sk", "en")
_BY_CODE: dict[str, Lang] = {code: code for code in LANGS}
NAMES = {"sk": "Slovensky", "en": "English"}  # each language's own name, for the switch in the header


def N_(text: str) -> str:
    """Marks a text for extraction (Babel's default keywords include `N_`); translated where it is shown."""
    return text


@lru_cache(maxsize=len(LANGS))
def translations(lang: str) -> NullTranslations:
    if lang == "en":
        return NullTranslations()  # the msgids are the English texts
    source = files("regintel.areas.pages") / "locale" / lang / "LC_MESSAGES" / "messages.po"
    with source.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled)


def gettext(lang: str, text: str) -> str:
    return translations(lang).gettext(text)


@lru_cache(maxsize=len(LANGS))
def _country_names(lang: str) -> NullTranslations:
    if lang == "en":
        return NullTranslations()
    return gettext_module.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang], fallback=True)


def country_name(code: str, lang: str) -> str:
    """A country's name in `lang` (ISO 3166-1 names as pycountry ships them, with their translations: the
    common name where one exists, e.g. Czechia); the code itself for an unknown code."""
    country = pycountry.countries.get(alpha_2=code)
    if country is None:
        return code
    return _country_names(lang).gettext(getattr(country, "common_name", None) or country.name)


def choose(request: Request, asked: str | None, default: Lang) -> tuple[Lang, bool]:
    """The language of a page whose path does not fix it: `?lang=`, else the browser's Accept-Language
    (q-values honoured, `sk-SK` counts as `sk`), else the page's default. The flag is True when the header
    decided (or could have): such a response varies by Accept-Language."""
    if asked is not None and asked in _BY_CODE:
        return _BY_CODE[asked], False
    header = request.headers.get("accept-language")
    best = parse_accept_header(header, LanguageAccept).best_match(LANGS) if header else None
    return _BY_CODE.get(best or "", default), True


def alternates(request: Request, base: str) -> list[dict[str, str]]:
    """hreflang links of a page in both languages by `?lang=` (other query parameters kept) and its
    `x-default`, the address without `lang`, whose language the browser's Accept-Language picks; absolute
    (under the public `base`), as search engines require of hreflang."""
    url = request.url.remove_query_params("lang")
    bare = base + url.path + (f"?{url.query}" if url.query else "")
    out = []
    for code in LANGS:
        with_lang = url.include_query_params(lang=code)
        out.append({"lang": code, "href": f"{base}{with_lang.path}?{with_lang.query}"})
    out.append({"lang": "x-default", "href": bare})
    return out
