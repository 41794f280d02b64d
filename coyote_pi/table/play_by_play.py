"""The play-by-play lines for the game's events, as the controller logs them.

The lines go to the log (the journal, on a Pi) and to the controller's listeners (the
demo's ``play-by-play.txt``, a failing test's message), in English. People at the
table may read them, so they keep the screens' rule: never a card of an open round.
A deal says how many seat cards the camera read, not which; a guess says that the
seat has guessed, not whom for (that waits for the verdict). Cards appear once the
round is resolved: the card drawn for ``?``, and the verdict's explanation (the catalogs'
English, the sentences an English table's OLED shows).

    >>> from coyote_pi.engine import Bid, Deal, Guess
    >>> describe(Deal({1: "5", 2: None})), describe(Deal({1: "5", 2: "7"}))
    ('round dealt (camera read 1 seat card)', 'round dealt (camera read 2 seat cards)')
    >>> describe(Bid(2, 17)), describe(Guess(3, 1))
    ('seat 2 bids 17', 'seat 3 has guessed')
"""

from __future__ import annotations

from typing import assert_never

from coyote_pi import cards
from coyote_pi.engine import (
    OVER,
    Bid,
    Challenge,
    Correct,
    Deal,
    DrawReplacement,
    Event,
    Game,
    Guess,
    Peek,
    Reveal,
    Undo,
    UseCoyoteCard,
)
from coyote_pi.words.translator import ENGLISH
from coyote_pi.words.verdict import explanation_lines


def describe(event: Event) -> str:
    """One line for an accepted event (no card of an open round): every event the record
    holds, each in its own branch (the type checker sees that none is left out)."""
    match event:
        case Deal():
            read = sum(1 for c in event.seats.values() if c is not None)
            if not read:
                return "round dealt (cards to be entered at the reveal)"
            return f"round dealt (camera read {read} seat card{'' if read == 1 else 's'})"
        case Bid():
            return f"seat {event.seat} bids {event.amount}"
        case Challenge():
            return f"seat {event.seat}: Coyote!"
        case Peek():
            return f"seat {event.seat} peeks at the centre card"
        case UseCoyoteCard():
            return f"seat {event.seat} uses the Coyote card"
        case Guess():
            return f"seat {event.seat} has guessed"  # which way stays secret until the verdict
        case Reveal():
            return "cards revealed"
        case DrawReplacement():
            return f"drawn for ?: {cards.display_name(event.card)}"
        case Undo():
            return f"seat {event.seat} takes back their last bid"
        case Correct():
            seats = " and ".join(map(str, event.confirmed_by))
            return f"corrected, confirmed by seats {seats}: {event.item} is {cards.display_name(event.card)}"
        case _:
            assert_never(event)


def accepted(event: Event, game: Game, results_before: int, fingerprint: str) -> list[str]:
    """The lines for ``event``, just accepted by ``game``: the event, the verdicts it
    settled (``game`` had ``results_before`` results before it) and the game's end."""
    lines = [describe(event)]
    for result in game.results[results_before:]:
        lines.append(f"verdict of round {result.round}:")
        lines += [f"  {line}" for line in explanation_lines(ENGLISH, result)]
    if game.phase == OVER:
        lines.append(f"seat {game.winner} wins the game (record {fingerprint})")
    return lines
