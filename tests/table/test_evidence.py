"""The record as evidence at the table: no open card in it at any moment, the photos that
settled each reveal, and a misread card corrected by the two seats of the challenge."""

from __future__ import annotations

import time

import numpy as np
import pytest

from coyote_pi import cards
from coyote_pi.contract.records import photos_folder
from coyote_pi.engine import Correct, Deal, Game, GameConfig
from coyote_pi.record import RecordError, read_record
from coyote_pi.sim.presser import QueueFingers
from coyote_pi.sim.table import truth_game
from coyote_pi.table.controller import Listener
from coyote_pi.table.photos import Photos
from coyote_pi.table.rig import resume_or_none
from coyote_pi.table.selector import ChoiceKind
from coyote_pi.table.stages import CORRECT, DEAL_WAIT, GAME_OVER, SETUP, VERDICT
from coyote_pi.table.store import RecordStore, Unresumable

from .conftest import fast_sim, play, running_table, table_config


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
        in_play = prompt.stage not in (DEAL_WAIT, VERDICT, CORRECT, GAME_OVER)
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


def test_a_game_whose_open_round_cannot_be_opened_is_not_resumed(tmp_path):
    config = table_config(tmp_path, 2)
    table = RecordStore(tmp_path).create(GameConfig(players=2), {})
    table.apply(Deal({1: "4", 2: "5"}))
    (tmp_path / "private" / "game-0001.round.json").unlink()
    # Not resumed: the table says so and waits for a person; the file stays as it is.
    assert isinstance(resume_or_none(config, new=False), Unresumable)
    assert read_record(table.path).open_round is not None


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
    assert not photos_folder(record).exists()
    refused = photos.keep(3, "draw", _frame(90))
    photos.discard(refused)  # its line was never written
    photos.publish()
    public = tmp_path / "game-0007.photos"
    assert [p.name for p in public.iterdir()] == ["round-03-reveal.jpg"]
    assert not kept.exists() and photos.keep(3, "draw", "a scene, not a picture") is None


def test_a_photo_that_cannot_be_kept_does_not_stop_the_game(tmp_path, monkeypatch):
    def full_disk(photos, round_number, what, frame):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Photos, "keep", full_disk)
    played = play(table_config(tmp_path, 2), sim=fast_sim(3))
    reveals = [line for line in played.record.lines if line.get("event", {}).get("type") == "reveal"]
    assert played.game.winner is not None and reveals and all(line["photo"] is None for line in reveals)
    assert any("the reveal photo was not kept" in line for line in played.spy.lines)


def test_the_photo_budget_removes_the_oldest_games_photos_never_a_record(tmp_path):
    for number in (1, 2, 3):
        (tmp_path / f"game-{number:04d}.jsonl").write_text("", encoding="utf-8")
        (tmp_path / f"game-{number:04d}.photos").mkdir()
        (tmp_path / f"game-{number:04d}.photos" / "round-01-reveal.jpg").write_bytes(b"jpeg")
    RecordStore(tmp_path, keep_photos=2).create(GameConfig(players=2), {})
    assert sorted(p.name for p in tmp_path.glob("*.photos")) == ["game-0003.photos"]
    assert sorted(p.name for p in tmp_path.glob("*.jsonl")) == [f"game-{n:04d}.jsonl" for n in (1, 2, 3, 4)]


# ---------------------------------------------------------------------- correcting a misread card


def _to_verdict(rig, spy) -> Game:
    """Seat 1 bids, seat 2 challenges; the hands reveal; back at the verdict of round 1."""
    fingers = QueueFingers(rig.controller.queue)
    spy.wait_for(lambda p: p.stage == "turn" and p.seats == (1,))
    fingers.tap(1, "ok")
    spy.wait_for(lambda p: p.stage == "turn" and p.seats == (2,))
    fingers.tap(2, "minus")
    spy.wait_for(lambda p: p.choice is not None and p.choice.kind == ChoiceKind.CHALLENGE)
    fingers.tap(2, "ok")
    spy.wait_for(lambda p: p.stage == VERDICT)
    return rig.controller.game


def _flipping_centre(game: Game) -> str:
    """A centre card, not in play, that would give the challenge to the other seat."""
    from coyote_pi.engine import Correct

    result = game.last_result
    for card in cards.ALL_CARDS:
        trial = Game.from_events(game.config, game.history)
        try:
            trial.apply(Correct("centre", card, (1, 2)))
        except Exception:
            continue
        if trial.last_result.winner != result.winner:
            return card
    pytest.fail("no centre card changes this verdict")


