"""Views of the OLED for people: an animated GIF of every frame, and a terminal rendering.

Both are *frame sinks*: :class:`~coyote_pi.devices.display.TableDisplay` hands each
frame it draws to ``sink.frame(image, when)`` (the 1-bit Pillow image and the clock time
it was drawn), whether or not the I2C display took it, and calls ``sink.close()`` if the
sink has one when the display closes::

    gif = GifRecorder("out/oled.gif", min_frame_seconds=0.8)
    display = TableDisplay(dummy(width=128, height=64, mode="1"), outputs=[gif, TerminalView()])
    ...
    display.close()          # writes out/oled.gif

:func:`halfblock_lines` draws a 1-bit image in a terminal with Unicode half blocks: each
character cell holds two pixels one above the other, so 128x64 becomes 128 columns by
32 rows (plus a frame around it in :class:`TerminalView`), or a whole multiple of that.
A smaller terminal gets :func:`braille_lines`: each cell holds 2x4 pixels as Braille
dots, so every pixel still shows in 64 columns by 16 rows (an 80x24 terminal has room
for it). Shrinking the half blocks instead would lose pixels, and the OLED's 10-pixel
text with them. :func:`fit_lines` picks the largest drawing that fits a terminal.

A pygame window is not provided: the terminal view needs no extra dependency and works
over SSH, which is how a Pi is usually reached.
"""

from __future__ import annotations

import bisect
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from PIL import Image

if TYPE_CHECKING:
    from PIL._imaging import PixelAccess

# Index: (top pixel lit) * 2 + (bottom pixel lit).
_HALF_BLOCKS = (" ", "▄", "▀", "█")
# Braille cells: (column, row) of each of the 8 dots in a 2x4 cell, and its bit.
_BRAILLE_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
                 (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))
_BRAILLE_BLANK = 0x2800
#: The GIF's colours: palette index 0 is a dark pixel, 1 a lit one.
_GIF_PALETTE = (0, 0, 0, 255, 255, 255)


def _pixels(bitmap: Image.Image) -> PixelAccess:
    """``bitmap``'s pixels to read by ``[x, y]`` (Pillow's types allow None, which an image
    with pixel data, as every frame here, never gives)."""
    pixels = bitmap.load()
    if pixels is None:
        raise ValueError(f"a {bitmap.width}x{bitmap.height} image without pixel data")
    return pixels


def halfblock_lines(image: Image.Image, scale: int = 1) -> list[str]:
    """``image`` as text, two pixel rows per line: ``ceil(height / 2)`` lines of ``width``
    characters; with ``scale``, each pixel ``scale`` characters wide and half as many high."""
    bitmap = image.convert("1")
    if scale > 1:
        bitmap = bitmap.resize((bitmap.width * scale, bitmap.height * scale), Image.Resampling.NEAREST)
    width, height = bitmap.size
    pixels = _pixels(bitmap)

    def lit(x: int, y: int) -> int:
        return 1 if y < height and pixels[x, y] else 0

    return [
        "".join(_HALF_BLOCKS[lit(x, y) * 2 + lit(x, y + 1)] for x in range(width))
        for y in range(0, height, 2)
    ]


def braille_lines(image: Image.Image) -> list[str]:
    """``image`` as Braille dots, 2x4 pixels per character: ``ceil(height / 4)`` lines of
    ``ceil(width / 2)`` characters, every pixel kept."""
    bitmap = image.convert("1")
    width, height = bitmap.size
    pixels = _pixels(bitmap)
    lines = []
    for top in range(0, height, 4):
        cells = []
        for left in range(0, width, 2):
            bits = 0
            for dx, dy, bit in _BRAILLE_DOTS:
                x, y = left + dx, top + dy
                if x < width and y < height and pixels[x, y]:
                    bits |= bit
            cells.append(chr(_BRAILLE_BLANK + bits))
        lines.append("".join(cells))
    return lines


