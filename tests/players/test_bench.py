"""``coyote-pi bench players`` on a few games: every lineup's table, every target's line."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest

from coyote_pi.bench import players as bench
from coyote_pi.cli import main
from coyote_pi.engine import Game, GameConfig
from coyote_pi.players.roster import VirtualPlayer


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = bench.wilson(60, 100)
    assert low < 0.6 < high and high - low == pytest.approx(0.19, abs=0.01)
    assert bench.wilson(0, 10)[0] == 0.0 and bench.wilson(10, 10)[1] == 1.0


def test_a_tournament_counts_each_game_once_and_each_copy_of_a_level() -> None:
    result = bench.tournament(bench.against_baselines(5), "basic", 5)
    assert result.lineup == ("strong", "raise-by-one", "half-odds", "raise-by-one", "half-odds")
    assert sum(standing.wins for standing in result.standings) == 5
    assert {standing.level: standing.games for standing in result.standings} == {
        "strong": 5, "raise-by-one": 10, "half-odds": 10}


def test_the_bench_prints_every_table_and_every_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "players", "--games", "1", "--memory-games", "1"]) == 0
    out = capsys.readouterr().out
    for variant in ("basic", "trickster"):
        for seats in (3, 5):
            assert f"{variant}, {seats} seats, round robin:" in out
        assert f"{variant}, head to head (2 seats):" in out
    targets = out.split("targets:\n")[1].splitlines()
    assert len(targets) == 11
    assert all(line.startswith(("  met ", "  NOT MET ")) for line in targets)
    assert "median" in out and "MB traced" in out


def test_a_tournament_plays_every_seating_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turning (a, b, c) round would always seat b after a; the tournament seats every order."""
    seated: list[tuple[str, ...]] = []
    play = bench.play

    def watched(config: GameConfig, lineup: Mapping[int, VirtualPlayer], seed: int | str) -> Game:
        seated.append(tuple(player.level for _, player in sorted(lineup.items())))
        return play(config, lineup, seed)

    monkeypatch.setattr(bench, "play", watched)
    lineup = ("strong", "cautious", "bluffer")
    bench.tournament(lineup, "basic", 6)
    assert sorted(seated) == sorted(itertools.permutations(lineup))
    seated.clear()
    bench.tournament(bench.against_baselines(5), "basic", 30)  # strong, and two copies of each baseline
    assert len(set(seated)) == 30 == len(bench.seatings(bench.against_baselines(5)))
