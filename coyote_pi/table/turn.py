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
from coyote_pi.table.selector import PEEK, Selector, event_for, opening_bid

if TYPE_CHECKING:
    from coyote_pi.table.controller import Controller


class Turn:
    """The ``controller``'s turn and guess buttons (see the module docstring)."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        #: The bid an undo took back: the next selector starts from it (once).
        self._undone: int | None = None

    def new_selector(self) -> Selector:
        """The pending choice of a new turn: the lowest bid, or the bid an undo took back."""
        game = self.controller.game
        start = opening_bid(game)
        if self._undone is not None:
            start, self._undone = max(start, self._undone), None
        return Selector(game.legal(), start)

    def button(self, event: ButtonEvent) -> None:
        """A press in the ``turn`` stage."""
        controller = self.controller
        game = controller.game
        seat = game.turn
        if event.kind == CHORD:
            controller.log_press(event, "undo")
            last = game.history[-1] if game.history else None
            if controller.apply(Undo(event.seat)):
                self._undone = last.amount  # the seat starts again from the bid it took back
                controller.flash(controller.tr("msg.undone", seat=event.seat, amount=last.amount))
            return
        if event.seat != seat:
            if event.kind == PRESS:
                self._out_of_turn(event.seat)
            return
        controller.deadlines.cancel(Timer.NOTICE)
        selector = controller.selector
        if event.button in REPEATING_BUTTONS:
            selector.press(event.button, repeat=event.kind == REPEAT)
            controller.log_press(event, screens.choice_text(controller.tr, selector.choice))
            controller.deadlines.cancel(Timer.FLASH)
        elif event.button == Button.OK and event.kind == PRESS:
            choice = selector.choice
            controller.log_press(event, "confirm")
            controller.apply(event_for(seat, choice))
            if choice.kind == PEEK and game.round.peeked_this_turn:
                notice = screens.peek_screen(controller.tr, game, seat)
                controller.deadlines.set(Timer.NOTICE, controller.clock() + 2 * controller.pacing.page_seconds,
                                         notice)

    def guess(self, event: ButtonEvent) -> None:
        """A press in the ``guess`` stage."""
        controller = self.controller
        if event.kind != PRESS or event.button == Button.OK:
            return
        legal = controller.game.legal()
        bidder, challenger = legal.guess_options
        winner = bidder if event.button == Button.PLUS else challenger
        if event.seat in legal.seats:
            controller.log(f"  seat {event.seat} presses a guess button")  # which one stays secret until the verdict
        if controller.apply(Guess(event.seat, winner)) and controller.game.phase == GUESSING:
            controller.flash(controller.tr("msg.guessed", seat=event.seat))

    def _out_of_turn(self, seat: int) -> None:
        controller = self.controller
        game, history = controller.game, controller.game.history
        if game.eyes[seat].cards == 0:
            message = "msg.seat_out"
        elif history and isinstance(history[-1], Bid) and history[-1].seat == seat:
            message = "msg.undo_hint"  # the seat's first finger of minus+plus
        else:
            message = "msg.not_your_turn"
        controller.flash(controller.tr(message, seat=seat))
