"""Every card carries its marker twice and every stand has two markers: a finger or a
lamp's reflection on one marking leaves the other to read, two prints that disagree
give no value, and a table with the old single stickers still reads."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from coyote_pi.cards import ALL_CARDS
from coyote_pi.sim.render import render_scene, render_scene_with_truth
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision import TableReader, artwork
from coyote_pi.vision.markerset import ALL_ROLES, card_role, load_markers, role_kind
from coyote_pi.vision.sheets import sticker_sheet
from coyote_pi.vision.states import SeatState

HALF = dict(width=2304, height=1296)
#: At this mast height a 2304 x 1296 frame shows card stickers 45-55 px wide.
LOW_MAST = dict(camera_height_mm=560.0, stand_radius_mm=(380.0, 250.0))
SIX = {1: "-10", 2: "?", 3: "max0", 4: "7", 5: "20", 6: "0"}


def test_a_card_whose_first_print_is_under_a_finger_is_read_from_its_second():
    scene = TableScene(seats=6, seat_cards=SIX, **LOW_MAST)
    conditions = Conditions.typical().replace(finger_seats=tuple(SIX), finger_cover=(0.4, 0.6))
    frame, truth = render_scene_with_truth(scene, seed=3, conditions=conditions, **HALF)
    reading = TableReader("aruco").read(frame)
    saved = 0
    for seat, card in SIX.items():
        first, second = (s for s in truth.stickers if s.place == f"seat:{seat}")
        assert first.occluded >= 0.35 and not first.must_read
        if second.must_read:  # the finger left the second print whole
            assert reading.seats[seat].card == card, reading.seats[seat]
            saved += 1
        else:
            assert reading.seats[seat].card in (None, card)
    assert saved >= 3


def test_two_prints_of_one_card_are_one_card_and_a_card_in_two_stands_is_still_a_duplicate():
    scene = TableScene(seats=3, seat_cards={1: "7", 2: "7", 3: "8"}, **LOW_MAST)
    frame = render_scene(scene, seed=2, conditions=Conditions.clean(), **HALF)
    reading = TableReader("aruco").read(frame)
    assert reading.seats[3].card == "8" and reading.seats[3].status == SeatState.OK
    assert reading.duplicates == ["7"]
    assert [reading.seats[s].status for s in (1, 2)] == [SeatState.DUPLICATE] * 2
    assert sum(s.label == "seat 3: 8" for s in reading.sightings) == 2  # both prints seen, one card


def test_two_prints_that_disagree_give_no_value():
    """A card stickered with two different cards (a sticker swapped by mistake) is never
    given either value."""
    markers = load_markers("aruco")
    scene = TableScene(seats=3, seat_cards={1: "7", 2: "5", 3: "8"}, **LOW_MAST)
    frame, truth = render_scene_with_truth(scene, seed=4, conditions=Conditions.clean(), **HALF)
    second = next(s for s in truth.stickers if s.place == "seat:1" and s.index == 1)
    # Card 9's marker printed over card 7's second print, exactly where it lies.
    module_px = 20
    other = np.where(artwork.marker_modules(markers, card_role("9")), 0, 255).astype(np.uint8)
    other = cv2.cvtColor(np.repeat(np.repeat(other, module_px, 0), module_px, 1), cv2.COLOR_GRAY2BGR)
    side = other.shape[0]
    warp = cv2.getPerspectiveTransform(np.float32([(0, 0), (side, 0), (side, side), (0, side)]),
                                       np.float32(second.corners))
    cv2.warpPerspective(other, warp, (frame.shape[1], frame.shape[0]), dst=frame, borderMode=cv2.BORDER_TRANSPARENT)
    reading = TableReader("aruco").read(frame)
    assert reading.seats[1].card is None
    assert reading.seats[1].status == SeatState.AMBIGUOUS
    assert {reading.seats[s].card for s in (2, 3)} == {"5", "8"}


def test_a_table_stickered_before_the_second_markers_is_still_read():
    """One sticker per card, stands with only their left marker (the renderer draws no
    marker whose role has no code): every card is read, and by the fast path."""
    standard = load_markers("aruco")
    codes = {role: code for role, code in standard.codes.items() if role_kind(role) != "stand-right"}
    old = dataclasses.replace(standard, card_prints=1, codes=codes)
    scene = TableScene(seats=6, seat_cards=SIX, slots={"centre": ("face_up", "5")}, markers=old, **LOW_MAST)
    frame = render_scene(scene, seed=5, conditions=Conditions.typical(), **HALF)
    reading = TableReader("aruco").read(frame)
    assert {s: r.card for s, r in reading.seats.items()} == SIX
    assert reading.slots["centre"].card == "5"
    assert reading.passes == ["anchors", "regions"]


def test_a_stand_is_found_from_either_of_its_markers():
    """Stand 2's left marker replaced by a stranger's (as if washed out), stand 3 with
    only its left marker (an old stand): both are found and their cards read."""
    standard = load_markers("aruco")
    codes = {**standard.codes, "stand:2": 45, "stand-right:3": 46}
    scene = TableScene(seats=4, seat_cards={1: "1", 2: "2", 3: "3", 4: "4"},
                       markers=dataclasses.replace(standard, codes=codes), **LOW_MAST)
    frame = render_scene(scene, seed=6, conditions=Conditions.typical(), **HALF)
    reading = TableReader("aruco", seats=range(1, 5)).read(frame)
    assert {s: r.card for s, r in reading.seats.items()} == {1: "1", 2: "2", 3: "3", 4: "4"}
    anchors = [s.label for s in reading.sightings if s.kind == "anchor"]
    assert [anchors.count(f"stand {seat}") for seat in range(1, 5)] == [2, 1, 1, 2]


def test_the_sheet_prints_every_card_sticker_twice_and_both_stand_markers():
    for scheme, prints in (("aruco", 2), ("qr", 1)):
        markers = load_markers(scheme)
        _, placed = sticker_sheet(markers, "a4")
        roles = [p.role for p in placed]
        for card in ALL_CARDS:
            assert roles.count(card_role(card)) == prints == markers.card_prints
        stand_roles = [r for r in ALL_ROLES if role_kind(r) in ("stand", "stand-right")]
        assert len(stand_roles) == 12 and all(roles.count(r) == 1 for r in stand_roles)
    pdf, _ = sticker_sheet(load_markers("aruco"), "a4")
    text = pdf.decode("latin-1")
    assert "(bottom, turned)" in text and "(seat 6 right)" in text
