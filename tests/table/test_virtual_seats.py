"""Virtual seats at the table, on a simulated clock: the seat thinks on the OLED, moves by
itself through the record, gives way to an undo, and never blocks the table."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from coyote_pi.cards import shuffled_deck
from coyote_pi.config import ConfigError, GameSettings, load_config_text
from coyote_pi.devices.events import CHORD, PRESS, REPEAT, ButtonEvent
from coyote_pi.engine import BASIC, OVER, TRICKSTER, Bid, Challenge, Deal, Game, GameConfig, UseCoyoteCard
from coyote_pi.players.strong import Strong
from coyote_pi.players.turn import Move, TurnView
from coyote_pi.record import Vault
from coyote_pi.table import screens
from coyote_pi.table.controller import Controller, ControllerOptions
from coyote_pi.table.correction import Correction, Outcome
from coyote_pi.table.stages import DEAL_WAIT, EXTRA_WAIT, GUESS, SETUP, TURN
from coyote_pi.table.virtual_seats import THINK_SECONDS, VIRTUAL_SEED
from coyote_pi.words.translator import Translator

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


def test_each_game_s_virtual_players_draw_from_a_secret_seed_of_their_own(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seeds: list[object] = []
    decide = Strong.decide

    def noted(self: Strong, view: TurnView, seed: int | str) -> Move:
        seeds.append(seed)
        return decide(self, view, seed)

    monkeypatch.setattr(Strong, "decide", noted)
    table = Table(tmp_path)
    kept = []
    for _ in range(2):  # two games of one table
        recorded = table.controller.state.recorded
        _deal_and_bid_to_seat_3(table)
        table.wait(THINK_SECONDS)
        kept.append(Vault(recorded.path).read(Vault.SETUP)[VIRTUAL_SEED])
        assert seeds[-1] == kept[-1] and kept[-1] not in recorded.path.read_text()  # never in the readable record
        table.controller.game_start.new_game()  # (as ok at a game's end does)
        table.wait(0)
    assert kept[0] != kept[1] and len(kept[0]) == 32


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
        else:  # the verdict, the Coyote card's draw laid on the mat (by a person: seat 3 has no buttons)
            table.press(game.active_seats[0])
    assert controller.game.phase == OVER
    moves = [event for event in controller.game.history if getattr(event, "seat", None) == 3]
    assert any(isinstance(event, Challenge) for event in moves) and any(isinstance(event, Bid) for event in moves)


def _scripted(self: Strong, view: TurnView, seed: object) -> Move:
    """A virtual player the tests steer: it calls a bid of 100 or more, uses the Coyote card
    when it may, answers a bid of 2 with an impossible 200 and otherwise raises by one."""
    last = view.bids[-1][1] if view.bids else 0
    if view.may_challenge and last >= 100:
        return Challenge(view.me)
    if view.may_use_coyote_card:
        return UseCoyoteCard(view.me)
    return Bid(view.me, 200 if view.min_bid == 3 else view.min_bid or 1)


def _deal(table: Table) -> None:
    game = table.controller.game
    assert table.controller.apply(game.virtual_deal(shuffled_deck("draw", game.round_number + 1)))
    assert table.controller.step()


def _move(table: Table, move: Move) -> None:
    assert table.controller.apply(move) and table.controller.step()


def test_a_person_lays_the_coyote_card_draw_of_a_virtual_seat(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 3 (virtual) loses round 1 with an impossible bid, so it holds the Coyote card in
    round 2 and uses it on its second turn; its draw goes on the mat by a person's hands,
    and any person's ok says so (the seat itself has no buttons to press)."""
    monkeypatch.setattr(Strong, "decide", _scripted)
    table = Table(tmp_path, variant=TRICKSTER)
    controller = table.controller
    _deal(table)
    table.press(1)  # 1
    table.press(2)  # 2
    table.wait(THINK_SECONDS)  # seat 3: 200
    _move(table, Challenge(1))
    assert controller.state.stage == GUESS
    table.press(2, "plus")  # seat 2 guesses
    table.press(1)  # the verdict seen: seat 3 lost, holds the Coyote card and starts round 2
    assert controller.game.coyote_holder == 3 and controller.state.stage == DEAL_WAIT
    _deal(table)
    table.wait(THINK_SECONDS)  # seat 3 opens (no Coyote card on a first turn)
    table.press(1)
    table.press(2)
    table.wait(THINK_SECONDS)  # seat 3 uses the Coyote card
    assert isinstance(table.history[-1], UseCoyoteCard) and controller.state.stage == EXTRA_WAIT
    table.press(2)  # a person lays the draw for seat 3 and says so
    assert controller.state.stage == TURN and controller.state.memory.extra_on_mat


