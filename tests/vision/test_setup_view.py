"""The camera view the web page shows for setting up: every place a card can lie is
blanked from the markers' geometry, whether or not a card was read there, and no card is named."""

from __future__ import annotations

import cv2
import numpy as np

from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import TableScene
from coyote_pi.vision.annotate import BLANK, setup_view
from coyote_pi.vision.reader import TableReader


def _view(cards, centre):
    scene = TableScene(seats=4, seat_cards=dict(enumerate(cards, 1)), slots={"centre": ("face_up", centre)},
                       placement_jitter=0.0)
    frame = render_scene(scene, width=1920, height=1080)
    reading = TableReader().read(frame)
    return reading, setup_view(frame, reading, width=1024)


def test_the_view_of_every_stand_window_and_slot_says_nothing_of_the_cards_in_them():
    reading, view = _view(("5", "10", "max0", "?"), "15")
    other, other_view = _view(("0", "-5", "20", "1"), "4")
    assert reading.card_values() and other.card_values()  # the cards are there to be hidden
    assert len(reading.card_areas) == 4 + 3  # four stands' windows, three slots
    assert "card_areas" not in reading.to_dict()  # `coyote-pi read` prints what it always did
    assert view.shape[:2] == (576, 1024)
    for area in reading.card_areas:
        mask = np.zeros(view.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(np.array(area) * 1024 / 1920).astype(np.int32)], 1)
        mask = cv2.erode(mask, np.ones((5, 5), np.uint8)) == 1
        same = (np.abs(view[mask].astype(int) - other_view[mask]) <= 2).all(axis=1)
        assert mask.sum() > 500 and same.mean() > 0.99  # other cards, the same picture
        assert (np.abs(view[mask].astype(int) - BLANK) <= 2).all(axis=1).mean() > 0.6  # grey but for the outlines drawn over it


def test_a_card_the_reader_missed_is_blank_all_the_same():
    scene = TableScene(seats=3, seat_cards={1: "5", 2: "10", 3: "0"})
    frame = render_scene(scene, width=1920, height=1080)
    reading = TableReader().read(frame)
    reading.sightings = [s for s in reading.sightings if s.kind != "card"]  # as if no sticker had been read
    seen = setup_view(frame, reading, width=1920)
    for area in reading.card_areas[:3]:
        centre = np.round(np.array(area).mean(axis=0)).astype(int)
        assert tuple(seen[centre[1], centre[0]]) == BLANK
