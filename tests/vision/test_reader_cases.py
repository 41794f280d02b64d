"""The reader on chosen tables: each case the controller relies on, one at a time.

Frames are 2304 x 1296 unless the case is about full resolution; the camera is lowered
a little where a case needs stickers comfortably above 40 px at that size.
"""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from coyote_pi.sim.render import render_scene, render_scene_with_truth
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision import TableReader, artwork
from coyote_pi.vision.markerset import load_markers

HALF = dict(width=2304, height=1296)
FULL = dict(width=4608, height=2592)
#: At this mast height a 2304 x 1296 frame shows card stickers 45-55 px wide.
LOW_MAST = dict(camera_height_mm=560.0, stand_radius_mm=(380.0, 250.0))
SIX = {1: "-10", 2: "?", 3: "max0", 4: "7", 5: "20", 6: "0"}


def read(scene, *, seed=1, conditions=None, size=HALF, **reader_options):
    frame = render_scene(scene, seed=seed, conditions=conditions or Conditions.typical(), **size)
    return TableReader(scene.scheme, **reader_options).read(frame)


def test_a_complete_table_is_read_by_the_fast_path_at_both_resolutions():
    scene = TableScene(seats=6, seat_cards=SIX, slots={"centre": ("face_up", "5")}, **LOW_MAST)
    for size in (HALF, FULL):
        reading = read(scene, size=size)
        assert {s: r.card for s, r in reading.seats.items()} == SIX
        assert reading.slots["centre"].card == "5" and reading.slots["centre"].state == "face_up"
        assert reading.complete()
        assert reading.passes == ["anchors", "regions"], "a complete table should not need the whole-frame pass"


@pytest.mark.parametrize("state", ["empty", "face_down", "face_up"])
@pytest.mark.parametrize("slot", ["centre", "extra", "draw"])
def test_each_slot_state_is_read(slot, state):
    slots = {slot: (state, "15" if state != "empty" else None)}
    reading = read(TableScene(seats=3, seat_cards={1: "1", 2: "2", 3: "3"}, slots=slots, **LOW_MAST), seed=7)
    assert reading.slots[slot].state == state
    assert reading.slots[slot].card == ("15" if state == "face_up" else None)
    others = [s for s in ("centre", "extra", "draw") if s != slot]
    assert all(reading.slots[s].state == "empty" for s in others)


def test_a_finger_over_a_sticker_gives_no_value_for_that_seat_only():
    scene = TableScene(seats=4, seat_cards={1: "4", 2: "8", 3: "9", 4: "10"}, **LOW_MAST)
    conditions = Conditions.typical().replace(finger_seats=(2,), finger_cover=(0.5, 0.7))
    reading = read(scene, conditions=conditions)
    assert reading.seats[2].card is None and reading.seats[2].status in ("unreadable", "covered")
    assert reading.seats[2].detail
    assert {s: reading.seats[s].card for s in (1, 3, 4)} == {1: "4", 3: "9", 4: "10"}


def test_an_empty_stand_and_a_stand_out_of_view():
    scene = TableScene(seats=4, present=(1, 2, 4), seat_cards={1: "5", 4: "6"}, **LOW_MAST)
    reading = read(scene, seats=(1, 2, 3, 4))
    assert reading.seats[2].status == "missing" and reading.seats[2].card is None
    assert reading.seats[3].status == "no_stand"
    # The empty stand proves itself; only the stand not found is looked for again.
    assert reading.passes == ["anchors", "regions", "stand-search"]
    assert not reading.complete()


def test_an_empty_stand_patch_stuck_on_a_quarter_turn_still_proves_the_stand_empty(monkeypatch):
    """A 4 x 4 checkerboard turned 90 degrees shows the other phase (white where black was);
    the sticker has no this-way-up, so either phase is the patch."""
    printed = artwork.empty_patch_cells()
    artwork.texture_level.cache_clear()  # the stands' artwork is drawn afresh with the turned patch
    monkeypatch.setattr(artwork, "empty_patch_cells", lambda: np.rot90(printed))
    try:
        scene = TableScene(seats=4, seat_cards={1: "5", 3: "7", 4: "6"}, **LOW_MAST)  # stand 2 stands empty
        reading = read(scene, seats=(1, 2, 3, 4))
    finally:
        artwork.texture_level.cache_clear()
    assert not np.array_equal(np.rot90(printed), printed)
    assert reading.seats[2].status == "missing"
    assert {s: reading.seats[s].card for s in (1, 3, 4)} == {1: "5", 3: "7", 4: "6"}