def test_a_persons_coyote_card_draw_is_that_persons_to_confirm(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 2 (a person) loses round 1 to the virtual seat's challenge, holds the Coyote card
    and uses it in round 2: only its own ok says its draw lies on the mat."""
    monkeypatch.setattr(Strong, "decide", _scripted)
    table = Table(tmp_path, variant=TRICKSTER)
    controller = table.controller
    _deal(table)
    table.press(1)  # 1
    _move(table, Bid(2, 200))
    table.wait(THINK_SECONDS)  # seat 3 calls it
    assert isinstance(table.history[-1], Challenge)
    table.press(1, "plus")  # seat 1 guesses
    table.press(1)  # the verdict seen
    assert controller.game.coyote_holder == 2
    _deal(table)
    _move(table, Bid(2, 1))
    table.wait(THINK_SECONDS)  # seat 3: 2
    table.press(1)  # 3
    _move(table, UseCoyoteCard(2))
    assert controller.state.stage == EXTRA_WAIT
    table.press(1)
    table.press(3)
    assert controller.state.stage == EXTRA_WAIT, "another seat's ok laid seat 2's draw"
    table.press(2)
    assert controller.state.stage == TURN


def _settled_round(bidder: int, challenger: int) -> Game:
    """A three-seat game whose first round ended with ``challenger`` calling ``bidder``'s bid."""
    game = Game(GameConfig(players=3, start_seat=bidder))
    game.apply(game.virtual_deal(shuffled_deck("correction", 1)))
    game.apply(Bid(bidder, 5))
    assert game.turn == challenger
    game.apply(Challenge(challenger))
    return game


def _dial_a_correction(correction: Correction) -> None:
    for button in ("ok", "plus", "ok"):  # the first card, another value, on to the confirmation
        assert correction.press(ButtonEvent(1, button, PRESS, 0.0)) is None


@pytest.mark.parametrize("virtual", [{1}, {2}])
def test_a_correction_needs_only_the_person_of_the_challenge_when_the_other_is_virtual(virtual: set[int]) -> None:
    result = _settled_round(1, 2).last_result
    assert result is not None
    correction = Correction(result, frozenset(virtual | {3}))
    _dial_a_correction(correction)
    person = ({1, 2} - virtual).pop()
    assert correction.people == (person,) and correction.waiting == (person,)
    assert correction.press(ButtonEvent(3, "ok", PRESS, 0.0)) == Outcome.NOT_CONFIRMING
    assert correction.press(ButtonEvent(person, "ok", PRESS, 0.0)) == Outcome.CONFIRMED
    assert correction.event().confirmed_by == (1, 2)  # the record names both seats of the challenge


def test_a_correction_between_two_virtual_seats_takes_any_persons_ok() -> None:
    game = _settled_round(1, 2)
    assert game.last_result is not None
    correction = Correction(game.last_result, frozenset({1, 2}))
    _dial_a_correction(correction)
    assert correction.people == () and correction.waiting == ()
    shown = screens.correction_screen(Translator("en"), game, correction)
    assert "ok at any seat confirms" in " ".join(shown.lines) and "Waiting" not in " ".join(shown.lines)
    assert correction.press(ButtonEvent(3, "ok", PRESS, 0.0)) == Outcome.CONFIRMED


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
    assert table.controller.state.virtual == {2: "bluffer"}


def test_a_chord_at_who_starts_makes_no_seat_virtual_and_keeps_the_ones_chosen(tmp_path: Path) -> None:
    # The chord follows the press of whichever of minus and plus went down first: that
    # press is taken back, and only that one.
    table = Table(tmp_path, virtual=None, start=None)
    table.press(2, "plus")  # seat 2: strong, on purpose
    table.press(2, "minus")  # then a chord at seat 2: minus first ...
    table.press(2, "minus+plus", CHORD)  # ... and plus with it
    table.press(3, "plus")  # a chord at seat 3, plus first
    table.press(3, "minus+plus", CHORD)
    table.press(3, "minus+plus", CHORD)  # a second chord takes back nothing more
    table.press(1, "minus")  # at seat 1 minus is held a while (it repeats) before plus joins it
    table.press(1, "minus", REPEAT)
    table.press(1, "minus+plus", CHORD)
    assert table.controller.state.setup is not None
    assert table.controller.state.setup.virtual_seats() == {2: "strong"}


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
