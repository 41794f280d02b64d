"""The game record: durable appends, strict validation, resume after a crash."""

import base64
import hashlib
import itertools
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coyote_pi import cards
from coyote_pi import record as record_module
from coyote_pi.cli import main
from coyote_pi.engine import Bid, Challenge, Deal, GameConfig, IllegalAction, Reveal, Undo
from coyote_pi.engine.events import from_dict
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event
from coyote_pi.engine.views import arbiter_state
from coyote_pi.record import (
    RecordedGame,
    RecordError,
    RecordWriter,
    Vault,
    commitment,
    encode_record,
    fingerprint,
    fingerprint_qr,
    is_sealed,
    normalize_fingerprint,
    read_record,
)
from coyote_pi.record.lines import canonical as _canonical
from coyote_pi.record.lines import sha256_text as _sha256
from coyote_pi.record.reader import NOT_A_RECORD
from coyote_pi.sim import deals
from coyote_pi.sim.deals import parse_deal

CONFIG = GameConfig(players=3, variant="trickster", start_seat=2)


def fixed_clock():
    return "2026-11-21T12:00:00.000Z"


def counting_salts():
    """Salts 000...1, 000...2, ...: the same record twice (real salts are random)."""
    numbers = iter(range(1, 10**6))
    return lambda: f"{next(numbers):032x}"


#: The cards of the test game's eight rounds, from the top: the stands (of the seats still
#: in), the centre, the Coyote card's draw or the card drawn for ``?``. A plan, not a seed:
#: a deck with more cards, or a shuffle done otherwise, deals the same game (71 lines).
PLAN = parse_deal("4,0,max0,8,15,2; 2,-10,-5,3,0,6; 7,6,?,3,-5,20; 6,1,7,15,2,9; -10,20,3,-5,8,5;"
                  "9,?,max0,4,0,8; ?,3,9,4,8,7; 6,15,9,1,5,20")


def play(table: RecordedGame, seed=4, physical=True, stop_after=None):
    """Drive a recorded game with scripted players (their decisions seeded by ``seed``) on
    the cards of :data:`PLAN`; return the number of events applied."""
    players = {s: ScriptedPlayer() for s in table.game.eyes}
    count = 0

    def deck_order(round_number):
        return PLAN.order(seed, round_number, len(table.game.active_seats))

    while (event := next_scripted_event(table.game, players, seed, physical=physical,
                                        deck_order=deck_order)) is not None:
        if stop_after is not None and count == stop_after:
            break
        table.apply(event)
        count += 1
    return count


@pytest.fixture
def finished(tmp_path):
    path = tmp_path / "game.jsonl"
    table = RecordedGame.start(path, CONFIG, {"device": "test"}, clock=fixed_clock)
    play(table)
    return path, table


def lines_of(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_test_game_is_dealt_by_its_plan_not_by_the_shuffle(finished, tmp_path, monkeypatch):
    """Every card the game shows is in :data:`PLAN`: another shuffle of the rest of the
    deck writes the same 71 lines."""
    path, _ = finished
    monkeypatch.setattr(deals.cards, "shuffled_deck", lambda seed, round_number: list(reversed(cards.ALL_CARDS)))
    again = tmp_path / "again.jsonl"
    play(RecordedGame.start(again, CONFIG, {"device": "test"}, clock=fixed_clock, salt=counting_salts()))
    assert len(lines_of(again)) == 71
    assert [line.get("result") for line in lines_of(again)] == [line.get("result") for line in lines_of(path)]


def write_lines(path, lines, rechain=True, texts=None):
    """Write lines back, recomputing the hash chain when asked (a careful forger).

    ``texts`` maps a line's index to a function giving its stored text (default: its
    canonical JSON); the chain follows whatever text is stored.
    """
    out, prev = [], None
    for seq, line in enumerate(lines):
        if rechain:
            line = {k: v for k, v in line.items() if k != "hash"}
            line.update(seq=seq, prev=prev)
            line["hash"] = _sha256(_canonical(line))
        text = (texts or {}).get(seq, _canonical)(line)
        out.append(text)
        prev = _sha256(text)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_a_recorded_game_replays_to_the_same_state(finished):
    path, table = finished
    record = read_record(path)
    assert table.game.winner is not None
    assert arbiter_state(record.game) == arbiter_state(table.game)
    assert record.fingerprint == table.writer.fingerprint
    kinds = {line["kind"] for line in record.lines}
    assert kinds == {"setup", "action", "observation", "opening", "resolution"}
    assert record.meta == {"device": "test"}


def test_every_line_is_chained_to_the_one_before(finished):
    path, _ = finished
    raw = path.read_text(encoding="utf-8").splitlines()
    for before, line in itertools.pairwise(raw):
        assert json.loads(line)["prev"] == _sha256(before)


def test_replay_command_prints_the_final_state(finished):
    path, table = finished
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["winner"] == table.game.winner
    assert state["phase"] == "over"
    assert state["record"]["fingerprint"] == table.writer.fingerprint
    assert state["record"]["last_hash"] == table.writer.last_hash
    ok = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path), "--expect", table.writer.fingerprint],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr


def _replay_error(path):
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    return done.stderr.strip()


def test_an_edited_line_is_detected(finished):
    path, _ = finished
    lines = lines_of(path)
    target = next(i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "bid")
    lines[target]["event"]["amount"] += 1
    write_lines(path, lines, rechain=False)
    assert f"line {target + 1}: its content does not match its hash" in _replay_error(path)


