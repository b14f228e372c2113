"""Slovak and English of the company, ranking, coverage, directory and badge-generator pages through HTTP: the
language by `?lang=`, by Accept-Language, or the page's default; `<html lang>`, Content-Language, Vary and the
hreflang alternates; and the Slovak catalog complete for every text the templates and routes mark."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from lxml import html as lxml_html

from tests.helpers import assert_error

SK_ID = "31322832"
# path -> (Slovak text, English text) found in the page (headings, table headers, record labels)
PAGES = {
    f"/firma/sk/{SK_ID}": ("Záznam v registri", "Register record"),
    "/najvacsie-firmy": ("Najväčšie firmy", "Largest companies"),
    "/rebricky/shell-addresses": ("Adresy schránkových firiem", "Shell addresses"),
    "/coverage": ("Pokrytie", "Coverage"),
    "/firmy/sk": ("Firmy v krajine SK", "Companies in SK"),
    f"/badge-generator?cc=sk&ico={SK_ID}": ("Generátor odznakov", "Badge generator"),
    "/": ("Aktuálne počty", "Live counts"),
    f"/api/v1/public/compare?companies=sk:{SK_ID},cz:35757442": ("Porovnanie firiem", "Compare companies"),
}
NAV = {"sk": "Najväčšie", "en": "Largest"}  # the shared header, in the page's language


def _doc(resp):
    assert resp.status_code == 200, resp.text[:300]
    return lxml_html.fromstring(resp.text)


def _vary(resp) -> set[str]:
    return {v.strip().lower() for v in resp.headers.get("vary", "").split(",")}


def _with(path: str, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"{path}{'&' if '?' in path else '?'}{query}"


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("lang", ["sk", "en"])
def test_page_in_each_language(client, companies, path, lang):
    resp = client.get(_with(path, lang=lang))
    doc = _doc(resp)
    sk, en = PAGES[path]
    text = doc.text_content()
    assert doc.get("lang") == lang and resp.headers["content-language"] == lang
    assert (sk if lang == "sk" else en) in text
    assert (en if lang == "sk" else sk) not in doc.findtext(".//h1") + doc.findtext(".//title")
    assert NAV[lang] in doc.find(".//nav").text_content()
    assert "accept-language" not in _vary(resp)  # the query fixed the language
    links = {a.get("hreflang"): a.get("href") for a in doc.xpath("//link[@rel='alternate']")}
    bare = "http://testserver" + path.split("?")[0]
    assert set(links) == {"sk", "en", "x-default"}
    assert links["sk"].startswith(bare) and "lang=sk" in links["sk"] and "lang=en" in links["en"]
    assert "lang=" not in links["x-default"] and links["x-default"].startswith(bare)
    switch = doc.xpath("//header//a[@class='lang']")
    assert [a.get("hreflang") for a in switch] == ["en" if lang == "sk" else "sk"]


def test_other_query_parameters_stay_in_the_alternates(client, companies):
    doc = _doc(client.get(f"/badge-generator?cc=sk&ico={SK_ID}&lang=sk"))
    links = {a.get("hreflang"): a.get("href") for a in doc.xpath("//link[@rel='alternate']")}
    assert links["x-default"] == f"http://testserver/badge-generator?cc=sk&ico={SK_ID}"
    assert links["en"] == f"http://testserver/badge-generator?cc=sk&ico={SK_ID}&lang=en"
    assert doc.xpath("//input[@name='lang']/@value") == ["sk"]  # the form keeps the language


@pytest.mark.parametrize(
    "path, header, expected",
    [
        ("/coverage", "sk-SK,sk;q=0.9,en;q=0.8", "sk"),
        ("/coverage", "de-DE,de;q=0.9", "en"),  # neither language: the page's default
        ("/coverage", None, "en"),
        (f"/firma/sk/{SK_ID}", "en-GB,en;q=0.9", "en"),
        (f"/firma/sk/{SK_ID}", "de", "sk"),  # a Slovak company's page defaults to Slovak
        ("/firma/fr/552100554", None, "en"),  # other countries' to English
        ("/najvacsie-firmy", "fr;q=1, en;q=0.5, sk;q=0.2", "en"),  # q-values decide
        ("/firmy/sk", "en-US", "en"),
        ("/api/v1/public/nis2-checker", "en", "en"),  # the topic pages follow the header too
    ],
)
def test_accept_language_decides_without_lang(client, companies, path, header, expected):
    resp = client.get(path, headers={"Accept-Language": header} if header else {})
    assert _doc(resp).get("lang") == expected and resp.headers["content-language"] == expected
    assert "accept-language" in _vary(resp)  # a shared cache keys on the header


def test_lang_query_wins_over_the_header(client, companies):
    resp = client.get("/coverage?lang=en", headers={"Accept-Language": "sk"})
    assert _doc(resp).get("lang") == "en" and "accept-language" not in _vary(resp)


def test_links_keep_the_language(client, companies):
    doc = _doc(client.get("/firmy/sk?lang=en"))
    assert all(h.endswith("?lang=en") for h in doc.xpath("//tbody//a/@href"))
    assert "/najvacsie-firmy?lang=en" in doc.xpath("//nav//a/@href")
    doc = _doc(client.get(f"/firma/sk/{SK_ID}?lang=en"))
    assert doc.xpath("//link[@rel='canonical']/@href") == [f"http://testserver/firma/sk/{SK_ID}?lang=en"]
    assert doc.xpath("//meta[@property='og:locale']/@content") == ["en_GB"]


def test_unknown_language_is_refused(client, companies):
    for path in ("/coverage?lang=de", f"/firma/sk/{SK_ID}?lang=cz", "/badge-generator?lang=EN"):
        assert_error(client.get(path), 422, "VALIDATION_ERROR")


def test_slovak_catalog_is_complete():
    """Every text the templates and the routes mark has a Slovak translation with the same placeholders."""
    root = files("regintel.areas.pages")
    with (root / "locale" / "sk" / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        catalog = read_po(fh, locale="sk")
    method_map = [("templates/*.html", "jinja2"), ("*.py", "python")]
    options = {"templates/*.html": {"trimmed": "true"}}
    marked = {
        m[2] if isinstance(m[2], str) else m[2][0] for m in extract_from_dir(str(root), method_map, options)
    }
    assert len(marked) > 60
    problems = {}
    for msgid in marked:
        message = catalog.get(msgid)
        strings = (
            []
            if message is None
            else (message.string if isinstance(message.string, tuple) else [message.string])
        )
        if message is None or message.fuzzy or not all(strings):
            problems[msgid] = "missing"
        elif any(set(re.findall(r"%\(\w+\)s", s)) != set(re.findall(r"%\(\w+\)s", msgid)) for s in strings):
            problems[msgid] = "placeholders differ"
    assert problems == {}


def test_compare_values_and_links_in_slovak(client, companies):
    doc = _doc(client.get(f"/api/v1/public/compare?companies=sk:{SK_ID},cz:35757442&lang=sk"))
    rows = {
        tr.findtext("th"): [td.text_content() for td in tr.findall("td")] for tr in doc.findall(".//tbody/tr")
    }
    assert rows["Kreditný stupeň"] == ["A", "bez hodnotenia"] and "Insolvencia" in rows
    assert all(a.get("href").endswith("?lang=sk") for a in doc.xpath("//thead//a"))
    assert "lang=" not in doc.xpath("//a[text()='JSON']/@href")[0]


@pytest.mark.parametrize("lang, text", [("sk", "Váš kľúč k API"), ("en", "Your API key")])
def test_dashboard_in_each_language(client, api_key, lang, text):
    resp = client.get(f"/dashboard?api_key={api_key}&lang={lang}")
    doc = _doc(resp)
    assert doc.get("lang") == lang and doc.findtext(".//h1") == text
    assert api_key not in resp.text  # no alternates or switch repeat the query that holds the key
    assert not doc.xpath("//link[@rel='alternate']") and not doc.xpath("//header//a[@class='lang']")
    by_header = client.get(f"/dashboard?api_key={api_key}", headers={"Accept-Language": "sk"})
    assert _doc(by_header).get("lang") == "sk" and "accept-language" in _vary(by_header)
