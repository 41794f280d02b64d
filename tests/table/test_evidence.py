"""The record as evidence at the table: no open card in it at any moment, and the photos
that settled each reveal."""

from __future__ import annotations

import numpy as np
import pytest

from coyote_pi.engine import GameConfig
from coyote_pi.record import RecordError, read_record
from coyote_pi.table.controller import Listener
from coyote_pi.table.photos import Photos, photo_folder
from coyote_pi.table.stages import DEAL_WAIT, GAME_OVER, SETUP, VERDICT
from coyote_pi.table.store import RecordStore

from .conftest import fast_sim, play, table_config


def _strings(value) -> set[str]:
    """Every string value in a JSON value, however deep (keys excluded)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values()))
    if isinstance(value, list):
        return set().union(*map(_strings, value))
    return set()


class PrivateFileWatch(Listener):
    """At every prompt: while a round is in play, its private file exists and only the
    service may read it; otherwise there is none."""

    def __init__(self, folder) -> None:
        self.folder = folder
        self.problems: list[str] = []
        self.open_prompts = 0

    def on_prompt(self, prompt) -> None:
        if prompt.stage == SETUP:
            return
        private = self.folder / "private" / "game-0001.round.json"
        in_play = prompt.stage not in (DEAL_WAIT, VERDICT, GAME_OVER)
        self.open_prompts += in_play
        if in_play and not (private.exists() and private.stat().st_mode & 0o777 == 0o600):
            self.problems.append(f"{prompt.stage} of round {prompt.round}: no private file of mode 0600")
        if not in_play and private.exists():
            self.problems.append(f"{prompt.stage} of round {prompt.round}: the private file is still there")


@pytest.mark.parametrize("players,variant,seed", [(4, "trickster", 3), (3, "basic", 8)])
def test_at_no_line_does_the_record_show_a_card_of_the_open_round(tmp_path, players, variant, seed):
    watch = PrivateFileWatch(tmp_path)
    played = play(table_config(tmp_path, players, variant), sim=fast_sim(seed), listeners=[watch])
    lines, results = played.record.lines, played.game.results
    assert not watch.problems and watch.open_prompts > 20, watch.problems[:5]

    checked = 0
    deals = [n for n, line in enumerate(lines) if line.get("event", {}).get("type") == "deal"]
    for round_number, deal in enumerate(deals, start=1):
        verdict = next(r for r in results if r.round == round_number)
        hidden = set(verdict.seat_cards.values()) | {verdict.centre} | ({verdict.extra} if verdict.extra else set())
        # The cards become public at the reveal (all of them face up), or at the opening.
        public = next(n for n in range(deal, len(lines)) if lines[n]["kind"] == "opening"
                      or lines[n].get("event", {}).get("type") == "reveal")
        for end in range(deal + 1, public + 1):  # the record as it stood after each of those lines
            shown = set().union(*(_strings(line) for line in lines[deal:end]))
            assert not hidden & shown, (round_number, end, hidden & shown)
            checked += 1
        for line in lines[deal:public]:
            if line.get("event", {}).get("type") == "guess":  # who a seat guessed stays sealed too
                assert set(line["event"]) == {"type", "seat", "commitment"}
    assert checked > 3 * len(deals)
    assert "seed" not in played.record.meta  # every deal follows from the simulation's seed
    assert not (tmp_path / "private" / "game-0001.round.json").exists()


def test_replay_of_the_record_as_it_stood_never_shows_the_open_round(tmp_path):
    played = play(table_config(tmp_path / "table", 3, "trickster"), sim=fast_sim(5))
    data = played.path.read_bytes().splitlines(keepends=True)
    for end in range(2, len(data)):
        prefix = tmp_path / "prefix.jsonl"
        prefix.write_bytes(b"".join(data[:end]))
        try:
            record = read_record(prefix)
        except RecordError as error:  # cut between a challenge's opening and its resolution
            assert "ends before the resolution" in error.reason, error
            continue
        game = record.game
        if record.open_round is not None:  # the game replayed stops before the open round
            assert game.round is None or (game.results and game.results[-1].round == game.round.number)
            assert record.open_round.first_line + record.open_round.lines - 1 == end


# ---------------------------------------------------------------------- photos


def _frame(value: int) -> np.ndarray:
    frame = np.zeros((48, 64, 3), dtype=np.uint8)
    frame[8:40, 8:56] = value
    return frame


def test_photos_wait_in_private_until_their_round_closes(tmp_path):
    record = tmp_path / "game-0007.jsonl"
    photos = Photos(record)
    photo = photos.keep(3, "reveal", _frame(200))
    kept = tmp_path / "private" / "game-0007.photos" / "round-03-reveal.jpg"
    assert photo["file"] == "round-03-reveal.jpg" and kept.stat().st_mode & 0o777 == 0o600
    assert not photo_folder(record).exists()
    refused = photos.keep(3, "draw", _frame(90))
    photos.discard(refused)  # its line was never written
    photos.publish()
    public = tmp_path / "game-0007.photos"
    assert [p.name for p in public.iterdir()] == ["round-03-reveal.jpg"]
    assert not kept.exists() and photos.keep(3, "draw", "a scene, not a picture") is None


def test_the_photo_budget_removes_the_oldest_games_photos_never_a_record(tmp_path):
    for number in (1, 2, 3):
        (tmp_path / f"game-{number:04d}.jsonl").write_text("", encoding="utf-8")
        (tmp_path / f"game-{number:04d}.photos").mkdir()
        (tmp_path / f"game-{number:04d}.photos" / "round-01-reveal.jpg").write_bytes(b"jpeg")
    RecordStore(tmp_path, keep_photos=2).create(GameConfig(players=2), {})
    assert sorted(p.name for p in tmp_path.glob("*.photos")) == ["game-0003.photos"]
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == [f"game-{n:04d}.jsonl" for n in (1, 2, 3, 4)]
