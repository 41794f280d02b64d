"""The table's timers: set, cancel, the next moment, and what falls due (and goes off)."""

from coyote_pi.devices.screen import Screen
from coyote_pi.table.deadlines import Deadlines, Timer
from coyote_pi.table.state import TableState


def test_nothing_set_means_nothing_due_and_no_next_moment():
    deadlines = Deadlines()
    assert deadlines.next_due() is None
    assert deadlines.due(1e9) == []


def test_the_next_moment_is_the_earliest_set():
    deadlines = Deadlines()
    deadlines.set(Timer.WATCHDOG, 30.0)
    deadlines.set(Timer.CAMERA, 5.0)
    deadlines.set(Timer.VERDICT_PAGE, 12.0)
    assert deadlines.next_due() == 5.0
    deadlines.cancel(Timer.CAMERA, Timer.OFFER)  # an unset timer cancels quietly
    assert deadlines.next_due() == 12.0
    assert deadlines.due(12.0) == [Timer.VERDICT_PAGE]


def test_setting_again_moves_a_timer():
    deadlines = Deadlines()
    deadlines.set(Timer.FLASH, 3.0)
    deadlines.set(Timer.FLASH, 8.0)
    assert deadlines.next_due() == 8.0 == deadlines.when(Timer.FLASH)
    assert deadlines.due(7.9) == []


def test_due_timers_go_off_in_timer_order_and_take_what_they_keep_along():
    state = TableState()
    deadlines = Deadlines(on_off=state.kept.drop)
    deadlines.set(Timer.WATCHDOG, 1.0)
    deadlines.set(Timer.CAMERA, 2.0)
    deadlines.set(Timer.OFFER, 2.0)
    state.kept.offer = 3
    deadlines.set(Timer.FLASH, 9.0)
    state.kept.flash = Screen(title="later")
    assert deadlines.due(2.0) == [Timer.OFFER, Timer.CAMERA, Timer.WATCHDOG]  # a moment reached counts
    assert state.kept.offer is None
    assert deadlines.due(2.0) == []  # each fires once
    assert deadlines.next_due() == 9.0 and state.kept.flash == Screen(title="later")
    deadlines.cancel(Timer.FLASH)  # cancelled, it lets go of what it kept too
    assert state.kept.flash is None and deadlines.next_due() is None


def test_a_timer_set_in_the_past_is_due_at_once():
    deadlines = Deadlines()
    deadlines.set(Timer.CAMERA, float("-inf"))
    assert deadlines.next_due() == float("-inf")
    assert deadlines.due(0.0) == [Timer.CAMERA]
