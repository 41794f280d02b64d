"""The terminal of ``run --sim``: the OLED fitted to the terminal, one seat's eyes, the keys."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from coyote_pi.devices.render import ScreenRenderer
from coyote_pi.devices.screen import Screen
from coyote_pi.engine import Bid, Game, GameConfig, Peek
from coyote_pi.sim.console import SimConsole
from coyote_pi.sim.deals import parse_deal
from coyote_pi.sim.table import SimTable
from coyote_pi.table import stages
from coyote_pi.table.presenter import Prompt

SCREEN = Screen(title="Seat 2 · bid 5", big="6", lines=["ok: bid 6"])
OLED = ScreenRenderer((128, 64)).render(SCREEN)


@pytest.fixture
def console():
    """A 3-seat simulated table dealt 7, 3, ? and Max 0 in the centre; seat 1 bid 5, seat 2 peeked."""
    config = GameConfig(players=3, start_seat=1)
    table = SimTable(seats=3, seed=1, players=False, deal=parse_deal("7,3,?,max0"))
    table.deal(Game(config), 1, slowly=False)
    game = Game(config)
    history = (game.virtual_deal(table.deck(1, 3)), Bid(1, 5), Peek(2))
    terminal = SimConsole(size=(80, 24))
    controller = SimpleNamespace(state=SimpleNamespace(recorded=SimpleNamespace(path=Path("/records/sim/game-0007.jsonl"))),
                                 store=SimpleNamespace(folder=Path("/records/sim")))
    terminal.attach(table, controller)
    terminal.frame(OLED, 0.0)
    terminal.on_screen(stages.TURN, SCREEN)
    terminal.on_prompt(Prompt(stages.TURN, 0, 1, (2,), config, history))
    yield terminal
    terminal.close()


def test_at_80x24_everything_fits_the_oled_in_braille_with_every_pixel(console):
    lines = console.lines(80, 24)
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    box = lines[:18]
    assert box[0].startswith("┌ OLED ") and box[-1].startswith("└") and {len(row) for row in box} == {66}
    drawn = "".join(row[1:-1] for row in box[1:-1])
    assert set(drawn) <= {chr(code) for code in range(0x2800, 0x2900)}  # Braille: 2x4 pixels a character
    assert sum(bin(ord(c) - 0x2800).count("1") for c in drawn) == int(np.array(OLED).sum())  # not a pixel lost
    assert lines[18] == "Seat 2 sees: 1:[7] 3:[?] centre: Max 0 (peeked)"  # its turn, its peek, not its card
    assert lines[19] == "OLED: Seat 2 · bid 5 | 6 | ok: bid 6"  # the small text, which Braille cannot show
    assert lines[-2] == "record: /records/sim/game-0007.jsonl"
    assert lines[-1] == "keys -,+,ok,undo: 1:1234 2:qwer 3:asdf | v eyes: turn | h help | Ctrl-C quit"


def test_at_200x50_the_oled_is_drawn_1_to_1_with_the_eyes_beside_it(console):
    lines = console.lines(200, 50)
    assert max(len(line) for line in lines) <= 200
    assert lines[0].startswith("┌ OLED ") and len(lines[0].split("┐")[0]) + 1 == 130  # 128 columns + the frame
    assert lines[0].endswith("┐  Seat 2 sees: 1:[7] 3:[?] centre: Max 0 (peeked)")
    assert {len(line) for line in lines[1:33]} == {130} and lines[33].startswith("└")
    assert lines[-1].startswith("keys -,+,ok,undo: 1:1234 2:qwer 3:asdf |")
    assert not any(line.startswith("OLED:") for line in lines)  # drawn 1:1, the OLED's own text reads well


def test_v_walks_through_whose_eyes_and_nobody(console):
    seen = []
    for _ in range(5):
        console.key("v")
        seen.append(next(line for line in console.lines(80, 24) if "sees" in line or "Eyes" in line))
    assert seen == ["Seat 1 sees: 2:[3] 3:[?] centre: face down",  # seat 1 did not peek
                    "Seat 2 sees: 1:[7] 3:[?] centre: Max 0 (peeked)",
                    "Seat 3 sees: 1:[7] 2:[3] centre: face down",
                    "Eyes: nobody's (v: a seat's)",
                    "Seat 2 sees: 1:[7] 3:[?] centre: Max 0 (peeked)"]  # back to the seat whose turn it is


def test_h_shows_the_whole_key_map_for_the_seats_in_play_and_h_goes_back(console):
    console.key("h")
    lines = console.lines(80, 24)
    assert "seat 3: a = minus, s = plus, d = ok, f = undo" in lines
    assert not any(line.startswith("seat 4") for line in lines) and max(len(line) for line in lines) <= 80
    assert any("Ctrl-C  quit" in line for line in lines) and lines[-1].endswith("| h table | Ctrl-C quit")
    console.key("h")
    assert console.lines(80, 24)[0].startswith("┌ OLED ")


def test_below_the_smallest_size_it_says_the_size_needed(console):
    lines = console.lines(60, 20)
    assert " ".join(lines[:2]) == "The terminal is 60x20: make it at least 66x21 to see the OLED."
    assert lines[-1].startswith("1:1234 2:qwer 3:asdf") and len(lines[-1]) <= 60  # the short key line


def test_a_notice_stays_under_the_oled(console):
    console.notices.append("could not resume game-0006.jsonl (line 3: bad hash): new game")
    lines = console.lines(80, 24)
    assert lines[-3] == "could not resume game-0006.jsonl (line 3: bad hash): new game"
    assert lines[0].startswith("┌ OLED ") and len(lines) <= 24


def test_the_terminal_speaks_the_tables_language(console):
    """``run --sim --language ru``: the eyes, the record's line, the keys and the help in Russian."""
    from coyote_pi.words.translator import Translator

    console._controller.tr = Translator("ru")
    lines = console.lines(80, 24)
    assert lines[18] == "Место 2 видит: 1:[7] 3:[?] центр: Max 0 (подсмотрено)"
    assert lines[-2] == "запись: /records/sim/game-0007.jsonl"
    assert lines[-1] == "1:1234 2:qwer 3:asdf | v глаза:чей ход h помощь ^C выход"  # 80 columns: the short one
    assert console.lines(120, 30)[-1] == "клавиши -,+,ok,отмена: 1:1234 2:qwer 3:asdf | v глаза: чей ход | h помощь | Ctrl-C выход"
    console.key("h")
    text = "\n".join(console.lines(120, 40))
    assert "место 1: 1 = минус, 2 = плюс, 3 = ok, 4 = отмена" in text and "Ctrl-C  выход" in text
    assert not any(word in text for word in ("seat", "quit", "sees"))


