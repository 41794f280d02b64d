"""Judging camera readings: when the cards the flow waits for count, and why they do not yet."""

from __future__ import annotations

import pytest

from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.table import camera_wait
from coyote_pi.vision import SeatRead, SlotRead, TableReader, TableReading
from coyote_pi.words.translator import Translator

STATUSES = {"missing", "unreadable", "covered", "duplicate", "ambiguous", "no_stand"}


def reading(seats: dict, slots: dict | None = None, **extra) -> TableReading:
    """A reading: each seat a card or a status; each slot a state or (state, card)."""
    seat_reads = {s: SeatRead(None, c) if c in STATUSES else SeatRead(c, "ok") for s, c in seats.items()}
    slot_reads = {name: SlotRead(*state) if isinstance(state, tuple) else SlotRead(state)
                  for name, state in {"centre": "empty", "extra": "empty", "draw": "empty", **(slots or {})}.items()}
    return TableReading(seats=seat_reads, slots=slot_reads, **extra)


def dealt(cards: dict[int, str]) -> camera_wait.Dealt:
    """What the deal's wait settles on for ``cards`` (seat -> card, in seat order)."""
    return camera_wait.Dealt(tuple(cards.items()))


def keys(look: camera_wait.Look) -> list[tuple]:
    return [(p.key, dict(p.params)) for p in look.problems]


def test_a_complete_deal_gives_the_seat_cards():
    look = camera_wait.look_deal(reading({1: "7", 2: "?", 3: "max0"}, {"centre": "face_down"}), active=(1, 2, 3))
    assert look.result == dealt({1: "7", 2: "?", 3: "max0"}) and not look.problems


def test_a_deal_in_progress_says_which_seat_and_slot_and_why():
    look = camera_wait.look_deal(reading({1: "7", 2: "missing", 3: "unreadable", 4: "ambiguous", 5: "covered"}),
                       active=(1, 2, 3, 4, 5, 6))
    assert look.result is None and not look.failed
    assert keys(look) == [
        ("problem.seat_missing", {"seat": 2}),
        ("problem.seat_unreadable", {"seat": 3}),
        ("problem.seat_several", {"seat": 4}),
        ("problem.seat_covered", {"seat": 5}),
        ("problem.seat_no_stand", {"seat": 6}),
        ("problem.slot_missing", {"slot": "centre"}),
    ]


def test_problems_never_name_a_card_of_the_open_round():
    doubled = reading({1: "duplicate", 2: "duplicate", 3: "5"}, {"centre": ("face_up", "9")}, duplicates=["8"])
    look = camera_wait.look_deal(doubled, active=(1, 2, 3))
    # Not "seats 1 and 2": each of them sees the other's card, and would learn its own.
    assert ("problem.duplicate_deal", {}) in keys(look)
    assert ("problem.slot_face_up", {"slot": "centre"}) in keys(look)
    tr = Translator("en")
    texts = [problem.text(tr) for problem in look.problems]
    assert texts == ["The same card twice: collect the cards, deal again", "Centre: turn the card face down"]
    assert not any(card in text for text in texts for card in ("1", "2", "5", "8", "9"))


@pytest.mark.parametrize("seats,duplicates", [({1: "duplicate", 2: "5"}, ["5"]), ({1: "5", 2: "7"}, ["7"])])
def test_a_card_seen_twice_at_the_deal_names_no_seat(seats, duplicates):
    look = camera_wait.look_deal(reading(seats, {"centre": "face_down"}, duplicates=duplicates), active=(1, 2))
    assert keys(look) == [("problem.duplicate_deal", {})]


def test_at_the_reveal_the_cards_are_public_and_the_seats_are_named():
    doubled = reading({1: "duplicate", 2: "duplicate"}, {"centre": ("face_up", "9")})
    look = camera_wait.look_reveal(doubled, extra=False, seats=(1, 2))
    assert keys(look) == [("problem.duplicate", {"seats": "1, 2"})]


