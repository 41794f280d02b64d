"""The one error the engine raises for anything a table may not do, and its closed set of reasons."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """Why the engine refused: :attr:`IllegalAction.code`. The table shows its words from
    the catalogs (:func:`coyote_pi.words.translator.refusal_key`); a program compares it."""

    ALREADY_GUESSED = "already_guessed"
    BAD_BID = "bad_bid"
    BAD_CARD = "bad_card"
    BAD_CONFIG = "bad_config"
    BAD_CORRECTION = "bad_correction"
    BAD_DEAL = "bad_deal"
    BAD_EVENT = "bad_event"
    BAD_GUESS = "bad_guess"
    BAD_ODDS_QUERY = "bad_odds_query"
    BAD_REPLACEMENT = "bad_replacement"
    BAD_REVEAL = "bad_reveal"
    BID_TOO_LOW = "bid_too_low"
    CANNOT_PEEK = "cannot_peek"
    CANNOT_USE_COYOTE_CARD = "cannot_use_coyote_card"
    CHALLENGE_AFTER_COYOTE_CARD = "challenge_after_coyote_card"
    CHALLENGE_AFTER_PEEK = "challenge_after_peek"
    CORRECTION_NEEDS_DRAW = "correction_needs_draw"
    DUPLICATE_CARD = "duplicate_card"
    GAME_OVER = "game_over"
    NO_BID = "no_bid"
    NO_SUCH_SEAT = "no_such_seat"
    NOT_A_GUESSER = "not_a_guesser"
    NOT_YOUR_BID = "not_your_bid"
    NOT_YOUR_TURN = "not_your_turn"
    NOTHING_TO_CORRECT = "nothing_to_correct"
    NOTHING_TO_UNDO = "nothing_to_undo"
    REPLACEMENT_NEEDED = "replacement_needed"
    SEAT_OUT = "seat_out"
    UNDO_AFTER_UNDO = "undo_after_undo"
    WRONG_PHASE = "wrong_phase"


class IllegalAction(ValueError):
    """An action or observation the rules do not allow at this point.

    ``str(error)`` is a sentence a player understands ("seat 3 cannot challenge right
    after peeking"). ``code`` names the rule for programs (the controller translates
    it for the OLED), and ``params`` holds the values the sentence mentions.
    """

    def __init__(self, message: str, *, code: Refusal, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