def test_the_oled_words_follow_the_page_the_oled_shows(console):
    """The verdict's explanation takes several pages; plus turns them: the words under
    the Braille drawing are those of the page shown, with the OLED's page mark."""
    why = Screen(title="Round 1: why", lines=["Seat 1: 15", "Seat 2: 20", "Seat 3: 1", "Centre: 8",
                                              "Total: 15 + 20 + 1 + 8 = 44", "Seat 2 challenged seat 1's 16",
                                              "44 reaches 16: the bidder wins", "Seat 2 starts next"])
    renderer = ScreenRenderer((128, 64))
    pages = renderer.pages(why)
    assert len(pages) >= 3
    words = []
    for page in range(len(pages)):
        shown = Screen(title=why.title, lines=why.lines, page=page)
        console.frame(renderer.render(shown), 0.0)
        console.on_screen(stages.VERDICT, shown)
        words.append(" ".join(line for line in console.lines(80, 24) if line.startswith(("OLED:", "  "))))
    assert words[0].startswith(f"OLED: Round 1: why 1/{len(pages)} | Seat 1: 15 |")
    assert words[1].startswith(f"OLED: Round 1: why 2/{len(pages)} | {pages[1][0]}")
    assert "Seat 1: 15" not in words[1] and "Seat 2 starts next" in words[-1] and "Seat 2 starts next" not in words[0]


def test_a_long_check_line_is_wrapped_whole_at_80x24_not_cut_before_its_expect(console):
    check = ("check it: coyote-pi replay /home/someone/.local/share/coyote-pi/games/sim/game-0007.jsonl "
             "--expect NB24-7QX3-KD9F-2M4T")
    console.tell(check)
    lines = console.lines(80, 24)
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert lines[0].startswith("┌ OLED ")  # the OLED still whole
    start = next(i for i, line in enumerate(lines) if line.startswith("check it: "))
    assert lines[start : start + 3] == ["check it: coyote-pi replay",
                                        "/home/someone/.local/share/coyote-pi/games/sim/game-0007.jsonl",
                                        "--expect NB24-7QX3-KD9F-2M4T"]  # an option and its value on one row


def test_a_check_line_names_the_home_folder_as_a_shell_takes_it(console):
    """At 80x24 with another notice: the record's path under the home folder is written
    with ~ (as the record's line is), so the check line still fits whole."""
    console.notices.append("no web page: 127.0.0.1:8093 is in use by another program")
    check = f"check it: coyote-pi replay {Path.home() / '.local/share/coyote-pi/games/sim/game-0003.jsonl'} " \
            "--expect NB24-7QX3-KD9F-2M4T"
    console.tell(check)
    lines = console.lines(80, 24)
    assert lines[0].startswith("┌ OLED ")
    start = lines.index("check it: coyote-pi replay ~/.local/share/coyote-pi/games/sim/game-0003.jsonl")
    assert lines[start + 1] == "--expect NB24-7QX3-KD9F-2M4T"


def test_notices_too_long_to_wrap_beside_the_oled_are_cut_instead(console):
    for game in range(3):
        console.notices.append(f"check it: coyote-pi replay /home/someone/.local/share/coyote-pi/games/sim/"
                               f"game-000{game}.jsonl --expect NB24-7QX3-KD9F-2M4T")
    lines = console.lines(80, 24)
    assert lines[0].startswith("┌ OLED ") and len(lines) <= 24  # not "the terminal is too small"
    assert lines[-5].startswith("check it: ") and lines[-5].endswith("…")


def test_a_seats_view_of_the_last_game_is_gone_during_the_next_games_setup(console):
    assert any(line.startswith("Seat 2 sees: ") for line in console.lines(80, 24))
    console.on_prompt(Prompt(stages.SETUP, 0, 0, (1,), None, setup=("start", 1)))  # ok started a new game
    lines = console.lines(80, 24)
    assert not any(" sees: " in line or "[7]" in line for line in lines) and lines[0].startswith("┌ OLED ")


def test_a_notice_shown_again_on_its_topic_takes_the_place_of_the_last(console):
    console.show("page", "the table's web page: http://127.0.0.1:8093/ (its log: web.log)")
    console.tell("check it: coyote-pi replay game-0007.jsonl --expect NB24")
    console.show("page", "the web page stopped (exit status 1): see web.log")
    assert console.notices == ["the web page stopped (exit status 1): see web.log",
                               "check it: coyote-pi replay game-0007.jsonl --expect NB24"]
    lines = console.lines(80, 24)
    assert lines[-4:-2] == console.notices and lines[0].startswith("┌ OLED ")
