"""Which screen now: what the table shows on the OLED, and what it asks of its watchers.

After every queue item and every timer the controller calls :meth:`Presenter.refresh`.
The presenter works out the screen from where the table stands, hands it to the
display (and to the :class:`Listener` objects) if it differs from the one shown, and
does the same with the :class:`Prompt`, the plain-data form of what the table asks
for, which the simulated table's players act on the way people act on the OLED. The
service manager hears one line of it (:meth:`Presenter.status_text`) at each new situation.

The screen, first match wins:

1. a short message (a refusal, "undone", "cards by hand"), for ``message_seconds``;
2. a seat's question "enter the cards by hand?" (at a card wait) or "correct a card?"
   (at the verdict), until it is answered or expires;
3. the stage's own screen: the setup question; the turn's pending choice (or, for a
   moment after a peek, the peek notice); who has guessed; the verdict's current page
   (or the record's QR code, on request); the correction being entered; the game's end
   and the record's fingerprint in turn (or the QR code); a record problem that waits for
   a person; or a card wait, with what the camera still misses, or the card being
   dialled on the manual path.

While the record cannot be written, that screen (not a short message) is shown inverted,
with "Not saved" for its title, until a write works again.

Pages: the panel shows a few small lines. A screen with more turns its pages by
itself, one per ``page_seconds`` (counted on the clock, so a screen redrawn for
another reason keeps its page). The verdict is several screens, each perhaps of
several pages: plus/minus turn them, they also turn by themselves, and with
``verdict_seconds`` the verdict moves on by itself. The game's end turns between the
winner and the fingerprint the same way. Both are timers of the controller's
:class:`~coyote_pi.table.deadlines.Deadlines`.

Hidden information: screens come only from :mod:`~coyote_pi.table.screens`, which
shows what the public view of the game allows, and the card dialled on the manual
path is one the round has already made public.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from coyote_pi.devices.screen import Screen
from coyote_pi.engine import OVER, Correct, Event, Game, GameConfig
from coyote_pi.table import screens, stages
from coyote_pi.table.correction import Step
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.part import Table
from coyote_pi.table.selector import Choice

if TYPE_CHECKING:
    from coyote_pi.devices.render import ScreenRenderer
    from coyote_pi.table.camera_reads import CameraReads, Frame
    from coyote_pi.table.correction import Correction
    from coyote_pi.table.manual_entry import ManualEntry
    from coyote_pi.table.virtual_seats import VirtualSeats
    from coyote_pi.vision.reading import TableReading


class Display(Protocol):
    """What the presenter needs of the OLED (:class:`~coyote_pi.devices.display.TableDisplay`):
    a screen shown, and how many pages a screen takes on it."""

    def show(self, screen: Screen) -> object: ...  # (what it returns is not looked at)

    def page_count(self, screen: Screen) -> int: ...


class Overlay(Protocol):
    """A part that may show its own screen over the presenter's (the web side's address and PIN)."""

    def screen(self, shown: Screen) -> Screen: ...


class ShownTable(Table, Protocol):
    """What the presenter needs of the table to choose the screen and the prompt: the
    display, the camera's wait, the manual entry's item, the web side's screen, the
    listeners, and the restart count the prompt carries."""

    display: Display | None
    epoch: int
    camera: CameraReads
    camera_problem: str
    entry: ManualEntry
    listeners: list[Listener]
    new_game_when_over: bool
    virtual: VirtualSeats

    @property
    def web(self) -> Overlay | None: ...

    def is_manual(self) -> bool: ...


@dataclass(frozen=True)
class Prompt:
    """What the table is asking for right now: the simulated table's players and hands
    act on it the way people act on the OLED. Emitted whenever it changes."""

    stage: str
    epoch: int  #: counts controller starts: a resumed table asks again
    round: int
    seats: tuple[int, ...]  #: the seats asked to act (turn, guessers, start of setup)
    config: GameConfig | None
    history: tuple[Event, ...] = ()  #: the game's events so far
    undos: int = 0
    choice: Choice | None = None  #: the turn's pending choice
    manual: bool = False  #: this wait is on the manual path
    entry: tuple[str, str] | None = None  #: (item, card shown) while entering cards by hand
    setup: tuple[str, object] | None = None  #: (step, value shown) during setup
    correction: tuple[str, str, str] | None = None  #: (step, item, card shown) while correcting the verdict
    virtual: tuple[int, ...] = ()  #: the seats the table plays itself (they move without a press)


class Listener:
    """Hooks for whoever watches the table (the demo, the simulated table, the bench).

    Called on the controller's thread: keep them quick and never call back into it.
    """

    def on_prompt(self, prompt: Prompt) -> None:
        """The table now asks for something else."""

    def on_log(self, line: str) -> None:
        """One line of the play-by-play (English; never a card of an open round)."""

    def on_screen(self, stage: str, screen: Screen) -> None:
        """A screen was handed to the display."""

    def on_reveal(self, round_number: int, what: str, frame: Frame | None, reading: TableReading | None) -> None:
        """The camera frame and reading that settled a reveal or a ``?`` draw."""


class Presenter:
    """The screen and the prompt of the ``table`` (see the module docstring)."""

    def __init__(self, table: ShownTable) -> None:
        self.table = table
        #: The verdict's pages in order: (screen, page of its lines).
        self._pages: list[tuple[Screen, int]] = []
        self._page = 0
        self._shown: Screen | None = None
        self._prompt: Prompt | None = None
        self._renderer: ScreenRenderer | None = None
        self._counted: tuple[Screen, int] | None = None  #: the last screen whose pages were counted

    def enter(self) -> None:
        """A new situation: lay out the pages of the verdict or of the game's end, else forget them."""
        table = self.table
        self._pages, self._page = [], 0
        table.deadlines.cancel(Timer.VERDICT_PAGE, Timer.VERDICT_DONE)
        if table.state.stage not in (stages.VERDICT, stages.GAME_OVER):
            return
        game, pacing, fingerprint = table.game, table.pacing, table.state.playing().writer.fingerprint
        if table.state.stage == stages.VERDICT:
            corrected = game.history[-1] if isinstance(game.history[-1], Correct) else None
            result = game.last_result
            if result is None:
                raise RuntimeError("the verdict stage shows a round that is not settled")
            shown = screens.verdict_screens(table.tr, game, result, fingerprint,
                                            final=game.phase == OVER, corrected=corrected)
        else:
            shown = screens.over_screens(table.tr, game, fingerprint, offer_new_game=table.new_game_when_over)
        self._pages = [(screen, page) for screen in shown for page in range(self.page_count(screen))]
        now = table.clock()
        table.deadlines.set(Timer.VERDICT_PAGE, now + pacing.page_seconds)
        if pacing.verdict_seconds and table.state.stage == stages.VERDICT:
            seconds = max(pacing.verdict_seconds, pacing.page_seconds * len(self._pages))
            table.deadlines.set(Timer.VERDICT_DONE, now + seconds)

    def turn_verdict_page(self, step: int) -> None:
        """Show the next (1) or previous (-1) page of the verdict or the game's end; the next
        turns by itself later."""
        table = self.table
        self._page = (self._page + step) % len(self._pages)
        table.deadlines.set(Timer.VERDICT_PAGE, table.clock() + table.pacing.page_seconds)

    def on_fingerprint_page(self) -> bool:
        """Whether the verdict shows its last screen now: the record's fingerprint."""
        return bool(self._pages) and self._pages[self._page][0] is self._pages[-1][0]

    def refresh(self) -> None:
        """Hand the screen and the prompt on, each if it changed."""
        table = self.table
        screen = self._screen()
        if table.web is not None:  # the web page's address or PIN, when asked for
            screen = table.web.screen(screen)
        if self._pages:
            table.deadlines.cancel(Timer.PAGE_FLIP)  # the verdict and the end turn their own pages
        else:
            screen = self._paged(screen)
        shows_message = table.state.kept.flash is not None  # its title names the seat
        if table.state.unsaved is not None and table.state.stage != stages.RECORD and not shows_message:
            screen = screens.unsaved_screen(table.tr, screen)
        if screen != self._shown:
            self._shown = screen
            if table.display is not None:
                table.display.show(screen)
            for listener in table.listeners:
                listener.on_screen(table.state.stage, screen)
        prompt = self._make_prompt()
        if prompt != self._prompt:
            self._prompt = prompt
            for listener in table.listeners:
                listener.on_prompt(prompt)

    def status_text(self) -> str:
        """Where the table stands, in one line for the service manager (``systemctl status``)."""
        table = self.table
        if table.state.hold is not None:
            return f"record: {table.state.hold.kind}"
        if table.state.recorded is None:
            return "setup"
        game, stage = table.game, table.state.stage
        return f"round {game.round_number}: {stage}" + (f", seat {game.turn}" if stage == stages.TURN else "")

    def _screen(self) -> Screen:
        table = self.table
        kept, tr, stage = table.state.kept, table.tr, table.state.stage
        if (flash := kept.flash) is not None:
            return flash
        if (asking := kept.offer) is not None:
            return screens.offer_screen(tr, asking, correction=stage == stages.VERDICT)
        if stage == stages.RECORD:
            problem = table.state.hold
            if problem is None:
                raise RuntimeError("the record stage has no record problem to show")
            return screens.record_screen(tr, problem.kind, **problem.params)
        if stage == stages.SETUP:
            setup = table.state.asking()
            if setup.step == stages.Question.START:
                return self._not_resumed(screens.start_screen(tr, setup.virtual_seats()))
            return self._not_resumed(screens.setup_screen(tr, setup.step, setup.values.get(setup.step),
                                                          table.state.stands, setup.framing))
        game = table.game
        if (thinking := table.virtual.screen()) is not None:
            return thinking
        if stage == stages.TURN:
            if (notice := kept.notice) is not None:
                return notice
            selector = table.state.selector
            if selector is None:
                raise RuntimeError("the turn stage has no pending choice to show")
            return screens.turn_screen(tr, game, _turn(game), selector.choice)
        if stage == stages.GUESS:
            return screens.guess_screen(tr, game)
        if stage in (stages.VERDICT, stages.GAME_OVER):
            if (qr := kept.notice) is not None:
                return qr
            screen, page = self._pages[self._page]
            return dataclasses.replace(screen, page=page)
        if stage == stages.CORRECT:
            return screens.correction_screen(tr, game, _correction(table))
        return self._wait_screen()

    def _wait_screen(self) -> Screen:
        table = self.table
        tr, stage, game, wait = table.tr, table.state.stage, table.game, table.camera.wait
        manual = table.is_manual()
        problems = wait.problems if wait is not None else ()
        offer = wait is not None and wait.reads >= table.pacing.stable_reads + 2 and bool(problems)
        if stage in (stages.REVEAL_WAIT, stages.DRAW_WAIT) and manual:
            return screens.entry_screen(tr, table.entry.item() or "centre", table.entry.card)
        no_camera = None if table.camera.present else table.camera_problem
        if stage == stages.DEAL_WAIT:
            screen = screens.deal_screen(tr, game.round_number + 1, problems, manual=manual, offer_manual=offer,
                                         no_camera=no_camera)
            return self._not_resumed(screen) if game.round_number == 0 else screen
        if stage == stages.EXTRA_WAIT:
            return screens.extra_screen(tr, _turn(game), problems, manual=manual, offer_manual=offer,
                                        no_camera=no_camera)
        if stage == stages.REVEAL_WAIT:
            r = game.current_round
            bid, _, challenger = r.challenge()
            return screens.reveal_screen(tr, challenger, bid, extra=r.extra_used, problems=problems,
                                         offer_manual=offer)
        return screens.draw_screen(tr, problems, offer_manual=offer)

    def _not_resumed(self, screen: Screen) -> Screen:
        """``screen`` saying first, if so, that the newest game could not be resumed (until
        the first deal, so that players who expected to play on know why it starts anew)."""
        name = self.table.state.not_resumed
        if name is None:
            return screen
        return dataclasses.replace(screen, lines=(self.table.tr("setup.not_resumed", name=name), *screen.lines))

    def _paged(self, screen: Screen) -> Screen:
        """Lines that need several pages turn them by themselves, one per ``page_seconds``."""
        table = self.table
        pages = self.page_count(screen)
        if pages == 1:
            table.deadlines.cancel(Timer.PAGE_FLIP)
            return screen
        seconds = table.pacing.page_seconds
        slot = int(table.clock() / seconds)
        table.deadlines.set(Timer.PAGE_FLIP, (slot + 1) * seconds)
        return dataclasses.replace(screen, page=slot % pages)

    def page_count(self, screen: Screen) -> int:
        # Every pass of the loop asks (a camera read is one): laying out the lines again
        # each time would measure every word with the font.
        if self._counted is not None and self._counted[0] == screen:
            return self._counted[1]
        display = self.table.display
        if display is not None:
            pages = display.page_count(screen)
        else:
            if self._renderer is None:  # no OLED: page as a 128x64 panel would
                from coyote_pi.devices.render import ScreenRenderer

                self._renderer = ScreenRenderer()
            pages = self._renderer.page_count(screen)
        self._counted = (screen, pages)
        return pages

    def _make_prompt(self) -> Prompt:
        table = self.table
        if table.state.recorded is None:
            if table.state.stage == stages.RECORD:
                return Prompt(stages.RECORD, table.epoch, 0, (), None)
            setup = table.state.asking()
            return Prompt(stages.SETUP, table.epoch, 0, (), None, setup=(setup.step, setup.values.get(setup.step)))
        game, stage, entry = table.game, table.state.stage, table.entry
        seats: tuple[int, ...] = ()
        if stage == stages.TURN or stage == stages.EXTRA_WAIT:
            seats = (_turn(game),)
        elif stage == stages.GUESS:
            seats = game.legal().seats
        correction = None
        if stage == stages.CORRECT:
            fix = _correction(table)
            seats = fix.waiting if fix.step == Step.CONFIRM else ()
            correction = (fix.step, fix.item, fix.card)
        manual = stage in stages.WAITS and table.is_manual()
        entered = None
        if manual and stage in (stages.REVEAL_WAIT, stages.DRAW_WAIT) and (item := entry.item()) is not None:
            entered = (item, entry.card)
        choice = table.state.selector.choice if stage == stages.TURN and table.state.selector is not None else None
        return Prompt(stage, table.epoch, game.round_number, seats, game.config, tuple(game.history),
                      table.state.memory.undos, choice, manual, entered, correction=correction,
                      virtual=tuple(table.state.virtual))


def _turn(game: Game) -> int:
    """The seat whose turn it is, which the stages that show one promise (RuntimeError otherwise: a bug)."""
    if game.turn is None:
        raise RuntimeError("a stage shows whose turn it is while it is no one's")
    return game.turn


def _correction(table: ShownTable) -> Correction:
    """The correction being entered, which the ``correct`` stage always has (RuntimeError otherwise: a bug)."""
    if table.state.correction is None:
        raise RuntimeError("the correct stage has no correction")
    return table.state.correction
