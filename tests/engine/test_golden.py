"""Golden playthroughs: seeded games transcribed in full and compared with tests/golden/.

A failure shows the first differing line. If the change in behaviour is intended,
regenerate with `make golden` and review the diff like any other code change.
"""

from pathlib import Path

import pytest

from coyote_pi.engine.game import GameConfig
from coyote_pi.engine.players import simulate
from coyote_pi.words.transcript import GOLDEN_GAMES, transcript

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("name,config,seed,physical", GOLDEN_GAMES, ids=[g[0] for g in GOLDEN_GAMES])
def test_transcript_matches_golden(name, config, seed, physical):
    expected = (GOLDEN_DIR / name).read_text(encoding="utf-8").splitlines()
    actual = transcript(config, seed, physical).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual), start=1):
        assert got == want, f"{name} line {number} differs (run `make golden` if intended)"
    assert len(actual) == len(expected), f"{name}: {len(actual)} lines, golden has {len(expected)}"


def test_golden_games_cover_the_special_rules():
    text = "".join((GOLDEN_DIR / name).read_text(encoding="utf-8") for name, *_ in GOLDEN_GAMES)
    for phrase in ("peeks at the centre card", "uses the Coyote card", "| ? counts as",
                   "| Max 0: ", "guesses seat", "reveal: centre", "drawn for ?:",
                   "is out", "winner: seat"):
        assert phrase in text, f"no golden game shows {phrase!r}"


@pytest.mark.parametrize("variant", ["basic", "trickster"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_physical_and_virtual_tables_play_the_same_game(variant, players):
    """Cards observed one by one (deal, reveal, draw) go through the same rules as a
    deck known in advance: every resolution is identical."""
    for seed in range(8):
        config = GameConfig(players, variant, start_seat=1 + seed % players)
        virtual = simulate(config, seed)
        physical = simulate(config, seed, physical=True)
        assert [r.to_dict() for r in physical.results] == [r.to_dict() for r in virtual.results]
        assert physical.winner == virtual.winner is not None