def test_a_rehashed_edit_breaks_the_chain(finished):
    path, _ = finished
    lines = lines_of(path)
    target = next(i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "bid")
    lines[target]["event"]["amount"] += 1
    body = {k: v for k, v in lines[target].items() if k != "hash"}
    lines[target]["hash"] = _sha256(_canonical(body))
    write_lines(path, lines, rechain=False)
    assert f"line {target + 2}: does not follow the line before it" in _replay_error(path)


def test_reordered_and_removed_lines_are_detected(finished, tmp_path):
    path, _ = finished
    lines = lines_of(path)
    swapped = lines[:3] + [lines[4], lines[3]] + lines[5:]
    write_lines(path, swapped, rechain=False)
    assert "line 4: sequence number 4, expected 3" in _replay_error(path)
    write_lines(path, lines[:3] + lines[4:], rechain=False)
    assert "line 4: sequence number 4, expected 3" in _replay_error(path)


def test_a_forged_illegal_action_is_rejected_with_the_rule(finished):
    """Even with a perfect hash chain, the rules catch an impossible game."""
    path, _ = finished
    lines = lines_of(path)
    bids = [i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "bid"]
    second = bids[1]
    lines[second]["event"]["amount"] = lines[bids[0]]["event"]["amount"]
    write_lines(path, lines)
    message = _replay_error(path)
    assert f"line {second + 1}: illegal action: seat" in message and "must bid more than" in message


def test_a_forged_verdict_is_rejected(finished):
    path, _ = finished
    lines = lines_of(path)
    target = next(i for i, line in enumerate(lines) if line["kind"] == "resolution")
    result = lines[target]["result"]
    result["winner"], result["loser"] = result["loser"], result["winner"]
    write_lines(path, lines)
    assert f"line {target + 1}: the recorded resolution differs" in _replay_error(path)


def test_a_changed_eye_change_is_shown_where_it_differs(finished):
    """Two long values that differ late are shown from a little before the difference,
    not both cut to the same first characters."""
    path, _ = finished
    lines = lines_of(path)
    target = next(i for i, line in enumerate(lines) if line["kind"] == "resolution")
    lines[target]["result"]["eye_changes"][-1]["reason"] += " (forged)"
    write_lines(path, lines)
    message = _replay_error(path)
    recorded, rules = re.search(r"'eye_changes': (.*) recorded, (.*) by the rules", message).groups()
    assert "(forged)" in recorded and "(forged)" not in rules
    assert recorded.startswith("...") and rules.startswith("...")


def test_a_cut_record_is_rejected_and_the_fingerprint_catches_removed_tails(finished):
    path, table = finished
    data = path.read_bytes()
    path.write_bytes(data[:-10])
    assert "the last line is incomplete" in _replay_error(path)
    lines = data.decode().splitlines(keepends=True)
    path.write_text("".join(lines[:-3]), encoding="utf-8")  # whole lines removed from the end
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path), "--expect",
                           table.writer.fingerprint], capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "does not match" in done.stderr


@pytest.mark.parametrize("content,reason", [
    (b"", "is empty"),
    (b"not json\n", "line 1: not valid JSON"),
    (b"[1, 2]\n", "line 1: a line must be a JSON object"),
    (b"\n", "line 1: an empty line"),
    (b"NaN\n", "line 1: not valid JSON: NaN is not a JSON number"),
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", "line 1: arrays or objects nested more than 100 deep"),
    (b"\xff\xfe\n", "line 1: not UTF-8 text"),
    ('{"kind":"setup"}\n'.encode("utf-16"), "line 1: not UTF-8 text: the file begins with the byte order mark of UTF-16"),
    ('{"kind":"setup"}\n'.encode("utf-16-be"), "line 1: not valid JSON"),  # no mark: NUL bytes are UTF-8
])
def test_bad_files_get_a_clear_message(tmp_path, content, reason):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    assert reason in _replay_error(path)


@pytest.mark.parametrize("seed", range(5))
def test_a_file_of_random_bytes_is_said_to_be_no_game_record(tmp_path, seed):
    path = tmp_path / "random.jsonl"
    noise = random.Random(seed).randbytes(4000)
    path.write_bytes(noise)
    error = _replay_error(path)
    assert error.startswith(f"{path}: line 1: ") and error.endswith(NOT_A_RECORD) and "\n" not in error
    path.write_bytes(noise.replace(b"\n", b""))  # not one line complete
    assert _replay_error(path) == f"{path}: line 1: {NOT_A_RECORD}"


def test_a_setup_line_cut_short_is_still_told_as_a_record_cut_short(finished):
    path, _ = finished
    path.write_bytes(path.read_bytes()[:40])
    assert "line 1: the last line is incomplete (the record was cut short)" in _replay_error(path)


def test_a_missing_file_gets_a_clear_message(tmp_path):
    assert "cannot read" in _replay_error(tmp_path / "nope.jsonl")


def test_foreign_and_joined_records_are_rejected(finished, tmp_path):
    path, _ = finished
    lines = lines_of(path)
    foreign = [dict(lines[0], format="something-else")] + lines[1:]
    write_lines(path, foreign)
    assert "not a coyote-pi game record" in _replay_error(path)
    joined = lines[:5] + [lines[0]] + lines[5:]
    write_lines(path, joined)
    assert "line 6: a second setup line" in _replay_error(path)


