"""What the OLED shows, as plain data: a :class:`Screen` with optional :class:`SeatStatus` strip.

The controller builds screens; :class:`~coyote_pi.devices.display.TableDisplay` draws them
on whatever display is attached (and the GIF and terminal views). The model says *what*
matters; the layout decides sizes, so one screen fits 128x64 and larger panels alike::

    Screen(
        title="Seat 3 bids",                 # small, top line
        big="17",                            # as large as fits: the bid, whose turn, a verdict
        lines=["ok: bid  -/+: change"],      # small text, word-wrapped, paged when long
        seats=[SeatStatus(1, open_eyes=2, closed_eyes=1), SeatStatus(3, 1, 1, is_turn=True), ...],
        alert=False,                         # True: the whole screen inverted (refusals, problems)
        page=0,                              # which page of ``lines`` to show
    )

``big`` may hold a line break: its lines are drawn centred, in the largest size that
fits them all (the record's fingerprint, two groups a line). A screen with ``qr`` is a
QR code instead: the code of that text on the left at the full height, dark modules on
a lit field so a phone can photograph it, and ``lines`` beside it (title, big and seats
are not drawn).

Every field is optional. Texts may be English, German or Russian: the shipped DejaVu fonts
carry Latin and Cyrillic. When ``lines`` need more than one page, the display shows a
"1/3" page mark; the controller chooses the page (for example with a timer or the ok
button) and asks :meth:`TableDisplay.page_count <coyote_pi.devices.display.TableDisplay.page_count>`
how many there are. ``page`` is taken modulo the page count, so counting up cycles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatStatus:
    """One seat in the strip along the bottom of the screen.

    Drawn as the seat number with one eye icon per peek card (open, then closed eyes);
    ``is_turn`` inverts the seat's cell, ``holds_coyote`` adds a small diamond, and an
    inactive (eliminated or empty) seat is struck through.
    """

    seat: int
    open_eyes: int = 0
    closed_eyes: int = 0
    active: bool = True
    is_turn: bool = False
    holds_coyote: bool = False

    def __post_init__(self) -> None:
        if self.open_eyes < 0 or self.closed_eyes < 0:
            raise ValueError(f"seat {self.seat}: eye counts cannot be negative")


@dataclass(frozen=True)
class Screen:
    """One full screen. ``lines`` and ``seats`` accept any sequence and are stored as tuples."""

    title: str = ""
    big: str = ""
    lines: Sequence[str] = ()
    seats: Sequence[SeatStatus] | None = None
    alert: bool = False
    page: int = 0
    qr: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", tuple(self.lines))
        if self.seats is not None:
            object.__setattr__(self, "seats", tuple(self.seats))
        if self.page < 0:
            raise ValueError("page numbers start at 0")
