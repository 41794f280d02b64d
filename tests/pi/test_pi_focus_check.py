"""The doctor's focus check: each stand's sharpness and size, measured on a rendered still."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from coyote_pi.cards import shuffled_deck
from coyote_pi.pi.doctor import focus_check
from coyote_pi.sim.render import render_scene_with_truth
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision.sharpness import MAX_CARD_BLUR, lens_position_from_still, stand_sharpness

SOFT_SEAT = 3


def _table_with_one_soft_stand(blur_px: float) -> np.ndarray:
    """A 2304 x 1296 still of six stands in which stand 3 and everything round it is
    blurred by ``blur_px`` (as a stand far off the focus plane would be)."""
    deck = shuffled_deck(5)
    scene = TableScene(seats=6, seat_cards={s: deck[s] for s in range(1, 7)}, slots={"centre": ("face_down", deck[0])})
    frame, truth = render_scene_with_truth(scene, width=2304, height=1296, seed=5, conditions=Conditions.clean())
    if blur_px > 0:
        corners = np.concatenate([s.corners for s in truth.stickers if s.place.endswith(f":{SOFT_SEAT}")])
        (x0, y0), (x1, y1) = corners.min(axis=0).astype(int) - 60, corners.max(axis=0).astype(int) + 60
        x0, y0 = max(x0, 0), max(y0, 0)
        frame[y0:y1, x0:x1] = cv2.GaussianBlur(frame[y0:y1, x0:x1], (0, 0), blur_px)
    return frame


def test_the_stand_out_of_focus_is_named_with_the_fix_and_every_stand_is_reported():
    frame = _table_with_one_soft_stand(blur_px=3.0)
    report, problems = focus_check(frame)
    assert len(report) == 6 and all(line.startswith(f"stand {seat}:") for seat, line in zip(range(1, 7), report))
    assert [line for line in problems if "out of focus" in line] == [
        line for line in problems if line.startswith(f"stand {SOFT_SEAT} out of focus")]
    assert len([line for line in problems if "out of focus" in line]) == 1
    assert "doctor --focus" in problems[0] and "dioptres" in problems[-1]


def test_sharpness_is_measured_not_assumed():
    sharp = stand_sharpness(_table_with_one_soft_stand(blur_px=0.0))
    soft = stand_sharpness(_table_with_one_soft_stand(blur_px=3.0))
    assert sorted(sharp) == sorted(soft) == list(range(1, 7))
    assert all(stand.card_blur < MAX_CARD_BLUR / 2 for stand in sharp.values())
    assert 2.0 < soft[SOFT_SEAT].blur_px < 4.0  # the edge's measured spread, near the blur put on it
    assert soft[SOFT_SEAT].cell_contrast < sharp[SOFT_SEAT].cell_contrast
    assert focus_check(_table_with_one_soft_stand(blur_px=0.0))[1] == []


def test_the_lens_is_set_between_the_nearest_and_the_farthest_stand_not_where_autofocus_looked():
    frame = _table_with_one_soft_stand(blur_px=0.0)
    stands = stand_sharpness(frame)
    powers = [1 / stand.distance_m for stand in stands.values()]
    chosen = lens_position_from_still(frame)
    assert chosen == pytest.approx((min(powers) + max(powers)) / 2)
    assert chosen is not None and 1 / 0.75 < chosen < 1 / 0.55  # the table's stands, 0.6-0.7 m from the lens
    assert lens_position_from_still(np.full_like(frame, 128)) is None  # no stand seen: the camera keeps autofocus's
