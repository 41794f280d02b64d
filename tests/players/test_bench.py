"""``coyote-pi bench players`` on a few games: every lineup's table, every target's line."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

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


def _rigged(lineup: Sequence[str], variant: str, games: int, times: bench.Times | None = None,
            decks: str = "") -> bench.Result:
    """A tournament the strong level wins ``games - 1`` of (losing one more against any
    family's first setting), in no time: what the printing is checked with."""
    if times is not None:
        times.by_level.setdefault("strong", []).append(0.001)
    wins = games - 1 - (lineup[1] in (family[0].level for family in bench.FAMILIES.values()))
    others = tuple(bench.Standing(level, 0, games) for level in dict.fromkeys(lineup[1:]))
    return bench.Result(tuple(lineup), variant, games, (bench.Standing("strong", wins, games), *others))


def test_the_bench_prints_every_table_and_every_target(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[int, int]] = []

    def best_response(spread: int, raises: int) -> bench.Exploitability:  # its own test is below
        asked.append((spread, raises))
        return bench.Exploitability(0.625, spread, raises)

    monkeypatch.setattr(bench, "tournament", _rigged)  # the tournaments have their own tests
    monkeypatch.setattr(bench, "best_response", best_response)
    monkeypatch.setattr(bench, "strong_memory_mb", lambda games, variant: 1.5)
    assert main(["bench", "players", "--games", "60", "--sweep-games", "3", "--worst-games", "60",
                 "--spread", "3", "--raises", "1"]) == 0
    assert asked == [(3, 1)]
    out = capsys.readouterr().out
    for variant in ("basic", "trickster"):
        for seats in (3, 5):
            assert f"{variant}, {seats} seats, round robin:" in out
            assert f"{variant}, {seats} seats, the strong level against {seats - 1} copies of each opponent:" in out
        assert f"{variant}, head to head (2 seats):" in out
    assert out.count("12 settings swept (3 games each)") == 8
    assert "one-ahead, 12 settings swept (3 games each), strong: 0.30/0.05 33%, 0.30/0.10 67%" in out
    assert out.count("the worst setting, on other decks: one-ahead 0.30/0.05: strong 96.7%") == 4
    targets = out.split("targets:\n")[1].splitlines()
    assert len(targets) == 2 * (2 * (1 + 4 + 2) + 2) + 3  # per variant and seat count: baselines, 4 levels, 2 families
    assert all(line.startswith("  met ") for line in targets)
    assert sum("copies of one-ahead 0.30/0.05" in line for line in targets) == 4
    assert "median 1.00 ms" in out and "peak 1.5 MB" in out and "makes it lose 62.5% of the rounds" in out


def test_a_sweep_measures_the_worst_setting_again_on_other_decks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The setting the strong level did worst against is chosen, then played again with
    other shuffles: its figure from the sweep is low by selection."""
    played: list[tuple[tuple[str, ...], str]] = []

    def rigged(lineup: tuple[str, ...], variant: str, games: int, times: object = None, decks: str = "") -> bench.Result:
        played.append((lineup, decks))
        wins = 1 if lineup[1] == "one-ahead 0.30/0.10" else 2
        standings = (bench.Standing("strong", wins, games), bench.Standing(lineup[1], games - wins, 2 * games))
        return bench.Result(lineup, variant, games, standings)

    monkeypatch.setattr(bench, "tournament", rigged)
    swept = bench.sweep("one-ahead", 3, "basic", 3, 6)
    assert [result.lineup[1] for result in swept.members] == [player.level for player in bench.FAMILIES["one-ahead"]]
    assert swept.worst.lineup == ("strong", "one-ahead 0.30/0.10", "one-ahead 0.30/0.10") and swept.worst.games == 6
    assert played[-1] == (swept.worst.lineup, "again/") and all(decks == "" for _, decks in played[:-1])


def test_the_best_response_loses_no_more_than_challenging_or_playing_as_the_strong_level() -> None:
    """For one card on the strong seat's stand, the exploiter's least loss over its own
    possible cards is at most that of two plain strategies it could play: challenge the
    strong level's opening at once, or play the strong level itself from there."""
    exploiter = bench.Exploiter("5", spread=1, raises=1)
    opened = exploiter.opened()
    best = sum(exploiter.facing(((bench.STRONG_SEAT, amount),), group) for amount, group in opened.items())
    challenging = sum(exploiter.holds(card, amount) for amount, group in opened.items() for card in group)
    playing_on = sum(exploiter.played_on(((bench.STRONG_SEAT, amount),), card)
                     for amount, group in opened.items() for card in group)
    assert 0 < best <= min(challenging, playing_on)
    assert best < min(challenging, playing_on) - 0.1, "knowing the strong level's policy is worth something"


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
