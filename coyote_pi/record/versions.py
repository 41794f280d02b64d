"""The record's versions: what a version's setup and resolution lines hold, so that every
older record still replays (and a table resuming one goes on writing its version).

Version 3 (written now) names the deck's edition in the setup's ``config`` and records
what the special cards changed as generic ``adjustments``; a resolution keeps what replay
checks, not words. Version 2 had no edition (it is the standard deck), a Max-0-only
``zeroed`` and the verdict's ``explanation`` in English: its resolutions are checked
against the rules' result in that form, the explanation included. docs/game-record.md
describes both.
"""

from __future__ import annotations

from coyote_pi.cards import STANDARD
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.engine.game import RoundResult

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
        data["explanation"] = result.explanation()
    return data
