"""The record's versions: what a version's setup and resolution lines hold, so that every
older record still replays (and a table resuming one goes on writing its version).

Version 3 (written now) names the deck's edition in the setup's ``config`` and records
what the special cards changed as generic ``adjustments``; a resolution keeps what replay
checks, not words. Version 2 had no edition (it is the standard deck), a Max-0-only
``zeroed`` and the verdict's ``explanation`` in English: its resolutions are checked
against the rules' result in that form, the explanation included. docs/game-record.md
describes both.

A version 2 ``explanation`` is data of that format, not the table's words: its sentences
are spelled here (:func:`v2_explanation`), frozen as version 2 wrote them, and the verdict's
words everywhere else come from the catalogs (:mod:`coyote_pi.words.verdict`). Comparing it
on replay, rather than ignoring it, keeps everything: a version 2 record that replayed
still replays, an edited explanation is still caught, and a table resuming a version 2
record writes lines that any coyote-pi reading version 2 accepts.
"""

from __future__ import annotations

from coyote_pi.cards import STANDARD, display_name
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.engine.game import EyeTurn, RoundResult

#: The version this coyote-pi writes.
VERSION = 3
#: The versions it reads (version 1, without sealed values and photos, is no longer read).
READABLE = (2, 3)


def config_data(config: object, version: int) -> object:
    """A setup's ``config`` in the current form: a version 2 record plays the standard deck
    and names no edition (IllegalAction, as it always was, when it names one)."""
    if version != 2 or not isinstance(config, dict):
        return config
    if "edition" in config:
        raise IllegalAction('unknown key(s) in the game setup: "edition"', code=Refusal.BAD_CONFIG)
    return {**config, "edition": STANDARD.edition}


def resolution_data(result: RoundResult, version: int) -> dict[str, object]:
    """A verdict as a resolution line of ``version`` holds it."""
    data = result.to_dict()
    if version == 2:
        adjustments = result.score.adjustments  # the standard deck: only Max 0 changes a card
        data.pop("adjustments")
        data["zeroed"] = adjustments[0].card if adjustments else None
        data["explanation"] = v2_explanation(result)
    return data


#: A version 2 explanation's words for an :class:`EyeTurn`, after "Seat S (REASON)".
_V2_EYE_TURNS: dict[EyeTurn, str] = {
    EyeTurn.OPENED: "flips a closed eye open",
    EyeTurn.CLOSED: "flips an open eye closed",
    EyeTurn.DISCARDED_CLOSED: "discards a closed-eye peek card",
    EyeTurn.DISCARDED_OPEN: "discards an open-eye peek card",
    EyeTurn.UNCHANGED: "has no eye to flip",
}


def v2_explanation(result: RoundResult) -> list[str]:
    """A version 2 resolution's ``explanation``, sentence for sentence as that version wrote
    it (docs/game-record.md, "Version 2 records"). Version 2 played the standard deck, whose
    one card that changes a number card is ``Max 0``."""
    score = result.score
    lines = [f"Seat {s}: {display_name(c)}." for s, c in sorted(result.seat_cards.items())]
    lines.append(f"Centre: {display_name(result.centre)}.")
    if result.extra is not None:
        lines.append(f"Coyote card draw (seat {result.extra_drawn_by}): {display_name(result.extra)}.")
    if score.replacement is not None:
        replacement = display_name(score.replacement)
        lines.append(f"? is replaced by the top card of the deck: {replacement}.")
        if score.deck.card(score.replacement).special is not None:
            lines.append(f"The replacement is {replacement}, so {replacement} is in play.")
    for special, adjustment in score.changes():
        lines.append(f"{special.display} is in play but there is no number card to change." if adjustment is None
                     else f"{special.display}: the highest number card, {adjustment.card}, counts {adjustment.counts}; "
                          f"{special.display} itself counts 0.")
    terms = " + ".join(str(c.value) if c.value >= 0 else f"({c.value})" for c in score.counted)
    lines.append(f"Total: {terms} = {score.total}.")
    verdict = "reaches the bid" if score.bid_holds else "is below the bid"
    winner = "the bidder wins" if score.bid_holds else "the challenger wins"
    lines.append(f"The total {score.total} {verdict} {score.bid}: {winner}.")
    lines.append(f"Seat {result.challenger} challenged seat {result.bidder}'s bid of {score.bid}: "
                 f"seat {result.winner} wins, seat {result.loser} loses.")
    lines += [f"Seat {seat} guessed seat {guess}: {'right' if guess == result.winner else 'wrong'}."
              for seat, guess in sorted(result.guesses.items())]
    lines += [f"Seat {change.seat} ({change.reason}) {_V2_EYE_TURNS[change.change]}." for change in result.eye_changes]
    if result.eliminated is not None:
        lines.append(f"Seat {result.eliminated} has no peek cards left and is out.")
    if result.next_start is not None:
        lines.append(f"Seat {result.next_start} starts the next round.")
    if result.coyote_holder is not None:
        lines.append(f"Seat {result.coyote_holder} receives the Coyote card.")
    return lines