def _correct_the_centre(rig, spy) -> tuple[Game, str, str]:
    """Round 1 to its verdict, then the centre corrected to a card that turns it: the game
    as it was, the card read and the card confirmed by seats 1 and 2."""
    fingers = QueueFingers(rig.controller.queue)
    game = _to_verdict(rig, spy)
    read, right = game.last_result.centre, _flipping_centre(game)
    fingers.chord(3)  # any seat asks; its ok opens the correction
    fingers.tap(3, "ok")
    spy.wait_for(lambda p: p.stage == CORRECT and p.correction[:2] == ("item", "seat:1"))
    for _ in range(3):  # seat 1, 2, 3, then the centre
        fingers.tap(3, "plus")
    fingers.tap(3, "ok")
    spy.wait_for(lambda p: p.correction == ("card", "centre", read))
    steps = (cards.ALL_CARDS.index(right) - cards.ALL_CARDS.index(read)) % len(cards.ALL_CARDS)
    for _ in range(steps):
        fingers.tap(1, "plus")
    fingers.tap(1, "ok")
    spy.wait_for(lambda p: p.correction == ("confirm", "centre", right) and p.seats == (1, 2))
    fingers.tap(3, "ok")  # not a seat of the challenge: it cannot confirm
    fingers.tap(2, "ok")
    spy.wait_for(lambda p: p.stage == CORRECT and p.seats == (1,))
    assert len(rig.controller.game.results) == 1
    events = len(game.history)
    fingers.tap(1, "ok")
    spy.wait_for(lambda p: p.stage == VERDICT and len(p.history) == events + 1)
    return game, read, right


def test_the_challenger_and_the_bidder_correct_a_misread_card(tmp_path):
    config = table_config(tmp_path, 3)
    with running_table(config, fast_sim(5, players=False)) as (rig, spy):  # -10, 5, 1; centre 9
        game, read, right = _correct_the_centre(rig, spy)
        first_winner = game.results[0].winner
        assert "Seats 1, 2 confirm" in spy.texts()
        QueueFingers(rig.controller.queue).tap(2, "plus")  # the explanation's page says what was corrected, and by whom
        corrected = f"Corrected by seats 1, 2: Centre is {cards.display_name(right)}"
        assert spy.wait_for_screen(lambda stage, screen: corrected in screen.lines).title == "Round 1: why"

    record = read_record(rig.controller.state.recorded.path)
    correction = record.lines[-2]
    assert (correction["kind"], correction["event"]) == (
        "action", {"type": "correct", "item": "centre", "card": right, "confirmed_by": [1, 2]})
    # Both readings stay: the camera's in the reveal and the first verdict, then the correction's.
    reveal = next(line for line in record.lines if line.get("event", {}).get("type") == "reveal")
    assert reveal["event"]["centre"] == read
    verdicts = [line["result"] for line in record.lines if line["kind"] == "resolution"]
    assert [v["centre"] for v in verdicts] == [read, right]
    assert verdicts[1]["winner"] != first_winner == verdicts[0]["winner"]


def test_the_simulated_table_deals_on_after_a_correction_and_its_game_resumes(tmp_path):
    # The simulated hands (and run --sim's seat views) replay the table's events over a
    # virtual deal; the engine refuses to correct a virtual deal, so a correction once
    # stopped every hand (round 2: every seat missing) and every later resume.
    config = table_config(tmp_path, 3)
    with running_table(config, fast_sim(5, players=False)) as (rig, spy):
        _correct_the_centre(rig, spy)
        corrected = rig.controller.game
        truth = truth_game(corrected.config, corrected.history, rig.sim.deck)
        assert truth.results[-1].winner == corrected.results[-1].winner
        assert (truth.eyes, truth.next_start) == (corrected.eyes, corrected.next_start)
        QueueFingers(rig.controller.queue).tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "turn" and p.round == 2)
    with running_table(config, fast_sim(5, players=False), resumed=resume_or_none(config, new=False)) as (rig, spy):
        prompt = spy.wait_for(lambda p: p.stage == "turn")
        assert prompt.round == 2 and any(isinstance(event, Correct) for event in prompt.history)
        dealt = rig.controller.game.round.seat_cards
        deadline = time.monotonic() + 20  # the hands lay the round again on their own thread
        while rig.sim.scene().seat_cards != dealt:
            assert time.monotonic() < deadline, "the resumed table's hands never laid round 2 again"
            time.sleep(0.01)
    assert not [line for line in spy.lines if "seat_missing" in line]


def test_a_correction_can_be_declined_or_cancelled_and_nothing_is_recorded(tmp_path):
    config = table_config(tmp_path, 2)
    with running_table(config, fast_sim(6, players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        _to_verdict(rig, spy)
        lines = len(read_record(rig.controller.state.recorded.path).lines)
        fingers.chord(1)
        fingers.tap(1, "minus")  # "correct a card?" -- no
        fingers.tap(2, "plus")  # a page of the verdict, as before
        fingers.chord(2)
        fingers.tap(2, "ok")
        spy.wait_for(lambda p: p.stage == CORRECT)
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.correction is not None and p.correction[0] == "card")
        fingers.chord(1)  # cancelled
        spy.wait_for(lambda p: p.stage == VERDICT)
        fingers.tap(2, "ok")
        spy.wait_for(lambda p: p.stage == DEAL_WAIT)
        assert "Correction cancelled" in spy.texts() and "Correct a card?" in spy.texts()
    after = read_record(rig.controller.state.recorded.path).lines[lines:]
    assert {line["kind"] for line in after} == {"note"}  # the verdict seen, what the camera sees of the deal
    assert {"table": "verdict_seen", "round": 1} in [line["note"] for line in after]
