"""Scoring a reading the way players would judge it: every untruth is counted."""

from __future__ import annotations

from coyote_pi.sim.render import scene_truth
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.sim.vision_trial import TRIALS, score
from coyote_pi.vision import SeatRead, SlotRead, TableReading
from coyote_pi.vision.reading import CoyoteRead

SCENE = TableScene(seats=3, seat_cards={1: "7", 2: "3"}, slots={"centre": ("face_up", "5")}, coyote_card=1)
TRUTH = scene_truth(SCENE, width=2304, height=1296, seed=1, conditions=Conditions.clean())


def reading(seats, slots, coyote=None, unplaced=()):
    coyote = CoyoteRead("seat", 1) if coyote is None else coyote
    return TableReading(seats={s: SeatRead(c, "ok") if c else SeatRead(None, st) for s, (c, st) in seats.items()},
                        slots={n: SlotRead(st, c) for n, (st, c) in slots.items()}, coyote=coyote,
                        unplaced=list(unplaced))


def test_a_true_reading_reads_every_card_and_says_nothing_false():
    tally = score(SCENE, TRUTH, reading({1: ("7", None), 2: ("3", None), 3: (None, "missing")},
                                        {"centre": ("face_up", "5"), "extra": ("empty", None)}))
    assert (tally.cards, tally.read, tally.untruths) == (4, 4, 0)


def test_each_kind_of_untruth_is_counted():
    tally = score(SCENE, TRUTH, reading({1: ("3", None), 2: (None, "missing"), 3: ("9", None)},
                                        {"centre": ("face_down", None), "extra": ("face_up", "10")},
                                        coyote=CoyoteRead("centre"), unplaced=["max0"]))
    # Seat 1 holds 7 but 3 (seat 2's) is read there; the Coyote card is put in the centre.
    assert tally.wrong_seats == 2
    # 9 on an empty stand, 10 on an empty slot, max0 nowhere on the table.
    assert tally.phantoms == 3
    # Seat 2 "missing" and the centre "face_down" while cards lie face up there.
    assert tally.false_claims == 2
    assert tally.read == 0


def test_every_condition_of_the_bench_is_distinct():
    names = [trial.name for trial in TRIALS]
    assert len(set(names)) == len(names) >= 8
