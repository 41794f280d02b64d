"""``run --sim --coach``: each move of a seat a person plays judged as the review judges it,
the table's own seats left alone, and the review offered once at the end of the game."""

from __future__ import annotations

from pathlib import Path

from coyote_pi.bench.review import played_record
from coyote_pi.engine.game import GameConfig
from coyote_pi.players.roster import player
from coyote_pi.record import read_record
from coyote_pi.review.judge import DECISIONS, review_record
from coyote_pi.sim.coach import Coach, coach_line
from coyote_pi.table import stages
from coyote_pi.table.presenter import Prompt
from coyote_pi.words.translator import Translator


def test_the_coach_judges_each_move_of_a_persons_seat_as_the_review_does(tmp_path):
    config = GameConfig(players=3, variant="trickster", start_seat=1)
    lineup = {1: player("strong"), 2: player("bluffer"), 3: player("half-odds")}
    path = played_record(tmp_path / "game-0001.jsonl", config, lineup, 9)
    record = read_record(path)
    history = record.game.history
    told, noted = [], []
    coach = Coach(told.append, noted.append, lambda: Translator("de"), lambda: Path(path))
    for count in range(len(history) + 1):  # the table prompts after every event
        over = count == len(history)
        coach.on_prompt(Prompt(stages.GAME_OVER if over else stages.TURN, 0, 1, (), config, tuple(history[:count]),
                               virtual=(1,)))
    coach.on_prompt(Prompt(stages.GAME_OVER, 0, 1, (), config, tuple(history)))  # asked again: offered once
    review = review_record(record, path.name)
    expected = [coach_line(Translator("de"), judged) for judged in review.judgements if judged.seat != 1]
    assert told == expected and len(told) == sum(isinstance(e, DECISIONS) and e.seat != 1 for e in history)
    assert all(line.startswith(("Coach, Platz 2:", "Coach, Platz 3:")) for line in told)
    assert noted == [f"Das Spiel analysieren: coyote-pi review {path} --language de"]


def test_the_coachs_lines_each_replace_only_their_own_and_leave_the_check_line():
    import io

    from coyote_pi.sim.console import SimConsole

    console = SimConsole(io.StringIO(), size=(80, 24))
    try:
        console.tell("check it: coyote-pi replay game-0001.jsonl")
        console.show("coach", "first judgement")
        console.show("review", "Review the game: coyote-pi review game-0001.jsonl")
        console.show("coach", "second judgement")
        assert console.notices == ["check it: coyote-pi replay game-0001.jsonl", "second judgement",
                                   "Review the game: coyote-pi review game-0001.jsonl"]
    finally:
        console.close()


def test_the_end_of_game_screen_keeps_the_review_offer_whole_at_80x24(tmp_path):
    """At the end of a coached game the last judgement, the check line and the review
    offer all want rows under the OLED: the offer, shown last, is wrapped whole (the
    command can be copied), the older notices are cut, and the record's line gives way
    since both name the record."""
    import functools
    from types import SimpleNamespace

    from coyote_pi.sim.console import SimConsole
    from coyote_pi.sim.table import SimTable
    from tests.sim.test_console import OLED, SCREEN

    config = GameConfig(players=3, variant="trickster", start_seat=1)
    lineup = {1: player("strong"), 2: player("bluffer"), 3: player("half-odds")}
    played = played_record(tmp_path / "game-0001.jsonl", config, lineup, 9)
    path = Path.home() / ".local/share/coyote-pi/games/sim/game-0001.jsonl"  # where run --sim keeps it
    history = read_record(played).game.history
    console = SimConsole(size=(80, 24))
    controller = SimpleNamespace(state=SimpleNamespace(recorded=SimpleNamespace(path=path)),
                                 store=SimpleNamespace(folder=path.parent))
    console.attach(SimTable(seats=3, seed=1, players=False), controller)
    console.frame(OLED, 0.0)
    console.on_screen(stages.GAME_OVER, SCREEN)
    coach = Coach(functools.partial(console.show, "coach"), functools.partial(console.show, "review"),
                  lambda: Translator("en"), lambda: path)
    try:
        coach.on_prompt(Prompt(stages.TURN, 0, 1, (), config, tuple(history[:-1])))
        console.tell(f"check it: coyote-pi replay {path} --expect NB24-7QX3-KD9F-2M4T")  # told first at the end
        coach.on_prompt(Prompt(stages.GAME_OVER, 0, 1, (), config, tuple(history)))
        lines = console.lines(80, 24)
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
        assert lines[0].startswith("┌ OLED ")  # the OLED still whole
        offer = "Review the game: coyote-pi review ~/.local/share/coyote-pi/games/sim/game-0001.jsonl --language en"
        start = next(i for i, line in enumerate(lines) if line.startswith("Review the game: "))
        assert " ".join(lines[start:start + 2]) == offer and lines[start + 2] == lines[-1]  # then the key line
        assert any(line.startswith("Coach, seat ") for line in lines)  # the last judgement, cut to a row
        assert any(line.startswith("check it: ") for line in lines)
    finally:
        console.close()