def fit_lines(image: Image.Image, columns: int, rows: int) -> list[str] | None:
    """The largest drawing of ``image`` no bigger than ``columns`` x ``rows`` characters:
    half blocks at the largest whole scale, else Braille; None when even that does not fit."""
    width, height = image.size
    scale = min(columns // width, rows // math.ceil(height / 2))
    if scale >= 1:
        return halfblock_lines(image, scale)
    if columns >= math.ceil(width / 2) and rows >= math.ceil(height / 4):
        return braille_lines(image)
    return None


def smallest_size(image_size: tuple[int, int]) -> tuple[int, int]:
    """The fewest ``(columns, rows)`` :func:`fit_lines` can draw an image of ``image_size`` in."""
    width, height = image_size
    return math.ceil(width / 2), math.ceil(height / 4)


def boxed(lines: list[str]) -> list[str]:
    """``lines`` (of equal length) inside a frame: two more columns and two more rows."""
    width = len(lines[0]) if lines else 0
    return ["┌" + "─" * width + "┐", *(f"│{line}│" for line in lines), "└" + "─" * width + "┘"]


class TerminalView:
    """Draws each frame in a terminal inside a box, redrawing in place when ``clear`` is true.

    ``stream`` defaults to standard output. With ``clear`` (the default when the stream
    is a terminal) each frame replaces the previous one at the top of the screen;
    otherwise frames follow each other, which suits logs and pipes. On a terminal each
    frame is fitted to the terminal's size at that moment (:func:`fit_lines`); elsewhere,
    or with ``size=(columns, rows)``, to that size (default: room for half blocks at 1:1).
    """

    def __init__(self, stream: TextIO | None = None, *, clear: bool | None = None,
                 size: tuple[int, int] | None = None):
        self._stream = stream if stream is not None else sys.stdout
        self._clear = self._stream.isatty() if clear is None else clear
        self._size = size

    def _room(self, image: Image.Image) -> tuple[int, int]:
        if self._size is None and self._stream.isatty():
            columns, rows = os.get_terminal_size(self._stream.fileno())
        else:
            columns, rows = self._size or (image.width + 2, math.ceil(image.height / 2) + 2)
        return columns - 2, rows - 2  # the frame

    def text(self, image: Image.Image) -> str:
        """The framed rendering of ``image`` that fits the room (half blocks at 1:1 on a
        ``width + 2`` by ``ceil(height / 2) + 2`` terminal), or what size is needed."""
        lines = fit_lines(image, *self._room(image))
        if lines is None:
            columns, rows = smallest_size(image.size)
            return f"The terminal is too small for the OLED: make it at least {columns + 2}x{rows + 2}.\n"
        return "\n".join(boxed(lines)) + "\n"

    def frame(self, image: Image.Image, when: float) -> None:
        prefix = "\x1b[H\x1b[2J" if self._clear else ""
        self._stream.write(prefix + self.text(image))
        self._stream.flush()


class GifRecorder:
    """Records frames and writes them as an animated GIF that plays at the pace they were shown.

    Each frame lasts until the next one was drawn, clamped to
    ``[min_frame_seconds, max_frame_seconds]`` so that quick scripted games stay readable
    and long waits do not stall the animation; the last frame lasts
    ``last_frame_seconds``. A frame identical to the one before only extends it.
    ``scale`` enlarges the pixels (an OLED's 128x64 is small on a computer screen).
    Nothing is written until :meth:`save` or :meth:`close`.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        scale: int = 3,
        min_frame_seconds: float = 0.05,
        max_frame_seconds: float = 5.0,
        last_frame_seconds: float = 2.0,
    ):
        self.path = Path(path)
        self._scale = scale
        self._min_ms = round(1000 * min_frame_seconds)
        self._max_ms = round(1000 * max_frame_seconds)
        self._last_ms = round(1000 * last_frame_seconds)
        self._frames: list[Image.Image] = []
        self._times: list[float] = []

    def __len__(self) -> int:
        return len(self._frames)

    def frame(self, image: Image.Image, when: float) -> None:
        if self._frames and self._frames[-1].tobytes() == image.tobytes():
            return
        self._frames.append(image.convert("1").copy())
        self._times.append(when)

    def durations_ms(self) -> list[int]:
        """How long each recorded frame will show in the GIF, in milliseconds."""
        gaps = [round(1000 * (later - earlier)) for earlier, later in zip(self._times, self._times[1:])]
        return [min(self._max_ms, max(self._min_ms, gap)) for gap in gaps] + [self._last_ms] * bool(self._frames)

    def seconds_at(self, when: float) -> float:
        """Where the clock time ``when`` falls in the GIF, in seconds from its start: in the
        frame shown then, as far in as that frame lasts (a sound track in step with it)."""
        index = bisect.bisect_right(self._times, when) - 1
        if index < 0:
            return 0.0
        durations = self.durations_ms()
        into = min(durations[index], round(1000 * (when - self._times[index])))
        return (sum(durations[:index]) + into) / 1000

    def save(self) -> Path | None:
        """Write the GIF (creating its folder); ``None`` when no frame was recorded."""
        if not self._frames:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        frames = [self._gif_frame(frame) for frame in self._frames]
        frames[0].save(
            self.path, save_all=True, append_images=frames[1:], duration=self.durations_ms(), loop=0, optimize=False
        )
        return self.path

    def close(self) -> None:
        self.save()

    def _gif_frame(self, bitmap: Image.Image) -> Image.Image:
        """``bitmap`` enlarged, as a palette image with :data:`_GIF_PALETTE`.

        Palette images, not greyscale: Pillow 9.4 (Raspberry Pi OS Bookworm's) gives each
        frame after the first its own colour table and fails on an image without a palette
        (``AttributeError: 'NoneType' object has no attribute 'palette'``).
        """
        lit = bitmap.resize((bitmap.width * self._scale, bitmap.height * self._scale), Image.Resampling.NEAREST)
        frame = Image.new("P", lit.size, 0)
        frame.putpalette(_GIF_PALETTE)
        frame.paste(1, mask=lit)
        return frame
