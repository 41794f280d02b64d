"""Whole games on simulated hardware, for both variants and 2 to 6 players.

Scripted players press gpiozero mock pins (with contact bounce, from their own threads);
the hands deal from a seeded deck into a synthetic table that is rendered and read by
the real vision code; the controller draws on luma's dummy OLED. The ten games run at
the same time (they mostly wait on timers and each other), then each is checked.

The presses here have clean edges: with ten games on two cores, the simulated contact
chatter (sub-millisecond sleeps) stretches past any debounce time, which no real button
does. Bouncing presses are tested on a quiet machine in test_buttons.py.

Each game is checked:

- it ends with one winner and its record replays, with the fingerprint the OLED showed;
- the camera read every deal correctly (the seeded deck says what was dealt);
- it played exactly like the same game on the perfect-reading camera with events put
  straight into the queue (so buttons, rendering and vision changed nothing);
- the OLED never showed a card of a round still being played.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from coyote_pi import cards
from coyote_pi.cli import main as coyote_pi
from coyote_pi.sim.rig import SimOptions

from .conftest import QUICK_FINGERS, fast_sim, game_events, play, same_game, table_config

# The ten games are played once, by the module's fixture: its tests stay on one worker.
pytestmark = pytest.mark.xdist_group("e2e")

TABLES = [(players, variant) for variant in ("basic", "trickster") for players in range(2, 7)]
#: Texts of a card of the open round, as the verdict would write them ("Seat 3: 7").
CARD_LINE = re.compile(r"^(Seat \d+|Centre): (-?\d+|\?|Max 0)$")


def _seed(players: int, variant: str) -> int:
    return players * 10 + (variant == "trickster")


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """All ten games on simulated hardware, played at once."""
    played, errors = {}, {}
    folders = {table: tmp_path_factory.mktemp(f"{table[1]}-{table[0]}") for table in TABLES}  # not thread-safe

    def one(players: int, variant: str) -> None:
        folder = folders[players, variant]
        try:  # the timeout guards against a hang only: ten games share a busy core here
            played[players, variant] = play(
                table_config(folder, players, variant, start=1 + _seed(players, variant) % players),
                sim=SimOptions(seed=_seed(players, variant), pace=QUICK_FINGERS, bounce=False), timeout=900)
        except BaseException as error:  # reported by the test of that table
            errors[players, variant] = error

    threads = [threading.Thread(target=one, args=table, name=f"e2e {table}") for table in TABLES]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return played, errors


@pytest.mark.parametrize("players,variant", TABLES)
def test_a_whole_game_on_simulated_hardware(games, tmp_path, capsys, players, variant):
    played, errors = games
    if (players, variant) in errors:
        raise errors[players, variant]
    game = played[players, variant]
    record = game.record
    assert game.game.winner is not None and len(game.game.active_seats) == 1

    # The game's end turns to the fingerprint that `coyote-pi replay --expect` checks.
    assert game.spy.screens[-1][0] == "over"
    presenter = game.rig.controller.presenter
    presenter.turn_verdict_page(1)
    presenter.refresh()
    last_stage, last_screen = game.spy.screens[-1]
    assert (last_stage, last_screen.title) == ("over", "Record fingerprint")
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}\n[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}",
                        last_screen.big)  # 80 bits, two groups a line
    assert coyote_pi(["replay", str(game.path), "--expect", last_screen.big]) == 0
    capsys.readouterr()

    # Every deal was read by the camera, and read right.
    seed = _seed(players, variant)
    deals = [e for e in game_events(record) if e["type"] == "deal"]
    assert len(deals) == game.game.round_number
    for number, deal in enumerate(deals, start=1):
        order = cards.shuffled_deck(seed, number)
        assert list(deal["seats"].values()) == order[: len(deal["seats"])]

    # Buttons, rendering and vision changed nothing: the same game as on the fast path.
    reference = play(table_config(tmp_path, players, variant, start=1 + seed % players), sim=fast_sim(seed))
    assert same_game(record) == same_game(reference.record)
    assert [r.to_dict() for r in game.game.results] == [r.to_dict() for r in reference.game.results]
    assert len(game.spy.reveals) == sum(1 + (r.score.replacement is not None) for r in game.game.results)

    # Nothing of an open round reached the screen: card texts only on verdict and end screens.
    for stage, screen in game.spy.screens:
        if stage not in ("verdict", "over"):
            texts = [screen.title, screen.big, *screen.lines]
            assert not any(CARD_LINE.match(text) or "Max 0" in text for text in texts), (stage, texts)

    if variant == "trickster" and players >= 3:
        assert any(e["type"] == "guess" for e in game_events(record))


def test_records_are_named_in_sequence(tmp_path: Path):
    first = play(table_config(tmp_path, 2), sim=fast_sim(3))
    second = play(table_config(tmp_path, 2), sim=fast_sim(4))
    assert (first.path.name, second.path.name) == ("game-0001.jsonl", "game-0002.jsonl")
