"""Every older record still replays: version 2 (before the editions and the generic
adjustments) is read, checked in full and resumed in its own version.

``tests/records/v2-*.jsonl`` are records version 2 of coyote-pi wrote (a physical
Trickster game with sealed rounds and ``?`` and ``Max 0`` rounds, and a virtual Basic
one); they are kept as written.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from coyote_pi import cards
from coyote_pi.cli import main
from coyote_pi.engine import TRICKSTER, Bid, Challenge, Deal, Game, GameConfig
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event, simulate
from coyote_pi.record import RecordedGame, RecordError, read_record
from coyote_pi.record.lines import ChainEnd, canonical
from coyote_pi.record.versions import VERSION, v2_explanation

RECORDS = Path(__file__).parent / "records"
#: Each record, the game it holds and the seed its players decided by.
OLD = {"v2-trickster-4p-physical.jsonl": (GameConfig(players=4, variant="trickster"), 11),
       "v2-basic-3p.jsonl": (GameConfig(players=3, start_seat=2), 5)}


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def rechained(lines: list[dict]) -> str:
    """The lines with their hash chain recomputed (what a careful forger writes)."""
    times = iter(line["time"] for line in lines)
    bodies = [{key: value for key, value in line.items() if key not in ("seq", "time", "prev", "hash")}
              for line in lines]
    texts, _ = ChainEnd().seal(bodies, lambda: next(times))
    return "".join(text + "\n" for text in texts)


@pytest.mark.parametrize("name", sorted(OLD))
def test_a_version_2_record_replays_to_the_game_it_recorded(name, capsys):
    config, seed = OLD[name]
    path = RECORDS / name
    lines = lines_of(path)
    assert lines[0]["version"] == 2 and "edition" not in lines[0]["config"]
    assert any(line["kind"] == "resolution" and line["result"]["zeroed"] for line in lines)  # Max 0 zeroed a card
    record = read_record(path)
    expected = simulate(config, seed)
    assert [result.to_dict() for result in record.game.results] == [result.to_dict() for result in expected.results]
    assert main(["replay", str(path)]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("name", sorted(OLD))
def test_the_version_2_explanation_is_spelled_as_version_2_wrote_it(name):
    """The record's own spelling of version 2's English explanation (record/versions.py),
    not the catalogs' words: it reproduces every explanation of the old records exactly."""
    recorded = [line["result"]["explanation"] for line in lines_of(RECORDS / name) if line["kind"] == "resolution"]
    results = read_record(RECORDS / name).game.results
    assert len(recorded) == len(results) > 0
    assert [v2_explanation(result) for result in results] == recorded


def _deal(seats: dict[int, str], centre: str, *top: str) -> Deal:
    used = [*seats.values(), centre, *top]
    return Deal(seats, centre, (*top, *(card for card in cards.ALL_CARDS if card not in used)))


def test_the_version_2_explanation_of_what_the_old_records_do_not_show():
    """The sentences docs/game-record.md lists that no kept record holds: ``?`` replaced by
    ``Max 0``, the Coyote card's draw, a seat out."""
    game = Game(GameConfig(2))
    game.apply(_deal({1: "?", 2: "10"}, "4", "max0"))
    game.apply(Bid(1, 5))
    game.apply(Challenge(2))
    assert v2_explanation(game.last_result)[3:7] == [
        "? is replaced by the top card of the deck: Max 0.", "The replacement is Max 0, so Max 0 is in play.",
        "Max 0: the highest number card, 10, counts 0; Max 0 itself counts 0.", "Total: 0 + 0 + 4 = 4."]
    draw_and_out = simulate(GameConfig(3, TRICKSTER), 0).results[4]  # seed 0's round 5 has both
    assert v2_explanation(draw_and_out) == [
        "Seat 1: 3.", "Seat 2: -10.", "Seat 3: 6.", "Centre: 4.", "Coyote card draw (seat 1): -5.",
        "Total: 3 + (-10) + 6 + 4 + (-5) = -2.", "The total -2 is below the bid 25: the challenger wins.",
        "Seat 2 challenged seat 1's bid of 25: seat 2 wins, seat 1 loses.", "Seat 3 guessed seat 2: right.",
        "Seat 3 (guess right) flips a closed eye open.", "Seat 2 (winner) flips a closed eye open.",
        "Seat 1 (loser) discards an open-eye peek card.", "Seat 1 has no peek cards left and is out.",
        "Seat 2 starts the next round.", "Seat 2 receives the Coyote card."]


