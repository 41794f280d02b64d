"""The manual path: cards told to the table with the buttons when the camera cannot help.

Each of the four card waits (deal, extra, reveal, draw) goes on the manual path when
there is no camera, after ``[pacing] manual_after`` failed reads in a row, or when a
seat asks: minus+plus (a chord) at a wait asks "enter the cards by hand?", and ok from
the same seat says yes (:mod:`~coyote_pi.table.offers`). The switch is a note in the record, so a resumed table stays on the manual path.

On the manual path the buttons stand in for the camera without ever showing a card
of an open round:

- deal: any seat in the game presses ok once the cards are out; the round is dealt
  with every seat card unknown;
- extra: the seat that used the Coyote card presses ok once its draw lies on the extra
  slot (any seat in the game, when that seat is virtual: it has no buttons);
- reveal and draw, when the cards are public anyway: the table asks for each card it
  does not know (the centre, the extra card, the seat cards the deal did not read, or
  the card drawn for ``?``), and any seat in the game dials it with minus/plus and
  confirms with ok.

Every card confirmed is a note too; with the last one the reveal (or the draw) is
applied. Should the engine refuse it, the entries are cleared and asked for again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from coyote_pi import cards
from coyote_pi.devices.events import CHORD, PRESS, REPEAT, REPEATING_BUTTONS, Button, ButtonEvent
from coyote_pi.engine import Deal, DrawReplacement, Reveal
from coyote_pi.engine.events import CardPlace, place_seat, seat_place
from coyote_pi.table import offers, store
from coyote_pi.table.part import Table
from coyote_pi.table.stages import DEAL_WAIT, DRAW_WAIT, EXTRA_WAIT

if TYPE_CHECKING:
    from coyote_pi.table.camera_reads import CameraReads


class EntryTable(Table, Protocol):
    """What the manual entry needs of the table: the camera to stop, the wait's round and path."""

    camera: CameraReads

    def wait_round(self) -> int: ...

    def is_manual(self) -> bool: ...


class ManualEntry:
    """The buttons at a card wait, for the ``table`` (see the module docstring)."""

    def __init__(self, table: EntryTable) -> None:
        self.table = table
        #: Where the card being dialled stands in :data:`coyote_pi.cards.ALL_CARDS`.
        self.index = 0

    @property
    def card(self) -> str:
        """The card dialled now."""
        return cards.ALL_CARDS[self.index]

    def begin(self) -> None:
        """A wait on the manual path starts: dialling starts at 0."""
        self.index = cards.ALL_CARDS.index("0")

    def button(self, event: ButtonEvent) -> None:
        """A press at a card wait: by hand on the manual path; else a chord asks to go there."""
        table = self.table
        if table.is_manual():
            self._by_hand(event)
        elif event.kind == CHORD:
            offers.ask(table, event, "to enter cards by hand")
        elif event.kind == PRESS:
            table.flash(table.tr("msg.wait_camera"))

    def go_manual(self, why: str) -> None:
        """Put this card wait on the manual path, for good (a note), and stop its camera wait."""
        table = self.table
        if not table.note(table=store.MANUAL, round=table.wait_round(), wait=table.state.stage, why=why):
            return  # not recorded (a failed write): the wait stays as it is
        table.log(f"{table.state.stage}: cards are entered by hand ({why})")
        table.flash(table.tr("msg.manual_on"))
        table.camera.stop()

    def item(self) -> str | None:
        """What the table asks to enter now (``"centre"``, ``"extra"``, ``"seat:3"`` or
        ``"draw"``); None once everything is entered."""
        entered = self._entered()
        return next((item for item in self._items() if item not in entered), None)

    def _by_hand(self, event: ButtonEvent) -> None:
        table = self.table
        stage, game = table.state.stage, table.game
        if stage == DEAL_WAIT:
            if event.button == Button.OK and event.kind == PRESS and event.seat in game.active_seats:
                table.log_press(event, "dealt")
                table.apply(Deal({seat: None for seat in game.active_seats}))
        elif stage == EXTRA_WAIT:
            laying = game.active_seats if game.turn in table.state.virtual else (game.turn,)
            if event.button == Button.OK and event.kind == PRESS and event.seat in laying:
                table.log_press(event, "the card lies on the extra slot")
                table.note(table=store.EXTRA_ON_MAT, round=game.current_round.number, by="button")
        elif event.seat in game.active_seats:
            self._dial(event)

    def _items(self) -> list[str]:
        table = self.table
        if table.state.stage == DRAW_WAIT:
            return [CardPlace.DRAW]
        r = table.game.current_round
        items: list[str] = [CardPlace.CENTRE]
        if r.extra_used and r.extra is None:
            items.append(CardPlace.EXTRA)
        items += [seat_place(s) for s, c in sorted(r.seat_cards.items()) if c is None]
        return items

    def _entered(self) -> dict[str, str]:
        table = self.table
        return table.state.memory.entered.get((table.game.current_round.number, table.state.stage), {})

    def _dial(self, event: ButtonEvent) -> None:
        table = self.table
        item = self.item()
        if item is None:  # all entered, but their event was not written: ok tries again
            if event.button == Button.OK and event.kind == PRESS:
                self._apply_entries()
            return
        if event.button in REPEATING_BUTTONS and event.kind in (PRESS, REPEAT):
            step = 1 if event.button == Button.PLUS else -1
            self.index = (self.index + step) % len(cards.ALL_CARDS)
            table.log_press(event, cards.display_name(self.card))
        elif event.button == Button.OK and event.kind == PRESS:
            card = self.card
            table.log_press(event, f"{item} is {cards.display_name(card)}")
            table.note(table=store.ENTERED, round=table.game.current_round.number, wait=table.state.stage,
                       item=item, card=card)
            if self.item() is None:
                self._apply_entries()

    def _apply_entries(self) -> None:
        table = self.table
        entered, round_number, stage = self._entered(), table.game.current_round.number, table.state.stage
        event: DrawReplacement | Reveal
        if stage == DRAW_WAIT:
            event = DrawReplacement(entered[CardPlace.DRAW])
        else:
            seats = {seat: card for item, card in entered.items() if (seat := place_seat(item)) is not None}
            event = Reveal(entered[CardPlace.CENTRE], entered.get(CardPlace.EXTRA), seats or None)
        if not table.apply(event) and table.state.unsaved is None:  # refused: enter them again
            table.note(table=store.ENTRIES_CLEARED, round=round_number, wait=stage)
