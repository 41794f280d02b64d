"""The virtual players by level: what the table and the benches seat."""

from __future__ import annotations

from typing import Protocol

from coyote_pi.players import LEVEL_NAMES, levels_text
from coyote_pi.players.levels import Bluffer, Cautious, HalfOdds, RaiseByOne
from coyote_pi.players.strong import STRONG
from coyote_pi.players.turn import Move, TurnView


class VirtualPlayer(Protocol):
    """Anything that decides a seat's move from its view and a seed."""

    @property
    def level(self) -> str:
        """Its name (a level's, or a bench opponent's with its setting)."""

    def decide(self, view: TurnView, seed: int | str) -> Move: ...


#: Every level by name, in the order of :data:`~coyote_pi.players.LEVEL_NAMES`.
LEVELS: dict[str, VirtualPlayer] = {
    player.level: player for player in (STRONG, Cautious(), Bluffer(), RaiseByOne(), HalfOdds())
}
assert tuple(LEVELS) == LEVEL_NAMES, "a level without its name, or a name without its level"


def player(level: str) -> VirtualPlayer:
    """The virtual player of ``level``; a clear error names the levels there are."""
    try:
        return LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r} (levels: {levels_text()})") from None