def test_records_are_never_overwritten(finished):
    path, _ = finished
    with pytest.raises(FileExistsError):
        RecordWriter.create(path, CONFIG)


def test_an_illegal_action_writes_nothing(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    play(table, stop_after=2)
    before = path.read_bytes()
    with pytest.raises(IllegalAction):
        table.apply(Challenge(table.game.turn % 3 + 1))  # not that seat's turn
    assert path.read_bytes() == before


def test_each_event_is_fsynced_before_apply_returns(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real_fsync(fd)))
    play(table, stop_after=3)
    assert synced.count(str(path)) == 3
    # The deal's opening went to the private file, and was on disk before the deal's line.
    assert synced.index(str(tmp_path / "private" / "g.round.json.tmp")) < synced.index(str(path))
    assert len(read_record(path, allow_torn_tail=True).lines) == 4


def test_a_failed_write_does_not_count(tmp_path, monkeypatch):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    play(table, stop_after=2)
    state = arbiter_state(table.game)
    seat = table.game.turn

    def full_disk(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OSError):
        table.apply(Bid(seat, 99))
    monkeypatch.undo()
    assert arbiter_state(table.game) == state
    table.apply(Bid(seat, 99))  # the device carries on once the disk is back
    assert read_record(path, private=True).game.round.bid == 99


