"""Printable sticker sheets (PDF, true scale) and one PNG per marker.

Markers are drawn as vector rectangles, one per run of black modules, so the printed
size is exact at any printer resolution. Each sticker gets cut marks at its corners
and a small label beside it (what it marks, its code, its printed size). Each page
carries a 100 mm ruler to check that it was printed at 100 %; the PDF also asks
viewers not to scale it. The centre mat is drawn full size on its own landscape page.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from coyote_pi.cards import display_name
from coyote_pi.vision import artwork
from coyote_pi.vision.markerset import (
    ALL_ROLES,
    COYOTE_ROLE,
    LOCATORS,
    SEATS,
    SLOTS,
    MarkerSet,
    locator_role,
    role_kind,
    role_subject,
    slot_role,
)

if TYPE_CHECKING:  # for the hints only: fpdf2 is loaded when a sheet is made
    import numpy as np
    from fpdf import FPDF

#: Paper sizes (width, height) in millimetres, portrait.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 12.0
LABEL_MM = 16.0  # room beside each sticker for its label
GAP_MM = 6.0  # between stickers (room for the cut marks)
CUT_MARK_MM = 3.0
RULER_MM = 100.0


@dataclass(frozen=True)
class PlacedSticker:
    """Where a sticker went: page (1-based) and the marker's top-left corner, in mm from
    the page's top-left corner; the quiet zone lies around it."""

    role: str
    page: int
    x: float
    y: float
    marker_mm: float
    sticker_mm: float


def describe(role: str) -> str:
    """What a role marks, in words for the label: "card Max 0", "stand seat 3", ..."""
    kind, subject = role_kind(role), role_subject(role)
    if kind == "card":
        return f"card {display_name(subject)}"
    if role == COYOTE_ROLE:
        return "Coyote card"
    if kind == "stand":
        return f"stand seat {subject}"
    if kind == "stand-right":
        return f"seat {subject} right"
    if kind == "mat":
        return f"mat {subject}"
    return f"slot {subject}"


def file_stem(role: str) -> str:
    """A file name for a role that every file system accepts ("card_question", ...)."""
    return role.replace("?", "question").replace(":", "_")


def _draw_marker(pdf: FPDF, markers: MarkerSet, role: str, x: float, y: float) -> None:
    """The marker of ``role`` at (x, y) (top-left, mm), at its printed size."""
    _draw_cells(pdf, artwork.marker_modules(markers, role), markers.marker_mm(role), x, y)


def _draw_cells(pdf: FPDF, cells: np.ndarray, side_mm: float, x: float, y: float) -> None:
    """A square grid of ``cells`` (True = black) ``side_mm`` across at (x, y) (top-left,
    mm): one rectangle per run of black cells in a row, all filled as a single path so
    no seams show between them."""
    cell = side_mm / cells.shape[0]
    with pdf.new_path() as path:
        path.style.fill_color = "#000000"
        path.style.stroke_color = None
        for row_index, row in enumerate(cells):
            col = 0
            while col < len(row):
                if not row[col]:
                    col += 1
                    continue
                start = col
                while col < len(row) and row[col]:
                    col += 1
                path.rectangle(x + start * cell, y + row_index * cell, (col - start) * cell, cell)


def _cut_marks(pdf: FPDF, x: float, y: float, side: float) -> None:
    """Short lines pointing at the sticker's corners, just outside it."""
    gap = 1.0
    for cx, dx in ((x, -1), (x + side, 1)):
        for cy, dy in ((y, -1), (y + side, 1)):
            pdf.line(cx + dx * gap, cy, cx + dx * (gap + CUT_MARK_MM), cy)
            pdf.line(cx, cy + dy * gap, cx, cy + dy * (gap + CUT_MARK_MM))


def _ruler(pdf: FPDF, x: float, y: float) -> None:
    pdf.set_line_width(0.3)
    pdf.line(x, y, x + RULER_MM, y)
    for mm in range(0, int(RULER_MM) + 1, 10):
        pdf.line(x + mm, y, x + mm, y - (3 if mm % 50 else 5))
    pdf.set_font("helvetica", size=7)
    pdf.text(x + RULER_MM + 3, y, "100 mm: print at 100 % (actual size) and check with a ruler")
    pdf.set_line_width(0.2)


def _new_page(pdf: FPDF, markers: MarkerSet, title: str, orientation: str = "P") -> float:
    """Start a page with its title and ruler; return the y where content may start."""
    pdf.add_page(orientation=orientation)
    pdf.set_font("helvetica", style="B", size=10)
    scheme = markers.dictionary if markers.scheme == "aruco" else "QR version 1, level M"
    pdf.text(MARGIN_MM, MARGIN_MM + 2, f"coyote-pi {title} ({markers.scheme}: {scheme})")
    _ruler(pdf, MARGIN_MM, MARGIN_MM + 10)
    return MARGIN_MM + 16


