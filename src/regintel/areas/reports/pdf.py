"""PDF rendering of a report snapshot with fpdf2 and the DejaVu fonts of Debian's `fonts-dejavu-core`
(Latin with every diacritic, Greek and Cyrillic: every market's alphabet). The fonts are found at run time;
without them the report answers 501 with the package to install."""

from __future__ import annotations

import copy
import os
import tempfile
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from fontTools import ttLib
from fpdf import FPDF
from fpdf.enums import MethodReturnValue, XPos, YPos
from fpdf.fonts import SubsetMap, TTFFont

from regintel.errors import NotImplementedYet

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts/dejavu"),
)
# Two faces: every face is loaded and embedded per document (notes are set in grey, not oblique).
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
NAVY = (23, 43, 77)
GREY = (110, 117, 130)
LIGHT = (238, 241, 246)
LINE = (205, 211, 220)
SEVERITY_COLOURS = {
    "info": (46, 125, 50),
    "low": (120, 144, 156),
    "medium": (239, 108, 0),
    "high": (198, 40, 40),
}
GRADE_COLOURS = {
    "A+": (46, 125, 50),
    "A": (67, 160, 71),
    "B": (124, 179, 66),
    "C": (251, 192, 45),
    "D": (239, 108, 0),
    "E": (229, 57, 53),
    "F": (183, 28, 28),
}


# The scripts of every market (Latin with its extensions, Greek, Cyrillic), punctuation and currency signs.
# The fonts are cut down to them once per process: a 100 kB font loads in half the time of the 760 kB one,
# and fpdf2 loads the fonts for every document.
UNICODE_RANGES = (
    (0x20, 0x24F),
    (0x370, 0x52F),
    (0x1E00, 0x1FFF),
    (0x2000, 0x206F),
    (0x20A0, 0x20CF),
    (0x2100, 0x214F),
    (0x2190, 0x21FF),
    (0x2212, 0x2212),
    (0x25A0, 0x25FF),
)


SUBSET_VERSION = 2  # part of the cached file's name: a change of the options below writes new files


def _find_fonts() -> dict[str, Path]:
    for folder in FONT_DIRS:
        found = {style: folder / name for style, name in FONT_FILES.items()}
        if all(p.is_file() for p in found.values()):
            return found
    raise NotImplementedYet(
        "PDF reports need the DejaVu fonts: install Debian's `fonts-dejavu-core` "
        "(apt-get install -y fonts-dejavu-core)",
        details={"missing": "fonts-dejavu-core"},
    )


def _subset(source: Path, folder: Path) -> Path:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    stat = source.stat()
    target = folder / f"{source.stem}-{stat.st_size}-{int(stat.st_mtime)}-{SUBSET_VERSION}.ttf"
    if target.is_file():
        return target
    options = subset.Options()
    options.layout_features = ["kern", "liga"]
    options.hinting = False
    options.notdef_outline = True
    options.name_IDs = ["*"]
    options.glyph_names = True  # a post table with names: without, every load rebuilds them from the cmap
    options.drop_tables += ["FFTM"]
    font = TTFont(str(source))
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[c for low, high in UNICODE_RANGES for c in range(low, high + 1)])
    subsetter.subset(font)
    partial = folder / f".{target.name}.{os.getpid()}"
    font.save(str(partial))
    partial.replace(target)  # atomic: another process may be writing the same file
    return target


@lru_cache(maxsize=1)
def font_paths() -> dict[str, Path]:
    """The DejaVu fonts, cut down to the markets' scripts (falls back to the full fonts when the cache
    folder cannot be written)."""
    found = _find_fonts()
    folder = Path(tempfile.gettempdir()) / f"regintel-fonts-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        return {style: _subset(path, folder) for style, path in found.items()}
    except OSError:
        return found