def test_extra_and_draw_slots_must_be_empty_at_the_deal():
    look = camera_wait.look_deal(reading({1: "7", 2: "3"}, {"centre": "face_down", "draw": ("face_up", "4")}), active=(1, 2))
    assert keys(look) == [("problem.slot_occupied", {"slot": "draw"})]


def test_a_picture_without_any_table_is_a_failed_read():
    nothing = reading({}, {"centre": "unclear", "extra": "unclear", "draw": "unclear"})
    for look in (camera_wait.look_deal(nothing, active=(1, 2)), camera_wait.look_extra(nothing), camera_wait.look_draw(nothing),
                 camera_wait.look_reveal(nothing, extra=False, seats=())):
        assert look.failed and keys(look) == [("problem.no_table", {})]


def test_the_reveal_needs_the_centre_and_the_extra_face_up_and_unknown_seats_read():
    table = reading({1: "7", 2: "unreadable"}, {"centre": ("face_up", "?"), "extra": "face_down"})
    look = camera_wait.look_reveal(table, extra=True, seats=(2,))
    assert keys(look) == [("problem.slot_face_down", {"slot": "extra"}), ("problem.seat_unreadable", {"seat": 2})]
    table = reading({1: "7", 2: "3"}, {"centre": ("face_up", "?"), "extra": ("face_up", "max0")})
    assert camera_wait.look_reveal(table, extra=True, seats=(2,)).result == camera_wait.Revealed("?", "max0", ((2, "3"),))
    assert camera_wait.look_reveal(table, extra=False, seats=()).result == camera_wait.Revealed("?", None, ())


def test_extra_and_draw_waits():
    assert camera_wait.look_extra(reading({1: "7"}, {"extra": "face_down"})).result == camera_wait.ExtraLaid()
    assert keys(camera_wait.look_extra(reading({1: "7"}, {"extra": ("face_up", "4")}))) == [("problem.slot_face_up", {"slot": "extra"})]
    assert camera_wait.look_draw(reading({1: "7"}, {"draw": ("face_up", "15")})).result == camera_wait.Drawn("15")
    assert keys(camera_wait.look_draw(reading({1: "7"}))) == [("problem.slot_missing", {"slot": "draw"})]


def test_a_result_counts_after_enough_identical_reads_and_failures_are_counted():
    wait = camera_wait.CameraWait("deal", lambda r: camera_wait.look_deal(r, active=(1, 2)), stable_reads=2)
    good = reading({1: "7", 2: "3"}, {"centre": "face_down"})
    other = reading({1: "7", 2: "4"}, {"centre": "face_down"})
    assert wait.feed(good) is None
    assert wait.feed(other) is None  # changed: start again
    assert wait.feed(other) == dealt({1: "7", 2: "4"})
    assert wait.feed(error=True) is None and wait.failures == 1
    assert wait.problems == (camera_wait.Problem.of("problem.camera_error"),)
    assert wait.feed(error=True, hung=True) is None and wait.failures == 2
    assert wait.problems == (camera_wait.Problem.of("problem.camera_hung"),)  # the OLED says the camera does not answer
    assert wait.feed(reading({}, {"centre": "unclear", "extra": "unclear", "draw": "unclear"})) is None
    assert wait.failures == 3
    assert wait.feed(reading({1: "missing", 2: "3"}, {"centre": "face_down"})) is None
    assert wait.failures == 0  # card problems are not camera failures
    assert wait.problems == (camera_wait.Problem.of("problem.seat_missing", seat=1),)


@pytest.fixture(scope="module")
def reader():
    return TableReader("aruco")


