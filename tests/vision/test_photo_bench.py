"""bench vision --photos: a folder of photos and a truth file, measured by each path."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from coyote_pi.bench import photos


def _sheet(folder: Path, name: str, ids: list[int], blur: float) -> dict:
    """A 640 x 480 'photo' of ``ids`` printed 72 px wide (12 px a module), blurred by ``blur``."""
    image = np.full((480, 640), 230, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    markers = []
    for i, code in enumerate(ids):
        x, y = 60 + 180 * (i % 3), 60 + 200 * (i // 3)
        printed = cv2.aruco.generateImageMarker(dictionary, code, 72, borderBits=1)
        image[y : y + 72, x : x + 72] = np.where(printed < 128, 30, 230)
        corners = [[x - 0.5, y - 0.5], [x + 71.5, y - 0.5], [x + 71.5, y + 71.5], [x - 0.5, y + 71.5]]
        markers.append({"id": code, "corners": corners})
    if blur:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    path = folder / "photos" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_GRAY2BGR))
    return {"dictionary": "DICT_4X4_50", "size": [640, 480], "markers": markers}


def test_markers_are_counted_found_per_path_and_a_marker_missing_from_the_truth_is_other(tmp_path):
    truth = {"photos/sharp.png": _sheet(tmp_path, "sharp.png", [1, 7, 23], 0.0),
             "photos/soft.png": _sheet(tmp_path, "soft.png", [4, 9, 30, 41], 2.5)}
    truth["photos/soft.png"]["markers"].pop()  # a marker the truth file does not list
    (tmp_path / "truth.json").write_text(json.dumps(truth))
    measured = photos.measure_groups(photos.load_truth(tmp_path))
    ours, default = measured["photos"]["whole-frame"], measured["photos"]["opencv-default"]
    assert (ours.markers, ours.found, ours.wrong, ours.other) == (6, 6, 0, 1)
    assert (default.found, default.wrong) == (6, 0)
    assert len(ours.times_ms) == len(default.times_ms) == 2
    assert ours.not_decoded + ours.rejected + ours.too_small == 0


def test_a_marker_the_path_never_decodes_is_missed_by_its_cause(tmp_path):
    truth = {"photos/one.png": _sheet(tmp_path, "one.png", [5], 0.0)}
    truth["photos/one.png"]["markers"].append({"id": 6, "corners": [[400, 300], [440, 300], [440, 340], [400, 340]]})
    truth["photos/one.png"]["markers"].append({"id": 8, "corners": [[600, 20], [602, 20], [602, 22], [600, 22]]})
    (tmp_path / "truth.json").write_text(json.dumps(truth))
    tally = photos.measure_groups(photos.load_truth(tmp_path))["photos"]["whole-frame"]
    assert (tally.found, tally.not_decoded, tally.too_small) == (1, 1, 1)


@pytest.mark.parametrize("text, words", [
    (None, "cannot read"),
    ("{", "is not JSON"),
    ("[]", "expected an object"),
    ('{"photos/a.png": {"markers": []}}', "is malformed"),
    ('{"photos/a.png": {"dictionary": "DICT_NONE", "markers": []}}', "unknown dictionary"),
    ('{"photos/a.png": {"dictionary": "DICT_4X4_50", "markers": []}}', "is not in"),
])
def test_an_unusable_truth_file_is_refused_in_one_line(tmp_path, text, words):
    if text is not None:
        (tmp_path / "truth.json").write_text(text)
    with pytest.raises(photos.TruthError) as refused:
        photos.load_truth(tmp_path)
    assert words in str(refused.value) and "\n" not in str(refused.value)