@pytest.mark.parametrize("board_bgr", [(25, 25, 25), (235, 235, 235)])
def test_the_empty_stand_patch_needs_no_white_round_it_on_a_dark_or_a_light_board(board_bgr):
    """The patch is printed without a quiet zone: the reader samples its squares where the
    stand's markers put them and never looks for its outline, so the board's colour
    round it does not matter."""
    scene = TableScene(seats=4, seat_cards={1: "5", 3: "7"}, board_bgr=board_bgr, **LOW_MAST)  # 2, 4 empty
    reading = read(scene, seats=(1, 2, 3, 4))
    assert {s: reading.seats[s].status for s in (2, 4)} == {2: "missing", 4: "missing"}
    assert {s: reading.seats[s].card for s in (1, 3)} == {1: "5", 3: "7"}


def test_a_card_twice_on_the_table_is_never_given_as_a_value():
    scene = TableScene(seats=3, seat_cards={1: "7", 2: "7", 3: "8"}, **LOW_MAST)
    reading = read(scene)
    assert reading.duplicates == ["7"]
    assert reading.seats[1].status == reading.seats[2].status == "duplicate"
    assert reading.seats[1].card is reading.seats[2].card is None
    assert reading.seats[3].card == "8"


def test_a_card_lying_on_the_table_is_unplaced_even_just_in_front_of_a_stand():
    # Seat 1's stand is at the bottom of the frame: (0, -175) lies just in front of it.
    scene = TableScene(seats=2, seat_cards={1: "3", 2: "4"}, loose_cards=(("9", -150.0, 140.0), ("2", 0.0, -175.0)),
                       **LOW_MAST)
    reading = read(scene, conditions=Conditions.clean(), thorough="always")
    assert reading.unplaced == ["2", "9"]
    assert {s: r.card for s, r in reading.seats.items()} == {1: "3", 2: "4"}


def test_a_card_taken_out_of_its_stand_is_found_on_the_table_by_the_thorough_pass_only():
    """The fast path looks only at stands and slots: an empty stand proves itself by its
    patch and needs no more; the whole frame, read when asked, shows where the card went."""
    scene = TableScene(seats=3, seat_cards={1: "3", 3: "5"}, loose_cards=(("4", 120.0, 150.0),), **LOW_MAST)
    fast, thorough = read(scene), read(scene, thorough="always")
    assert fast.seats[2].status == thorough.seats[2].status == "missing"
    assert fast.passes == ["anchors", "regions"] and fast.unplaced == []
    assert thorough.unplaced == ["4"]


@pytest.mark.parametrize("where, expected", [("centre", ("centre", None)), (1, ("seat", 1)), (2, ("seat", 2)),
                                             (3, ("seat", 3)), (4, ("seat", 4))])
def test_the_coyote_card_is_placed(where, expected):
    scene = TableScene(seats=4, seat_cards={1: "1", 2: "2", 3: "3", 4: "4"}, coyote_card=where)
    reading = read(scene, seed=3, size=FULL)
    assert (reading.coyote.place, reading.coyote.seat) == expected


def test_a_bumped_camera_still_reads_every_seat_in_view():
    scene = TableScene(seats=6, seat_cards=SIX, slots={"centre": ("face_down", "5")}, **LOW_MAST)
    bumped = Conditions.typical().replace(camera_shift_mm=60.0, camera_yaw_deg=25.0, camera_tilt_deg=4.0)
    for seed in (1, 2, 3):
        frame, truth = render_scene_with_truth(scene, seed=seed, conditions=bumped, **HALF)
        reading = TableReader(seats=range(1, 7)).read(frame)
        required = {int(s.place[5:]): s.card for s in truth.cards() if s.place.startswith("seat:") and s.must_read}
        assert len(required) >= 4
        assert {s: reading.seats[s].card for s in required} == required
        assert all(r.card in (None, SIX[s]) for s, r in reading.seats.items())
        assert reading.slots["centre"].state == "face_down"


def test_an_unknown_marker_is_reported_not_read():
    # Draw card 7's sticker with an id the mapping does not use.
    standard = load_markers("aruco")
    foreign = dataclasses.replace(standard, codes={**standard.codes, "card:7": 45})
    scene = TableScene(seats=2, seat_cards={1: "7", 2: "8"}, markers=foreign, **LOW_MAST)
    frame = render_scene(scene, seed=2, conditions=Conditions.clean(), **HALF)
    reading = TableReader("aruco").read(frame)
    assert reading.unknown_ids == ["45"]
    assert reading.seats[1].card is None and reading.seats[2].card == "8"


