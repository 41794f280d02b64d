"""The QR scheme (pyzbar): the supported alternative for large, self-describing stickers.

QR codes need far more pixels than ArUco markers (21 modules across instead of 6), so
the bar here is set for the QR scheme's own stickers (40 mm on cards) at full
resolution: a sticker at least :data:`QR_MIN_WIDTH_PX` wide must be read; none may be
read wrong, at any size.
"""

from __future__ import annotations

import numpy as np
import pytest

from coyote_pi.sim.render import render_scene_with_truth
from coyote_pi.sim.scene import Conditions, TableScene, random_scene
from coyote_pi.vision import TableReader

from .judging import judge

#: About 5 pixels per QR module: below that pyzbar misses codes (see docs/markers.md).
QR_MIN_WIDTH_PX = 100


@pytest.mark.parametrize("seed", range(6))
def test_qr_tables_at_full_resolution(seed):
    rng = np.random.default_rng(40_000 + seed)
    scene = random_scene(rng, scheme="qr", seats=int(rng.integers(3, 7)))
    conditions = Conditions.typical() if seed % 2 else Conditions.harsh().replace(camera_yaw_deg=8.0)
    frame, truth = render_scene_with_truth(scene, width=4608, height=2592, seed=seed, conditions=conditions)
    reading = TableReader("qr", seats=scene.present).read(frame)
    verdict = judge(scene, truth, reading, where=f"[qr seed {seed}]")
    assert verdict.wrong == []
    required = [s for s in truth.cards() if s.place.startswith("seat:") and s.must_read
                and s.width_px >= QR_MIN_WIDTH_PX]
    assert required
    for sticker in required:
        assert reading.seats[int(sticker.place[5:])].card == sticker.card, sticker


def test_qr_slots_and_the_coyote_card():
    scene = TableScene(seats=3, seat_cards={1: "max0", 2: "?", 3: "-10"}, scheme="qr", coyote_card="centre",
                       slots={"centre": ("face_up", "20"), "extra": ("face_down", "4"), "draw": ("empty", None)})
    frame, _ = render_scene_with_truth(scene, width=4608, height=2592, seed=2, conditions=Conditions.typical())
    reading = TableReader("qr").read(frame)
    assert {s: r.card for s, r in reading.seats.items()} == {1: "max0", 2: "?", 3: "-10"}
    assert [(reading.slots[s].state, reading.slots[s].card) for s in ("centre", "extra", "draw")] == [
        ("face_up", "20"), ("face_down", None), ("empty", None)]
    assert reading.coyote.place == "centre"
    assert reading.passes == ["qr-whole-frame"]


def test_qr_never_guesses_at_half_resolution():
    """At 2304 x 1296 the QR stickers are too small to read reliably: whatever is read
    must still be right, and the rest is reported as not read."""
    for seed in range(3):
        rng = np.random.default_rng(41_000 + seed)
        scene = random_scene(rng, scheme="qr", seats=6)
        frame, truth = render_scene_with_truth(scene, width=2304, height=1296, seed=seed,
                                               conditions=Conditions.typical())
        reading = TableReader("qr", seats=scene.present).read(frame)
        assert judge(scene, truth, reading).wrong == []
        assert all(r.status in ("ok", "missing", "covered", "unreadable", "no_stand") for r in reading.seats.values())
