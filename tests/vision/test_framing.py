"""The set-up check: every stand found, and well inside the frame."""

from __future__ import annotations

from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision import TableReader
from coyote_pi.vision.framing import EDGE, MISSING, FramingProblem, framing_advice, framing_problems
from coyote_pi.vision.reading import SeatRead, TableReading
from coyote_pi.vision.states import SeatState

HALF = (2304, 1296)
SIX = {1: "-10", 2: "?", 3: "max0", 4: "7", 5: "20", 6: "0"}


def _framing(scene, conditions, seats=None):
    frame = render_scene(scene, width=HALF[0], height=HALF[1], seed=2, conditions=conditions)
    reading = TableReader("aruco", seats=seats).read(frame)
    return reading, framing_problems(reading, HALF, seats=seats)


def test_a_table_set_up_as_documented_is_well_in_view():
    scene = TableScene(seats=6, seat_cards=SIX, placement_jitter=0.0)
    reading, problems = _framing(scene, Conditions.clean())
    assert problems == {}
    assert sorted(reading.stand_outlines) == [1, 2, 3, 4, 5, 6]


def test_a_stand_too_far_out_on_the_short_side_is_named_with_its_edge():
    """The narrow-side stands 40 mm further out than documented: still read, but with
    less room than a bumped camera needs (or partly out of view)."""
    scene = TableScene(seats=6, seat_cards=SIX, placement_jitter=0.0, stand_radius_mm=(440.0, 330.0))
    reading, problems = _framing(scene, Conditions.clean())
    assert set(problems) == {1, 4} and {problem.kind for problem in problems.values()} == {EDGE}
    assert "bottom edge" in problems[1].words and "top edge" in problems[4].words
    assert reading.seats[1].card == "-10"  # read now, but one bump away from lost
    advice = framing_advice(problems)
    assert advice[0].startswith("stand 1 ") and "towards the centre" in advice[0]


def test_a_missing_stand_is_named_and_by_default_a_gap_in_the_seats_is_noticed():
    scene = TableScene(seats=6, present=(1, 2, 4, 5, 6), seat_cards={s: c for s, c in SIX.items() if s != 3},
                       placement_jitter=0.0)
    _reading, problems = _framing(scene, Conditions.clean())
    assert problems == {3: FramingProblem(MISSING, "not in view: neither of its markers was found")}
    _, told = _framing(scene, Conditions.clean(), seats=range(1, 7))
    assert told == problems



def test_a_seat_the_reader_was_told_to_expect_is_named_when_its_stand_is_not_found():
    """Seat 3 lies past the highest stand found, so only the reader's expectation names it."""
    inside = [[100, 100], [200, 100], [200, 200], [100, 200]]
    reading = TableReading(seats={1: SeatRead(None, SeatState.MISSING), 2: SeatRead(None, SeatState.MISSING),
                                  3: SeatRead(None, SeatState.NO_STAND)},
                           slots={}, stand_outlines={1: inside, 2: inside})
    assert {seat: problem.kind for seat, problem in framing_problems(reading, (640, 360)).items()} == {3: MISSING}