def test_grey_and_rgba_frames_read_like_colour_ones():
    scene = TableScene(seats=3, seat_cards={1: "15", 2: "20", 3: "-5"}, **LOW_MAST)
    frame = render_scene(scene, seed=5, conditions=Conditions.typical(), **HALF)
    reader = TableReader()
    expected = reader.read(frame).to_dict()
    for converted in (cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)):
        got = reader.read(converted)
        assert {s: r.card for s, r in got.seats.items()} == {1: "15", 2: "20", 3: "-5"}
        assert got.to_dict()["seats"] == expected["seats"]


def test_frames_that_are_not_images_are_refused_clearly():
    reader = TableReader()
    with pytest.raises(ValueError, match="8-bit"):
        reader.read(np.zeros((100, 100, 3), np.float32))
    with pytest.raises(ValueError, match="shape"):
        reader.read(np.zeros((100, 100, 2), np.uint8))


def test_a_blank_frame_reads_as_no_table():
    reading = TableReader(seats=(1, 2)).read(np.full((1296, 2304, 3), 128, np.uint8))
    assert {r.status for r in reading.seats.values()} == {"no_stand"}
    assert {r.state for r in reading.slots.values()} == {"unclear"}
    assert reading.card_values() == {}


def test_all_reading_paths_agree_on_a_clean_table():
    scene = TableScene(seats=4, seat_cards={1: "1", 2: "?", 3: "max0", 4: "10"}, slots={"centre": ("face_up", "6")})
    frame = render_scene(scene, seed=4, conditions=Conditions.clean(), **FULL)
    values = [TableReader(**options).read(frame).card_values()
              for options in ({}, {"thorough": "always"}, {"method": "opencv-default"})]
    assert values[0] == values[1] == values[2] == {
        "seat 1": "1", "seat 2": "?", "seat 3": "max0", "seat 4": "10", "slot centre": "6"}


def test_reading_to_json_has_every_part():
    scene = TableScene(seats=2, seat_cards={1: "5", 2: "6"}, slots={"draw": ("face_up", "?")}, **LOW_MAST)
    data = json.loads(read(scene).to_json())
    assert data["seats"]["1"] == {"card": "5", "status": "ok", "detail": ""}
    assert data["slots"]["draw"]["state"] == "face_up" and data["slots"]["draw"]["card"] == "?"
    for key in ("unplaced", "duplicates", "unknown_ids", "warnings", "coyote", "sightings", "passes"):
        assert key in data


def test_the_truth_of_a_frame_agrees_with_the_reading():
    scene = TableScene(seats=6, seat_cards=SIX, **LOW_MAST)
    frame, truth = render_scene_with_truth(scene, seed=9, conditions=Conditions.clean(), **HALF)
    reading = TableReader().read(frame)
    drawn = {int(s.place.split(":")[1]): s for s in truth.cards() if s.place.startswith("seat:")}
    for seat, result in reading.seats.items():
        prints = [s.corners for s in truth.stickers if s.place == f"seat:{seat}"]
        sightings = [x for x in reading.sightings if x.label.startswith(f"seat {seat}:")]
        assert len(sightings) == len(prints) == 2  # a card carries its sticker twice
        for sighting in sightings:
            # The reader's outline of each sticker is within about a pixel of where it was drawn.
            assert min(np.abs(np.array(sighting.corners) - corners).max() for corners in prints) < 1.5
        assert result.card == drawn[seat].card


def test_the_banded_whole_frame_pass_finds_what_the_frame_read_in_one_piece_finds():
    # A card lies on the table where the fast path does not look: only the whole-frame
    # pass finds it, and it must find the same markers band by band as in one piece.
    from coyote_pi.vision.detect import ArucoDetector, band_rows, whole_frame_bands

    scene = TableScene(seats=6, seat_cards=SIX, **LOW_MAST)
    frame = render_scene(scene, seed=2, conditions=Conditions.typical(), **HALF)
    assert whole_frame_bands(frame.shape) == 3 and len(band_rows(frame.shape[0], 3)) == 3
    detector = ArucoDetector(load_markers())

    def codes(bands):
        return sorted({m.code for m in detector.whole_frame(frame, bands=bands).markers})

    assert codes(3) == codes(1) and len(codes(1)) >= 8


