"""The search for a stand the anchor pass missed looks only where that stand can be:
between the found stands on either side of it, measured on the table, so a tilted
and turned camera on a shorter or taller mast does not move it off the stand."""

from __future__ import annotations

import numpy as np

from coyote_pi.sim import vision_trial
from coyote_pi.vision import TableReader
from coyote_pi.vision.reader import _anchor_factor, _merge


def test_the_search_covers_each_missed_stand_and_less_than_the_frame():
    reader = TableReader("aruco", seats=range(1, 7))
    tilted = next(t for t in vision_trial.TRIALS if t.name.startswith("tilt"))
    shares, checked = [], 0
    for seed in (1, 3, 6):
        frame, _, truth = vision_trial.trial_frame(tilted, seed)
        anchors = _merge(reader._aruco.anchors(frame, _anchor_factor(frame.shape[1])).markers)
        found = {int(m.role.split(":")[1]) for m in anchors if m.role and m.role.startswith("stand")}
        for missed in sorted(found):
            # As if the anchor pass had not seen this stand's markers.
            seen = [m for m in anchors if not (m.role or "").endswith(f":{missed}") or m.role.startswith("card")]
            boxes = reader._search_boxes(frame.shape, found - {missed}, seen)
            corners = np.concatenate([s.corners for s in truth.stickers
                                      if s.place in (f"stand:{missed}", f"stand-right:{missed}") and s.in_frame])
            for x, y in corners:
                assert any(box is None or (box[0] <= x <= box[2] and box[1] <= y <= box[3]) for box in boxes)
            shares.append(sum(1.0 if box is None else (box[2] - box[0]) * (box[3] - box[1]) / frame[..., 0].size
                              for box in boxes))
            checked += 1
    assert checked >= 12
    assert np.mean(shares) < 0.8
