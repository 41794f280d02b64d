"""The controller's flows: refusals, undo, presses from many threads, a failing display and
camera, the manual path, setup, and the loop's behaviour when nothing happens."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
from luma.core.device import dummy

from coyote_pi.devices.camera import Camera
from coyote_pi.devices.camera_guard import GuardedCamera
from coyote_pi.devices.display import TableDisplay
from coyote_pi.devices.events import PRESS, ButtonEvent
from coyote_pi.engine import Challenge
from coyote_pi.record import read_record
from coyote_pi.sim.camera import FailingCamera, SceneCamera, SyntheticCamera
from coyote_pi.sim.display import FlakyDummy
from coyote_pi.sim.presser import Bounce, LateCallbacks, QueueFingers
from coyote_pi.sim.rig import SimOptions, open_sim_rig
from coyote_pi.sim.table import SimPace
from coyote_pi.table.controller import STOP, Controller, ControllerOptions
from coyote_pi.table.presenter import Listener
from coyote_pi.table.selector import ChoiceKind

from .conftest import (
    FAST,
    Spy,
    SteppedTable,
    fast_sim,
    game_events,
    play,
    running_table,
    same_game,
    sim_devices,
    table_config,
)


def _at_first_turn(spy, seat: int = 1):
    return spy.wait_for(lambda p: p.stage == "turn" and p.seats == (seat,))


def _events_of(rig) -> list[dict]:
    return game_events(rig.controller.state.recorded.path)


def _shown_after(spy, count: int, test) -> bool:
    return any(test(screen) for _, screen in spy.screens[count:])


def test_out_of_turn_and_unknown_seats_are_told_and_change_nothing(tmp_path):
    with running_table(table_config(tmp_path, 3), fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        turn = _at_first_turn(spy)
        before, shown = _events_of(rig), len(spy.screens)
        fingers.tap(2, "plus")
        fingers.tap(3, "ok")
        fingers.tap(5, "ok")  # a wired seat that is not in this 3-player game
        fingers.tap(1, "plus")  # seat 1's press still works
        spy.wait_for(lambda p: p.choice is not None and p.choice.amount == turn.choice.amount + 1)
        assert _events_of(rig) == before
        assert _shown_after(spy, shown, lambda s: s.alert and s.title == "Seat 2" and s.big == "not your turn")
        assert _shown_after(spy, shown, lambda s: s.alert and s.lines == ("Seat 5 is not playing",))


def test_undo_takes_back_the_last_bid_and_is_recorded(tmp_path):
    with running_table(table_config(tmp_path, 3), fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        turn = _at_first_turn(spy)
        fingers.tap(1, "plus")
        spy.wait_for(lambda p: p.choice is not None and p.choice.amount == turn.choice.amount + 1)
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (2,))
        fingers.chord(3)  # not the last bidder: refused
        fingers.tap(1, "minus")  # the bidder's first finger of the chord: a hint, not a refusal
        fingers.chord(1)
        back = spy.wait_for(lambda p: p.stage == "turn" and p.seats == (1,) and p.undos == 1)
        assert back.choice.amount == turn.choice.amount + 1  # the selector starts from the bid taken back
        events = _events_of(rig)
        assert [e["type"] for e in events] == ["deal", "bid", "undo"]
        assert events[-1] == {"type": "undo", "seat": 1}
        texts = spy.texts()
        assert "Only the last bidder can take back" in texts
        assert any("minus+plus takes your bid back" in text for text in texts)
        assert f"Seat 1 took back {turn.choice.amount + 1}" in texts


@pytest.fixture
def stepped(tmp_path):
    """A 2-seat table on simulated time, dealt by hand, at seat 1's first turn; its fingers
    chatter as worn contacts do (up to 6 toggles, all within the debounce time)."""
    table = SteppedTable(table_config(tmp_path, 2), bounce=Bounce(min_toggles=3, max_toggles=6, max_gap=0.0012))
    table.tap(1, "ok")  # dealt
    assert table.controller.state.stage == "turn" and table.controller.game.turn == 1
    yield table
    table.close()


def test_bouncing_presses_count_once(stepped):
    start = stepped.controller.state.selector.choice.amount
    for tap in range(6):
        stepped.fingers.press(1, "plus", hold=0.05, delay=0.09 * tap)
    stepped.run_for(0.7)
    assert stepped.controller.state.selector.choice.amount == start + 6
    stepped.tap(1, "ok", then=0.5)
    assert [type(e).__name__ for e in stepped.controller.game.history] == ["Deal", "Bid"]
    assert stepped.controller.game.history[-1].amount == start + 6


def test_an_ok_that_bounces_past_the_debounce_time_places_one_bid(tmp_path):
    # A worn contact can chatter for longer than the debounce time: the controller then
    # sees ok twice. The second ok comes from a seat whose turn has passed, so it is
    # refused with the undo hint and the record holds one bid.
    with running_table(table_config(tmp_path, 3), fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        turn = _at_first_turn(spy)
        shown = len(spy.screens)
        fingers.tap(1, "ok")
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (2,))
        deadline = time.monotonic() + 10
        while not _shown_after(spy, shown, lambda s: s.alert and any("takes your bid back" in t for t in s.lines)):
            assert time.monotonic() < deadline, "the second ok was not refused"
            time.sleep(0.01)
        bids = [e for e in _events_of(rig) if e["type"] == "bid"]
        assert bids == [{"type": "bid", "seat": 1, "amount": turn.choice.amount}]


def test_presses_of_many_seats_at_once(tmp_path):
    table = SteppedTable(table_config(tmp_path, 4, "trickster"), bounce=Bounce())
    try:
        table.tap(1, "ok")  # dealt
        start = table.controller.state.selector.choice.amount
        for tap in range(4):  # seat 1 dials while the others press everything, in between and at once
            table.fingers.press(1, "plus", hold=0.05, delay=0.09 * tap)
            for seat, button in zip((2, 3, 4), ("ok", "plus", "minus")):
                table.fingers.press(seat, button, hold=0.05, delay=0.09 * tap + 0.02 * seat)
        table.run_for(0.8)
        assert table.controller.state.selector.choice.amount == start + 4
        assert [type(e).__name__ for e in table.controller.game.history] == ["Deal"]

        table.tap(1, "ok")  # seat 1 bids, seat 2 says Coyote!
        table.tap(2, "minus")
        assert table.controller.state.selector.choice.kind == ChoiceKind.CHALLENGE
        table.tap(2, "ok")
        assert table.controller.state.stage == "guess"
        for seat, button in ((3, "plus"), (4, "minus"), (1, "plus")):  # seat 1 bid: no guess
            table.fingers.press(seat, button, hold=0.05)
        table.run_for(0.3)
        assert table.controller.state.stage in ("reveal", "verdict")
        made = [e for e in table.controller.game.history if type(e).__name__ == "Guess"]
        assert sorted((g.seat, g.winner) for g in made) == [(3, 1), (4, 2)]
        spy = table.spy
        guess_screens = [screen for stage, screen in spy.screens if stage == "guess" and not screen.alert]
        assert guess_screens and all("plus" in screen.lines[0] for screen in guess_screens)
        # Nobody's guess shows on screen before the verdict: only that a seat has guessed.
        assert not any("right" in text or "wrong" in text for text in spy.texts("guess"))
    finally:
        table.close()


def test_the_game_goes_on_while_the_display_fails_and_comes_back(tmp_path):
    failing = FlakyDummy(lambda call: 4 <= call <= 12 or 40 <= call <= 44)
    display = TableDisplay(failing, retry_delays=(0.01, 0.02))
    played = play(table_config(tmp_path, 3), sim=fast_sim(8), display=display)
    assert played.game.winner is not None
    assert failing.calls > 44 and display.healthy and display.last_error is None
    reference = play(table_config(tmp_path / "reference", 3), sim=fast_sim(8))
    assert same_game(played.record) == same_game(reference.record)


class SlowTable(Listener):
    """Makes the controller slow for its first ``steps`` prompts, as a Pi Zero is (or an
    arm64 userland under emulation): each takes ``seconds`` longer to reach the players."""

    def __init__(self, seconds: float, steps: int) -> None:
        self.seconds, self.steps = seconds, steps

    def on_prompt(self, prompt) -> None:
        if self.steps > 0:
            self.steps -= 1
            time.sleep(self.seconds)


def test_a_slow_table_is_not_pressed_twice_by_players_who_wait_for_the_screen(tmp_path):
    # People press again when the screen has not changed for a while (a press may be
    # lost), but not while their presses are still on the way: here the table takes
    # longer to answer than the players wait, and the game must still be the same.
    impatient = SimPace(retry=0.03)
    played = play(table_config(tmp_path, 3), sim=fast_sim(8, pace=impatient), listeners=[SlowTable(0.1, 40)])
    reference = play(table_config(tmp_path / "reference", 3), sim=fast_sim(8))
    assert same_game(played.record) == same_game(reference.record)


def test_without_a_camera_every_card_is_entered_with_the_buttons(tmp_path):
    devices = sim_devices()
    devices = dataclasses.replace(devices, camera=dataclasses.replace(devices.camera, backend="none"))
    played = play(table_config(tmp_path, 3, "trickster"), sim=SimOptions(seed=3, fingers="queue"), devices=devices)
    events = game_events(played.record)
    assert all(all(card is None for card in e["seats"].values()) for e in events if e["type"] == "deal")
    reveals = [e for e in events if e["type"] == "reveal"]
    assert len(reveals) == played.game.round_number and all(e["seats"] for e in reveals)
    entered = [line["note"] for line in played.record.lines if line.get("note", {}).get("table") == "entered"]
    assert {note["item"] for note in entered} >= {"centre", "seat:1", "seat:2", "seat:3"}
    assert any(text == "Centre card?" for text in played.spy.texts())
    reference = play(table_config(tmp_path / "reference", 3, "trickster"), sim=fast_sim(3))
    assert [r.to_dict() for r in played.game.results] == [r.to_dict() for r in reference.game.results]


@pytest.mark.parametrize("fault,after", [("garbage", 0), ("error", 3)])
def test_a_camera_that_fails_switches_to_the_manual_path_and_the_game_completes(tmp_path, fault, after):
    def broken(scene):
        working = SyntheticCamera(scene, size=(1280, 720))
        return FailingCamera(fault, after=after, inner=working if after else None, size=(640, 360))

    played = play(table_config(tmp_path, 2), sim=SimOptions(seed=2, fingers="queue"), camera=broken)
    assert played.game.winner is not None
    manual = [line["note"] for line in played.record.lines if line.get("note", {}).get("table") == "manual"]
    assert manual and all(note["why"] == f"{FAST.manual_after} failed camera reads" for note in manual)
    problems = [line["note"] for line in played.record.lines if line.get("note", {}).get("table") == "camera"]
    expected = "problem.no_table" if fault == "garbage" else "problem.camera_error"
    assert any(p["key"] == expected for note in problems for p in note["problems"])
    reference = play(table_config(tmp_path / "reference", 2), sim=fast_sim(2))
    assert [r.to_dict() for r in played.game.results] == [r.to_dict() for r in reference.game.results]


def test_a_hung_camera_is_announced_and_the_cards_go_by_the_buttons(tmp_path):
    """A camera whose capture blocks for ever, as picamera2's does on a stalled sensor.

    The guard gives every capture 0.2 s: the OLED says the camera does not answer, the
    camera is given up (its capture never returns, so it cannot be restarted) and every
    wait of the game goes to the manual path after the usual failed reads, each of them
    failing at once: the game completes, with one stuck capture for the whole evening."""
    never = threading.Event()

    class FrozenCamera(Camera):
        description = "frozen camera"
        captures = 0

        def capture(self):
            FrozenCamera.captures += 1
            never.wait()

    try:
        played = play(table_config(tmp_path, 2), sim=SimOptions(seed=2, fingers="queue"), timeout=180,
                      camera=lambda scene: GuardedCamera(FrozenCamera(), timeout=0.2, restarts=1))
    finally:
        never.set()
    assert played.game.winner is not None
    notes = [line["note"] for line in played.record.lines if "note" in line]
    manual = [note for note in notes if note["table"] == "manual"]
    assert manual and all(note["why"] == f"{FAST.manual_after} failed camera reads" for note in manual)
    hung = [note for note in notes if note["table"] == "camera"]
    assert hung and all(note["problems"] == [{"key": "problem.camera_hung"}] for note in hung)
    assert "frozen camera gave no frame within 0.2 s and stays stuck" in hung[0]["error"]
    assert "Camera not answering" in played.spy.texts("deal")
    assert FrozenCamera.captures == 1


def test_players_can_ask_for_the_manual_path_when_a_card_stays_unreadable(tmp_path):
    def hiding_seat_two(scene):
        def without_seat_two():
            shown = scene()
            shown.seat_cards = {s: c for s, c in shown.seat_cards.items() if s != 2}
            return shown

        return SceneCamera(without_seat_two)

    config = table_config(tmp_path, 3)
    with running_table(config, fast_sim(players=False), camera=hiding_seat_two) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        spy.wait_for(lambda p: any("Seat 2: no card" in line for _, s in spy.screens for line in s.lines))
        assert spy.prompts[-1].stage == "deal" and not spy.prompts[-1].manual
        fingers.chord(3)
        fingers.tap(3, "ok")
        spy.wait_for(lambda p: p.stage == "deal" and p.manual)
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.stage == "turn")
        events = _events_of(rig)
        assert events == [{"type": "deal", "seats": {"1": None, "2": None, "3": None}, "centre": None, "deck": None}]
    notes = [line["note"] for line in read_record(rig.controller.state.recorded.path).lines if "note" in line]
    assert {"table": "manual", "round": 1, "wait": "deal", "why": "asked at the table"} in notes
    assert any(s.alert and s.title == "Enter cards by hand?" for _, s in spy.screens)


def test_setup_asks_what_the_configuration_leaves_open(tmp_path):
    config = table_config(tmp_path, None, None, start=None, language=None)
    with running_table(config, SimOptions(seats=5, players=False, camera="scene")) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        # The camera counts the stands and offers that many players.
        spy.wait_for(lambda p: p.setup == ("players", 5))
        spy.wait_for(lambda p: any("Camera sees 5 stands" in s.lines for _, s in spy.screens))
        fingers.tap(2, "ok")
        spy.wait_for(lambda p: p.setup == ("variant", "basic"))
        fingers.tap(4, "minus")
        spy.wait_for(lambda p: p.setup == ("variant", "trickster"))
        fingers.tap(4, "ok")
        spy.wait_for(lambda p: p.setup == ("language", "en"))
        fingers.tap(1, "plus")
        spy.wait_for(lambda p: p.setup == ("language", "de"))
        fingers.tap(1, "ok")
        spy.wait_for(lambda p: p.setup == ("start", None))
        fingers.tap(6, "ok")  # seat 6 is not in a 5-player game
        fingers.tap(3, "ok")  # the youngest
        spy.wait_for(lambda p: p.stage == "turn" and p.seats == (3,))
        table = rig.controller.state.recorded
    assert table.game.config.to_dict() == {"players": 5, "variant": "trickster", "start_seat": 3,
                                          "edition": "standard"}
    assert read_record(table.path).meta["language"] == "de"
    setup = spy.texts("setup")
    # English until the language is chosen, German from then on.
    assert "Trickster" in setup and "Deutsch" in setup and "Jüngste: ok" in setup
    assert "Platz 6 spielt nicht mit" in setup
    assert "Platz 3 beginnt" in spy.texts("turn")


def test_the_loop_sleeps_until_something_happens_and_pings_the_watchdog(tmp_path):
    class Notifier:
        def __init__(self, interval):
            self.interval, self.calls = interval, []

        def __getattr__(self, name):
            return lambda *args: self.calls.append(name)

        def watchdog_interval(self):
            return self.interval

    for interval in (None, 0.05):
        notifier = Notifier(interval)
        spy = Spy()
        rig = open_sim_rig(table_config(tmp_path / str(interval), 2), sim_devices(), fast_sim(players=False),
                           listeners=[spy], notifier=notifier)
        waits, get = [], rig.controller.queue.get
        rig.controller.queue.get = lambda block=True, timeout=None: (waits.append(timeout), get(block, timeout))[1]  # noqa: B023 (this iteration's)
        thread = threading.Thread(target=rig.run, daemon=True)
        thread.start()
        try:
            _at_first_turn(spy)
            time.sleep(0.4)
        finally:
            rig.controller.stop()
            thread.join(5)
            rig.close()
        assert notifier.calls.count("ready") == 1 and notifier.calls[-1] == "stopping"
        if interval is None:
            assert waits[-1] is None  # waiting for a press: no timeout at all
            assert "watchdog" not in notifier.calls
        else:
            assert max(w for w in waits[-3:]) <= interval
            assert notifier.calls.count("watchdog") >= 4


def test_the_verdict_pages_and_moves_on_by_itself_when_configured(tmp_path):
    pacing = dataclasses.replace(FAST, verdict_seconds=0.5, page_seconds=0.2)
    config = table_config(tmp_path, 2, pacing=pacing)
    with running_table(config, fast_sim(players=False)) as (rig, spy):
        fingers = QueueFingers(rig.controller.queue)
        _at_first_turn(spy)
        fingers.tap(1, "ok")
        _at_first_turn(spy, 2)
        fingers.tap(2, "minus")
        spy.wait_for(lambda p: p.choice is not None and p.choice.kind == ChoiceKind.CHALLENGE)
        fingers.tap(2, "ok")
        spy.wait_for(lambda p: p.stage == "verdict")
        spy.wait_for(lambda p: p.stage == "deal", timeout=5)
    verdict = [screen for stage, screen in spy.screens if stage == "verdict"]
    assert verdict[0].big.endswith("wins")
    assert any(s.title == "Round 1: why" for s in verdict)  # the explanation paged in by itself
    notes = [line.get("note") for line in read_record(rig.controller.state.recorded.path).lines]
    assert {"table": "verdict_seen", "round": 1} in notes


def test_a_camera_that_cannot_start_leaves_the_table_on_the_manual_path(tmp_path):
    devices = sim_devices()
    devices = dataclasses.replace(devices, camera=dataclasses.replace(devices.camera, backend="folder",
                                                                      folder=str(tmp_path / "no such folder")))
    played = play(table_config(tmp_path, 2), sim=SimOptions(seed=5, fingers="queue"), devices=devices)
    assert played.game.winner is not None
    assert "No camera: check its cable" in played.spy.texts("deal")


def test_a_picamera2_that_does_not_load_leaves_the_table_on_the_manual_path_saying_why(tmp_path, broken_picamera2,
                                                                                        caplog):
    """Its import raises ValueError (numpy of another release): the service must not die and restart for ever."""
    devices = sim_devices()
    devices = dataclasses.replace(devices, camera=dataclasses.replace(devices.camera, backend="picamera2"))
    played = play(table_config(tmp_path, 2), sim=SimOptions(seed=5, fingers="queue"), devices=devices)
    assert played.game.winner is not None
    assert "No camera: its software fails (coyote-pi doctor)" in played.spy.texts("deal")
    assert f"picamera2 does not load (ValueError: {broken_picamera2}" in caplog.text


def test_after_a_game_ok_starts_a_new_one(tmp_path):
    config = table_config(tmp_path, 2)
    with running_table(config, fast_sim(7), new_game_when_over=True) as (rig, spy):
        spy.wait_for(lambda p: p.stage == "over", timeout=30)
        first = rig.controller.state.recorded.path
        QueueFingers(rig.controller.queue).tap(1, "ok")  # any seat, in the game or out
        spy.wait_for(lambda p: p.stage == "deal" and p.round == 0)
        assert rig.controller.state.recorded.path.name == "game-0002.jsonl" and first.name == "game-0001.jsonl"
    assert "ok: new game" in spy.texts("over")


def test_the_loop_steps_by_a_clock_of_its_own_and_lays_a_screen_out_once(tmp_path):
    """A driver with a clock of its own steps the loop (bench soak does, for hours): the
    timers follow that clock, and a screen shown pass after pass is laid out (every
    word measured with the font) only once."""

    class CountingDisplay(TableDisplay):
        layouts = 0

        def page_count(self, screen):
            CountingDisplay.layouts += 1
            return super().page_count(screen)

    now, spy = [100.0], Spy()
    display = CountingDisplay(dummy(width=128, height=64, mode="1"))
    controller = Controller(table_config(tmp_path, 2),
                            ControllerOptions(display=display, listeners=[spy], clock=lambda: now[0]))
    controller.begin()
    assert controller.state.stage == "deal" and controller.is_manual()  # no camera: the cards go by the buttons
    for _ in range(20):
        assert controller.step()
    assert CountingDisplay.layouts == 1
    assert controller.step(ButtonEvent(5, "ok", PRESS, now[0]))  # seat 5 does not play: a short message
    shown = spy.screens[-1][1]
    assert "Seat 5 is not playing" in (shown.title, shown.big, *shown.lines)
    now[0] = 100.0 + FAST.message_seconds - 0.01
    assert controller.step() and spy.screens[-1][1] == shown
    now[0] = 100.0 + FAST.message_seconds
    assert controller.step() and spy.screens[-1][1].big == spy.screens[0][1].big  # it went by the clock
    assert not controller.step(STOP)


@pytest.mark.parametrize("players", [2, 3])
def test_minus_then_ok_right_after_the_first_bid_of_a_new_game_is_a_challenge(tmp_path, players):
    """The reported timing on the real controller and chattering mock pins, on simulated
    time: right after a new game's first bid, the next seat's minus and its ok 1.2 s
    later are a challenge, never a bid."""
    table = SteppedTable(table_config(tmp_path, players), bounce=Bounce(min_toggles=3, max_toggles=6, max_gap=0.0012))
    try:
        table.tap(1, "ok")  # dealt
        table.tap(1, "ok", then=0.0)  # seat 1's first bid
        first = table.controller.game.history[-1]
        table.fingers.press(2, "minus", hold=0.05, delay=0.05)
        table.fingers.press(2, "ok", hold=0.05, delay=1.25)
        table.run_for(1.5)
        assert [type(e).__name__ for e in table.controller.game.history[1:3]] == ["Bid", "Challenge"]
        assert first.seat == 1 and table.controller.game.history[2].seat == 2
    finally:
        table.close()


def test_a_minus_heard_late_together_with_its_release_is_still_the_challenge(tmp_path):
    """Issue 24's "bid 17" on the real debouncer: right after a new game's first bid (16),
    seat 2 taps minus (80 ms) while the loaded machine runs no pin callback, so its press
    and release reach the buttons together 0.3 s later; ok follows 1.2 s after the minus.
    Timed by arrival the minus was a spike, nothing moved, and ok confirmed the lowest
    bid, 17; timed by its edges it is the minus it was, and ok challenges."""
    table = SteppedTable(table_config(tmp_path, 3))
    try:
        table.tap(1, "ok")  # dealt
        table.tap(1, "ok", then=0.0)  # seat 1's first bid: 16
        stalled = LateCallbacks(table.factory.pin(table.pinmap.seat(2).minus.gpio))
        table.fingers.press(2, "minus", hold=0.08)
        table.run_for(0.38)
        stalled.deliver()
        table.fingers.press(2, "ok", hold=0.08, delay=0.82)
        table.run_for(1.5)
        history = table.controller.game.history
        assert (type(history[1]).__name__, history[1].amount) == ("Bid", 16)
        assert history[2] == Challenge(2)
    finally:
        table.close()
