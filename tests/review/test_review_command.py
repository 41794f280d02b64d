"""``coyote-pi review``: a finished record reviewed in three languages and as JSON; an
unfinished or invalid one refused with one line."""

from __future__ import annotations

import json

import pytest

from coyote_pi.bench.review import played_record
from coyote_pi.cli import main
from coyote_pi.engine import events
from coyote_pi.engine.game import Game, GameConfig
from coyote_pi.players.roster import player
from coyote_pi.record import encode_record

LINEUP = {1: player("strong"), 2: player("bluffer"), 3: player("raise-by-one")}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    return played_record(tmp_path_factory.mktemp("review") / "game-0001.jsonl",
                         GameConfig(players=3, variant="trickster", start_seat=1), LINEUP, 5)


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("Review of", "Seat 2: decisions", "Rounds lost:", "blunder")),
    ("de", ("Analyse von", "Platz 2: Entscheidungen", "Verlorene Runden:", "grober Fehler")),
    ("ru", ("Разбор", "Место 2: решений", "Проигранные раунды:", "грубая ошибка")),
])
def test_a_finished_record_is_reviewed_in_each_language(finished, capsys, language, words):
    assert main(["review", str(finished), "--language", language]) == 0
    out = capsys.readouterr().out
    for word in words:
        assert word in out, word


def test_one_seat_and_json(finished, capsys):
    assert main(["review", str(finished), "--seat", "2", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert [seat["seat"] for seat in review["seats"]] == [2]
    assert review["decisions"] and {decision["seat"] for decision in review["decisions"]} == {2}
    assert review["finished"] is True and review["thresholds"] == {"blunder": 0.2, "mistake": 0.1, "inaccuracy": 0.05}
    decision = review["decisions"][0]
    assert "centre" in decision["view"] and decision["view"]["centre"] is None  # a seat's view: no centre card
    assert str(2) not in decision["view"]["others"]  # nor its own card


def _refusal(capsys, argv: list[str]) -> str:
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    return captured.err


def test_an_unfinished_record_is_refused_with_one_line(tmp_path, capsys):
    game = Game(GameConfig(players=3, variant="basic", start_seat=1))
    deal = game.virtual_deal(["-10", "7", "-5", "3", "0", "1", "2", "4", "5", "6", "8", "9", "10", "15", "20", "?", "max0"])
    path = tmp_path / "open.jsonl"
    path.write_bytes(encode_record(game.config, [deal, events.Bid(1, 3), events.Challenge(2)]))
    assert "the game is not over" in _refusal(capsys, ["review", str(path)])
    assert "das Spiel ist nicht zu Ende" in _refusal(capsys, ["review", str(path), "--language", "de"])


def test_an_invalid_record_and_a_seat_not_in_the_game_are_refused_with_one_line(finished, tmp_path, capsys):
    broken = tmp_path / "broken.jsonl"
    lines = finished.read_bytes().splitlines(keepends=True)
    broken.write_bytes(b"".join(lines[:3] + lines[4:]))
    assert "not a valid game record: line 4" in _refusal(capsys, ["review", str(broken)])
    assert "неверная запись игры" in _refusal(capsys, ["review", str(broken), "--language", "ru"])
    assert "this game has seats 1 to 3" in _refusal(capsys, ["review", str(finished), "--seat", "4"])
