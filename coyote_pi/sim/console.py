"""The terminal of ``coyote-pi run --sim``: the OLED, one seat's eyes, the keys, the record.

At 80x24 it looks like this (the OLED in Braille dots, every pixel of it; a larger
terminal gets half blocks and the eyes beside the OLED)::

    ┌ OLED ──────────────────────────────────────────────────────────┐
    │ (exactly what the table's OLED shows)                          │
    └────────────────────────────────────────────────────────────────┘
    Seat 2 sees: 1:[7] 3:[?] 4:[-5] centre: face down
    OLED: Seat 2 · bid 16 | 17 | ok: bid 17
    record: ~/.local/share/coyote-pi/games/sim/game-0003.jsonl
    keys -,+,ok,undo: 1:1234 2:qwer 3:asdf | v eyes: turn | h help | Ctrl-C quit

- The **OLED** is the real display's frame (this is a frame sink of
  :class:`~coyote_pi.devices.display.TableDisplay`), drawn by
  :func:`~coyote_pi.devices.outputs.fit_lines` as large as the terminal allows.
- Below an OLED drawn in Braille (too small to read its small text) its **words**,
  as the presenter built the screen (title, big text, the lines of the page shown), in
  the rows left.
- **Whose eyes** (:mod:`coyote_pi.sim.eyes`): the table as one seat sees it. ``v``
  switches: the seat whose turn it is (the default), seat 1, 2, ..., nobody. It comes
  from the simulation's own knowledge of the cards and is drawn here only; while a game
  is set up there is nothing to see (the cards still lying there are the last game's).
- **Status**: notices that must stay visible (a game that could not be resumed, the
  web page's address or why it is not there, each finished game's check line, the
  coach's judgement and its offer of the review), each wrapped whole when the terminal
  has the rows, the ones shown last first (the others cut to a row), and the path of
  the game's record, left out when rows are short and a notice names it already (a
  finished game's check line and review offer).
- The **key line**: the keys of the seats in play; ``h`` shows the whole key map
  instead of the table, ``h`` again goes back.

The screen is drawn again on every OLED frame, prompt, key and terminal resize
(SIGWINCH), reading the terminal's size each time; below the smallest size that holds
every pixel of the OLED it says what size is needed. It runs on the alternate screen,
so the shell's screen comes back as it was when it closes.
"""

from __future__ import annotations

import os
import re
import select
import signal
import sys
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, Protocol, TextIO

from PIL import Image

from coyote_pi.devices.events import CHORD_BUTTON
from coyote_pi.devices.keyboard import DEFAULT_KEYMAP, SEAT_KEYS, keymap_help
from coyote_pi.devices.outputs import boxed, fit_lines, smallest_size
from coyote_pi.devices.render import ScreenRenderer
from coyote_pi.devices.screen import Screen
from coyote_pi.sim.eyes import knows, seat_sight
from coyote_pi.sim.table import SimTable, Truths
from coyote_pi.table import stages
from coyote_pi.table.part import Table
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.table.store import RecordStore
from coyote_pi.words.translator import Translator

#: Whose eyes: the seat whose turn it is, or nobody's (else a seat number).
FOLLOW_TURN, NOBODY = "turn", "nobody"
#: The fewest columns the eyes get beside the OLED (else they go under it).
SIDE_COLUMNS = 28
#: Terminal control: the alternate screen and the cursor, on and off.
_ENTER, _LEAVE = "\x1b[?1049h\x1b[?25l", "\x1b[?25h\x1b[?1049l"


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _cut_left(text: str, width: int) -> str:
    """``text`` shortened at the front (a path keeps its file name)."""
    return text if len(text) <= width else "…" + text[len(text) - max(0, width - 1):]


def _wrap(pieces: list[str], width: int) -> list[str]:
    """``pieces`` joined by spaces into lines no longer than ``width`` (a piece is never split)."""
    lines: list[str] = []
    for piece in pieces:
        if lines and len(lines[-1]) + 1 + len(piece) <= width:
            lines[-1] += " " + piece
        else:
            lines.append(_cut(piece, width))
    return lines


def _wrap_whole(lines: list[str], width: int) -> list[str]:
    """``lines`` wrapped to ``width`` at spaces, every character kept: an option stays on
    one row with its value (``--expect NB24-...``), a path longer than a row is split."""
    rows: list[str] = []
    for line in lines:
        wrapped: list[str] = []
        for piece in re.findall(r"--\S+ [^-\s]\S*|\S+", line):
            if wrapped and len(wrapped[-1]) + 1 + len(piece) <= width:
                wrapped[-1] += " " + piece
                continue
            while len(piece) > width > 0:
                wrapped.append(piece[:width])
                piece = piece[width:]
            wrapped.append(piece)
        rows += wrapped or [""]
    return rows


