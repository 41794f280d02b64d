"""What the speech hears: the table's public facts after a pass of its loop, nothing more.

A :class:`Moment` is built by :func:`public_moment` from
:func:`~coyote_pi.engine.views.public_view` (the OLED's and the web page's view: turn,
bids, challenge, eyes, never a card of the open round) and the latest verdict, whose
round is closed and therefore public. The speech never sees the :class:`Game` itself, so
nothing it says can name a card it was never handed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from coyote_pi.engine import Game, RoundResult
from coyote_pi.engine.views import open_round, public_view


@dataclass(frozen=True)
class Moment:
    """The table's public facts at one moment: its stage, its language, the game's public
    view (None before a game exists) and the latest verdict (a closed round; None: none)."""

    stage: str
    language: str
    public: Mapping[str, object] | None = None
    verdict: RoundResult | None = None


def public_moment(stage: str, language: str, game: Game | None) -> Moment:
    """The public facts of ``game`` as the speech may hear them."""
    if game is None:
        return Moment(stage, language)
    last, playing = game.last_result, open_round(game)
    # The latest result is always of a closed round; the check keeps it so if that changes.
    closed = last is not None and (playing is None or playing.number != last.round)
    return Moment(stage, language, public_view(game), last if closed else None)
