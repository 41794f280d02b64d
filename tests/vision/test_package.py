"""The vision package's edges: lazy imports, the annotated picture, the benchmark's report."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest

from coyote_pi.cards import display_name
from coyote_pi.cli import main
from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision import TableReader

# The function from its module: once any test imports the submodule coyote_pi.vision.annotate,
# the package's attribute of that name is the module, whatever its lazy export says.
from coyote_pi.vision.annotate import annotate, annotation_labels, place_labels


def test_importing_the_package_the_cli_and_the_bench_command_loads_no_opencv_or_numpy():
    """``coyote-pi --help`` stays fast, and ``bench table`` measures memory before OpenCV loads."""
    probe = (
        "import sys, coyote_pi.vision, coyote_pi.cli, coyote_pi.commands, "
        "coyote_pi.commands.bench, coyote_pi.vision.markerset; "
        "print(sorted(m for m in ('cv2', 'numpy', 'PIL', 'fpdf', 'pyzbar') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_annotate_draws_on_a_copy_and_summarises_the_table():
    scene = TableScene(seats=3, seat_cards={1: "7", 2: "8"}, slots={"centre": ("face_up", "9")})
    frame = render_scene(scene, width=2304, height=1296, seed=2, conditions=Conditions.clean())
    before = frame.copy()
    reading = TableReader().read(frame)
    picture = annotate(frame, reading)
    assert np.array_equal(frame, before)
    assert picture.shape == frame.shape
    changed = np.any(picture != frame, axis=2)
    assert changed[:200, :400].mean() > 0.05  # the summary in the top-left corner
    for sighting in reading.sightings:  # every outline is drawn
        x, y = np.array(sighting.corners[0]).round().astype(int)
        assert changed[max(0, y - 2):y + 3, max(0, x - 2):x + 3].any(), sighting.label
    assert annotate(frame[:, :, 0], reading).shape == frame.shape  # grey input


def test_the_benchmark_reports_every_path_side_by_side(capsys):
    assert main(["bench", "vision", "--frames", "1", "--per-condition", "0", "--schemes"]) == 0
    out = capsys.readouterr().out
    for path in ("tuned", "opencv-default", "qr-pyzbar 25 mm", "qr-pyzbar 40 mm"):
        assert out.count(f"\n{path} ") == 2, path  # one row per resolution
    assert "2304x1296" in out and "4608x2592" in out and "targets:" in out
    assert "peak resident memory" in out


def _boxes_apart(labels) -> list[tuple[str, str]]:
    return [(a.text, b.text) for a, b in itertools.combinations(labels, 2)
            if a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]]


@pytest.mark.parametrize("seats,cards,seed", [
    (4, {1: "4", 2: "-5", 3: "max0", 4: "?"}, 2),  # a stand's label and its card's, close together
    (6, {1: "20", 2: "max0", 3: "-10", 4: "?", 5: "15", 6: "0"}, 5),
    (3, {1: "7", 2: "8", 3: "-5"}, 9),
])
def test_no_label_of_the_annotated_picture_covers_another(seats, cards, seed):
    scene = TableScene(seats=seats, seat_cards=cards, slots={"centre": ("face_up", "9")})
    frame = render_scene(scene, width=2304, height=1296, seed=seed, conditions=Conditions.typical())
    reading = TableReader().read(frame)
    labels = annotation_labels(frame.shape, reading)
    assert _boxes_apart(labels) == []
    assert all(label.box[0] >= 0 and label.box[2] <= frame.shape[1] and label.box[1] >= 0
               and label.box[3] <= frame.shape[0] for label in labels)
    texts = [label.text for label in labels]
    for seat in cards:  # each card and stand once, beside the summary's line of the seat
        assert texts.count(f"seat {seat}: {display_name(cards[seat])}") == 2 and texts.count(f"stand {seat}") <= 1


def test_labels_that_would_go_to_one_place_are_laid_out_apart():
    wanted = [(f"seat {seat}: Max 0", (500.0, 300.0), (255, 255, 255)) for seat in range(1, 13)]
    labels = place_labels(wanted, (720, 1280, 3), 0.6, 1)
    assert len(labels) == 12 and _boxes_apart(labels) == []
    assert labels[0].origin == (500, 300)  # the first goes where it would; the others as near as they fit
    assert max(abs(label.origin[1] - 300) for label in labels) < 200
