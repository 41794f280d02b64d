"""The table's timers: set, cancel, the next moment, and what falls due (and goes off)."""

from coyote_pi.table.deadlines import Deadlines, Timer


def test_nothing_set_means_nothing_due_and_no_next_moment():
    deadlines = Deadlines()
    assert deadlines.next_due() is None
    assert deadlines.due(1e9) == []
    assert deadlines.payload(Timer.FLASH) is None


def test_the_next_moment_is_the_earliest_set():
    deadlines = Deadlines()
    deadlines.set(Timer.WATCHDOG, 30.0)
    deadlines.set(Timer.CAMERA, 5.0)
    deadlines.set(Timer.VERDICT_PAGE, 12.0)
    assert deadlines.next_due() == 5.0
    deadlines.cancel(Timer.CAMERA, Timer.OFFER)  # an unset timer cancels quietly
    assert deadlines.next_due() == 12.0
    assert deadlines.due(12.0) == [Timer.VERDICT_PAGE]


def test_setting_again_moves_a_timer_and_replaces_what_it_keeps():
    deadlines = Deadlines()
    deadlines.set(Timer.FLASH, 3.0, "first")
    deadlines.set(Timer.FLASH, 8.0, "second")
    assert deadlines.next_due() == 8.0 and deadlines.payload(Timer.FLASH) == "second"
    assert deadlines.due(7.9) == []


def test_due_timers_go_off_in_timer_order_and_take_their_payload_along():
    deadlines = Deadlines()
    deadlines.set(Timer.WATCHDOG, 1.0)
    deadlines.set(Timer.CAMERA, 2.0)
    deadlines.set(Timer.OFFER, 2.0, 3)
    deadlines.set(Timer.FLASH, 9.0, "later")
    assert deadlines.due(2.0) == [Timer.OFFER, Timer.CAMERA, Timer.WATCHDOG]  # a moment reached counts
    assert deadlines.payload(Timer.OFFER) is None
    assert deadlines.due(2.0) == []  # each fires once
    assert deadlines.next_due() == 9.0 and deadlines.payload(Timer.FLASH) == "later"


def test_a_timer_set_in_the_past_is_due_at_once():
    deadlines = Deadlines()
    deadlines.set(Timer.CAMERA, float("-inf"))
    assert deadlines.next_due() == float("-inf")
    assert deadlines.due(0.0) == [Timer.CAMERA]
