"""The SVG and PNG rendering, directly: valid XML for any text, escaping, PNG size."""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from regintel.render import svg


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@given(st.text(max_size=200), st.text(max_size=40))
@settings(max_examples=150, deadline=None)
def test_badges_are_valid_xml_for_any_text(label, value):
    root = etree.fromstring(svg.badge(label, value, "green").encode())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


@given(st.text(max_size=300))
@settings(max_examples=100, deadline=None)
def test_og_image_is_valid_xml_for_any_name(name):
    root = etree.fromstring(svg.og_image(name, name, [("a", name, "red")], name).encode())
    assert root.get("width") == "1200" and root.get("height") == "630"


def test_text_is_escaped_not_interpreted():
    out = svg.badge('<a href="x">', "&amp;'", "red")
    assert "<a href" not in out and "&lt;a href=&quot;x&quot;&gt;" in out and "&amp;amp;&apos;" in out


def test_png_is_1200_by_630_with_every_alphabet():
    image = svg.og_image("Ελληνικά Кириллица Łódź Žilina ŠKODA", "SK · 1", [("Credit", "A+", "green")], "f")
    assert png_size(svg.to_png(image)) == (1200, 630)
    assert svg.font_dirs(), "DejaVu fonts (fonts-dejavu-core) are expected on the host"


# Pairs of names of one alphabet, equally long: with the alphabet's glyphs in the fonts the two images differ;
# without them both show the same missing-glyph boxes (the CJK pair, which DejaVu Sans lacks, shows it can).
SCRIPTS = {
    "Greek": ("Ελληνική Εταιρεία Α.Ε.", "Ψηφιακή Ωριμότητα Ο.Ε."),
    "Cyrillic": ("Кириллица Щука ООО", "Жёлтый Ёжик Эфир АО"),
    "Polish": ("Łódź Spółka Źdźbło", "Żółć Gęśla Jaźń Ść"),
    "Slovak": ("Žilina Ťažba Ľudová", "Ďumbier Ňufák Ôsmy"),
}


def _title_pixels(name: str) -> bytes:
    from io import BytesIO

    from PIL import Image

    png = svg.to_png(svg.og_image(name, "s", [], "f"))
    return Image.open(BytesIO(png)).convert("L").crop((60, 140, 1140, 230)).tobytes()


def test_the_fonts_draw_every_market_alphabet():
    from fontTools.ttLib import TTFont

    files = svg.font_files()
    assert len(files) == 2, "DejaVu Sans and DejaVu Sans Bold (fonts-dejavu-core) are expected on the host"
    for path in files:
        cmap = TTFont(path).getBestCmap()
        for pair in SCRIPTS.values():
            assert [ch for ch in "".join(pair) if ch != " " and ord(ch) not in cmap] == []
        assert ord("漢") not in cmap
    for first, second in SCRIPTS.values():
        assert _title_pixels(first) != _title_pixels(second)
    assert _title_pixels("一丁七万丈三") == _title_pixels("上下不与丐丑")  # no glyphs: the same boxes


def test_long_names_are_cut_to_fit():
    out = svg.og_image("Ж" * 400, "s", [], "f")
    assert "…" in out
