"""Virtual seats at the table, on a simulated clock: the seat thinks on the OLED, moves by
itself through the record, gives way to an undo, and never blocks the table."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from coyote_pi.cards import shuffled_deck
from coyote_pi.devices.events import CHORD, PRESS, ButtonEvent
from coyote_pi.engine import BASIC, OVER, TRICKSTER, Bid, Challenge, Deal
from coyote_pi.players.strong import Strong
from coyote_pi.table.config import ConfigError, GameSettings, load_config_text
from coyote_pi.table.controller import Controller, ControllerOptions
from coyote_pi.table.stages import DEAL_WAIT, EXTRA_WAIT, GUESS, SETUP, TURN
from coyote_pi.table.virtual_seats import THINK_SECONDS

from .conftest import Spy, table_config


class Table:
    """A controller without a camera (cards go by the buttons) on a clock the test moves."""

    def __init__(self, folder: Path, players: int = 3, virtual: str | None = "3:strong", start: int | None = 1,
                 variant: str = BASIC) -> None:
        config = table_config(folder, players, variant, start=start)
        config = config.replace(game=dataclasses.replace(config.game, virtual=virtual))
        self.now = 100.0
        self.spy = Spy()
        self.controller = Controller(config, ControllerOptions(listeners=[self.spy], clock=lambda: self.now))
        self.controller.begin()

    def press(self, seat: int, button: str = "ok", kind: str = PRESS) -> None:
        assert self.controller.step(ButtonEvent(seat, button, kind, self.now))

    def wait(self, seconds: float) -> None:
        self.now += seconds
        assert self.controller.step()

    @property
    def history(self) -> list:
        return list(self.controller.game.history)

    def shown(self) -> str:
        screen = self.spy.screens[-1][1]
        return " ".join((screen.title, screen.big, *screen.lines))


def _deal_and_bid_to_seat_3(table: Table) -> None:
    table.press(1)  # the cards are out (the manual path: no camera)
    assert isinstance(table.history[-1], Deal)
    table.press(1)  # seat 1 opens
    table.press(2)  # seat 2 raises by one


def test_the_virtual_seat_thinks_on_the_oled_then_moves_through_the_record(tmp_path: Path) -> None:
    table = Table(tmp_path)
    _deal_and_bid_to_seat_3(table)
    controller = table.controller
    assert controller.state.stage == TURN and controller.game.turn == 3
    assert "Seat 3 (virtual) thinks…" in table.shown()
    moves = len(table.history)
    table.wait(THINK_SECONDS - 0.1)
    assert len(table.history) == moves, "it moved before its time"
    table.wait(0.1)
    move = table.history[-1]
    assert len(table.history) == moves + 1 and move.seat == 3 and isinstance(move, Bid | Challenge)
    assert any("seat 3 (virtual, strong) decides" in line for line in table.spy.lines)
    lines = [json.loads(line) for line in controller.state.recorded.path.read_text().splitlines()]
    assert lines[0]["meta"]["virtual"] == {"3": "strong"}
    assert lines[-1]["kind"] == "action" and lines[-1]["event"]["seat"] == 3  # an ordinary event


def test_an_undo_before_it_moves_makes_it_think_again(tmp_path: Path) -> None:
    table = Table(tmp_path)
    _deal_and_bid_to_seat_3(table)
    table.wait(THINK_SECONDS / 2)
    table.press(2, "minus+plus", CHORD)  # seat 2 takes its bid back while seat 3 thinks
    assert table.controller.game.turn == 2
    table.wait(THINK_SECONDS)
    assert table.controller.game.turn == 2 and "(virtual) thinks" not in table.shown()
    table.press(2)  # and bids again
    moves = len(table.history)
    table.wait(THINK_SECONDS / 2)
    assert len(table.history) == moves, "the thinking started afresh"
    table.wait(THINK_SECONDS / 2)
    assert table.history[-1].seat == 3


def test_a_player_that_fails_says_so_and_its_buttons_enter_the_move(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Strong, view: object, seed: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(Strong, "decide", broken)
    table = Table(tmp_path)
    _deal_and_bid_to_seat_3(table)
    moves = len(table.history)
    table.wait(THINK_SECONDS)
    assert len(table.history) == moves
    assert "Seat 3 (virtual) has no move" in table.shown()
    table.wait(60)  # it does not try again and again: the table waits for the buttons, as for anyone
    assert len(table.history) == moves and table.controller.state.stage == TURN
    table.press(3)  # a person enters the seat's move
    assert table.history[-1].seat == 3 and len(table.history) == moves + 1


def test_a_game_with_a_virtual_seat_plays_to_its_end(tmp_path: Path) -> None:
    """People at seats 1 and 2 raise by one up to 20, then challenge (and guess with
    plus); the virtual seat 3 does the rest. The deal comes from a known deck, as a
    camera would tell it."""
    table = Table(tmp_path, virtual="3:cautious", variant=TRICKSTER)
    controller = table.controller
    for _ in range(500):
        game, stage = controller.game, controller.state.stage
        if game.phase == OVER:
            break
        if stage == DEAL_WAIT:
            assert controller.apply(game.virtual_deal(shuffled_deck("virtual", game.round_number + 1)))
            assert controller.step()
        elif stage in (TURN, GUESS) and 3 in game.legal().seats:
            table.wait(THINK_SECONDS)
        elif stage == GUESS:
            table.press(game.legal().seats[0], "plus")
        elif stage == TURN and (game.round.bid or 0) > 20:
            assert controller.apply(Challenge(game.turn)) and controller.step()
        elif stage == TURN:
            table.press(game.turn)
        else:  # the verdict, the Coyote card's draw laid on the mat
            table.press(3 if stage == EXTRA_WAIT else game.active_seats[0])
    assert controller.game.phase == OVER
    moves = [event for event in controller.game.history if getattr(event, "seat", None) == 3]
    assert any(isinstance(event, Challenge) for event in moves) and any(isinstance(event, Bid) for event in moves)


def test_who_starts_lets_any_seat_be_made_virtual(tmp_path: Path) -> None:
    table = Table(tmp_path, virtual=None, start=None)
    assert table.controller.state.stage == SETUP
    table.press(2, "plus")  # seat 2: strong, cautious, then bluffer
    table.press(2, "plus")
    table.press(2, "plus")
    table.press(3, "minus")  # seat 3 backwards: bluffer
    assert "Seat 2: virtual (bluffer)" in table.shown() and "Seat 3: virtual (bluffer)" in table.shown()
    table.press(3, "plus")  # and back to a person
    table.press(1)  # the youngest starts
    first = json.loads(table.controller.state.recorded.path.read_text().splitlines()[0])
    assert first["meta"]["virtual"] == {"2": "bluffer"}
    assert table.controller.virtual.levels == {2: "bluffer"}


def test_a_game_without_virtual_seats_records_no_such_field(tmp_path: Path) -> None:
    table = Table(tmp_path, virtual=None)
    first = json.loads(table.controller.state.recorded.path.read_text().splitlines()[0])
    assert "virtual" not in first["meta"]


def test_the_configuration_names_virtual_seats_or_says_what_is_wrong() -> None:
    assert load_config_text('[game]\nvirtual = "3:strong, 2:cautious"\n').game.virtual == "2:cautious,3:strong"
    assert load_config_text('[game]\nvirtual = "3"\n').game == GameSettings(virtual="3:strong")
    for text, wrong in (('"3:genius"', "unknown level 'genius'"), ('"x:strong"', "is not SEAT:LEVEL"),
                        ('"3:strong,3:bluffer"', "named virtual twice"), ("3", "must be text")):
        with pytest.raises(ConfigError, match=wrong) as caught:
            load_config_text(f"[game]\nvirtual = {text}\n", source="t.toml")
        assert "\n" not in str(caught.value)
    with pytest.raises(ConfigError, match="seat 5 is not one of the 3 seats"):
        load_config_text('[game]\nplayers = 3\nvirtual = "5:strong"\n')
