"""Draw a :class:`~coyote_pi.devices.screen.Screen` as a 1-bit Pillow image for the OLED.

The layout is sized for reading across a table on a 128x64 panel and scales by whole
steps on larger ones (256x128 draws everything twice as large; 256x64 keeps the sizes
and gains width). From top to bottom:

- the **title** in small bold type, with a "2/3" page mark on the right when the lines
  take several pages;
- the **big** text, in the largest bold size that fits the space left over;
- the **lines**, word-wrapped in small type; as many rows as leave the big text at
  least 18 px, the rest on further pages. A page never ends inside a line that fits on
  one page; a line longer than a page is cut between its sentences or clauses (after
  ``, ; :`` or a full stop), so a page holds whole thoughts, never "Seat 1 loses a
  closed" with "eye" on the next;
- the **seat strip**: one cell per seat with its number, one eye icon per peek card
  (open eyes first, then closed ones), a diamond on the seat holding the Coyote card,
  the cell inverted for the seat whose turn it is and struck through for a seat out of
  the game.

``alert=True`` inverts the whole screen so a refusal or a problem is seen from afar.
A ``qr`` screen draws the QR code (level L, the smallest version that holds the text)
as large as whole pixels per module allow, with a quiet zone of at least one module
above and below (the panel's dark border beyond it) and four beside it, and the lines
to its right.
Fonts are the DejaVu Sans files shipped in ``coyote_pi/data/fonts`` (Latin and Cyrillic),
never a system font, so the Pi and a laptop draw the same pixels::

    >>> from coyote_pi.devices.screen import Screen
    >>> image = ScreenRenderer((128, 64)).render(Screen(title="Runde 2", big="Жди"))
    >>> image.mode, image.size
    ('1', (128, 64))
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import qrcode
from PIL import Image, ImageDraw, ImageFont

from coyote_pi.devices.screen import Screen, SeatStatus

FONT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}

# Icons as pixel rows ('#' = lit), drawn scaled by the layout's step.
EYE_OPEN = (".###.", "#...#", "#.#.#", "#...#", ".###.")
EYE_CLOSED = (".....", ".....", "#...#", ".###.", ".....")
COYOTE_MARK = ("..#..", ".###.", "#####", ".###.", "..#..")

ELLIPSIS = "…"


def font_path(style: str) -> Path:
    """The shipped font file for ``style`` ("regular" or "bold")."""
    return Path(str(resources.files("coyote_pi").joinpath("data", "fonts", FONT_FILES[style])))


@functools.lru_cache(maxsize=128)
def load_font(style: str, size: int) -> ImageFont.FreeTypeFont:
    """The shipped font in ``style`` at ``size`` pixels (cached: layouts ask for the same few often)."""
    return ImageFont.truetype(str(font_path(style)), size)


def wrap_text(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` pixels: at spaces; a word wider
    than that after its hyphens (a record's fingerprint ``WWWW-WWWW-...``), else where it must."""
    return list(_wrapped(text, font, width))


@functools.lru_cache(maxsize=1024)
def _wrapped(text: str, font: ImageFont.FreeTypeFont, width: int) -> tuple[str, ...]:
    # Cached: measuring text is slow (Cyrillic most), and paging wraps the same lines often.
    rows: list[str] = []
    for paragraph in text.split("\n"):
        row = ""
        for word in paragraph.split():
            candidate = f"{row} {word}" if row else word
            if font.getlength(candidate) <= width:
                row = candidate
                continue
            if row:
                rows.append(row)
            row = ""
            for part in re.findall(r"[^-]+-?|-", word):
                if row and font.getlength(row + part) > width:
                    rows.append(row)
                    row = ""
                for char in part:  # a part wider than the screen is split where it must be
                    if row and font.getlength(row + char) > width:
                        rows.append(row)
                        row = ""
                    row += char
        rows.append(row)
    return tuple(rows)