def test_resume_after_a_torn_write(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    play(table, stop_after=6)
    state = arbiter_state(table.game)
    with open(path, "ab") as handle:
        handle.write(b'{"seq": 7, "kind": "act')  # power cut in the middle of a write
    resumed = RecordedGame.resume(path)
    assert arbiter_state(resumed.game) == state
    assert (tmp_path / "g.jsonl.torn").read_bytes() == b'{"seq": 7, "kind": "act'
    play(resumed)  # and the game goes on to its end, with a valid record
    assert read_record(path).game.winner is not None


def test_resume_writes_a_resolution_lost_in_a_crash(finished):
    path, table = finished
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert json.loads(lines[-1])["kind"] == "resolution"
    path.write_text("".join(lines[:-1]), encoding="utf-8")
    with pytest.raises(RecordError, match="ends before the resolution"):
        read_record(path)
    resumed = RecordedGame.resume(path)
    assert read_record(path).game.winner == table.game.winner == resumed.game.winner


def test_undo_is_recorded_and_replayed(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG)
    play(table, stop_after=1)  # the deal
    seat = table.game.turn
    table.apply(Bid(seat, 7))
    table.apply(Undo(seat))
    table.apply(Bid(seat, 4))
    record = read_record(path, private=True)
    assert record.undone == [4]
    assert [line["event"]["type"] for line in record.lines[1:]] == ["deal", "bid", "undo", "bid"]
    assert record.game.round.bids == [(seat, 4)]


# ---------------------------------------------------------------------- a strict record

EARLIER = "2026-11-21T11:59:59.999Z"  # a moment before fixed_clock's


def _set(path, value):
    """A mutation that sets ``lines[i][k1][k2]... = value`` (deletes the key for ``...``)."""
    def mutate(lines):
        *parents, key = path
        target = lines
        for step in parents:
            target = target[step]
        if value is ...:
            del target[key]
        else:
            target[key] = value
        return lines
    return mutate


def _retype(path, kind):
    """A mutation that shows a value as another JSON type that compares equal in Python."""
    def mutate(lines):
        *parents, key = path
        target = lines
        for step in parents:
            target = target[step]
        target[key] = kind(target[key])
        return lines
    return mutate


NOTE = {"kind": "note", "note": {"table": "verdict_seen", "round": 9}, "time": fixed_clock()}
PHOTO = {"file": "round-01-reveal.jpg", "sha256": "0" * 64}


def _reseal(index, k, change):
    """A careful forger's change to what a round's opening line (at ``index``) opens: the
    ``k``-th opened event is changed and the commitment of its sealed line recomputed."""
    def mutate(lines):
        opening = lines[index]["openings"][k]
        change(opening["event"])
        lines[opening["seq"]]["event"]["commitment"] = record_module.commitment(opening["event"], opening["salt"])
        return lines
    return mutate


def _unseal_the_first_deal(lines):
    lines[1]["event"] = lines[7]["openings"].pop(0)["event"]
    return lines


#: (what, mutation of the finished game's lines, {index: stored text}, line, reason). The
#: hash chain is recomputed afterwards: every one of these passed the chain and the rules.
STRICT_CASES = [
    ("spaces", None, {2: lambda line: json.dumps(line, sort_keys=True)}, 3, "not in canonical form"),
    ("keys unsorted", None, {2: lambda line: json.dumps(line, separators=(",", ":"))}, 3, "not in canonical form"),
    ("unicode escaped", _set([0, "meta", "device"], "café"),
     {0: lambda line: json.dumps(line, sort_keys=True, separators=(",", ":"))}, 1, "not in canonical form"),
    ("total 600 shown, 6 used", None,
     {70: lambda line: _canonical(line).replace('"total":', '"total":600,"total":', 1)}, 71, "'total' appears twice"),
    ("total 6.0 for 6", _retype([70, "result", "total"], float), None, 71,
     "differs from the rules' result in 'total' ('total': 31.0 recorded, 31 by the rules)"),
    ("0 for false", _retype([70, "result", "challenger_wins"], int), None, 71, "in 'challenger_wins'"),
    ("card alias", _set([6, "event", "centre"], "Max 0"), None, 7, 'the card "Max 0" must be written "max0"'),
    ("misspelt card", _set([6, "event", "centre"], "mx0"), None, 7,  # another program's typo: one line
     'illegal observation: "mx0" is not a Coyote card (cards: -10, -5, 0,'),
    ("opened card alias", _reseal(7, 0, lambda deal: deal["seats"].update({"3": "Max 0"})), None, 2,
     'the card "Max 0" must be written "max0"'),
    ("seat as a string", _set([2, "event", "seat"], "2"), None, 3, 'a seat must be a whole number, not "2"'),
    ("seat null", _set([2, "event", "seat"], None), None, 3, "a seat must be a whole number, not null"),
    ("amount true", _set([2, "event", "amount"], True), None, 3, "amount must be a whole number, not true"),
    ("players null", _set([0, "config", "players"], None), None, 1, "a whole number, not null"),
    ("seat key 02", _reseal(7, 0, lambda deal: deal["seats"].update({"02": deal["seats"].pop("2")})), None, 2,
     '"02" is not a seat number'),
    ("unknown event key", _set([2, "event", "comment"], "x"), None, 3, 'unknown key(s) in a bid event: "comment"'),
    ("missing event key", _reseal(7, 0, lambda deal: deal.pop("deck")), None, 2,
     'a deal event needs the key(s) "deck"'),
    ("unknown config key", _set([0, "config", "house_rules"], True), None, 1,
     'unknown key(s) in the game setup: "house_rules"'),
    ("missing config key", _set([0, "config", "variant"], ...), None, 1, 'the game setup needs the key(s) "variant"'),
    ("unknown line key", _set([2, "comment"], "x"), None, 3, 'unknown key(s) in this action line: "comment"'),
    ("meta not an object", _set([0, "meta"], "x"), None, 1, '"meta" must be a JSON object'),
    ("missing time", _set([2, "time"], ...), None, 3, 'this action line needs the key(s) "time"'),
    ("time not ISO 8601", _set([2, "time"], "21/11/2026 12:00"), None, 3, 'the time "21/11/2026 12:00" is not'),
    ("no such date", _set([2, "time"], "2026-02-30T12:00:00.000Z"), None, 3, "is not a UTC time"),
    ("offset, not Z", _set([2, "time"], "2026-11-21T12:00:00.000+00:00"), None, 3, "is not a UTC time"),
    ("time runs back", _set([3, "time"], EARLIER), None, 4, f"its time {EARLIER} is earlier than the line before it"),
    ("note after the end", lambda lines: lines + [dict(NOTE)], None, 72, "a note after the game is over"),
    ("deal after the end", lambda lines: lines + [dict(lines[1])], None, 72,
     "a sealed observation after the game is over: nothing follows the final resolution"),
    ("version 3.0 for 3", _retype([0, "version"], float), None, 1, "record version 3.0; this coyote-pi reads"),
    ("version 1", _set([0, "version"], 1), None, 1, "record version 1; this coyote-pi reads versions 2 and 3"),
    ("an edition no decks file has", _set([0, "config", "edition"], "deluxe"), None, 1, 'no edition "deluxe"'),
    ("start seat 2.0 for 2", _retype([0, "config", "start_seat"], float), None, 1,
     "the start player must be a seat from 1 to 3, not 2.0"),
    ("nested 5,000 deep", None, {0: lambda line: _canonical(line).replace('"test"', "[" * 5000 + "]" * 5000)}, 1,
     "arrays or objects nested more than 100 deep"),
    ("a bid of 5,000 digits", None, {2: lambda line: re.sub('"amount":-?[0-9]+', '"amount":1' + "0" * 5000,
                                                            _canonical(line))}, 3,
     "a number of more than 4300 digits"),
    ("note inside a challenge", lambda lines: lines[:7] + [dict(NOTE)] + lines[7:], None, 8,
     "a note between a challenge's last event and its resolution"),
    ("correction after the next deal",
     lambda lines: lines[:10] + [{"kind": "action", "time": fixed_clock(), "event": {
         "type": "correct", "item": "centre", "card": "20", "confirmed_by": [1, 2]}}] + lines[10:], None, 11,
     "illegal action: a correction after the next round's deal (line 10)"),
    ("reveal after the challenge was complete", lambda lines: lines[:7] + [dict(lines[6])] + lines[7:], None, 8,
     "an event before the resolution of the previous challenge, which line 7 completed"),
    # Sealed values: hidden while the round is open, and exactly what was committed to.
    ("a deal not sealed", _unseal_the_first_deal, None, 2, "a deal event must be sealed while its round is open"),
    ("a guess not sealed", lambda lines: (lines[5].update(event=lines[7]["openings"].pop(1)["event"]), lines)[1],
     None, 6, "a guess event must be sealed"),
    ("an opened card changed", _set([7, "openings", 0, "event", "seats", "1"], "20"), None, 8,
     "the opening of line 2 does not match its commitment"),
    ("another salt", _set([7, "openings", 1, "salt"], "f" * 32), None, 8,
     "the opening of line 6 does not match its commitment"),
    ("a salt too short", _set([7, "openings", 1, "salt"], "f" * 8), None, 8, "a salt is 32 lowercase hex digits"),
    ("another guesser opened", _reseal(7, 1, lambda guess: guess.update(seat=3)), None, 8,
     "the opening of line 6 is not the guess event sealed there"),
    ("a sealed line left unopened", _set([7, "openings"], ...), None, 8, "this opening line needs the key(s)"),
    ("an opening short of one", lambda lines: (lines[7]["openings"].pop(), lines)[1], None, 8,
     "the round's sealed lines are 2, 6, but the opening opens 2"),
    ("a sealed key too many", _set([5, "event", "winner"], 1), None, 6, "a sealed guess event has exactly the keys"),
    ("a resolution without its opening", lambda lines: lines[:7] + lines[8:], None, 8,
     "a resolution before the opening line of its round"),
    ("an opening with nothing sealed", lambda lines: lines[:9] + [dict(lines[7])] + lines[9:], None, 10,
     "an opening line, but no round is sealed"),
    ("an opening before the challenge ends", lambda lines: lines[:6] + [lines[7], lines[6]] + lines[8:], None, 7,
     "an opening line while its round is still open"),
    ("a photo on a deal", _set([1, "photo"], PHOTO), None, 2, "a deal line has no photo"),
    ("a photo with a path", _set([6, "photo"], dict(PHOTO, file="../record.jsonl")), None, 7,
     "'photo' must be null or an object with a plain 'file' name"),
    ("a photo on a bid", _set([2, "photo"], PHOTO), None, 3, 'unknown key(s) in this action line: "photo"'),
]


@pytest.mark.parametrize("what,mutate,texts,line,reason", STRICT_CASES, ids=[c[0] for c in STRICT_CASES])
def test_anything_but_the_canonical_record_is_rejected_at_its_line(finished, what, mutate, texts, line, reason):
    path, _ = finished
    lines = lines_of(path)
    assert len(lines) == 71 and lines[70]["kind"] == "resolution"  # the cases were written for this game
    assert [o["seq"] for o in lines[7]["openings"]] == [1, 5]  # round 1 sealed its deal and one guess
    write_lines(path, mutate(lines) if mutate else lines, texts=texts)
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert (caught.value.line, reason in caught.value.reason) == (line, True), str(caught.value)


def test_a_last_line_without_its_newline_never_counted(finished, tmp_path):
    """Complete JSON, but without its newline the line was never finished: replay says so,
    and resume moves it aside and continues from the line before."""
    path, _ = finished
    data = path.read_bytes()
    path.write_bytes(data[:-1])
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert caught.value.line == 71 and "has no newline at its end" in caught.value.reason
    assert "never finished" in caught.value.reason
    resumed = RecordedGame.resume(path)
    assert (tmp_path / "game.jsonl.torn").read_bytes() == data.splitlines()[-1]
    # The line before it is kept; the resolution that never counted is recomputed and written again.
    assert path.read_bytes().startswith(data[: data.rstrip(b"\n").rfind(b"\n") + 1])
    again = read_record(path)
    assert again.lines[-1]["result"] == json.loads(data.splitlines()[-1])["result"]
    assert again.last_hash == resumed.writer.last_hash and resumed.game.winner is not None


def test_the_writer_keeps_times_in_order_when_the_clock_goes_back(tmp_path):
    times = iter(["2026-11-21T12:00:00.000Z", "2026-11-21T12:00:05.000Z", EARLIER] + ["2026-11-21T12:00:06.000Z"] * 99)
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=lambda: next(times))
    play(table, stop_after=4)
    written = [line["time"] for line in lines_of(path)]
    assert written[:4] == ["2026-11-21T12:00:00.000Z"] + ["2026-11-21T12:00:05.000Z"] * 2 + ["2026-11-21T12:00:06.000Z"]
    assert written == sorted(written)
    read_record(path, allow_torn_tail=True)


