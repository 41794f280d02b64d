"""``coyote-pi read``: a rendered table end to end, and every kind of bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from coyote_pi.cli import main
from coyote_pi.sim.render import render_scene
from coyote_pi.sim.scene import Conditions, TableScene

SCENE = TableScene(seats=4, seat_cards={1: "7", 2: "?", 3: "max0", 4: "-5"},
                   slots={"centre": ("face_down", "3"), "draw": ("face_up", "10")})


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One rendered full-resolution frame, saved as JPEG, grey PNG and RGBA PNG."""
    folder = tmp_path_factory.mktemp("frames")
    frame = render_scene(SCENE, width=4608, height=2592, seed=11, conditions=Conditions.typical())
    paths = {"jpg": folder / "table.jpg", "grey": folder / "grey.png", "rgba": folder / "rgba.png"}
    cv2.imwrite(str(paths["jpg"]), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    cv2.imwrite(str(paths["grey"]), cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    cv2.imwrite(str(paths["rgba"]), cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA))
    return paths


EXPECTED_LINES = ["seat 1: 7", "seat 2: ?", "seat 3: Max 0", "seat 4: -5", "centre: face down", "extra: empty",
                  "draw: face up 10"]


def test_a_rendered_table_is_read_end_to_end(table, capsys):
    assert main(["read", str(table["jpg"])]) == 0
    out = capsys.readouterr().out
    for line in EXPECTED_LINES:
        assert f"  {line}\n" in out


def test_json_output_is_one_object_per_image(table, capsys):
    assert main(["read", "--json", str(table["jpg"]), str(table["rgba"])]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for line, path in zip(lines, (table["jpg"], table["rgba"])):
        data = json.loads(line)
        assert data["image"] == str(path)
        assert {k: v["card"] for k, v in data["seats"].items()} == {"1": "7", "2": "?", "3": "max0", "4": "-5"}
        assert data["slots"]["draw"] == {"state": "face_up", "card": "10", "detail": ""}
        assert data["unplaced"] == data["duplicates"] == data["unknown_ids"] == []


def test_grey_and_rgba_images_are_read(table, capsys):
    assert main(["read", str(table["grey"]), str(table["rgba"])]) == 0
    out = capsys.readouterr().out
    assert out.count("  seat 3: Max 0\n") == 2


def test_annotate_writes_one_picture_per_image(table, tmp_path, capsys):
    single = tmp_path / "single.png"
    assert main(["read", str(table["jpg"]), "--annotate", str(single)]) == 0
    picture = cv2.imread(str(single))
    original = cv2.imread(str(table["jpg"]))
    assert picture.shape == original.shape
    assert np.abs(picture.astype(int) - original.astype(int)).max() > 100  # something is drawn
    several = tmp_path / "out.png"
    assert main(["read", str(table["jpg"]), str(table["grey"]), "--annotate", str(several)]) == 0
    assert (tmp_path / "out-table.png").exists() and (tmp_path / "out-grey.png").exists()
    capsys.readouterr()


def _bad_inputs(folder, table):
    data = table["jpg"].read_bytes()
    (folder / "empty.jpg").write_bytes(b"")
    (folder / "text.png").write_text("this is not a picture\n")
    (folder / "half.jpg").write_bytes(data[: len(data) // 2])
    png = table["grey"].read_bytes()
    (folder / "half.png").write_bytes(png[: len(png) * 2 // 3])
    (folder / "folder.jpg").mkdir()
    huge = np.zeros((8000, 8000), np.uint8)
    cv2.imwrite(str(folder / "huge.png"), huge)
    cv2.imwrite(str(folder / "tiny.png"), np.zeros((20, 30, 3), np.uint8))
    return {
        "missing.jpg": "no such file",
        "empty.jpg": "empty file",
        "text.png": "not an image",
        "half.jpg": "truncated",
        "half.png": "truncated",
        "folder.jpg": "is a directory",
        "huge.png": "8000 x 8000, too large",
        "tiny.png": "only 30 x 20 pixels",
    }


def test_bad_inputs_get_one_line_each_and_the_good_files_are_still_read(table, tmp_path, capsys):
    expected = _bad_inputs(tmp_path, table)
    paths = [str(tmp_path / name) for name in expected]
    assert main(["read", *paths[:4], str(table["jpg"]), *paths[4:]]) == 1
    captured = capsys.readouterr()
    errors = captured.err.strip().splitlines()
    assert len(errors) == len(expected)
    for line, (name, reason) in zip(errors, expected.items()):
        assert line.startswith(f"coyote-pi read: {tmp_path / name}: ") and reason in line, line
    assert "Traceback" not in captured.err
    assert "  seat 3: Max 0\n" in captured.out


def test_the_installed_command_exits_non_zero_without_a_traceback(tmp_path):
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "read", str(tmp_path / "nothing.jpg")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.strip().endswith("nothing.jpg: no such file") and "Traceback" not in done.stderr


def test_seats_option_reports_a_missing_stand(table, capsys):
    assert main(["read", str(table["jpg"]), "--seats", "1,2,3,4,5"]) == 0
    out = capsys.readouterr().out
    assert "  seat 5: no stand\n" in out
    assert "  set-up: stand 5 not in view: neither of its markers was found" in out
    assert main(["read", "--json", str(table["jpg"]), "--seats", "1,2,3,4,5"]) == 0
    assert json.loads(capsys.readouterr().out)["framing"] == {"5": "not in view: neither of its markers was found"}
    with pytest.raises(SystemExit):
        main(["read", str(table["jpg"]), "--seats", "0,9"])
    assert "seats are numbered 1 to 6" in capsys.readouterr().err


def test_threads_option_sets_opencvs_thread_count(tmp_path):
    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.full((120, 160, 3), 200, np.uint8))
    before = cv2.getNumThreads()
    try:
        main(["read", "--threads", "1", str(image)])
        assert cv2.getNumThreads() == 1
    finally:
        cv2.setNumThreads(before)
