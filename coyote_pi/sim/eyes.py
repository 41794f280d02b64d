"""Whose eyes: what one seat sees of the simulated table.

At a real table every player sees the cards on the other stands, never their own, and
the centre card only after peeking. A person trying ``run --sim`` plays every seat at
one keyboard, and the OLED (rightly) shows no card of an open round, so they would bid
blind. The terminal therefore shows the table as one seat sees it::

    >>> from coyote_pi.sim.scene import TableScene
    >>> scene = TableScene(seats=4, seat_cards={1: "7", 2: "3", 3: "?", 4: "-5"},
    ...                    slots={"centre": ("face_down", "max0")})
    >>> " ".join(seat_sight(scene, 2, peeked=False, drew=False))
    'Seat 2 sees: 1:[7] 3:[?] 4:[-5] centre: face down'
    >>> seat_sight(scene, 2, peeked=True, drew=False)[-1]
    'centre: Max 0 (peeked)'

It is read from what the simulated hands laid on the table (the
:class:`~coyote_pi.sim.scene.TableScene`), which the simulation knows because it
deals: every stand but the seat's own, the centre card once that seat has peeked in
this round, the card it drew with the Coyote card, and what lies face up. Only the
simulated table's terminal (:mod:`coyote_pi.sim.console`) draws it: nothing of it goes
to the record, the log or the OLED, and the real table never imports this package.
"""

from __future__ import annotations

from coyote_pi.cards import display_name
from coyote_pi.engine import Game
from coyote_pi.engine.views import open_round
from coyote_pi.sim.scene import TableScene
from coyote_pi.vision.states import SlotState
from coyote_pi.words.translator import Translator


def seat_sight(scene: TableScene, seat: int, *, peeked: bool, drew: bool, tr: Translator | None = None) -> list[str]:
    """What ``seat`` sees, in pieces: a heading, each other stand (``"3:[?]"``, ``"4:[ ]"``
    for an empty stand), then the centre mat's cards. ``peeked``: the seat looked at the
    centre card this round; ``drew``: the face-down card on the extra slot is its own
    Coyote-card draw. In the table's language (``tr``; English by default)."""
    tr = tr or Translator("en")
    pieces = [tr("console.sees", seat=seat)]
    for other in scene.present or ():
        if other != seat:
            card = scene.seat_cards.get(other)
            pieces.append(f"{other}:[{' ' if card is None else display_name(card)}]")
    state, card = scene.slot("centre")
    shown = "" if card is None else display_name(card)  # a slot with a card in it names it
    if state == SlotState.FACE_UP:
        pieces.append(tr("console.centre", card=shown))
    elif state == SlotState.FACE_DOWN:
        pieces.append(tr("console.centre_peeked", card=shown) if peeked else tr("console.centre_down"))
    state, card = scene.slot("extra")
    shown = "" if card is None else display_name(card)
    if state == SlotState.FACE_UP:
        pieces.append(tr("console.extra", card=shown))
    elif state == SlotState.FACE_DOWN:
        pieces.append(tr("console.extra_yours", card=shown) if drew else tr("console.extra_down"))
    state, card = scene.slot("draw")
    if state == SlotState.FACE_UP and card is not None:
        pieces.append(tr("console.drawn", card=display_name(card)))
    return pieces


def knows(game: Game | None, seat: int) -> tuple[bool, bool]:
    """``(peeked, drew)`` for ``seat`` in the round on the table (the truth game's)."""
    r = None if game is None else open_round(game)
    if r is None:
        return False, False
    return seat in r.peeked, r.extra_drawn_by == seat