def test_the_writer_refuses_a_clock_in_another_format(tmp_path):
    with pytest.raises(ValueError, match="not a UTC time"):
        RecordedGame.start(tmp_path / "g.jsonl", CONFIG, clock=lambda: "2026-11-21 12:00:00")
    assert not (tmp_path / "g.jsonl").exists()


def test_the_writer_stores_notes_as_a_reader_sees_them(tmp_path):
    """Tuples and number keys have no JSON form of their own: the stored line is the
    canonical JSON of what a reader gets back, so the record stays valid."""
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    table.note(table="camera", problems=({"key": "x", "seats": (1, 2)},), counts={10: 1, 9: 2})
    assert read_record(path).lines[-1]["note"] == {"table": "camera", "problems": [{"key": "x", "seats": [1, 2]}],
                                                   "counts": {"9": 2, "10": 1}}


def test_a_finished_game_takes_no_note(finished):
    path, table = finished
    before = path.read_bytes()
    with pytest.raises(IllegalAction, match="the game is over"):
        table.note(table="verdict_seen", round=9)
    assert path.read_bytes() == before


def test_encode_record_writes_what_the_recorded_game_writes(tmp_path):
    path = tmp_path / "game.jsonl"
    table = RecordedGame.start(path, CONFIG, {"device": "test"}, clock=fixed_clock, salt=counting_salts())
    play(table)
    assert encode_record(CONFIG, table.game.history, {"device": "test"}, fixed_clock,
                         counting_salts()) == path.read_bytes()


# ---------------------------------------------------------------------- the fingerprint

RFC4648 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def test_the_fingerprint_is_80_bits_in_crockford_base32(finished):
    _, table = finished
    digest = table.writer.last_hash
    expected = base64.b32encode(bytes.fromhex(digest[:20])).decode().translate(str.maketrans(RFC4648, CROCKFORD))
    shown = fingerprint(digest)
    assert shown.replace("-", "") == expected and len(expected) == 16
    assert [len(group) for group in shown.split("-")] == [4, 4, 4, 4]
    assert not set(shown) & set("ILOU")
    assert fingerprint_qr(digest) == digest.upper()


