"""The synthetic table: reproducible, geometrically faithful, and never a marker on a back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from coyote_pi.sim.render import render_scene, render_scene_with_truth, scene_truth
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision import artwork
from coyote_pi.vision.markerset import load_markers

SCENE = TableScene(seats=6, seat_cards={1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"},
                   slots={"centre": ("face_down", "7")})


def test_the_same_seed_gives_the_same_frame_and_another_seed_another():
    a = render_scene(SCENE, width=1152, height=648, seed=4)
    b = render_scene(SCENE, width=1152, height=648, seed=4)
    c = render_scene(SCENE, width=1152, height=648, seed=5)
    assert a.shape == (648, 1152, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_truth_and_frame_agree_and_truth_is_cheap_to_ask_again():
    frame, truth = render_scene_with_truth(SCENE, width=2304, height=1296, seed=3)
    again = scene_truth(SCENE, width=2304, height=1296, seed=3)
    assert [s.corners.tolist() for s in truth.stickers] == [s.corners.tolist() for s in again.stickers]
    # The frame is dark where the truth puts a marker's black border.
    sticker = truth.by_place("seat:1")
    top_left = np.round(sticker.corners[0] + (sticker.corners[2] - sticker.corners[0]) * 0.05).astype(int)
    assert cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)[top_left[1], top_left[0]] < 90


@pytest.mark.parametrize("size, low, high", [((4608, 2592), 60, 95), ((2304, 1296), 30, 48)])
def test_card_stickers_on_stands_have_the_designed_size_and_angle(size, low, high):
    """The design: 25 mm stickers seen 35-60 degrees off their normal come out about 80
    pixels wide at full resolution and half that in the binned mode."""
    truth = scene_truth(SCENE, width=size[0], height=size[1], seed=1, conditions=Conditions.clean())
    seat_stickers = [s for s in truth.cards() if s.place.startswith("seat:")]
    assert len(seat_stickers) == 6
    for sticker in seat_stickers:
        assert low <= sticker.width_px <= high, sticker
        assert 30 <= sticker.off_axis_deg <= 60, sticker
        assert sticker.in_frame and sticker.occluded == 0


def test_a_finger_covers_the_share_of_the_sticker_asked_for():
    conditions = Conditions.typical().replace(finger_seats=(2, 5), finger_cover=(0.4, 0.5))
    truth = scene_truth(SCENE, width=2304, height=1296, seed=8, conditions=conditions)
    covered = {s.place: s.occluded for s in truth.cards() if s.place.startswith("seat:")}
    assert 0.3 <= covered["seat:2"] <= 0.6 and 0.3 <= covered["seat:5"] <= 0.6
    assert all(v == 0 for k, v in covered.items() if k not in ("seat:2", "seat:5"))
    assert not truth.by_place("seat:2").must_read


def test_card_backs_carry_no_marker_and_faces_carry_exactly_theirs():
    markers = load_markers("aruco")
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    back = artwork.card_back(markers.card.width, markers.card.height, markers.card.back_rgb)
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(back, cv2.COLOR_BGR2GRAY))
    assert ids is None or len(ids) == 0  # OpenCV 4 says None, 5 an empty array
    face = artwork.card_face(markers, "card:max0")
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY))
    # Twice: a playing card carries its marker below its top edge and again turned near its bottom.
    assert ids.ravel().tolist() == [markers.codes["card:max0"]] * 2


def test_presets_span_clean_to_harsh():
    clean, typical, harsh = Conditions.clean(), Conditions.typical(), Conditions.harsh()
    assert clean.blur < typical.blur < harsh.blur
    assert clean.noise < typical.noise < harsh.noise
    assert clean.jpeg_quality is None and harsh.jpeg_quality < typical.jpeg_quality
    sampled = [Conditions.sample(np.random.default_rng(i)) for i in range(50)]
    assert all(clean.blur <= c.blur <= harsh.blur and c.noise <= harsh.noise for c in sampled)


@pytest.mark.parametrize("kwargs, message", [
    (dict(seats=7), "2 to 6 seats"),
    (dict(seats=3, present=(1, 4)), "outside"),
    (dict(seats=3, present=(1, 2), seat_cards={3: "5"}), "not present"),
    (dict(slots={"centre": ("face_up", None)}), "needs a value"),
    (dict(slots={"middle": ("empty", None)}), "bad slot"),
    (dict(seat_cards={1: "11"}), "not a Coyote card"),
    (dict(scheme="barcode"), "unknown marker scheme"),
])
def test_impossible_tables_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        TableScene(**kwargs)


@pytest.mark.parametrize("sigma", [0.3, 1.0, 2.6, 7.0])
@pytest.mark.parametrize("shape", [(1296, 2304, 3), (300, 41, 3), (129, 50, 3), (5, 7, 3)])
def test_blurring_band_by_band_gives_opencvs_whole_frame_blur(shape, sigma):
    from coyote_pi.sim.render import _blur

    frame = np.random.default_rng(int(sigma * 10) + shape[0]).integers(0, 256, shape, dtype=np.uint8)
    expected = cv2.GaussianBlur(frame, (0, 0), sigma)
    _blur(frame, sigma)
    assert np.array_equal(frame, expected)


def test_the_texture_cache_holds_everything_the_busiest_table_draws():
    # Six stands, a card in every slot and the Coyote card: a second frame of the same
    # table draws nothing afresh (the cache is bounded, so this is not a given).
    scene = TableScene(seats=6, seat_cards={1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"},
                       slots={"centre": ("face_up", "7"), "extra": ("face_down", "8"), "draw": ("face_up", "9")},
                       coyote_card="centre")
    render_scene(scene, width=1152, height=648, seed=1)
    misses = artwork.texture_level.cache_info().misses
    render_scene(scene, width=1152, height=648, seed=2)
    assert artwork.texture_level.cache_info().misses == misses


def test_the_light_rounds_every_byte_product_to_the_nearest_on_any_processor():
    """The light's gain is applied with arithmetic that rounds alike on x86 and arm64:
    OpenCV's ``multiply(..., scale=1/200)`` rounds about half the products one lower on
    arm64 (0.505 became 0), which changed the whole frame there (``make test-arm64``)."""
    from coyote_pi.sim.render import _apply_gain

    band = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 256, axis=1)
    gain = np.ascontiguousarray(band.T)
    shaded = band.copy()
    _apply_gain(shaded, gain)
    exact = band.astype(np.int64) * gain / 200
    assert np.all(np.abs(shaded - np.minimum(exact, 255)) <= 0.5 + 1e-6)
    assert shaded[1, 101] == 1 and shaded[3, 35] == 1  # 0.505 and 0.525: rounded up, not cut off
    assert shaded[255, 254] == 255 and shaded[0, 200] == 0
