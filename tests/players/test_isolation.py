"""A virtual player cannot reach the game, the round's private cards or the controller.

Two checks: what its code imports (only the cards, the engine's events, odds and the
``SeatView`` type, and its own package; only ``seating``, which builds its view, sees a
game), and what it is handed at run time (a ``TurnView`` of plain values all the way
down, whose seat view holds neither its own card nor the centre card).
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import coyote_pi.players
from coyote_pi.cards import Card, Deck
from coyote_pi.engine import BASIC, TRICKSTER, GameConfig, SeatView
from coyote_pi.players.roster import LEVELS, VirtualPlayer
from coyote_pi.players.seating import play
from coyote_pi.players.turn import Move, TurnView

PACKAGE = Path(coyote_pi.players.__file__).parent
#: The one module that sees a game: it builds the view the players are handed.
SEATING = "seating.py"
#: What the deciding code may import: module -> the names it may take from it (None: any).
ALLOWED: dict[str, frozenset[str] | None] = {
    "coyote_pi": frozenset({"cards"}),
    "coyote_pi.cards": None,
    "coyote_pi.engine": frozenset({"events"}),
    "coyote_pi.engine.events": None,
    "coyote_pi.engine.odds": frozenset({"total_distribution"}),
    "coyote_pi.engine.views": frozenset({"SeatView"}),
}


def _imports(path: Path) -> list[tuple[str, str | None]]:
    """(module, name) for every import of the package's modules in ``path``."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: a relative import"
            found += [(node.module or "", alias.name) for alias in node.names]
    return [(module, name) for module, name in found if module.split(".")[0] == "coyote_pi"]


def forbidden_imports(path: Path) -> list[str]:
    problems = []
    for module, name in _imports(path):
        if module == "coyote_pi.players.seating" or (module == "coyote_pi.players" and name == "seating"):
            problems.append(f"{path.name} imports the seating module, which sees the game")
        elif module.startswith("coyote_pi.players"):
            continue
        elif module not in ALLOWED:
            problems.append(f"{path.name} imports {module}")
        elif (names := ALLOWED[module]) is not None and name not in names:
            problems.append(f"{path.name} imports {name} from {module}")
    return problems


def test_the_deciding_code_imports_nothing_that_holds_a_game() -> None:
    modules = sorted(path for path in PACKAGE.glob("*.py") if path.name != SEATING)
    assert len(modules) >= 5, "the check sees the package's modules"
    problems = [problem for path in modules for problem in forbidden_imports(path)]
    assert not problems, "\n".join(problems)


def test_the_import_check_catches_a_module_that_reaches_the_game(tmp_path: Path) -> None:
    cheat = tmp_path / "cheat.py"
    cheat.write_text("from coyote_pi.engine.views import seat_view\nfrom coyote_pi.engine.game import Game\n"
                     "import coyote_pi.record\nfrom coyote_pi.players import seating\n")
    assert len(forbidden_imports(cheat)) == 4


def _plain(value: object, where: str) -> list[str]:
    """Where ``value`` holds anything but plain values, tuples, dicts, seat views and the
    deck's cards (what the game is played with, not the game)."""
    if value is None or isinstance(value, bool | int | float | str):
        return []
    if isinstance(value, tuple | list):
        return [problem for index, item in enumerate(value) for problem in _plain(item, f"{where}[{index}]")]
    if isinstance(value, dict):
        return [problem for key, item in value.items() for problem in _plain(key, where) + _plain(item, f"{where}.{key}")]
    if isinstance(value, TurnView | SeatView | Deck | Card) and type(value) in (TurnView, SeatView, Deck, Card):
        return [problem for field in dataclasses.fields(value)
                for problem in _plain(getattr(value, field.name), f"{where}.{field.name}")]
    return [f"{where} is a {type(value).__name__}"]


class Watching:
    """A player that checks what it is handed before the real one decides."""

    def __init__(self, player: VirtualPlayer, seen: list[TurnView]) -> None:
        self.level, self._player, self._seen = player.level, player, seen

    def decide(self, view: TurnView, seed: int | str) -> Move:
        self._seen.append(view)
        return self._player.decide(view, seed)


def test_a_player_is_handed_plain_values_without_its_own_card_or_the_centre() -> None:
    seen: list[TurnView] = []
    for variant in (BASIC, TRICKSTER):
        lineup = {seat: Watching(LEVELS[level], seen) for seat, level in enumerate(sorted(LEVELS), 1)}
        play(GameConfig(players=5, variant=variant), lineup, f"isolation {variant}")
    assert len(seen) > 50
    for view in seen:
        assert type(view) is TurnView
        assert _plain(view, "view") == []
        assert view.me not in view.seat.others and view.seat.centre is None and not view.seat.peeked


def test_the_plain_value_check_catches_a_game_inside_a_view() -> None:
    game_config = GameConfig(players=3)
    assert _plain({"config": game_config}, "view") == ["view.config is a GameConfig"]