@lru_cache(maxsize=1)
def _font_prototypes() -> dict[str, TTFFont]:
    """The faces parsed once per process (fpdf2's `add_font` reads the whole font and builds its width
    table: about 25 ms a face, for every document)."""
    host = FPDF()
    for style, path in font_paths().items():
        host.add_font("DejaVu", style, str(path))
    return {key: font for key, font in host.fonts.items() if isinstance(font, TTFFont)}


def _attach_fonts(doc: FPDF) -> None:
    """Give `doc` its own copy of each parsed face: the widths, character map and glyph ids are shared
    (read only), while what a document changes is its own: the glyphs it uses (`subset`), the font file
    that the output cuts down to them in place (`ttfont`, reopened lazily: the table directory only) and
    the descriptor that gets the document's object number."""
    for key, proto in _font_prototypes().items():
        font = copy.copy(proto)
        font.i = len(doc.fonts) + 1
        font.ttfont = ttLib.TTFont(proto.ttffile, recalcTimestamp=False, lazy=True)
        font.desc = copy.copy(proto.desc)
        font.missing_glyphs = []
        font.biggest_size_pt = 0
        font.subset = SubsetMap(font)
        doc.fonts[key] = font


def _num(value: float | int | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}".replace(",", "\u202f")


def _value(value: Any) -> str:
    """An evidence value as a reader expects it: 170 000, yes/no, dates as they are."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer() and abs(value) >= 1000:
        return _num(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return _num(value)
    return _text(value)


def _evidence(items: Sequence[dict[str, Any]], limit: int = 3) -> str:
    return "; ".join(f"{e['input'].replace('_', ' ')} {_value(e['value'])}" for e in items[:limit])


def _text(value: Any) -> str:
    return "–" if value in (None, "", []) else str(value)


class Document(FPDF):
    def __init__(self, title: str, subtitle: str, generated: str) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        _attach_fonts(self)
        self.set_font("DejaVu", "", 9)
        self.set_auto_page_break(auto=True, margin=18)
        self.set_margins(16, 16, 16)
        self.doc_title, self.subtitle, self.generated = title, subtitle, generated
        self.set_title(title)
        self.set_author("regintel")
        self.set_creator("regintel (fpdf2)")
        self.alias_nb_pages()

    # fpdf2 calls these on every page.
    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.set_font("DejaVu", "", 7.5)
        self.set_text_color(*GREY)
        self.cell(0, 5, f"{self.doc_title} · {self.subtitle}", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_draw_color(*LINE)
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())
        self.ln(4)

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font("DejaVu", "", 7.5)
        self.set_text_color(*GREY)
        self.cell(
            0, 5, f"regintel · generated {self.generated} · from open registers, see Sources and licences"
        )
        self.set_x(self.l_margin)
        self.cell(0, 5, f"Page {self.page_no()} / {{nb}}", align="R")

    @property
    def width(self) -> float:
        return self.w - self.l_margin - self.r_margin

    def cover(self, name: str, lines: Sequence[str], badge: tuple[str, tuple[int, int, int]] | None) -> None:
        self.add_page()
        self.set_fill_color(*NAVY)
        self.rect(0, 0, self.w, 46, style="F")
        self.set_xy(self.l_margin, 10)
        self.set_text_color(255, 255, 255)
        self.set_font("DejaVu", "", 9)
        self.cell(0, 5, self.doc_title.upper(), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_font("DejaVu", "B", 18)
        self.multi_cell(self.width - (34 if badge else 0), 9, name, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_font("DejaVu", "", 9)
        self.cell(0, 5, " · ".join(lines), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        if badge:
            label, colour = badge
            self.set_fill_color(*colour)
            self.rect(self.w - self.r_margin - 26, 12, 26, 22, style="F", round_corners=True, corner_radius=2)
            self.set_xy(self.w - self.r_margin - 26, 14)
            self.set_font("DejaVu", "B", 16)
            self.cell(26, 10, label, align="C")
            self.set_xy(self.w - self.r_margin - 26, 25)
            self.set_font("DejaVu", "", 7)
            self.cell(26, 5, "credit grade", align="C")
        self.set_text_color(0, 0, 0)
        self.set_y(54)

    def section(self, title: str) -> None:
        if self.get_y() > self.h - 50:
            self.add_page()
        self.ln(3)
        self.set_font("DejaVu", "B", 12)
        self.set_text_color(*NAVY)
        self.cell(0, 7, title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_draw_color(*NAVY)
        self.set_line_width(0.4)
        self.line(self.l_margin, self.get_y(), self.l_margin + 24, self.get_y())
        self.set_line_width(0.2)
        self.ln(2.5)
        self.set_text_color(0, 0, 0)
        self.set_font("DejaVu", "", 9)

    def note(self, text: str) -> None:
        self.set_font("DejaVu", "", 8)
        self.set_text_color(*GREY)
        self.multi_cell(0, 4.2, text, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_text_color(0, 0, 0)
        self.set_font("DejaVu", "", 9)

    def para(self, text: str) -> None:
        self.set_font("DejaVu", "", 9)
        self.multi_cell(0, 4.8, text, align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def pairs(self, items: Sequence[tuple[str, str]]) -> None:
        """A two-column label/value grid, two items a row in the given order (so a label keeps its column
        whatever the values' lengths); a long value wraps inside its column and the row grows."""
        col = self.width / 2
        label_w = 26.0
        height = 4.6
        value_w = col - label_w - 2
        for start in range(0, len(items), 2):
            row = items[start : start + 2]
            self.set_font("DejaVu", "", 9)
            wrapped = [self._cell_lines(value, value_w) for _, value in row]
            y = self.get_y()
            lines = max(len(w) for w in wrapped)
            if y + lines * height > self.page_break_trigger:
                self.add_page()
                y = self.get_y()
            for i, ((label, _), value_lines) in enumerate(zip(row, wrapped, strict=True)):
                x = self.l_margin + i * col
                self.set_xy(x, y)
                self.set_font("DejaVu", "", 8)
                self.set_text_color(*GREY)
                self.cell(label_w, height + 0.6, label)
                self.set_font("DejaVu", "", 9)
                self.set_text_color(0, 0, 0)
                for n, text in enumerate(value_lines):
                    self.set_xy(x + label_w, y + n * height)
                    self.cell(value_w, height + 0.6, text)
            self.set_xy(self.l_margin, y + lines * height + 0.6)

    def grid(
        self,
        head: Sequence[str],
        rows: Sequence[Sequence[str]],
        widths: Sequence[float],
        align: Sequence[str] | None = None,
    ) -> None:
        """A table with a navy heading row (repeated after a page break) and banded body rows.

        Laid out by hand rather than with fpdf2's `table()`, which sets every cell twice through
        `multi_cell` (once to measure, once to draw): that was half of a report's rendering time. Here a
        cell that fits its column is one `cell`; only a longer one is broken into lines."""
        total = sum(widths)
        cols = [w * self.width / total for w in widths]
        aligns = list(align or ["L"] * len(head))
        self.set_draw_color(*LINE)
        heading = self._layout(head, cols, "B")
        if not rows:
            self._draw_row(heading, cols, aligns, NAVY, (255, 255, 255), "B")
        for i, r in enumerate(rows):
            body = self._layout(r, cols, "")
            broke = self.get_y() + body[1] + (heading[1] if i == 0 else 0) > self.page_break_trigger
            if broke:
                self.add_page()
            if i == 0 or broke:
                self._draw_row(heading, cols, aligns, NAVY, (255, 255, 255), "B")
            self._draw_row(body, cols, aligns, LIGHT if i % 2 else None, (0, 0, 0), "")
        self.set_font("DejaVu", "", 9)
        self.set_text_color(0, 0, 0)
        self.ln(1.5)

    GRID_LINE, GRID_PAD_X, GRID_PAD_Y = 4.8, 1.2, 0.8

    def _layout(
        self, cells: Sequence[str], cols: Sequence[float], style: str
    ) -> tuple[list[list[str]], float]:
        """Each cell's lines and the row's height."""
        self.set_font("DejaVu", style, 8.5)
        lines = [
            self._cell_lines(str(text), w - 2 * self.GRID_PAD_X) for text, w in zip(cells, cols, strict=True)
        ]
        return lines, max(len(ls) for ls in lines) * self.GRID_LINE + 2 * self.GRID_PAD_Y

    def _cell_lines(self, text: str, width: float) -> list[str]:
        if "\n" not in text and self.get_string_width(text) <= width:
            return [text]
        lines = self.multi_cell(width, self.GRID_LINE, text, dry_run=True, output=MethodReturnValue.LINES)
        return lines if isinstance(lines, list) else [text]  # with output=LINES fpdf2 answers the lines

    def _draw_row(
        self,
        layout: tuple[list[list[str]], float],
        cols: Sequence[float],
        aligns: Sequence[str],
        fill: tuple[int, int, int] | None,
        colour: tuple[int, int, int],
        style: str,
    ) -> None:
        lines, height = layout
        x, y = self.l_margin, self.get_y()
        if fill:
            self.set_fill_color(*fill)
            self.rect(x, y, sum(cols), height, style="F")
        self.set_font("DejaVu", style, 8.5)
        self.set_text_color(*colour)
        for cell_lines, w, a in zip(lines, cols, aligns, strict=True):
            for n, text in enumerate(cell_lines):
                self.set_xy(x + self.GRID_PAD_X, y + self.GRID_PAD_Y + n * self.GRID_LINE)
                self.cell(w - 2 * self.GRID_PAD_X, self.GRID_LINE, text, align=a)
            x += w
        self.line(self.l_margin, y + height, self.l_margin + sum(cols), y + height)
        self.set_xy(self.l_margin, y + height)

    def bars(self, title: str, points: Sequence[tuple[str, float | None]], unit: str) -> None:
        """A small bar chart (e.g. revenue by year); negative values hang below the axis."""
        values = [v for _, v in points if v is not None]
        if not values:
            return
        top, bottom = max(max(values), 0.0), min(min(values), 0.0)
        span = (top - bottom) or 1.0
        h, w = 34.0, min(self.width, 22.0 * len(points) + 10)
        if self.get_y() + h + 14 > self.h - 18:
            self.add_page()
        self.set_font("DejaVu", "B", 8.5)
        self.cell(0, 5, f"{title} ({unit})", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        x0, y0 = self.l_margin, self.get_y() + 6
        zero = y0 + h * top / span
        self.set_draw_color(*LINE)
        self.line(x0, zero, x0 + w, zero)
        step = w / len(points)
        self.set_font("DejaVu", "", 7)
        for i, (label, v) in enumerate(points):
            bx = x0 + i * step + step * 0.2
            bw = step * 0.6
            if v is not None:
                bh = h * abs(v) / span
                self.set_fill_color(*(NAVY if v >= 0 else SEVERITY_COLOURS["high"]))
                self.rect(bx, zero - bh if v >= 0 else zero, bw, max(bh, 0.3), style="F")
                self.set_xy(bx - 4, (zero - bh - 4) if v >= 0 else zero + bh + 0.5)
                self.cell(bw + 8, 3.5, _short(v), align="C")
            self.set_xy(bx - 4, y0 + h + 1.5)
            self.cell(bw + 8, 3.5, label, align="C")
        self.set_xy(self.l_margin, y0 + h + 8)


def _short(v: float) -> str:
    for div, suffix in ((1e9, " bn"), (1e6, " m"), (1e3, " k")):
        if abs(v) >= div:
            return f"{v / div:.1f}{suffix}"
    return f"{v:.0f}"


INSOLVENCY_FLAGS = (
    ("inBankruptcy", "bankruptcy"),
    ("inRestructuring", "restructuring"),
    ("inLiquidation", "liquidation"),
)


def _identity_lines(c: dict[str, Any]) -> list[str]:
    form = c.get("legalForm") or {}
    flags = [f"in {label}" for key, label in INSOLVENCY_FLAGS if c.get(key)]
    parts = [
        f"{c['country']} {c['nationalId']}",
        form.get("name") or form.get("code"),
        (c.get("status") or "active").capitalize(),
        *flags,
    ]
    return [p for p in parts if p]


def _badge(credit: dict[str, Any]) -> tuple[str, tuple[int, int, int]] | None:
    grade = credit.get("grade")
    return (grade, GRADE_COLOURS.get(grade, GREY)) if grade else ("n/a", GREY)


def company_report(facts: dict[str, Any], sections: Sequence[str] | None = None) -> bytes:
    """The company report: a cover, the chosen sections (default: all) and the sources on the last page."""
    c = facts["company"]
    doc = Document("Company report", f"{c['name']} ({c['country']} {c['nationalId']})", facts["generatedAt"])
    doc.cover(c["name"], _identity_lines(c), _badge(facts["credit"]))
    writers: dict[str, Callable[[], None]] = {
        "identity": lambda: _identity(doc, c),
        "financials": lambda: _financials(doc, facts["financials"]),
        "credit": lambda: _credit(doc, facts["credit"]),
        "risk": lambda: _risk(doc, facts["risk"]),
        "ownership": lambda: _ownership(doc, facts["ownership"]),
        "sanctions": lambda: _sanctions(doc, facts["sanctions"]),
        "nis2": lambda: _nis2(doc, facts["nis2"]),
        "timeline": lambda: _timeline(doc, facts["timeline"]),
    }
    for name, write in writers.items():
        if sections is None or name in sections:
            write()
    _sources(doc, facts["sources"])
    return bytes(doc.output())


def _identity(doc: Document, c: dict[str, Any]) -> None:
    doc.section("Identity and status")
    a = c.get("address") or {}
    address = a.get("text") or ", ".join(
        x for x in (a.get("street"), a.get("postalCode"), a.get("city")) if x
    )
    flags = [label for key, label in INSOLVENCY_FLAGS if c.get(key)]
    doc.pairs(
        [
            ("Name", c["name"]),
            ("National id", f"{c['country']} {c['nationalId']}"),
            (
                "Legal form",
                _text((c.get("legalForm") or {}).get("name") or (c.get("legalForm") or {}).get("code")),
            ),
            ("Status", (c.get("status") or "active") + (" · " + ", ".join(flags) if flags else "")),
            ("Founded", _text(c.get("foundedOn"))),
            ("Dissolved", _text(c.get("dissolvedOn"))),
            ("Address", _text(address)),
            ("NACE", _text((c.get("nace") or {}).get("primary"))),
            ("VAT id", _text(c.get("vatId"))),
            ("LEI", _text(c.get("lei"))),
            ("Employees", _text(c.get("employees"))),
            ("Size class", _text(c.get("sizeClass"))),
        ]
    )
    if flags:
        doc.set_text_color(*SEVERITY_COLOURS["high"])
        doc.set_font("DejaVu", "B", 9)
        doc.cell(0, 6, "Insolvency: " + ", ".join(flags), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        doc.set_text_color(0, 0, 0)


def _financials(doc: Document, fin: dict[str, Any]) -> None:
    doc.section("Financial history")
    years = fin.get("years") or []
    if not years:
        doc.note("No financial statement on record.")
        return
    rows = []
    for y in years[:8]:
        lines, r = y["lines"], y.get("ratios") or {}
        equity_ratio = r.get("equity_ratio")
        rows.append(
            [
                str(y["year"]),
                y["currency"],
                _num(lines.get("revenue")),
                _num(lines.get("profit")),
                _num(lines.get("total_assets")),
                _num(lines.get("equity")),
                _num(lines.get("liabilities")),
                "–" if equity_ratio is None else f"{equity_ratio:.0%}",
                _text(y.get("employees")),
            ]
        )
    doc.grid(
        ["Year", "Cur.", "Revenue", "Profit", "Assets", "Equity", "Liabilities", "Equity %", "Staff"],
        rows,
        [9, 8, 18, 16, 18, 16, 17, 13, 9],
        ["L", "L", "R", "R", "R", "R", "R", "R", "R"],
    )
    chart = [(str(y["year"]), y["lines"].get("revenue")) for y in reversed(years[:8])]
    doc.bars("Revenue by year", chart, years[0]["currency"])


def _credit(doc: Document, credit: dict[str, Any]) -> None:
    doc.section("Credit assessment")
    if credit.get("grade") is None:
        doc.para(f"No grade: {credit.get('withheld_reason')}.")
    else:
        doc.para(
            f"Grade {credit['grade']}, score {credit['score']} of 100, confidence {credit['confidence']:.0%} "
            f"(model {credit['model_version']}, as of {credit['as_of']})."
        )
    rows = [
        [
            f["code"].replace("_", " "),
            str(f["weight"]),
            "–" if f["points"] is None else f"{f['points']:g}",
            _evidence(f["evidence"])
            or ("missing: " + ", ".join(f["missing_inputs"]) if f["missing_inputs"] else ""),
        ]
        for f in credit["factors"]
    ]
    doc.grid(["Factor", "Weight", "Points", "Evidence"], rows, [22, 9, 9, 60], ["L", "R", "R", "L"])
    if credit.get("caps"):
        doc.note("Capped by: " + ", ".join(credit["caps"]))


def _risk(doc: Document, risk: dict[str, Any]) -> None:
    doc.section("Risk")
    doc.para(
        f"Risk level {risk['level']}, score {risk['score']} of 100, confidence {risk['confidence']:.0%}."
    )
    if risk["drivers"]:
        doc.grid(
            ["Driver", "Points", "Evidence"],
            [
                [
                    d["description"],
                    str(d["points"]),
                    _evidence(d["evidence"]) + f" ({d['evidence'][0]['source']})" if d["evidence"] else "–",
                ]
                for d in risk["drivers"]
            ],
            [45, 8, 47],
            ["L", "R", "L"],
        )
    else:
        doc.note("No risk driver applies.")
    if risk.get("missing_inputs"):
        doc.note("Not evaluated for lack of data: " + ", ".join(risk["missing_inputs"]))


def _ownership(doc: Document, o: dict[str, Any]) -> None:
    doc.section("Ownership and officers")
    groups = (
        ("Shareholders", "shareholders"),
        ("Beneficial owners", "beneficialOwners"),
        ("Directors and statutory bodies", "directors"),
        ("Holdings", "holdings"),
    )
    any_rows = False
    for title, key in groups:
        items = o[key]
        if not items:
            continue
        any_rows = True
        doc.set_font("DejaVu", "B", 9)
        more = f" (first {len(items)} of {o['counts'][key]})" if o["counts"][key] > len(items) else ""
        doc.cell(0, 6, title + more, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        doc.grid(
            ["Name", "Role", "Since", "Share", "Source"],
            [
                [
                    i["name"] + (f" ({i['country']} {i['nationalId']})" if i.get("nationalId") else ""),
                    _text(i.get("title") or i["role"]),
                    _text(i.get("since")),
                    "–" if i.get("sharePct") is None else f"{i['sharePct']:g}%",
                    i["source"],
                ]
                for i in items
            ],
            [40, 18, 12, 8, 22],
            ["L", "L", "L", "R", "L"],
        )
    if not any_rows:
        doc.note("No officer, owner or holding on record.")


def _sanctions(doc: Document, s: dict[str, Any]) -> None:
    doc.section("Sanctions screening")
    if not s["screened"]:
        doc.note(f"Not screened: {s['reason']}".replace("`", ""))  # the reason is written for API answers
        return
    lists = ", ".join(f"{v['name']} ({v['version']})" for v in s["lists"])
    if not s["hit_count"]:
        doc.para(
            f"No match at threshold {s['threshold']} ({s['algorithm']}). Lists: {lists}. The company and its "
            "company owners and officers were screened; natural persons only with a declared purpose."
        )
        return
    doc.para(f"{s['hit_count']} possible match(es) at threshold {s['threshold']}: review each before acting.")
    doc.grid(
        ["Subject", "Listed entry", "List", "Score"],
        [
            [f"{subj['name']} ({subj['subject']})", h["name"], h["list"], f"{h['score']:.2f}"]
            for subj in s["subjects"]
            for h in subj["hits"]
        ],
        [30, 35, 25, 8],
        ["L", "L", "L", "R"],
    )


def _nis2(doc: Document, n: dict[str, Any]) -> None:
    doc.section("NIS2 scope")
    scope = {True: "in scope", False: "out of scope", None: "undecided"}[n.get("in_scope")]
    doc.pairs(
        [
            ("Category", _text(n.get("category"))),
            ("Scope", scope),
            ("Certainty", _text(n.get("certainty"))),
            ("Rules", _text(n.get("ruleset_version"))),
        ]
    )
    for reason in (n.get("reasons") or [])[:4]:
        doc.note("· " + (reason if isinstance(reason, str) else str(reason.get("text") or reason)))
    if n.get("missing"):
        doc.note("Missing for a certain answer: " + ", ".join(map(str, n["missing"])))


def _timeline(doc: Document, events: list[dict[str, Any]]) -> None:
    doc.section("Recent events")
    if not events:
        doc.note("No event on record.")
        return
    doc.grid(
        ["Date", "Event", "Source"], [[e["date"], e["title"], e["source"]] for e in events], [12, 62, 22]
    )


def _sources(doc: Document, sources: list[dict[str, Any]]) -> None:
    doc.add_page()
    doc.section("Sources and licences")
    doc.para(
        "Every figure in this report comes from the open registers below, as last imported. Scores and "
        "assessments are regintel's own rule-based models (docs/scores.md, docs/nis2.md) and are no "
        "official rating."
    )
    doc.ln(1)
    doc.grid(
        ["Source", "Publisher", "Licence", "Retrieved"],
        [
            [
                f"{_text(s.get('name'))} ({s['id']})",
                _text(s.get("publisher")),
                _text(s.get("licence")),
                _text(s.get("retrievedAt"))[:10],
            ]
            for s in sources
        ],
        [38, 28, 20, 14],
    )
    for s in sources:
        if s.get("attribution") or s.get("url"):
            doc.note(f"{s['id']}: {_text(s.get('attribution'))} {s.get('url') or ''}".strip())


def dd_report(facts: dict[str, Any], narrative: dict[str, Any]) -> bytes:
    c = facts["company"]
    doc = Document(
        "Due-diligence report", f"{c['name']} ({c['country']} {c['nationalId']})", facts["generatedAt"]
    )
    doc.cover(c["name"], _identity_lines(c), _badge(facts["credit"]))
    concl = narrative["conclusion"]
    doc.section("Conclusion")
    doc.set_font("DejaVu", "B", 10)
    doc.set_text_color(
        *SEVERITY_COLOURS[
            "high" if concl["verdict"] == "escalate" else "medium" if concl["verdict"] == "review" else "info"
        ]
    )
    doc.cell(0, 6, concl["verdict"].upper(), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    doc.set_text_color(0, 0, 0)
    doc.para(concl["text"] + " Findings: " + ", ".join(f"{n} {k}" for k, n in concl["counts"].items()) + ".")
    doc.note(narrative["writer"]["note"])
    if narrative.get("prose"):
        doc.section("Summary")
        doc.para(narrative["prose"])
    for section in narrative["sections"]:
        doc.section(section["title"])
        doc.grid(
            ["#", "Severity", "Finding", "Source"],
            [[str(f["ref"]), f["severity"], f["statement"], _text(f["source"])] for f in section["findings"]],
            [4, 12, 62, 22],
            ["R", "L", "L", "L"],
        )
    _sources(doc, facts["sources"])
    return bytes(doc.output())