@pytest.mark.parametrize("noted", [
    lambda fp, digest: fp,
    lambda fp, digest: fp.lower().replace("-", " "),
    lambda fp, digest: fp.replace("-", "").replace("0", "O").replace("1", "l"),
    lambda fp, digest: digest.upper(),
    lambda fp, digest: " ".join(digest[i:i + 8] for i in range(0, 64, 8)),
])
def test_the_fingerprint_may_be_noted_in_any_case_with_spaces_or_as_the_full_hash(finished, noted):
    _, table = finished
    digest = table.writer.last_hash
    record = read_record(finished[0])
    assert record.line_of(normalize_fingerprint(noted(fingerprint(digest), digest))) == len(record.lines)


@pytest.mark.parametrize("noted", ["", "   ", "1a2b3c4d", "7K2M-9QXD-4HTR-BW3", "U" * 16, "g" * 64])
def test_what_is_not_a_fingerprint_is_refused(noted):
    with pytest.raises(ValueError, match="is not a fingerprint"):
        normalize_fingerprint(noted)


def _expect(path, noted):
    return main(["replay", str(path), "--expect", noted])


def test_replay_expect_refuses_an_empty_or_short_fingerprint(finished, capsys):
    path, table = finished
    for noted in ("", table.writer.last_hash[:8]):
        assert _expect(path, noted) == 1
        assert "is not a fingerprint" in capsys.readouterr().err


def test_replay_expect_accepts_the_short_form_and_the_full_hash(finished, capsys):
    path, table = finished
    assert _expect(path, table.writer.fingerprint.lower()) == 0
    assert _expect(path, fingerprint_qr(table.writer.last_hash)) == 0


def test_replay_expect_says_lines_were_removed_from_the_end(finished, capsys):
    path, table = finished
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:-6]), encoding="utf-8")  # back to the end of an earlier round
    assert _expect(path, table.writer.fingerprint) == 1
    said = capsys.readouterr().err
    assert "lines were removed from its end" in said and "changed" not in said


def test_replay_expect_says_lines_were_added_after_a_fingerprint_noted_earlier(finished, capsys):
    path, _ = finished
    record = read_record(path)
    verdict = next(n for n, line in enumerate(record.lines, start=1) if line["kind"] == "resolution")
    assert _expect(path, fingerprint(record.digests[verdict - 1])) == 1
    said = capsys.readouterr().err
    assert f"it is the fingerprint of line {verdict}" in said and f"{71 - verdict} line(s) after it were added" in said


def test_replay_expect_says_lines_were_changed(finished, capsys):
    path, table = finished
    lines = lines_of(path)
    lines[-1]["time"] = "2026-11-21T12:00:00.001Z"  # a rechained edit of the last line
    write_lines(path, lines)
    assert _expect(path, table.writer.fingerprint) == 1
    assert "lines were changed after it was noted" in capsys.readouterr().err



# ---------------------------------------------------------------------- the format's documentation

DOCS = Path(__file__).resolve().parents[1] / "docs" / "game-record.md"


def test_the_worked_example_in_the_docs_is_a_valid_record(tmp_path, capsys):
    """The example replays, its photo and stated hash and fingerprint are right, its sealed
    line opens to its deal, and it is byte for byte what the device writes for those
    events at those times with that salt."""
    section = DOCS.read_text(encoding="utf-8").split("## Worked example", 1)[1]
    block = re.search(r"```jsonl\n(.*?)```", section, re.S).group(1)
    stated_hash = re.search(r"hashes to `([0-9a-f]{64})`", section).group(1)
    stated_fingerprint = re.search(r"fingerprint is \*\*`([0-9A-Z-]+)`\*\*", section).group(1)
    path = tmp_path / "example.jsonl"
    path.write_text(block, encoding="utf-8")
    record = read_record(path)
    assert (record.last_hash, record.fingerprint) == (stated_hash, stated_fingerprint)
    assert (record.game.last_result.score.total, record.game.last_result.winner) == (4, 1)
    photos = DOCS.parent / "images" / "record-example"
    assert main(["replay", str(path), "--expect", stated_fingerprint, "--photos", str(photos)]) == 0
    capsys.readouterr()

    lines = [json.loads(line) for line in block.splitlines()]
    sealed, opening = lines[1]["event"], lines[6]["openings"][0]
    assert set(sealed) == {"type", "commitment"}
    hashed = '{"event":' + _canonical(opening["event"]) + ',"salt":"' + opening["salt"] + '"}'
    assert hashed in DOCS.read_text(encoding="utf-8") and _sha256(hashed) == sealed["commitment"]

    times = iter(line["time"] for line in lines)  # one clock reading per line written
    written = tmp_path / "written.jsonl"
    table = RecordedGame.start(written, GameConfig.from_dict(lines[0]["config"]), lines[0]["meta"],
                               clock=lambda: next(times), salt=lambda: opening["salt"])
    opened = {o["seq"]: o["event"] for o in lines[6]["openings"]}
    for line in lines[1:]:
        if line["kind"] in ("action", "observation"):
            table.apply(from_dict(opened.get(line["seq"], line["event"])), photo=line.get("photo"))
        elif line["kind"] == "note":
            table.note(**line["note"])
    assert written.read_text(encoding="utf-8") == block