#: Where a line may be cut between pages: after a comma, semicolon or colon, or after a
#: sentence's end (not after an abbreviation such as "доп. место": the next word is lower case).
_CLAUSE_BREAK = re.compile(r"(?<=[,;:])\s+|(?<=[.!?…])\s+(?![a-zа-яёäöüß])")


def clauses(text: str) -> list[str]:
    """``text`` cut after each sentence and clause, the punctuation kept with its clause.

    >>> clauses("Look at it secretly, put it back face down. Then raise.")
    ['Look at it secretly,', 'put it back face down.', 'Then raise.']
    """
    return [part for part in _CLAUSE_BREAK.split(text) if part]


def fit_width(text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text`` cut short with an ellipsis so it is no wider than ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + ELLIPSIS) > width:
        text = text[:-1]
    return text + ELLIPSIS


def split_to_width(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` in rows no wider than ``width`` pixels, broken after a space, ``-``, ``.``
    or ``/`` where one falls in the row, else anywhere: an address or a key beside a QR
    code, where no letter may be lost to an ellipsis."""
    rows = []
    while font.getlength(text) > width:
        fits = max(1, next(n for n in range(len(text), 0, -1) if font.getlength(text[:n]) <= width))
        breaks = [i + 1 for i in range(fits) if text[i] in " -./"]
        cut = breaks[-1] if breaks and breaks[-1] < len(text) else fits
        rows.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return [*rows, text] if text else rows


@dataclasses.dataclass(frozen=True)
class _Plan:
    """Where one page of a screen goes and what of it fits (see :meth:`ScreenRenderer._plan`)."""

    title_height: int
    strip_height: int
    title: str  #: as drawn (cut with an ellipsis if too wide)
    mark: str  #: the "2/3" page mark, or ""
    big_band: tuple[int, int]  #: (top, bottom) of the big text's band; the lines start at its bottom
    big_font: ImageFont.FreeTypeFont | None
    big: str  #: as drawn
    rows: list[str]  #: this page's rows of small text


class ScreenRenderer:
    """Lays out and draws screens for one display size ``(width, height)``."""

    #: Sizes at the 128x64 step, in pixels; larger panels multiply them by :attr:`step`.
    SMALL_FONT = 10
    LINE_PITCH = 11
    TITLE_HEIGHT = 12
    STRIP_HEIGHT = 17
    BIG_MIN_HEIGHT = 18
    MARGIN = 1

    def __init__(self, size: tuple[int, int] = (128, 64)):
        self.width, self.height = size
        self.step = max(1, min(self.width // 128, self.height // 64))
        self.small = load_font("regular", self.SMALL_FONT * self.step)
        self.small_bold = load_font("bold", self.SMALL_FONT * self.step)
        self.pitch = self.LINE_PITCH * self.step
        self.margin = self.MARGIN * self.step
        #: The newest screens' layouts: the presenter asks for the page count, then draws.
        self._layouts: dict[Screen, tuple[Any, ...]] = {}

    # --- layout ---------------------------------------------------------------------

    def _line_groups(self, line: str, rows: int) -> list[list[str]]:
        """``line`` wrapped, in runs of rows that must stay on one page: the whole line
        when it fits a page, else its clauses, joined while they fit a page."""
        width = self.width - 2 * self.margin
        wrapped = wrap_text(line, self.small, width)
        if len(wrapped) <= rows:
            return [wrapped]
        chunks: list[str] = []
        for clause in clauses(line):
            joined = f"{chunks[-1]} {clause}" if chunks else clause
            if chunks and len(wrap_text(joined, self.small, width)) <= rows:
                chunks[-1] = joined
            else:
                chunks.append(clause)
        groups = [wrap_text(chunk, self.small, width) for chunk in chunks]
        return [group[i : i + rows] for group in groups for i in range(0, len(group), rows)]  # a clause over a page

    def _paginate(self, lines: Sequence[str], rows: int) -> list[list[tuple[int, str]]]:
        """Pages of rows, each row with the index of the line it is part of."""
        pages: list[list[tuple[int, str]]] = [[]]
        for index, line in enumerate(lines):
            for group in self._line_groups(line, rows):
                if pages[-1] and len(pages[-1]) + len(group) > rows:
                    pages.append([])
                pages[-1].extend((index, row) for row in group)
        return pages

    def _layout(self, screen: Screen) -> tuple[int, int, int, list[list[tuple[int, str]]]]:
        """``(title height, strip height, line rows per page, pages of wrapped lines)``
        (each row with the index of its line in ``screen.lines``)."""
        key = dataclasses.replace(screen, page=0)
        if key not in self._layouts:
            if len(self._layouts) >= 64:
                self._layouts.clear()
            self._layouts[key] = self._lay_out(screen)
        return self._layouts[key]

    def _lay_out(self, screen: Screen) -> tuple[int, int, int, list[list[tuple[int, str]]]]:
        wanted = sum(len(wrap_text(line, self.small, self.width - 2 * self.margin)) for line in screen.lines)
        strip = self.STRIP_HEIGHT * self.step if screen.seats else 0
        title = self.TITLE_HEIGHT * self.step if screen.title else 0
        rows = self._rows_for(screen, self.height - title - strip, wanted)
        pages = self._paginate(screen.lines, rows) if rows else [[]]
        if len(pages) > 1 and not title:
            title = self.TITLE_HEIGHT * self.step  # paged lines need the title row for their page mark
            rows = self._rows_for(screen, self.height - title - strip, wanted)
            pages = self._paginate(screen.lines, rows)
        return title, strip, rows, pages

    def _rows_for(self, screen: Screen, space: int, wanted: int) -> int:
        if not wanted:
            return 0
        room = space - (self.BIG_MIN_HEIGHT * self.step if screen.big else 0)
        return max(1, min(wanted, room // self.pitch))

    def page_count(self, screen: Screen) -> int:
        """How many pages ``screen.lines`` take at this size (at least 1)."""
        return len(self._layout(screen)[3])

    def pages(self, screen: Screen) -> list[list[str]]:
        """The rows of small text on each page of ``screen``, as drawn."""
        return [[row for _, row in page] for page in self._layout(screen)[3]]

    def page_lines(self, screen: Screen) -> list[str]:
        """The small text of the page ``screen`` shows (``screen.page``), one string per
        line of ``screen.lines`` on it: its rows joined again (a line that goes on over
        pages gives the part on this page). For a reader of the words without the pixels."""
        pages = self._layout(screen)[3]
        lines: dict[int, list[str]] = {}
        for index, row in pages[screen.page % len(pages)]:
            lines.setdefault(index, []).append(row)
        return [" ".join(rows) for rows in lines.values()]

    def _plan(self, screen: Screen) -> _Plan:
        title_h, strip_h, rows, pages = self._layout(screen)
        page = screen.page % len(pages)
        mark = f"{page + 1}/{len(pages)}" if len(pages) > 1 else ""
        title = fit_width(screen.title, self.small_bold, self._title_room(mark)) if title_h else ""
        lines_top = self.height - strip_h - rows * self.pitch if screen.big else title_h
        big_font, big = None, ""
        if screen.big:
            big_font = self._largest_bold(screen.big, self.width - 2 * self.margin, lines_top - title_h - 1)
            big = "\n".join(fit_width(line, big_font, self.width - 2 * self.margin) for line in screen.big.split("\n"))
        return _Plan(title_h, strip_h, title, mark, (title_h, lines_top), big_font, big, [row for _, row in pages[page]])

    def overflows(self, screen: Screen) -> list[str]:
        """What of ``screen`` does not fit: a title or big text cut short (on any page),
        a word too wide for a row (cut inside; one cut after its hyphens is whole).
        Empty when everything shows whole."""
        problems = []
        for page in range(self.page_count(screen)):
            plan = self._plan(dataclasses.replace(screen, page=page))
            if plan.title != screen.title and screen.title:
                problems.append(f"title cut: {plan.title!r}")
            if plan.big != screen.big:
                problems.append(f"big text cut: {plan.big!r}")
        width = self.width - 2 * self.margin
        problems += [f"word too wide: {part!r}" for line in screen.lines for word in line.split()
                     for part in re.findall(r"[^-]+-?", word) if self.small.getlength(part) > width]
        return sorted(set(problems))

    # --- drawing --------------------------------------------------------------------

    def render(self, screen: Screen) -> Image.Image:
        """The screen as a mode "1" image of this renderer's size."""
        paper, ink = (1, 0) if screen.alert else (0, 1)
        image = Image.new("1", (self.width, self.height), paper)
        draw = ImageDraw.Draw(image)
        if screen.qr:
            self._draw_qr(draw, screen, paper, ink)
            return image
        plan = self._plan(screen)
        if plan.title_height:
            self._draw_title(draw, plan.title, plan.mark, plan.title_height, ink)
        if plan.big_font is not None:  # chosen when, and only when, the screen has big text
            self._draw_big(draw, plan.big, plan.big_font, plan.big_band, ink)
        lines_top = plan.big_band[1]
        for index, row in enumerate(plan.rows):
            draw.text((self.margin, lines_top + index * self.pitch - self.step), row, font=self.small, fill=ink)
        if plan.strip_height:
            self._draw_strip(draw, screen.seats or (), self.height - plan.strip_height, ink)
        return image

    def _title_room(self, mark: str) -> int:
        mark_width = math.ceil(self.small.getlength(mark)) + self.margin if mark else 0
        return self.width - 2 * self.margin - mark_width

    def _draw_title(self, draw: ImageDraw.ImageDraw, title: str, mark: str, height: int, ink: int) -> None:
        draw.text((self.margin, -self.step), title, font=self.small_bold, fill=ink)
        if mark:
            draw.text((self.width - self.margin, -self.step), mark, font=self.small, fill=ink, anchor="ra")
        draw.line([(0, height - 1), (self.width - 1, height - 1)], fill=ink)

    def _draw_big(self, draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, band: tuple[int, int],
                  ink: int) -> None:
        top, bottom = band
        left, upper, right, lower = _text_box(font, text)
        x = (self.width - (right - left)) / 2 - left
        y = top + (bottom - top - (lower - upper)) / 2 - upper
        if "\n" in text:
            draw.multiline_text((round(x), round(y)), text, font=font, fill=ink, align="center")
        else:
            draw.text((round(x), round(y)), text, font=font, fill=ink)

    def _largest_bold(self, text: str, width: int, height: int) -> ImageFont.FreeTypeFont:
        """The largest bold font (not below the small size) whose ``text`` fits ``width`` x ``height``."""

        def fits(size: int) -> bool:  # the advance width, as fit_width measures: never cut after choosing
            font = load_font("bold", size)
            _left, upper, _right, lower = _text_box(font, text)
            return max(font.getlength(line) for line in text.split("\n")) <= width and lower - upper <= height

        low, high = self.SMALL_FONT * self.step, max(self.SMALL_FONT * self.step, int(height * 1.4))
        while low < high:  # binary search: text size grows with font size
            middle = (low + high + 1) // 2
            if fits(middle):
                low = middle
            else:
                high = middle - 1
        return load_font("bold", low)

    def _draw_qr(self, draw: ImageDraw.ImageDraw, screen: Screen, paper: int, ink: int) -> None:
        modules = qr_modules(screen.qr)
        count = len(modules)
        scale = max(1, self.height // (count + 2))  # whole pixels per module, one module of quiet zone
        side = count * scale
        top = (self.height - side) // 2
        field = side + 8 * scale  # four modules of quiet zone left and right
        draw.rectangle([0, 0, field - 1, self.height - 1], fill=1)  # lit field, dark modules: as on paper
        for row, cells in enumerate(modules):
            for column, dark in enumerate(cells):
                if dark:
                    x, y = 4 * scale + column * scale, top + row * scale
                    draw.rectangle([x, y, x + scale - 1, y + scale - 1], fill=0)
        left = field + self.margin + self.step
        width = self.width - left - self.margin
        texts = [part for line in screen.lines for part in split_to_width(line, self.small_bold, width)]
        for index, text in enumerate(texts[: self.height // self.pitch]):
            draw.text((left, index * self.pitch), fit_width(text, self.small_bold, width), font=self.small_bold, fill=ink)

    def _draw_strip(self, draw: ImageDraw.ImageDraw, seats: Sequence[SeatStatus], top: int, ink: int) -> None:
        draw.line([(0, top), (self.width - 1, top)], fill=ink)
        cell_width = self.width // len(seats)
        left = (self.width - cell_width * len(seats)) // 2
        for index, seat in enumerate(seats):
            self._draw_seat(draw, seat, (left + index * cell_width, top + 1, cell_width, self.height - top - 1), ink)

    def _draw_seat(self, draw: ImageDraw.ImageDraw, seat: SeatStatus, box: tuple[int, int, int, int], ink: int) -> None:
        x, y, width, height = box
        if seat.is_turn:
            draw.rectangle([x, y, x + width - 2, y + height - 1], fill=ink)
            ink = 1 - ink
        number = str(seat.seat)
        left, upper, right, lower = self.small_bold.getbbox(number)
        draw.text((x + (width - 1 - (right - left)) // 2 - left, y + self.step - upper), number, font=self.small_bold, fill=ink)
        if seat.holds_coyote:
            self._draw_icon(draw, COYOTE_MARK, (x + width - 2 - self.step * (len(COYOTE_MARK[0]) + 1), y + self.step), ink)
        if not seat.active:
            middle = y + self.step + (lower - upper) // 2
            draw.line([(x + 1, middle), (x + width - 3, middle)], fill=ink, width=self.step)
            return
        icon_width = (len(EYE_OPEN[0]) + 1) * self.step
        count = min(seat.open_eyes + seat.closed_eyes, (width - 1 + self.step) // icon_width)  # no gap after the last
        eyes = ([EYE_OPEN] * seat.open_eyes + [EYE_CLOSED] * seat.closed_eyes)[:count]
        eyes_left = x + (width - 1 - count * icon_width + self.step) // 2
        eyes_top = y + height - len(EYE_OPEN) * self.step - self.step
        for index, eye in enumerate(eyes):
            self._draw_icon(draw, eye, (eyes_left + index * icon_width, eyes_top), ink)

    def _draw_icon(self, draw: ImageDraw.ImageDraw, icon: tuple[str, ...], origin: tuple[int, int], ink: int) -> None:
        ox, oy = origin
        for row, pattern in enumerate(icon):
            for column, pixel in enumerate(pattern):
                if pixel == "#":
                    px, py = ox + column * self.step, oy + row * self.step
                    draw.rectangle([px, py, px + self.step - 1, py + self.step - 1], fill=ink)


def _text_box(font: ImageFont.FreeTypeFont, text: str) -> tuple[float, float, float, float]:
    """The bounding box of ``text`` drawn at (0, 0), its lines centred under each other."""
    if "\n" not in text:
        return font.getbbox(text)
    return _MEASURE.multiline_textbbox((0, 0), text, font=font, align="center")


_MEASURE = ImageDraw.Draw(Image.new("1", (1, 1)))


@functools.lru_cache(maxsize=8)
def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of the smallest QR code (error correction level L) holding ``text``,
    True for dark, without a quiet zone. Level L keeps the code small enough for 2 px
    per module on a 128x64 panel; a screen is a clean print, it needs little correction."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=0)
    code.add_data(text)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())