def sticker_sheet(markers: MarkerSet, paper: str = "a4") -> tuple[bytes, list[PlacedSticker]]:
    """The PDF (bytes) of every sticker on ``paper``, and where each one was placed."""
    from fpdf import FPDF
    from fpdf.prefs import ViewerPreferences

    width, height = PAPERS[paper]
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_compression(False)
    pdf.set_auto_page_break(False)
    pdf.viewer_preferences = ViewerPreferences(print_scaling="None")
    pdf.set_title(f"coyote-pi marker stickers ({markers.scheme})")
    pdf.set_line_width(0.2)
    placed: list[PlacedSticker] = []
    y = _new_page(pdf, markers, "stickers")
    x, row_height = MARGIN_MM, 0.0
    for section in _sections(markers):
        for role, marker, sticker, cells, labels in section:
            cell_w = sticker + LABEL_MM + GAP_MM
            if x + cell_w > width - MARGIN_MM:
                x, y, row_height = MARGIN_MM, y + row_height, 0.0
            if y + sticker + GAP_MM > height - MARGIN_MM:
                y = _new_page(pdf, markers, "stickers (continued)")
                x, row_height = MARGIN_MM, 0.0
            sx, sy = x + GAP_MM / 2, y + GAP_MM / 2
            quiet = (sticker - marker) / 2
            _cut_marks(pdf, sx, sy, sticker)
            _draw_cells(pdf, cells, marker, sx + quiet, sy + quiet)
            for line, text in enumerate(labels):
                pdf.set_font("helvetica", size=6.5 if line == 0 else 5.5)
                pdf.text(sx + sticker + 2.5, sy + 4 + 3 * line, text)
            placed.append(PlacedSticker(role, pdf.page_no(), sx + quiet, sy + quiet, marker, sticker))
            x += cell_w
            row_height = max(row_height, sticker + GAP_MM)
        x, y, row_height = MARGIN_MM, y + row_height + 2, 0.0
    placed += _mat_page(pdf, markers)
    return bytes(pdf.output()), placed


def empty_patch_key(seat: int) -> str:
    """The sheet's name for seat ``seat``'s empty-stand patch (not a marker role)."""
    return f"empty-patch:{seat}"


#: The last label line of each print of a card that carries two (see MarkerSet.card_print_places).
PRINT_LABELS = ("top", "bottom, turned")


def _sections(markers: MarkerSet) -> list[list[tuple[str, float, float, np.ndarray, list[str]]]]:
    """The sheet's sections: cards (each print of each), the Coyote card, stands (left
    markers, then right ones), the stands' empty-stand patches; each item (key, printed
    side, cut side, cells (True = black), label lines)."""
    sections = []
    for kind in ("card", "coyote", "stand", "stand-right"):
        prints = PRINT_LABELS if kind == "card" and markers.card_prints == 2 else ("",)
        sections.append([(role, markers.marker_mm(role), markers.sticker_mm(role),
                          artwork.marker_modules(markers, role),
                          [describe(role), _code_text(markers, role), f"{markers.marker_mm(role):g} mm"]
                          + ([where] if where else []))
                         for role in ALL_ROLES if role_kind(role) == kind for where in prints])
    side = markers.stand.empty_patch_side
    u, v = markers.stand.empty_patch_centre
    sections.append([(empty_patch_key(seat), side, side, artwork.empty_patch_cells(),
                      [f"empty stand {seat}", f"centre {u:g}, {v:g} mm", "behind the card"])
                     for seat in SEATS])
    return sections


def _code_text(markers: MarkerSet, role: str) -> str:
    code = markers.codes[role]
    return f"id {code}" if markers.scheme == "aruco" else f"\"{code}\""


def _mat_page(pdf: FPDF, markers: MarkerSet) -> list[PlacedSticker]:
    """The centre mat at full size on a landscape page, centred below the ruler."""
    top = _new_page(pdf, markers, "centre mat", orientation="L")
    layout = markers.mat
    page_w, page_h = pdf.w, pdf.h
    left = (page_w - layout.width) / 2
    upper = max(top + 4, (page_h - layout.height) / 2)
    if upper + layout.height > page_h - 6 or left < 6:
        raise ValueError("the centre mat does not fit on this paper")

    def page_xy(x: float, y: float) -> tuple[float, float]:
        return left + layout.width / 2 + x, upper + layout.height / 2 - y

    pdf.rect(left, upper, layout.width, layout.height)
    placed = []
    titles = {"centre": "CENTRE (face down)", "extra": "COYOTE DRAW", "draw": "? DRAW"}
    for slot in SLOTS:
        sx, sy = layout.slots[slot]
        x0, y0 = page_xy(sx - layout.slot_width / 2, sy + layout.slot_height / 2)
        pdf.rect(x0, y0, layout.slot_width, layout.slot_height)
        pdf.set_font("helvetica", size=7)
        pdf.text(x0 + 3, y0 + layout.slot_height - 3, titles[slot])
        placed.append(_mat_marker(pdf, markers, slot_role(slot), page_xy(sx, sy)))
    for name in LOCATORS:
        placed.append(_mat_marker(pdf, markers, locator_role(name), page_xy(*layout.locators[name])))
    return placed


def _mat_marker(pdf: FPDF, markers: MarkerSet, role: str, centre: tuple[float, float]) -> PlacedSticker:
    marker = markers.marker_mm(role)
    x, y = centre[0] - marker / 2, centre[1] - marker / 2
    _draw_marker(pdf, markers, role, x, y)
    return PlacedSticker(role, pdf.page_no(), x, y, marker, markers.sticker_mm(role))


def write_pngs(markers: MarkerSet, directory: Path) -> list[Path]:
    """One PNG per marker (quiet zone included), tagged with the DPI that prints it at
    its documented size."""
    from PIL import Image

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for role in ALL_ROLES:
        image = artwork.marker_image(markers, role, artwork.PNG_MODULE_PX)
        module_mm = markers.marker_mm(role) / markers.modules
        dpi = artwork.PNG_MODULE_PX / module_mm * 25.4
        path = directory / f"{markers.scheme}_{file_stem(role)}.png"
        Image.fromarray(image).save(path, dpi=(dpi, dpi))
        written.append(path)
    return written
