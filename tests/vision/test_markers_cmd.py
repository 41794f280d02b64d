"""``coyote-pi markers``: true-scale PDF sheets and PNG markers, checked from the files.

The PDF is read back with a small interpreter of its (uncompressed) drawing operators,
so the physical sizes are measured from what a printer would draw, not taken from the
layout code's own bookkeeping.
"""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest
from PIL import Image

from coyote_pi.cli import main
from coyote_pi.vision.markerset import ALL_ROLES, load_markers
from coyote_pi.vision.sheets import PAPERS, empty_patch_key, file_stem, sticker_sheet

PT_PER_MM = 72 / 25.4


def _pages(pdf: bytes) -> list[tuple[tuple[float, float], bytes]]:
    """(page size in points, content stream) of every page, in order."""
    objects = {int(n): body for n, body in re.findall(rb"(\d+) 0 obj(.*?)endobj", pdf, re.S)}
    root = next(body for body in objects.values() if b"/Type /Pages" in body)
    default_box = re.search(rb"/MediaBox \[([^\]]*)\]", root).group(1).split()
    pages = []
    for kid in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids \[(.*?)\]", root, re.S).group(1)):
        page = objects[int(kid)]
        box = re.search(rb"/MediaBox \[([^\]]*)\]", page)
        x0, y0, x1, y1 = map(float, (box.group(1).split() if box else default_box))
        contents = objects[int(re.search(rb"/Contents (\d+) 0 R", page).group(1))]
        stream = contents.split(b"stream", 1)[1].rsplit(b"endstream", 1)[0]
        pages.append(((x1 - x0, y1 - y0), stream))
    return pages


def _drawing(stream: bytes, page_height_pt: float):
    """Black filled rectangles and stroked line segments, in mm from the page's top-left."""
    ctm = np.eye(3)
    stack, operands, path, filled, lines, black = [], [], [], [], [], True
    last_point = None

    def page_mm(x, y):
        px, py, _ = ctm @ np.array([x, y, 1.0])
        return px / PT_PER_MM, (page_height_pt - py) / PT_PER_MM

    for token in re.findall(rb"\((?:\\.|[^\\)])*\)|\[[^\]]*\]|/?[^\s\[\]()/]+", stream):
        try:
            operands.append(float(token))
            continue
        except ValueError:
            pass
        op = token.decode("latin-1")
        if op == "q":
            stack.append(ctm.copy())
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            a, b, c, d, e, f = operands[-6:]
            ctm = ctm @ np.array([[a, c, e], [b, d, f], [0, 0, 1.0]])
        elif op == "g":
            black = operands[-1] == 0
        elif op == "re":
            x, y, w, h = operands[-4:]
            corners = [page_mm(x, y), page_mm(x + w, y + h)]
            path.append((min(c[0] for c in corners), min(c[1] for c in corners),
                         max(c[0] for c in corners), max(c[1] for c in corners)))
        elif op == "m":
            last_point = page_mm(*operands[-2:])
        elif op == "l":
            point = page_mm(*operands[-2:])
            path.append(("line", last_point, point))
            last_point = point
        elif op in ("f", "f*", "B"):
            if black:
                filled += [p for p in path if p[0] != "line"]
            path = []
        elif op == "S":
            lines += [p[1:] for p in path if p[0] == "line"]
            path = []
        elif op == "n":
            path = []
        operands = []
    return filled, lines


@pytest.mark.parametrize("scheme", ["aruco", "qr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pdf_is_true_scale_on_both_papers(scheme, paper):
    markers = load_markers(scheme)
    pdf, placed = sticker_sheet(markers, paper)
    pages = _pages(pdf)
    width_mm, height_mm = PAPERS[paper]
    assert b"/PrintScaling /None" in pdf
    patches = {empty_patch_key(seat) for seat in range(1, 7)}
    assert {role for role in (p.role for p in placed)} == set(ALL_ROLES) | patches
    for number, ((w_pt, h_pt), _) in enumerate(pages, start=1):
        is_mat_page = number == len(pages)
        expected = (height_mm, width_mm) if is_mat_page else (width_mm, height_mm)
        assert (round(w_pt / PT_PER_MM, 1), round(h_pt / PT_PER_MM, 1)) == pytest.approx(expected, abs=0.1)
    drawings = [_drawing(stream, h_pt) for (_, h_pt), stream in pages]
    for sticker in placed:
        filled, lines = drawings[sticker.page - 1]
        x0, y0 = sticker.x, sticker.y
        x1, y1 = x0 + sticker.marker_mm, y0 + sticker.marker_mm
        inside = [r for r in filled
                  if x0 - 0.01 <= (r[0] + r[2]) / 2 <= x1 + 0.01 and y0 - 0.01 <= (r[1] + r[3]) / 2 <= y1 + 0.01]
        assert inside, sticker
        extent = tuple(f(r[i] for r in inside) for i, f in enumerate((min, min, max, max)))
        # The printed code measures exactly its documented size (within 0.02 mm).
        assert extent == pytest.approx((x0, y0, x1, y1), abs=0.02), sticker
        if sticker.role in patches:
            assert sticker.marker_mm == markers.stand.empty_patch_side
            continue
        assert sticker.marker_mm == markers.marker_mm(sticker.role)
        if sticker.role.split(":")[0] in ("card", "coyote", "stand"):
            quiet = (sticker.sticker_mm - sticker.marker_mm) / 2
            for cx in (x0 - quiet, x1 + quiet):
                for cy in (y0 - quiet, y1 + quiet):
                    near = [seg for seg in lines if min(np.hypot(p[0] - cx, p[1] - cy) for p in seg) < 1.3]
                    assert len(near) >= 2, f"no cut marks at a corner of {sticker.role}"


def test_the_pdf_has_a_label_beside_every_sticker():
    pdf, _ = sticker_sheet(load_markers("aruco"), "a4")
    text = pdf.decode("latin-1")
    labels = ("card -10", "card Max 0", "card ?", "Coyote card", "stand seat 6", "id 16", "25 mm", "50 mm", "100 mm")
    for label in labels:
        assert f"({label}" in text or f"{label})" in text, label


@pytest.mark.parametrize("scheme", ["aruco", "qr"])
def test_the_command_writes_the_pdf_and_pngs_that_print_at_size(tmp_path, capsys, scheme):
    assert main(["markers", "--out", str(tmp_path), "--paper", "letter", "--png", "--scheme", scheme]) == 0
    assert (tmp_path / f"coyote-markers-{scheme}-letter.pdf").read_bytes().startswith(b"%PDF")
    markers = load_markers(scheme)
    pngs = sorted((tmp_path / "png").glob("*.png"))
    assert len(pngs) == len(ALL_ROLES)
    for role in ("card:?", "card:max0", "stand:3", "slot:centre"):
        path = tmp_path / "png" / f"{scheme}_{file_stem(role)}.png"
        with Image.open(path) as image:
            side_mm = image.size[0] / image.info["dpi"][0] * 25.4
        assert side_mm == pytest.approx(markers.sticker_mm(role), abs=0.05)
        gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        if scheme == "aruco":
            detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
            _, ids, _ = detector.detectMarkers(gray)
            assert ids.ravel().tolist() == [markers.codes[role]]
        else:
            from pyzbar import pyzbar

            assert [s.data.decode() for s in pyzbar.decode(gray)] == [markers.codes[role]]
    assert "print at 100 %" in capsys.readouterr().out


def test_an_unwritable_output_is_one_clear_line(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["markers", "--out", str(blocker / "sub")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err and "Traceback" not in err
