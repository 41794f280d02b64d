"""The confirmation on real optics: cells judged against the grey their pattern gives under
the marker's own measured blur (vision/cells.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from coyote_pi.vision import artwork
from coyote_pi.vision.cells import CELL_MARGIN, confirmation_margins, edge_blur_px, fit_cells, sample_levels
from coyote_pi.vision.detect import cell_agreement, cell_means, dictionary_pattern
from coyote_pi.vision.markerset import load_markers

MARKERS = load_markers("aruco")
MODULE_PX = 5  # the real photos' soft markers: 5-6 px a module
CODE = 0  # a pattern with lone white and lone black cells


def _photo(code: int, blur: float, noise: float = 0.0, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A grey 'photo' of ``code`` printed 30 px wide (5 px a module) on white paper,
    blurred by ``blur`` px, with ``noise`` grey levels of noise; and its corners."""
    dictionary = artwork.aruco_dictionary(MARKERS.dictionary)
    side = 6 * MODULE_PX
    printed = cv2.aruco.generateImageMarker(dictionary, code, side, borderBits=1)
    image = np.full((80, 80), 205.0)
    image[25 : 25 + side, 25 : 25 + side] = np.where(printed < 128, 45.0, 205.0)
    if blur:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    image += np.random.default_rng(seed).normal(0.0, noise, image.shape)
    corners = np.array([[(24.5, 24.5), (24.5 + side, 24.5), (24.5 + side, 24.5 + side), (24.5, 24.5 + side)]])
    return np.clip(image, 0, 255).astype(np.uint8), corners


def _pattern(code: int) -> np.ndarray:
    return dictionary_pattern(MARKERS.dictionary, code, MARKERS.modules)


def test_a_soft_marker_the_old_midpoint_rule_refused_is_confirmed():
    image, corners = _photo(CODE, blur=2.2, noise=2.0)
    old_margin, _ = cell_agreement(cell_means(image, corners, 6), _pattern(CODE))
    assert old_margin[0] < 0.12  # greyed lone cells: the old rule (12 % of the contrast) refused it
    assert confirmation_margins(image, corners, _pattern(CODE))[0] >= CELL_MARGIN


@pytest.mark.parametrize("blur", [0.0, 1.0, 1.6, 2.2])
def test_no_other_code_in_any_turn_passes_at_any_blur(blur):
    image, corners = _photo(CODE, blur=blur, noise=3.0, seed=int(blur * 10))
    others = np.stack([np.rot90(_pattern(code), turn) for code in range(50) for turn in range(4)
                       if (code, turn) != (CODE, 0)])
    margins = confirmation_margins(image, np.repeat(corners, len(others), axis=0), others)
    assert margins.max() < 0.0 < CELL_MARGIN <= confirmation_margins(image, corners, _pattern(CODE))[0]


def test_the_fit_measures_the_blur_and_the_contrast():
    sharp, corners = _photo(CODE, blur=0.0)
    soft, _ = _photo(CODE, blur=1.6)
    fits = [fit_cells(sample_levels(image, corners, 6), _pattern(CODE)) for image in (sharp, soft)]
    assert fits[0].sigma[0] == 0.0 and 0.2 <= fits[1].sigma[0] <= 0.46  # 1.6 px of 5 is 0.32 module
    assert abs(fits[0].contrast[0] - 160) < 8
    assert edge_blur_px(sharp, corners[0], 6) < 0.8 < 1.2 < edge_blur_px(soft, corners[0], 6) < 2.0


def test_a_marker_too_blurred_to_tell_its_cells_apart_is_refused():
    image, corners = _photo(CODE, blur=4.0)
    assert confirmation_margins(image, corners, _pattern(CODE))[0] < CELL_MARGIN
