"""The camera model the renderer can take pictures with (sim/optics.py)."""

from __future__ import annotations

import math

import numpy as np

from coyote_pi.cards import shuffled_deck
from coyote_pi.sim.optics import Optics, Surface, calibrated, expose
from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision import TableReader


def test_defocus_grows_with_the_distance_from_the_focus_plane_in_dioptres():
    optics = Optics(focus_m=0.61)
    assert optics.defocus_px(0.61) == 0.0
    near, far = optics.defocus_px(0.45), optics.defocus_px(0.8)
    assert 0 < far < near  # 1/0.45 - 1/0.61 > 1/0.61 - 1/0.8: dioptres, not metres
    assert math.isclose(Optics(focus_m=math.inf).defocus_px(0.65), 2.75**2 / 2.2 / 0.65 / 1000 / 0.0014 / 2.83)
    assert Optics().spread_px(0.61, width=2304) >= Optics().pixel_blur_px  # a binned frame is not sharper per pixel


def _flat(level: float) -> np.ndarray:
    image = np.full((64, 64, 3), level, np.uint8)
    image[16:48, 16:48] = (230, 120, 40)  # a coloured square, to see the mosaic undone
    return image


def test_auto_exposure_brings_a_dim_table_up_with_more_noise_and_keeps_colours():
    rng = np.random.default_rng(1)
    bright = expose(_flat(110), Optics(light=1.0, lens_blur_px=0, pixel_blur_px=0, halo_share=0, flare=0, falloff=0,
                                       ink=0), 1.0, [], rng)
    dim = expose(_flat(110), Optics(light=0.1, lens_blur_px=0, pixel_blur_px=0, halo_share=0, flare=0, falloff=0,
                                    ink=0), 1.0, [], rng)
    assert abs(float(dim.mean()) - float(bright.mean())) < 12  # the gain made up for the light
    assert dim[2:14, 2:62].std() > 2 * bright[2:14, 2:62].std()  # ... and for the electrons it did not
    centre = bright[24:40, 24:40].reshape(-1, 3).mean(axis=0)
    assert centre[0] > centre[1] > centre[2]  # blue over green over red, as drawn (BGR), after demosaicing


def test_a_moving_surface_is_smeared_and_a_still_one_is_not():
    image = np.zeros((60, 60, 3), np.uint8)
    image[20:40, 28:32] = 255
    outline = np.array([(10.0, 10.0), (50.0, 10.0), (50.0, 50.0), (10.0, 50.0)])
    still = Optics(lens_blur_px=0, pixel_blur_px=0, halo_share=0, flare=0, falloff=0, ink=0, light=1.0)
    moving = Optics(lens_blur_px=0, pixel_blur_px=0, halo_share=0, flare=0, falloff=0, ink=0, light=1.0,
                    motion_px=12.0 * 4608 / 60, moving_seats=(1,))
    still_frame = expose(image, still, 1.0, [Surface(outline, 1.0, moving=False)], np.random.default_rng(2))
    moved_frame = expose(image, moving, 1.0, [Surface(outline, 1.0, moving=True)], np.random.default_rng(2))
    lit = (still_frame.max(axis=2) > 60).sum(), (moved_frame.max(axis=2) > 30).sum()
    assert lit[1] > 1.5 * lit[0]


def test_the_reader_reads_a_table_taken_by_a_calibrated_camera():
    deck = shuffled_deck(8)
    scene = TableScene(seats=4, seat_cards={s: deck[s] for s in range(1, 5)}, slots={"centre": ("face_up", deck[0])})
    optics = calibrated(np.random.default_rng(8))
    frame = render_scene(scene, width=2304, height=1296, seed=8,
                         conditions=Conditions.typical().replace(blur=0.0, noise=0.0, optics=optics))
    reading = TableReader(seats=range(1, 5)).read(frame)
    assert {s: r.card for s, r in reading.seats.items()} == {s: deck[s] for s in range(1, 5)}
    assert reading.slots["centre"].card == deck[0]
