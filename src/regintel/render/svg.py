"""SVG badges (shields-style, two parts) and the 1200x630 social image, as text with every value escaped,
and the PNG rendering of an SVG (resvg, fonts from the system: DejaVu Sans of Debian's fonts-dejavu-core,
which covers Latin with Slovak and Polish diacritics, Greek and Cyrillic)."""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path
from xml.sax.saxutils import escape

FONT_STACK = "DejaVu Sans,Noto Sans,Verdana,sans-serif"
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/noto", "/usr/share/fonts")
COLOURS = {
    "green": "#2e7d32",
    "lime": "#689f38",
    "yellow": "#c49000",
    "orange": "#e65100",
    "red": "#c62828",
    "blue": "#1565c0",
    "grey": "#616161",
    "dark": "#37474f",
}


def esc(text: str) -> str:
    """Text for XML content and attribute values; characters XML 1.0 forbids are dropped."""
    clean = "".join(
        ch
        for ch in text
        if ch in "\t\n\r"
        or (ord(ch) >= 0x20 and unicodedata.category(ch) != "Cs" and ch not in "\ufffe\uffff")
    )
    return escape(clean, {'"': "&quot;", "'": "&apos;"})


def text_width(text: str, size: float = 11.0) -> float:
    """An estimate of DejaVu Sans's advance width (wide glyphs count more), good enough to size a badge."""
    wide = sum(1 for ch in text if unicodedata.east_asian_width(ch) in "WF")
    caps = sum(1 for ch in text if ch.isupper() or ch.isdigit())
    return size * (0.56 * (len(text) - wide - caps) + 0.68 * caps + 1.0 * wide)


def badge(label: str, value: str, colour: str) -> str:
    fill = COLOURS.get(colour, colour)
    lw, vw = round(text_width(label) + 14), round(text_width(value) + 14)
    w = lw + vw
    title = esc(f"{label}: {value}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20" role="img" aria-label="{title}">'
        f"<title>{title}</title>"
        f'<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
        f'<stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{w}" height="20" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{lw}" height="20" fill="#555"/>'
        f'<rect x="{lw}" width="{vw}" height="20" fill="{fill}"/>'
        f'<rect width="{w}" height="20" fill="url(#s)"/></g>'
        f'<g fill="#fff" text-anchor="middle" font-family="{FONT_STACK}" font-size="11">'
        f'<text x="{lw / 2:.1f}" y="15" fill="#010101" fill-opacity=".3">{esc(label)}</text>'
        f'<text x="{lw / 2:.1f}" y="14">{esc(label)}</text>'
        f'<text x="{lw + vw / 2:.1f}" y="15" fill="#010101" fill-opacity=".3">{esc(value)}</text>'
        f'<text x="{lw + vw / 2:.1f}" y="14">{esc(value)}</text></g></svg>'
    )


def _fit(text: str, size: float, width: float) -> str:
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def og_image(title: str, subtitle: str, facts: list[tuple[str, str, str]], footer: str) -> str:
    """The 1200x630 social preview: name, identifier line, up to four fact tiles (label, value, colour)."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">',
        # One flat colour, not a gradient: a gradient made the PNG render 2.5 times as slow (every pixel
        # shaded and PNG rows that do not repeat), about 230 against 90 ms of CPU (docs/pages.md).
        '<rect width="1200" height="630" fill="#10304f"/>',
        '<rect x="0" y="0" width="1200" height="10" fill="#4fc3f7"/>',
        f'<g font-family="{FONT_STACK}">',
        '<text x="72" y="104" fill="#4fc3f7" font-size="30" font-weight="bold">regintel</text>',
    ]
    size = 64 if text_width(title, 64) <= 1056 else 48
    lines = [title] if size == 64 or text_width(title, 48) <= 1056 else _wrap(title, 48, 1056)
    y = 210
    for line in lines[:2]:
        parts.append(
            f'<text x="72" y="{y}" fill="#ffffff" font-size="{size}" font-weight="bold">'
            f"{esc(_fit(line, size, 1056))}</text>"
        )
        y += size + 12
    parts.append(
        f'<text x="72" y="{y + 8}" fill="#b0bec5" font-size="30">{esc(_fit(subtitle, 30, 1056))}</text>'
    )
    x = 72
    for label, value, colour in facts[:4]:
        parts.append(
            f'<rect x="{x}" y="400" width="246" height="120" rx="14" fill="#ffffff" fill-opacity=".08"'
            f' stroke="{COLOURS.get(colour, colour)}" stroke-width="3"/>'
        )
        parts.append(
            f'<text x="{x + 20}" y="440" fill="#b0bec5" font-size="22">{esc(_fit(label, 22, 206))}</text>'
        )
        vsize = next((n for n in (38, 32, 27, 23) if text_width(value, n) <= 206), 20)
        parts.append(
            f'<text x="{x + 20}" y="494" fill="#ffffff" font-size="{vsize}" font-weight="bold">'
            f"{esc(_fit(value, vsize, 206))}</text>"
        )
        x += 264
    parts.append(f'<text x="72" y="590" fill="#78909c" font-size="22">{esc(_fit(footer, 22, 1056))}</text>')
    parts.append("</g></svg>")
    return "".join(parts)


def _wrap(text: str, size: float, width: float) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        candidate = f"{line} {word}".strip()
        if line and text_width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines


FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


@functools.cache
def font_dirs() -> tuple[str, ...]:
    """Font directories present on this host, looked up once (docs/pages.md: install fonts-dejavu-core)."""
    return tuple(d for d in FONT_DIRS[:2] if Path(d).is_dir()) or tuple(
        d for d in FONT_DIRS if Path(d).is_dir()
    )


@functools.cache
def font_files() -> tuple[str, ...]:
    """DejaVu Sans regular and bold when present (parsing two files instead of a directory saves most of
    the render time); empty when they are missing, and the directories are scanned instead."""
    found = [str(Path(d) / name) for d in font_dirs() for name in FONT_FILES if (Path(d) / name).is_file()]
    return tuple(found) if len(found) == len(FONT_FILES) else ()


@functools.lru_cache(maxsize=256)
def to_png(svg: str) -> bytes:
    """The SVG rendered to PNG (the newest 256 renders are kept: an image is asked for again and again
    while a link is being shared)."""
    import resvg_py  # imported on use: only the PNG routes need it

    files = font_files()
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            skip_system_fonts=True,
            font_family="DejaVu Sans",
            sans_serif_family="DejaVu Sans",
            font_files=list(files) if files else None,
            font_dirs=None if files else list(font_dirs()),
        )
    )