# ---------------------------------------------------------------------- sealed values and photos


def test_an_open_round_waits_sealed_in_a_private_file_until_its_opening(tmp_path):
    """While a round is open its deal and guesses are sealed in the record, and what opens
    them is in a file only the service reads, written before each sealed line; the round's
    opening line empties it."""
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    private = tmp_path / "private" / "g.round.json"
    players = {s: ScriptedPlayer() for s in table.game.eyes}
    seen_open = 0
    while (event := next_scripted_event(table.game, players, 4, physical=True)) is not None:
        table.apply(event)
        lines = lines_of(path)
        opened_at = max((i for i, line in enumerate(lines) if line["kind"] == "opening"), default=0)
        sealed = [line["seq"] for line in lines[opened_at:] if is_sealed(line.get("event"))]
        if not sealed:
            assert not private.exists()
            continue
        seen_open += 1
        assert (private.stat().st_mode & 0o777, private.parent.stat().st_mode & 0o777) == (0o600, 0o700)
        openings = json.loads(private.read_text(encoding="utf-8"))["openings"]
        assert [o["seq"] for o in openings] == sealed
        for opening in openings:  # each sealed line commits to what the private file holds
            assert lines[opening["seq"]]["event"]["commitment"] == commitment(opening["event"], opening["salt"])
        assert not any("winner" in line.get("event", {}) for line in lines if line["kind"] == "action"
                       and line["event"]["type"] == "guess" and line["seq"] in sealed)
    assert seen_open > 20 and not private.exists() and table.game.winner is not None