@pytest.mark.parametrize("key,value", [("zeroed", "5"), ("explanation", ["Seat 1: 5."])])
def test_a_version_2_resolution_is_still_checked_in_full(tmp_path, key, value):
    lines = lines_of(RECORDS / "v2-basic-3p.jsonl")
    at = next(index for index, line in enumerate(lines) if line["kind"] == "resolution")
    lines[at]["result"][key] = value
    path = tmp_path / "forged.jsonl"
    path.write_text(rechained(lines), encoding="utf-8")
    with pytest.raises(RecordError, match=f"differs from the rules' result in '{key}'") as caught:
        read_record(path)
    assert caught.value.line == at + 1


def test_a_version_2_record_names_no_edition_and_version_3_needs_one(tmp_path):
    lines = lines_of(RECORDS / "v2-basic-3p.jsonl")
    lines[0]["config"]["edition"] = "standard"  # version 2 had no such key
    path = tmp_path / "v2-edition.jsonl"
    path.write_text(rechained(lines), encoding="utf-8")
    with pytest.raises(RecordError, match=r'unknown key.* "edition"'):
        read_record(path)
    del lines[0]["config"]["edition"]
    lines[0]["version"] = VERSION
    path.write_text(rechained(lines), encoding="utf-8")
    with pytest.raises(RecordError, match=r'needs the key.* "edition"'):
        read_record(path)


def test_a_version_2_record_resumed_goes_on_in_version_2(tmp_path):
    """A table that crashed on a version 2 record (its last resolution not written)
    resumes it, writes that resolution and the rest of the game in version 2's form."""
    config, seed = OLD["v2-basic-3p.jsonl"]
    original = (RECORDS / "v2-basic-3p.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    second = [index for index, line in enumerate(original) if '"kind":"resolution"' in line][1]
    path = tmp_path / "game.jsonl"
    path.write_text("".join(original[:second]), encoding="utf-8")  # the crash: the resolution is lost
    table = RecordedGame.resume(path, clock=lambda: "2026-11-21T20:00:00.000Z")
    players = {s: ScriptedPlayer() for s in table.game.eyes}
    while (event := next_scripted_event(table.game, players, seed)) is not None:
        table.apply(event)
    table.close()
    written = [line for line in lines_of(path) if line["kind"] == "resolution"]
    kept = [json.loads(line)["result"] for line in original if '"kind":"resolution"' in line]
    assert [canonical(result) for result in (line["result"] for line in written)] == [canonical(r) for r in kept]
    assert read_record(path).game.winner == simulate(config, seed).winner


def test_a_new_record_is_version_3_without_words(tmp_path):
    shutil.copy(RECORDS / "v2-basic-3p.jsonl", tmp_path)  # beside an old one, as at a table
    path = tmp_path / "new.jsonl"
    table = RecordedGame.start(path, GameConfig(players=3, start_seat=2))
    players = {s: ScriptedPlayer() for s in table.game.eyes}
    while (event := next_scripted_event(table.game, players, 5)) is not None:
        table.apply(event)
    table.close()
    lines = lines_of(path)
    assert (lines[0]["version"], lines[0]["config"]["edition"]) == (3, "standard")
    results = [line["result"] for line in lines if line["kind"] == "resolution"]
    assert all("explanation" not in result and "zeroed" not in result for result in results)
    assert {"by": "max0", "card": "20", "counts": 0} in [a for result in results for a in result["adjustments"]]