def test_rendered_frames_through_the_real_vision_code(reader):
    scene = TableScene(seats=3, seat_cards={1: "7", 2: "max0", 3: "-5"}, slots={"centre": ("face_down", "?")})
    frame = render_scene(scene, width=1920, height=1080, seed=3, conditions=Conditions.typical())
    assert camera_wait.look_deal(reader.read(frame), active=(1, 2, 3)).result == dealt({1: "7", 2: "max0", 3: "-5"})

    half_dealt = TableScene(seats=3, seat_cards={1: "7"}, slots={})
    frame = render_scene(half_dealt, width=1920, height=1080, seed=4, conditions=Conditions.typical())
    look = camera_wait.look_deal(reader.read(frame), active=(1, 2, 3))
    assert ("problem.seat_missing", {"seat": 2}) in keys(look) and look.result is None and not look.failed

    import numpy as np

    noise = np.random.default_rng(1).integers(0, 256, size=(720, 1280, 3), dtype=np.uint8)
    assert camera_wait.look_deal(reader.read(noise), active=(1, 2, 3)).failed


# --- hard frames: what the OLED says must be true of the table -------------------------

#: At this mast height a 2304 x 1296 frame shows card stickers 45-55 px wide.
LOW_MAST = dict(camera_height_mm=560.0, stand_radius_mm=(380.0, 250.0))
HARD = Conditions.typical().replace(blur=1.2, noise=5.0, jpeg_quality=75, glare_spots=2, glare_strength=70.0)


def deal_texts(scene, conditions, seed, active):
    frame = render_scene(scene, width=2304, height=1296, seed=seed, conditions=conditions)
    reading = TableReader("aruco", seats=active).read(frame)
    look = camera_wait.look_deal(reading, active=active)
    return reading, look, {p.key: p.text(Translator("en")) for p in look.problems}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_card_under_a_finger_is_never_called_missing(seed):
    """Seat 2's card stands there under a finger (10-30 % of its sticker), seat 3's stand
    is empty: the screen may say "card covered?" or "unreadable" for seat 2 and "no card"
    for seat 3, never "no card" for seat 2."""
    scene = TableScene(seats=4, seat_cards={1: "4", 2: "8", 4: "10"}, slots={"centre": ("face_down", "5")},
                       **LOW_MAST)
    reading, look, texts = deal_texts(scene, HARD.replace(finger_seats=(2,), finger_cover=(0.1, 0.3)), seed,
                                      (1, 2, 3, 4))
    assert reading.seats[2].status in ("ok", "covered", "unreadable")
    assert reading.seats[3].status in ("missing", "covered")
    assert "Seat 2: no card" not in texts.values()
    if reading.seats[2].status == "covered":
        assert "Seat 2: card covered?" in texts.values()
    assert look.result is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_empty_stand_is_said_to_be_empty(seed):
    scene = TableScene(seats=3, seat_cards={1: "4", 3: "9"}, slots={"centre": ("face_down", "5")}, **LOW_MAST)
    reading, _, texts = deal_texts(scene, Conditions.typical(), seed, (1, 2, 3))
    assert reading.seats[2].status == "missing"
    assert texts == {"problem.seat_missing": "Seat 2: no card"}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_face_up_centre_card_under_a_finger_is_never_taken_for_face_down(seed):
    dealt = {1: "4", 2: "8", 3: "9"}
    scene = TableScene(seats=3, seat_cards=dealt, slots={"centre": ("face_up", "5")}, **LOW_MAST)
    conditions = HARD.replace(finger_slots=("centre",), finger_cover=(0.1, 0.3))
    reading, look, texts = deal_texts(scene, conditions, seed, (1, 2, 3))
    assert reading.slots["centre"].state in ("face_up", "unclear")
    assert look.result is None, "the deal must not accept a face-up centre card"
    assert set(texts) & {"problem.slot_face_up", "problem.slot_unclear"}


@pytest.mark.parametrize("seed", [1, 2])
def test_a_face_down_centre_card_is_seen_by_its_back(seed):
    cards = {1: "4", 2: "8", 3: "9"}
    scene = TableScene(seats=3, seat_cards=cards, slots={"centre": ("face_down", "5")}, **LOW_MAST)
    reading, look, _ = deal_texts(scene, Conditions.typical(), seed, (1, 2, 3))
    assert reading.slots["centre"].state == "face_down"
    assert look.result == dealt(cards)