def test_a_marker_taller_than_the_band_overlap_is_found_across_the_cuts():
    from coyote_pi.vision import artwork
    from coyote_pi.vision.detect import ArucoDetector, band_overlap, band_rows
    from coyote_pi.vision.reader import _merge

    markers = load_markers()
    frame = np.full((1296, 2304, 3), 255, np.uint8)
    sticker = artwork.marker_image(markers, "card:7", 70)  # 8 modules with the quiet zone, 6 black
    side = sticker.shape[0]
    assert side * 6 // 8 > 1.5 * band_overlap(frame.shape[0])
    (_, first_end), (second_start, _) = band_rows(frame.shape[0], 3)[:2]
    top = (first_end + second_start) // 2 - side // 2  # the marker sticks out of both bands
    frame[top : top + side, 800 : 800 + side] = sticker[:, :, None]
    found = _merge(ArucoDetector(markers).whole_frame(frame).markers)
    assert [m.role for m in found] == ["card:7"]
    assert np.allclose(found[0].corners.min(axis=0), (800 + 70 - 0.5, top + 70 - 0.5), atol=2.0)


@pytest.mark.parametrize("edges", [(True, True), (False, True), (True, False)])
@pytest.mark.parametrize("channels", [0, 3])
def test_the_padded_grey_image_is_opencvs_replicated_border(edges, channels):
    from coyote_pi.vision.detect import DETECTION_PAD, padded_gray, to_gray

    image = np.random.default_rng(channels).integers(0, 256, (37, 53, channels) if channels else (37, 53), np.uint8)
    top, bottom = (DETECTION_PAD if edge else 0 for edge in edges)
    padded = padded_gray(image[3:-4, 5:-6], edges)  # a view into a larger image, as a band is
    expected = cv2.copyMakeBorder(to_gray(image[3:-4, 5:-6]), top, bottom, DETECTION_PAD, DETECTION_PAD,
                                  cv2.BORDER_REPLICATE)
    assert np.array_equal(padded.image, expected)
    assert tuple(padded.shift) == (DETECTION_PAD, top)


def test_the_whole_frame_pass_holds_one_band_sized_image_at_a_time():
    """Each band is turned grey straight into its padding and let go before the next: the
    pass's own arrays (numpy's, which tracemalloc sees) never hold more than one padded
    band. A grey copy beside its padded copy, or the last band kept while the next is
    made, holds two."""
    import tracemalloc

    from coyote_pi.vision.detect import DETECTION_PAD, ArucoDetector, band_rows

    frame = np.full((2592, 4608, 3), 255, np.uint8)
    detector = ArucoDetector(load_markers())
    h, w = frame.shape[:2]
    band_bytes = max(y1 - y0 + DETECTION_PAD * ((y0 == 0) + (y1 == h)) for y0, y1 in band_rows(h, 3)) * (
        w + 2 * DETECTION_PAD)  # the frame's own edges are padded, the cuts are not
    tracemalloc.start()
    try:
        detector.whole_frame(frame)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert band_bytes <= peak < 1.5 * band_bytes


def test_the_coyote_card_in_front_of_a_stand_not_found_is_not_placed():
    """A Coyote card lying in front of a stand whose markers cannot be seen could be that
    seat's: it is seen but not placed ("unplaced"), never said to lie elsewhere ("table")."""
    scene = TableScene(seats=4, seat_cards={1: "1", 2: "2", 3: "3", 4: "4"}, coyote_card=2, **LOW_MAST)
    frame, truth = render_scene_with_truth(scene, seed=3, conditions=Conditions.clean(), **HALF)
    for sticker in truth.stickers:
        if sticker.place in ("stand:2", "stand-right:2"):  # both of stand 2's markers hidden
            cv2.fillConvexPoly(frame, np.rint(sticker.corners).astype(np.int32), (200, 200, 200))
    expecting, not_told = TableReader(seats=range(1, 5)).read(frame), TableReader().read(frame)
    assert expecting.seats[2].status == "no_stand"
    assert (expecting.coyote.place, expecting.coyote.seat) == ("unplaced", None)
    assert any("stand 2" in warning for warning in expecting.warnings)
    assert not_told.coyote.place == "table"  # with no seats expected, nothing says a stand is missing


def test_a_dim_table_loses_no_stand():
    """At an eighth of the usual exposure a printed marker's contrast is about 25 grey
    levels: the anchor pass's threshold offset shrinks with the frame's white, or a fixed
    10 levels would lose stands in full view."""
    scene = TableScene(seats=6, seat_cards=SIX, slots={"centre": ("face_down", "5")})
    dim = Conditions.clean().replace(brightness=0.12, noise=2.0)
    reading = read(scene, conditions=dim, seats=range(1, 7))
    assert {s: r.card for s, r in reading.seats.items()} == SIX
    assert reading.passes == ["anchors", "regions"]
