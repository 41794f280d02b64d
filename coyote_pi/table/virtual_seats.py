"""Virtual seats: seats the table plays itself, one part of the controller.

Setup may make any seat virtual (``[game] virtual``, ``run --virtual 3:strong``, or the
"Who starts?" question, where a seat's plus and minus walk it through the levels). The
game's setup line keeps them (``meta.virtual``: seat -> level, docs/game-record.md), so a
resumed game plays on with them. A virtual seat's card is dealt onto its stand like
anyone's: the people see it, the camera reads it, and the player never knows it.

On the seat's turn (or its Trickster guess) the OLED shows "Seat 3 (virtual) thinks…";
after :data:`THINK_SECONDS` on the controller's clock (a timer, so a simulated clock
drives it in tests) the seat's virtual player is handed the seat's
:class:`~coyote_pi.players.turn.TurnView`, nothing else, and the game's secret seed
(:func:`players_seed`), and its move goes through
:meth:`Controller.apply <coyote_pi.table.controller.Controller.apply>` like a press: the
record holds it as an ordinary event. The people's buttons work as ever meanwhile: a
move entered with the seat's buttons, or an undo by the seat before it, is a new
situation and the virtual seat thinks again from there. If the player fails or its move
is refused, the OLED says so and the seat's move waits for its buttons: the table never
waits on a virtual seat.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from coyote_pi.devices.screen import Screen
from coyote_pi.engine import Bid, Challenge, Guess, UseCoyoteCard
from coyote_pi.players.roster import player
from coyote_pi.players.seating import turn_view
from coyote_pi.players.turn import Move
from coyote_pi.table import screens, stages
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.setup_wizard import META_KEY

if TYPE_CHECKING:
    from coyote_pi.record import RecordedGame
    from coyote_pi.table.part import Table

log = logging.getLogger(__name__)

#: Where the table stands, as the controller tells situations apart (a new one: the seat thinks again).
Situation = tuple[object, ...]

#: How long a virtual seat thinks before its move shows: long enough for people to see
#: whose turn it is, short enough not to bore them.
THINK_SECONDS = 2.0
#: The key of a record's service-only file (its vault) that holds the game's secret seed
#: of the virtual players' randomness (each game gets its own, no player can read it).
VIRTUAL_SEED = "virtual_seed"


def players_seed(recorded: RecordedGame) -> str:
    """The seed of the virtual players of ``recorded`` (a RecordedGame): its secret one,
    or for a record begun before there was one, its file name."""
    seed = recorded.private_meta.get(VIRTUAL_SEED)
    return seed if isinstance(seed, str) else recorded.path.name


def recorded_seats(meta: dict[str, Any]) -> dict[int, str]:
    """The virtual seats a setup line's ``meta`` names (none in older records)."""
    raw = meta.get(META_KEY) or {}
    return {int(seat): level for seat, level in raw.items()} if isinstance(raw, dict) else {}


class VirtualSeats:
    """The ``table``'s virtual seats (see the module docstring)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: The situation whose move failed: its seat waits for its buttons until the next one.
        self._failed: Situation | None = None
        #: The seat thinking now and the situation it thinks about.
        self._thinking: tuple[int, Situation] | None = None
        resumed = table.state.recorded.record if table.state.recorded is not None else None
        if resumed is not None:  # a new game's come from setup (:meth:`GameStart.start_record <coyote_pi.table.game_start.GameStart.start_record>`)
            table.state.virtual = recorded_seats(resumed.meta)

    def acting(self) -> int | None:
        """The virtual seat that has to move now, if any."""
        table = self.table
        levels = table.state.virtual
        if not levels or table.state.stage not in (stages.TURN, stages.GUESS):
            return None
        waiting = table.game.legal().seats
        return next((seat for seat in waiting if seat in levels), None)

    def enter(self, situation: Situation) -> None:
        """A new situation: a virtual seat that must move starts thinking."""
        table = self.table
        table.deadlines.cancel(Timer.VIRTUAL)
        self._thinking = None
        seat = self.acting()
        if seat is None or situation == self._failed:
            return
        self._thinking = (seat, situation)
        table.deadlines.set(Timer.VIRTUAL, table.clock() + THINK_SECONDS)
        table.log(f"  seat {seat} (virtual, {table.state.virtual[seat]}) thinks")

    def screen(self) -> Screen | None:
        """The turn's or the guesses' screen while a virtual seat thinks (None: none does)."""
        if self._thinking is None:
            return None
        seat = self._thinking[0]
        table = self.table
        tr, game = table.tr, table.game
        bid = game.current_round.bid
        title = tr("turn.title_first", seat=seat) if bid is None else tr("turn.title", seat=seat, bid=bid)
        if table.state.stage == stages.GUESS:
            title = tr("guess.title")
        return Screen(title=title, lines=[tr("virtual.thinks", seat=seat)], seats=screens.seat_strip(game, [seat]))

    def move(self) -> None:
        """The timer went off: the thinking seat's player decides, and its move is applied."""
        if self._thinking is None:
            return
        (seat, situation), self._thinking = self._thinking, None
        table = self.table
        level = table.state.virtual[seat]
        try:
            chosen = player(level).decide(turn_view(table.game, seat), players_seed(table.state.playing()))
        except Exception as error:  # whatever goes wrong, the table goes on: the buttons enter the move
            log.exception("virtual seat %s (%s) could not decide", seat, level)
            self._fail(seat, situation, type(error).__name__)  # the play-by-play is public: no details
            return
        table.log(f"  seat {seat} (virtual, {level}) decides: {describe(chosen)}")
        if not table.apply(chosen):
            self._fail(seat, situation, "its move was refused")
            return
        table.flash(table.tr(_MOVE_TEXTS[type(chosen)], seat=seat, amount=getattr(chosen, "amount", "")))

    def _fail(self, seat: int, situation: Situation, why: str) -> None:
        table = self.table
        self._failed = situation
        table.log(f"  seat {seat} (virtual) has no move ({why}): its buttons enter it", logging.WARNING)
        table.flash(table.tr("virtual.failed", seat=seat))


#: The short message that shows a virtual seat's move (a guess shows only that it guessed).
_MOVE_TEXTS: dict[type, str] = {
    Bid: "virtual.bids", Challenge: "virtual.challenges", UseCoyoteCard: "virtual.coyote_card", Guess: "msg.guessed",
}


def describe(move: Move) -> str:
    """A move for the log, without a guess's side (secret until the verdict)."""
    if isinstance(move, Bid):
        return f"bid {move.amount}"
    if isinstance(move, Challenge):
        return "Coyote!"
    if isinstance(move, UseCoyoteCard):
        return "the Coyote card"
    return "a guess"