class RecordingTable(Table, Protocol):
    """What the console reads of the controller (only its builders import it: tests/test_layers.py)."""

    store: RecordStore


class SimConsole(Listener):
    """The terminal of the simulated table (see the module docstring).

    Hand it to :func:`~coyote_pi.sim.rig.open_sim_rig` as an output and a listener,
    then :meth:`attach` the rig's scripted table and controller, and :meth:`start` it;
    the display closes it. Give keys that are no seat's to :meth:`key`. ``size``
    fixes the terminal size (tests); by default it is read from ``stream``.
    """

    def __init__(self, stream: TextIO | None = None, *, size: tuple[int, int] | None = None) -> None:
        self._stream = stream if stream is not None else sys.stdout
        self._size = size
        self._image: Image.Image | None = None
        self._prompt: Prompt | None = None
        self._screen: Screen | None = None  #: the screen the OLED shows (its words, at small sizes)
        self._renderer: ScreenRenderer | None = None  #: lays out those words' pages as the OLED does
        self._table: SimTable | None = None
        self._truths: Truths | None = None
        self._controller: RecordingTable | None = None
        #: Lines that stay on screen under the OLED (e.g. a game that could not be resumed).
        self.notices: list[str] = []
        #: The notice :meth:`show` shows for each topic, the topic shown last last.
        self._shown: dict[str, str] = {}
        self._eyes: int | str = FOLLOW_TURN
        self._turn = 1
        self._help = False
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_write, False)  # a wake never blocks, even from a signal handler
        self._thread: threading.Thread | None = None
        #: The SIGWINCH handler before :meth:`start` (``signal.signal``'s answer), given back on close.
        self._previous_winch: Callable[[int, FrameType | None], Any] | int | None = None
        self._closed = False

    # --- wiring -------------------------------------------------------------------

    def attach(self, table: SimTable, controller: RecordingTable) -> None:
        """The scripted table whose scene the eyes look at, and the controller whose record is named."""
        self._table, self._controller = table, controller
        self._truths = Truths(table.deck)
        table.watch(self.wake)  # cards laid down change what a seat sees
        self.wake()

    def start(self) -> None:
        """Take over the terminal: the alternate screen, a drawing thread, redraws on resize."""
        self._stream.write(_ENTER)
        self._stream.flush()
        if threading.current_thread() is threading.main_thread():
            self._previous_winch = signal.signal(signal.SIGWINCH, lambda signum, frame: self.wake())
        self._thread = threading.Thread(target=self._draw_loop, name="sim console", daemon=True)
        self._thread.start()
        self.wake()

    def close(self) -> None:
        """Stop drawing and give the terminal back as it was."""
        if self._closed:
            return
        self._closed = True
        if self._thread is not None:
            self.wake()
            self._thread.join(timeout=5)
            if self._previous_winch is not None and threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGWINCH, self._previous_winch)
            self._stream.write(_LEAVE)
            self._stream.flush()
            self._thread = None
        os.close(self._wake_read)
        os.close(self._wake_write)

    def wake(self) -> None:
        """Draw again soon (from any thread, or a signal handler)."""
        if self._closed and self._thread is None:
            return  # its pipe is closed
        try:
            os.write(self._wake_write, b"!")
        except (BlockingIOError, OSError):
            pass  # a wake is pending already, or the console has closed

    # --- what it is told ----------------------------------------------------------

    def frame(self, image: Image.Image, when: float) -> None:
        self._image = image.copy()
        self.wake()

    def on_screen(self, stage: str, screen: Screen) -> None:
        self._screen = screen
        self.wake()

    def on_prompt(self, prompt: Prompt) -> None:
        if prompt.stage in (stages.TURN, stages.EXTRA_WAIT) and prompt.seats:
            self._turn = prompt.seats[0]
        self._prompt = prompt
        self.wake()

    def show(self, topic: str, line: str) -> None:
        """Show ``line`` with the notices, in place of the last one shown on ``topic`` (from any thread)."""
        notices, old = list(self.notices), self._shown.get(topic)
        if old in notices:
            notices[notices.index(old)] = line
        else:
            notices.append(line)
        self._shown.pop(topic, None)  # shown again: it moves to the end
        self._shown[topic] = line
        self.notices = notices
        self.wake()

    def withdraw(self, topic: str) -> None:
        """Take away the notice shown on ``topic`` (from any thread)."""
        line = self._shown.pop(topic, None)
        notices = list(self.notices)
        if line in notices:
            notices.remove(line)
        self.notices = notices
        self.wake()

    def tell(self, line: str) -> None:
        """Show ``line`` with the notices, in place of the last line told (a finished game's check)."""
        self.show("told", line)

    def key(self, key: str) -> None:
        """``v``: whose eyes next; ``h`` or ``?``: the key map, or back. Other keys do nothing."""
        if key == "v":
            order = [FOLLOW_TURN, *range(1, self._seats() + 1), NOBODY]
            self._eyes = order[(order.index(self._eyes) + 1) % len(order)] if self._eyes in order else FOLLOW_TURN
        elif key in ("h", "?"):
            self._help = not self._help
        else:
            return
        self.wake()

    # --- the screen ---------------------------------------------------------------

    def lines(self, columns: int, rows: int) -> list[str]:
        """The whole screen for a ``columns`` x ``rows`` terminal: at most ``rows`` lines,
        none longer than ``columns``; the key line is the last."""
        key_line = self._key_line(columns)
        record = self._record_lines(columns)
        home = str(Path.home()).rstrip(os.sep) + os.sep
        told = [line.replace(" " + home, " ~" + os.sep) for line in self.notices]  # as a shell takes them, shorter
        named = self._record_named(told)
        # Notices wrapped whole (a check line's --expect at the end), the ones shown last
        # first, the others cut, as far as that leaves room for the OLED; the record's
        # line only when no notice names it, or there are rows for it.
        newest_first = sorted(range(len(told)), key=lambda index: (self._shown_rank(index), index), reverse=True)
        layouts = [(set(newest_first[:whole]), ends) for whole in range(len(told), -1, -1)
                   for ends in ([record, []] if named else [record])]
        for whole, ends in layouts:
            notices = [row for index, line in enumerate(told)
                       for row in (_wrap_whole([line], columns) if index in whole else [_cut(line, columns)])]
            footer = notices + ends + [key_line]
            room = max(0, rows - len(footer))
            if self._help:
                body = [row for line in self._help_lines()
                        for row in textwrap.wrap(line, columns, subsequent_indent="    ") or [""]][:room]
                break
            body = self._table_view(columns, room, len(footer))
            if body and body[0].startswith("┌"):
                break
        return (body + footer)[-rows:] if rows > 0 else []

    def _shown_rank(self, index: int) -> int:
        """How late notice ``index`` was shown (-1: put in :attr:`notices` directly)."""
        line = self.notices[index]
        shown = list(self._shown.values())
        return shown.index(line) if line in shown else -1

    def _record_named(self, told: list[str]) -> bool:
        """A notice names the record in play (a finished game's check line, its review offer)."""
        table = self._controller.state.recorded if self._controller is not None else None
        return table is not None and any(name in line for line in told for name in (str(table.path), _home(table.path)))

    def _table_view(self, columns: int, rows: int, footer: int) -> list[str]:
        """The OLED and the eyes in ``rows`` lines: side by side when that draws the OLED
        at least as large as one above the other. An OLED drawn in Braille is too small
        to read its small text: its words follow as plain text, in the rows left."""
        image = self._image or Image.new("1", (128, 64))
        eyes = self._eyes_pieces()
        beside = fit_lines(image, columns - SIDE_COLUMNS - 1 - 2, rows - 2)
        under_eyes = _wrap(eyes, columns)
        under = fit_lines(image, columns - 2, rows - 2 - len(under_eyes))
        if beside is not None and (under is None or len(beside[0]) >= len(under[0])):
            box = self._boxed(beside)
            side = _wrap(eyes, columns - len(box[0]) - 2)
            blank = " " * len(box[0])
            rows_used = max(len(box), min(rows, len(side)))
            view = [f"{box[i] if i < len(box) else blank}  {side[i] if i < len(side) else ''}".rstrip()
                    for i in range(rows_used)]
            return view + self._oled_words(beside, image, columns)[:rows - len(view)]
        if under is not None:
            view = self._boxed(under) + under_eyes
            return view + self._oled_words(under, image, columns)[:rows - len(view)]
        width, height = smallest_size(image.size)  # the OLED in Braille, framed, the eyes under it
        need_columns = max(columns, width + 2)
        need_rows = height + 2 + len(_wrap(eyes, need_columns)) + footer
        message = self._tr()("console.too_small", size=f"{columns}x{rows + footer}", need=f"{width + 2}x{need_rows}")
        return _wrap(message.split(), columns)[:rows]

    def _oled_words(self, drawn: list[str], image: Image.Image, columns: int) -> list[str]:
        """The words of the screen the OLED shows (as the presenter built it), when
        ``drawn`` is the Braille drawing (fewer columns than the OLED has pixels): its
        title (with the page mark, as the OLED draws it), big text and the lines of the
        page it shows."""
        screen = self._screen
        if screen is None or len(drawn[0]) >= image.width:
            return []
        if self._renderer is None or (self._renderer.width, self._renderer.height) != image.size:
            self._renderer = ScreenRenderer(image.size)
        title, lines = screen.title, list(screen.lines)
        if not screen.qr:  # beside a QR code every line shows at once
            pages = self._renderer.page_count(screen)
            lines = self._renderer.page_lines(screen)
            if pages > 1:
                title = f"{title} {screen.page % pages + 1}/{pages}".strip()
        pieces = [text for text in (title, screen.big, *lines) if text.strip()]
        return textwrap.wrap("OLED: " + " | ".join(pieces), columns, subsequent_indent="  ") if pieces else []

    @staticmethod
    def _boxed(lines: list[str]) -> list[str]:
        box = boxed(lines)
        label = "┌ OLED "
        box[0] = label + box[0][len(label):] if len(box[0]) > len(label) + 1 else box[0]
        return box

    def _tr(self) -> Translator:
        """The table's language as its controller speaks it now (its setup may change it)."""
        tr = getattr(self._controller, "tr", None)
        return tr if isinstance(tr, Translator) else Translator("en")

    def _seats(self) -> int:
        prompt = self._prompt
        if prompt is not None and prompt.config is not None:
            return prompt.config.players
        return self._table.seats if self._table is not None else len(SEAT_KEYS)

    def _eyes_seat(self) -> int:
        return self._turn if self._eyes == FOLLOW_TURN else int(self._eyes)

    def _eyes_pieces(self) -> list[str]:
        if self._eyes == NOBODY:
            return [self._tr()("console.nobody")]
        if self._table is None or self._truths is None:  # (attached together)
            return []
        seat, prompt = self._eyes_seat(), self._prompt
        if prompt is not None and prompt.stage == stages.SETUP:
            return []  # the cards still lying there are the last game's: nothing to see for the next one
        game = self._truths.of(prompt) if prompt is not None and prompt.config is not None else None
        peeked, drew = knows(game, seat)
        return seat_sight(self._table.scene(), seat, peeked=peeked, drew=drew, tr=self._tr())

    def _record_lines(self, columns: int) -> list[str]:
        controller = self._controller
        if controller is None:
            return []
        table, tr = controller.state.recorded, self._tr()
        if table is not None:
            prefix = tr("console.record") + " "
            return [prefix + _cut_left(_home(table.path), columns - len(prefix))]
        prefix = tr("console.record_new") + " "
        return [prefix + _cut_left(_home(controller.store.folder) + os.sep, columns - len(prefix))]

    def _key_line(self, columns: int) -> str:
        tr = self._tr()
        seats = " ".join(f"{seat}:{SEAT_KEYS[seat]}" for seat in range(1, self._seats() + 1))
        if self._eyes == FOLLOW_TURN:
            eyes = tr("console.eyes_turn")
        elif self._eyes == NOBODY:
            eyes = tr("console.eyes_nobody")
        else:
            eyes = tr("console.eyes_seat", seat=self._eyes)
        back = tr("console.back_table") if self._help else tr("console.back_help")
        for line in (tr("console.keys", seat_keys=seats, eyes=eyes, back=back),
                     tr("console.keys_short", seat_keys=seats, eyes=eyes, back=back)):
            if len(line) <= columns:
                return line
        return _cut(line, columns)

    def _help_lines(self) -> list[str]:
        seats = self._seats()
        keymap = {key: role for key, role in DEFAULT_KEYMAP.items() if role[0] <= seats}
        tr = self._tr()
        names = {"minus": tr("console.button_minus"), "plus": tr("console.button_plus"), "ok": tr("console.button_ok"),
                 CHORD_BUTTON: tr("console.button_undo")}
        return [
            tr("console.help_buttons"),
            *keymap_help(keymap, seat_line=tr("console.help_seat", seat="{seat}", keys="{keys}"),
                         button_names=names).splitlines(),
            tr("console.help_hold"),
            tr("console.help_v"),
            tr("console.help_sight"),
            tr("console.help_h"),
            tr("console.help_quit"),
            tr("console.help_oled"),
        ]

    # --- drawing ------------------------------------------------------------------

    def _terminal_size(self) -> tuple[int, int]:
        if self._size is not None:
            return self._size
        try:
            columns, rows = os.get_terminal_size(self._stream.fileno())
        except (OSError, ValueError):
            columns = rows = 0
        return (columns, rows) if columns and rows else (80, 24)  # a terminal that does not say: the classic size

    def _draw_loop(self) -> None:
        while True:
            select.select([self._wake_read], [], [])  # sleeps until something changed
            os.read(self._wake_read, 4096)
            if self._closed:
                return
            columns, rows = self._terminal_size()
            text = "\x1b[K\r\n".join(self.lines(columns, rows))
            self._stream.write(f"\x1b[H{text}\x1b[K\x1b[J")
            self._stream.flush()


def _home(path: Path) -> str:
    """``path`` with the home folder written ``~`` (shorter, and the same on every machine)."""
    home = Path.home()
    try:
        return str(Path("~") / Path(path).resolve().relative_to(home.resolve()))
    except ValueError:
        return str(path)

