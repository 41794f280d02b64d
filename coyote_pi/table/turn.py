"""The buttons of the turn and of the guesses: the two stages in which the players move the game.

In the ``turn`` stage the seat whose turn it is has one pending choice, a
:class:`~coyote_pi.table.selector.Selector`: minus/plus move it through the legal
choices (held, they repeat), ok makes it the seat's move. Minus+plus at the seat that
made the last bid takes it back while it is the latest thing that happened (an
:class:`~coyote_pi.engine.events.Undo`; the engine refuses any other), and that seat's
selector starts again from the bid it took back.
A press at another seat changes nothing; the table says why (the seat is out, it is
not its turn, or, for the seat that has just bid, how to undo).

After a peek the seat sees its notice for two pages' time, over its turn's screen.

In the ``guess`` stage (the Trickster variant) the guessers bet on the challenge
without showing whom for: plus for the bidder, minus for the challenger. The play-by-play
only says that a seat has guessed; the verdict shows the guesses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from coyote_pi.devices.events import CHORD, PRESS, REPEAT, REPEATING_BUTTONS, Button, ButtonEvent
from coyote_pi.engine import GUESSING, Bid, Guess, Undo
from coyote_pi.table import screens
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.selector import ChoiceKind, Selector, event_for, opening_bid

if TYPE_CHECKING:
    from coyote_pi.table.part import Table


class Turn:
    """The ``table``'s turn and guess buttons (see the module docstring)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: The bid an undo took back: the next selector starts from it (once).
        self._undone: int | None = None

    def new_selector(self) -> Selector:
        """The pending choice of a new turn: the lowest bid, or the bid an undo took back."""
        game = self.table.game
        start = opening_bid(game)
        if self._undone is not None:
            start, self._undone = max(start, self._undone), None
        return Selector(game.legal(), start)

    def button(self, event: ButtonEvent) -> None:
        """A press in the ``turn`` stage."""
        table = self.table
        game = table.game
        seat = game.turn
        if event.kind == CHORD:
            table.log_press(event, "undo")
            last = game.history[-1] if game.history else None
            if table.apply(Undo(event.seat)) and isinstance(last, Bid):  # only a bid can be undone
                self._undone = last.amount  # the seat starts again from the bid it took back
                table.flash(table.tr("msg.undone", seat=event.seat, amount=last.amount))
            return
        if event.seat != seat:
            if event.kind == PRESS:
                self._out_of_turn(event.seat)
            return
        table.deadlines.cancel(Timer.NOTICE)
        selector = table.state.selector
        assert selector is not None, "entering the turn stage gives it a selector"
        if event.button in REPEATING_BUTTONS:
            selector.press(event.button, repeat=event.kind == REPEAT)
            table.log_press(event, screens.choice_text(table.tr, selector.choice))
            table.deadlines.cancel(Timer.FLASH)
        elif event.button == Button.OK and event.kind == PRESS:
            choice = selector.choice
            table.log_press(event, "confirm")
            table.apply(event_for(seat, choice))
            if choice.kind == ChoiceKind.PEEK and game.current_round.peeked_this_turn:
                notice = screens.peek_screen(table.tr, game, seat)
                table.deadlines.set(Timer.NOTICE, table.clock() + 2 * table.pacing.page_seconds)
                table.state.kept.notice = notice

    def guess(self, event: ButtonEvent) -> None:
        """A press in the ``guess`` stage."""
        table = self.table
        if event.kind != PRESS or event.button == Button.OK:
            return
        legal = table.game.legal()
        bidder, challenger = legal.guess_options
        winner = bidder if event.button == Button.PLUS else challenger
        if event.seat in legal.seats:
            table.log(f"  seat {event.seat} presses a guess button")  # which one stays secret until the verdict
        if table.apply(Guess(event.seat, winner)) and table.game.phase == GUESSING:
            table.flash(table.tr("msg.guessed", seat=event.seat))

    def _out_of_turn(self, seat: int) -> None:
        table = self.table
        game, history = table.game, table.game.history
        if game.eyes[seat].cards == 0:
            message = "msg.seat_out"
        elif history and isinstance(history[-1], Bid) and history[-1].seat == seat:
            message = "msg.undo_hint"  # the seat's first finger of minus+plus
        else:
            message = "msg.not_your_turn"
        table.flash(table.tr(message, seat=seat))
