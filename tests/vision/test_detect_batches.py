"""The reader's pixel-level helpers work on batches of quadrilaterals: one OpenCV call
gathers the cells of every marker, one settles every corner. Each batch must give what
the one-at-a-time way (a warp per marker, a fit by OpenCV's own functions) gives."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from coyote_pi.vision import artwork
from coyote_pi.vision.detect import (
    CELL_MARGIN,
    cell_agreement,
    cell_colours,
    cell_means,
    confirmed,
    expected_cells,
    refine_corners,
)
from coyote_pi.vision.geometry import apply_homography, fit_homography, linear_homography
from coyote_pi.vision.markerset import load_markers

MARKERS = load_markers("aruco")


def _warped_means(image: np.ndarray, quad: np.ndarray, cells: int) -> np.ndarray:
    """The one-at-a-time way: warp the quad to a square of 5 x 5 samples a cell and
    average the middle 3 x 3 of each cell."""
    side = cells * 5
    square = np.float32([(0, 0), (side, 0), (side, side), (0, side)])
    warp = cv2.getPerspectiveTransform(np.float32(quad), square)
    patch = cv2.warpPerspective(image, warp, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return patch.reshape(cells, 5, cells, 5)[:, 1:-1, :, 1:-1].astype(np.float64).mean(axis=(1, 3))


def _textured_image(seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, (40, 60), dtype=np.uint8)
    return cv2.resize(small, (600, 400), interpolation=cv2.INTER_CUBIC)  # smooth: interpolation matters


def test_cell_means_of_a_batch_match_a_warp_per_quad():
    image = _textured_image()
    quads = np.array([
        [(100, 100), (180, 110), (175, 190), (95, 185)],
        [(300.5, 50.25), (390, 60), (400, 170), (290, 150)],  # a strong perspective
        [(450, 300), (520, 290), (530, 380), (455, 370)],
    ])
    means = cell_means(image, quads, 6)
    assert means.shape == (3, 6, 6)
    for quad, batch in zip(quads, means):
        assert np.abs(batch - _warped_means(image, quad, 6)).max() < 1.0  # grey levels, rounding apart


def test_a_colour_image_is_turned_grey_after_sampling():
    colour = np.dstack([_textured_image(1), _textured_image(2), _textured_image(3)])
    quad = np.array([[(120, 80), (220, 90), (210, 200), (115, 190)]])
    grey_means = _warped_means(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), quad[0], 7)
    assert np.abs(cell_means(colour, quad, 7)[0] - grey_means).max() < 1.5


def test_a_quad_off_the_image_has_no_cells_and_no_agreement():
    image = _textured_image()
    quads = np.array([[(-500, -500), (-400, -500), (-400, -400), (-500, -400)],
                      [(10, 10), (10, 10), (10, 10), (10, 10)]])  # collapsed to a point
    means = cell_means(image, quads, 6)
    assert np.isnan(means[0]).all()
    margin, share = cell_agreement(means, expected_cells(MARKERS, "stand:1"))
    assert margin.tolist() == [-1.0, -1.0] and share.tolist() == [0.0, 0.0]


def _drawn_markers(roles: list[str], quads: np.ndarray, shape=(400, 600)) -> np.ndarray:
    """White paper with each role's marker warped onto its quad."""
    image = np.full(shape, 235, np.uint8)
    dictionary = artwork.aruco_dictionary(MARKERS.dictionary)
    for role, quad in zip(roles, quads):
        code = MARKERS.codes[role]
        printed = cv2.aruco.generateImageMarker(dictionary, int(code), 60, borderBits=1)
        printed = np.where(printed < 128, 25, 235).astype(np.uint8)
        # Pixel centres sit at integers: the printed square's outer edge runs half a pixel outside them.
        source = np.float32([(-0.5, -0.5), (59.5, -0.5), (59.5, 59.5), (-0.5, 59.5)])
        warp = cv2.getPerspectiveTransform(source, np.float32(quad))
        mask = cv2.warpPerspective(np.full((60, 60), 255, np.uint8), warp, shape[::-1])
        drawn = cv2.warpPerspective(printed, warp, shape[::-1], flags=cv2.INTER_AREA)
        image[mask > 128] = drawn[mask > 128]
    return image