def test_replay_of_a_game_in_progress_leaves_the_open_round_out(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    play(table, stop_after=8)  # round 2 is open: dealt and bid on
    hidden = table.game.round.seat_cards
    assert table.game.round_number == 2 and all(hidden.values())
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "replay", str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    lines = lines_of(path)
    deal_line = 1 + max(i for i, line in enumerate(lines) if line.get("event", {}).get("type") == "deal")
    assert state["record"]["open_round"] == {"first_line": deal_line, "lines": len(lines) + 1 - deal_line,
                                             "sealed_lines": [deal_line]}
    assert state["round"] == 1 and state["current_round"]["number"] == 1  # the state before the open round
    assert "seats" not in json.dumps(lines[deal_line - 1])
    # The service, with the private file, sees the open round.
    assert read_record(path, private=True).game.round.seat_cards == hidden


def test_resume_needs_the_private_file_of_a_sealed_round(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    play(table, stop_after=5)
    state = arbiter_state(table.game)
    assert arbiter_state(RecordedGame.resume(path).game) == state
    (tmp_path / "private" / "g.round.json").unlink()
    with pytest.raises(RecordError, match=r"g.round.json, which opens it, is missing"):
        RecordedGame.resume(path)
    assert read_record(path).open_round is not None  # the public replay is not affected


def test_a_private_file_that_does_not_match_the_record_is_refused(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    play(table, stop_after=5)
    private = tmp_path / "private" / "g.round.json"
    saved = json.loads(private.read_text(encoding="utf-8"))
    saved["openings"][0]["event"]["seats"]["1"], saved["openings"][0]["event"]["seats"]["2"] = (
        saved["openings"][0]["event"]["seats"]["2"], saved["openings"][0]["event"]["seats"]["1"])
    private.write_text(json.dumps(saved), encoding="utf-8")
    with pytest.raises(RecordError, match="the opening of line 2 does not match its commitment"):
        RecordedGame.resume(path)


def test_resume_writes_an_opening_lost_with_its_resolution(finished, tmp_path):
    """A power cut after the closing event's line but before its opening and resolution:
    the private file still opens the round, and resume writes both."""
    path, table = finished
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert [json.loads(line)["kind"] for line in lines[-3:]] == ["observation", "opening", "resolution"]
    opening = json.loads(lines[-2])["openings"]
    Vault(path).write(Vault.ROUND, {"openings": opening})  # as it was before the round closed
    path.write_text("".join(lines[:-2]), encoding="utf-8")
    resumed = RecordedGame.resume(path)
    again = read_record(path)
    assert again.lines[-2]["openings"] == opening and again.game.winner == table.game.winner == resumed.game.winner
    assert not (tmp_path / "private" / "game.round.json").exists()


def test_what_the_device_keeps_private_stays_out_of_the_setup_line(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG, {"source": "sim"}, private_meta={"seed": 12})
    assert read_record(path).meta == {"source": "sim"} and "seed" not in path.read_text(encoding="utf-8")
    assert table.private_meta == RecordedGame.resume(path).private_meta == {"seed": 12}
    assert (tmp_path / "private" / "g.setup.json").stat().st_mode & 0o777 == 0o600


def _game_with_a_photo(tmp_path):
    """A 2-player round whose reveal keeps a photo, the photo in ``photos/``."""
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "round-01-reveal.jpg").write_bytes(b"\xff\xd8 a photo of the reveal")
    photo = {"file": "round-01-reveal.jpg", "sha256": hashlib.sha256(b"\xff\xd8 a photo of the reveal").hexdigest()}
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, GameConfig(players=2), clock=fixed_clock)
    for event in (Deal({1: "4", 2: "max0"}), Bid(1, 3), Challenge(2)):
        table.apply(event)
    table.apply(Reveal("10"), photo=photo)
    return path, photos


def test_replay_checks_the_photos_the_record_names(tmp_path, capsys):
    path, photos = _game_with_a_photo(tmp_path)
    assert main(["replay", str(path), "--photos", str(photos)]) == 0
    assert json.loads(capsys.readouterr().out)["record"]["photos_checked"] == 1
    (photos / "round-01-reveal.jpg").write_bytes(b"\xff\xd8 another photo")
    assert main(["replay", str(path), "--photos", str(photos)]) == 1
    assert "line 5: round-01-reveal.jpg is not the photo recorded" in capsys.readouterr().err
    (photos / "round-01-reveal.jpg").unlink()
    assert main(["replay", str(path), "--photos", str(photos)]) == 1
    assert "line 5: the photo round-01-reveal.jpg is missing from" in capsys.readouterr().err


def test_replay_says_a_photos_folder_is_not_there_once_not_each_photo_missing(tmp_path, capsys):
    path, _ = _game_with_a_photo(tmp_path)
    assert main(["replay", str(path), "--photos", str(tmp_path / "no-such-folder")]) == 1
    assert capsys.readouterr().err == f"{path}: the photos folder {tmp_path / 'no-such-folder'} does not exist\n"
    assert main(["replay", str(path), "--photos", str(path)]) == 1
    assert capsys.readouterr().err == f"{path}: the photos folder {path} is not a folder\n"


def test_only_a_reveal_or_a_draw_keeps_a_photo(tmp_path):
    table = RecordedGame.start(tmp_path / "g.jsonl", GameConfig(players=2))
    with pytest.raises(ValueError, match="a deal keeps no photo"):
        table.apply(Deal({1: "4", 2: "5"}), photo={"file": "x.jpg", "sha256": "0" * 64})


def test_a_damaged_private_file_is_reported_not_trusted(tmp_path):
    path = tmp_path / "g.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    play(table, stop_after=3)
    (tmp_path / "private" / "g.round.json").write_text('{"openings": [{"seq": 1}]}', encoding="utf-8")
    with pytest.raises(RecordError, match=r"g.round.json, which opens the record's last round, is damaged"):
        RecordedGame.resume(path)


def test_replay_expect_says_so_when_the_fingerprint_matches(finished, capsys):
    path, table = finished
    assert _expect(path, table.writer.fingerprint) == 0
    captured = capsys.readouterr()
    assert f"fingerprint matches: {table.writer.fingerprint}" in captured.err
    assert json.loads(captured.out)["record"]["fingerprint"] == table.writer.fingerprint  # stdout stays JSON


def test_a_removed_line_is_told_as_missing_and_swapped_lines_as_reordered(finished):
    path, _ = finished
    lines = lines_of(path)
    write_lines(path, lines[:3] + lines[4:], rechain=False)
    assert "line 4: sequence number 4, expected 3 (the line before it is missing)" in _replay_error(path)
    write_lines(path, lines[:3] + lines[5:], rechain=False)
    assert "line 4: sequence number 5, expected 3 (2 lines before it are missing)" in _replay_error(path)
    write_lines(path, lines[:3] + [lines[4], lines[3]] + lines[5:], rechain=False)
    assert "line 4: sequence number 4, expected 3 (lines reordered or repeated?)" in _replay_error(path)


def test_a_utf8_byte_order_mark_is_told_without_suggesting_another_encoding(finished):
    path, _ = finished
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    error = _replay_error(path)
    assert "line 1:" in error and "byte order mark" in error and "EF BB BF" in error
    assert "utf-8-sig" not in error


def test_an_empty_openings_list_is_told_as_empty_not_as_not_a_list(finished):
    path, _ = finished
    lines = lines_of(path)
    lines[7]["openings"] = []
    write_lines(path, lines)
    error = _replay_error(path)
    assert "line 8: 'openings' is empty" in error and "must be a list" not in error


@pytest.mark.parametrize("damage", ["flipped byte", "deleted line"])
def test_resume_tells_the_damage_that_cut_a_closed_round_not_its_private_file(finished, damage):
    """Round 1 (lines 2 to 8) was closed, so its private file is gone: a damaged line in it
    is what stops the resume, and the message says that line, not the absent file."""
    path, table = finished
    table.close()
    lines = path.read_bytes().split(b"\n")
    if damage == "flipped byte":
        middle = len(lines[3]) // 2
        lines[3] = lines[3][:middle] + bytes([lines[3][middle] ^ 0x02]) + lines[3][middle + 1:]
    else:
        del lines[3]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(RecordError) as caught:
        RecordedGame.resume(path)
    assert caught.value.line == 4, str(caught.value)
    assert "private" not in str(caught.value) and "round that starts at line 2" in str(caught.value)


def test_resume_tells_the_damage_in_a_closed_round_while_a_later_round_is_open(tmp_path):
    """The private file is there, for the round now open: a damaged line in round 1 is still
    what stops the resume, and the message says that line."""
    path = tmp_path / "game.jsonl"
    table = RecordedGame.start(path, CONFIG, clock=fixed_clock)
    play(table, stop_after=12)
    assert table.game.round_number > 1 and Vault(path).path(Vault.ROUND).exists()  # a later round is open
    table.close()
    lines = path.read_bytes().split(b"\n")
    del lines[3]  # a bid of round 1
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(RecordError) as caught:
        RecordedGame.resume(path)
    assert caught.value.line == 4 and "sequence number 4, expected 3" in str(caught.value), str(caught.value)
    assert "round that starts at line 2" in str(caught.value) and "private" not in str(caught.value)
