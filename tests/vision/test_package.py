"""The vision package's edges: lazy imports, the annotated picture, the benchmark's report."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from coyote_pi.cli import main
from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision import TableReader, annotate


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