def test_confirmation_takes_a_true_marker_and_refuses_the_wrong_code_in_one_batch():
    quads = np.array([[(100, 100), (200, 105), (195, 205), (98, 200)],
                      [(350, 120), (460, 130), (455, 240), (345, 230)]], np.float64)
    image = _drawn_markers(["stand:1", "mat:left"], quads)
    expected = np.stack([expected_cells(MARKERS, "stand:1"), expected_cells(MARKERS, "mat:left")])
    assert confirmed(image, quads, expected).tolist() == [True, True]
    swapped = expected[::-1]
    assert confirmed(image, quads, swapped).tolist() == [False, False]
    margin, share = cell_agreement(cell_means(image, quads, expected.shape[-1]), expected)
    assert (margin >= CELL_MARGIN).all() and (share == 1.0).all()


def test_corners_found_at_a_sixth_of_the_resolution_are_settled_on_the_full_frame():
    truth = np.array([[(100, 100), (200, 104), (196, 206), (97, 201)],
                      [(350, 120), (462, 131), (455, 243), (345, 230)]], np.float64)
    image = cv2.cvtColor(_drawn_markers(["stand:1", "stand-right:1"], truth), cv2.COLOR_GRAY2BGR)
    rng = np.random.default_rng(4)
    rough = truth + rng.uniform(-4.0, 4.0, truth.shape)  # well over half a pixel of a 1/6 copy, scaled up
    settled = refine_corners(image, rough, 1 / 6)
    assert np.abs(settled - truth).max() < 1.0
    assert np.abs(rough - truth).max() > 2.5  # the check above is not met by the rough corners already


def test_a_corner_that_cannot_settle_leaves_its_quad_as_it_was():
    flat = np.full((300, 300, 3), 200, np.uint8)  # nothing to settle on
    flat[100:, 100:] = 30  # ... except one dark corner at (100, 100), far from the quad below
    quad = np.array([[(150.0, 20.0), (250.0, 20.0), (250.0, 60.0), (150.0, 60.0)]])
    assert np.array_equal(refine_corners(flat, quad, 1 / 6), quad)


def test_cell_colours_average_each_cell_of_a_rectangle_grid():
    image = np.zeros((200, 300, 3), np.uint8)
    image[:, :150] = (200, 10, 10)  # left half blue, right half red (BGR)
    image[:, 150:] = (10, 10, 200)
    quad = np.array([(50, 50), (250, 50), (250, 150), (50, 150)], np.float64)
    colours = cell_colours(image, np.stack([quad, quad - 1000]), 4, 2)  # the second is off the image
    assert colours.shape == (2, 2, 4, 3)
    assert np.allclose(colours[0, :, :2], (200, 10, 10), atol=1) and np.allclose(colours[0, :, 2:], (10, 10, 200), atol=1)
    assert np.isnan(colours[1]).all()


@pytest.mark.parametrize("points", [4, 8, 28])
def test_the_linear_fit_agrees_with_opencvs_polished_one_on_precise_corners(points):
    rng = np.random.default_rng(points)
    plane_to_image = np.array([[3.1, 0.4, 1800.0], [0.2, -2.9, 1500.0], [1e-4, 3e-4, 1.0]])
    src = rng.uniform(-100, 100, (points, 2))
    dst = apply_homography(plane_to_image, src) + rng.normal(0, 0.2, (points, 2))
    grid = rng.uniform(-120, 120, (50, 2))
    linear, polished = linear_homography(src, dst), fit_homography(src, dst)
    assert np.abs(apply_homography(linear, grid) - apply_homography(polished, grid)).max() < 0.05


def test_the_linear_fit_refuses_points_on_a_line():
    line = np.array([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)])
    with pytest.raises(ValueError):
        linear_homography(line, line * 10)
    with pytest.raises(ValueError):
        linear_homography(np.zeros((4, 2)), np.ones((4, 2)))
