"""The printable parts under hardware/: the committed STL files are current, closed,
printable without supports on a 220 x 220 mm bed, and the stand holds a card and its
stickers where the reader and the renderer expect them (coyote_pi/data/markers.toml)."""

from __future__ import annotations

import dataclasses
import math
import re
import shutil
import subprocess
import tomllib

import cv2
import numpy as np
import pytest

from coyote_pi import parts as hardware
from coyote_pi.sim.render import _layout
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision.geometry import stand_plane
from coyote_pi.vision.markerset import load_markers

ROOT = hardware.hardware_dir()
NAMES = [part.name for part in hardware.PARTS]
MARKERS = load_markers()
STAND = MARKERS.stand
#: How far the renderer's model stand stands out from the table centre (any distance: the
#: stand is compared in its own place).
RADIUS = 440.0


def mesh(name: str) -> np.ndarray:
    return hardware.read_stl(ROOT / "stl" / f"{name}.stl")


def stand_mesh() -> np.ndarray:
    return hardware.unturned_stand(mesh("stand"))


def normals(triangles: np.ndarray) -> np.ndarray:
    """Unit normals; (0, 0, 0) for the zero-area slivers OpenSCAD leaves along some edges."""
    n = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    length = np.linalg.norm(n, axis=1, keepdims=True)
    return np.divide(n, length, out=np.zeros_like(n), where=length > 0)


def inside(triangles: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which points lie inside the closed mesh: a ray's crossings counted (odd: inside)."""
    direction = np.array([0.5773, 0.5779, 0.5768])  # off every axis, so no ray runs along an edge
    a, b, c = triangles[:, 0], triangles[:, 1], triangles[:, 2]
    e1, e2 = b - a, c - a
    h = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, h)
    ok = np.abs(det) > 1e-12
    result = []
    for p in np.asarray(points, dtype=np.float64).reshape(-1, 3):
        s = p - a
        u = np.einsum("ij,ij->i", s, h) / np.where(ok, det, 1)
        q = np.cross(s, e1)
        v = (q @ direction) / np.where(ok, det, 1)
        t = np.einsum("ij,ij->i", e2, q) / np.where(ok, det, 1)
        hits = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
        result.append(int(hits.sum()) % 2 == 1)
    return np.array(result)


def on_board(u: float, v: float, w: float) -> np.ndarray:
    """A point given in stand millimetres (w out of the face), in the unturned stand's frame,
    through the renderer's stand model."""
    board = stand_plane((0.0, RADIUS), STAND.lean_deg)
    return board.offset(w).to_world(np.array([(u, v)]))[0] - (0.0, RADIUS, 0.0)


def slice_loops(triangles: np.ndarray, z: float) -> list[tuple[float, np.ndarray, float]]:
    """The outlines where the plane at height z cuts the mesh: (signed area, centroid,
    distance from the centroid to the nearest outline point) of each closed loop;
    outer boundaries count positive, holes negative."""
    segments = []
    for tri, n in zip(triangles, normals(triangles), strict=True):
        d = tri[:, 2] - z
        if d.min() >= 0 or d.max() <= 0:
            continue
        points = [tri[i] + (tri[(i + 1) % 3] - tri[i]) * d[i] / (d[i] - d[(i + 1) % 3])
                  for i in range(3) if (d[i] < 0) != (d[(i + 1) % 3] < 0)]
        p, q = points[0][:2], points[1][:2]
        along = np.array([-n[1], n[0]])  # the outward normal turned a quarter left: outer loops run counter-clockwise
        segments.append((p, q) if np.dot(q - p, along) >= 0 else (q, p))
    parent: dict[tuple[float, float], tuple[float, float]] = {}

    def root(key: tuple[float, float]) -> tuple[float, float]:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    keys = [(tuple(np.round(p, 4)), tuple(np.round(q, 4))) for p, q in segments]
    for kp, kq in keys:
        parent[root(kp)] = root(kq)
    groups: dict[tuple[float, float], list[tuple[np.ndarray, np.ndarray]]] = {}
    for (kp, _), segment in zip(keys, segments, strict=True):
        groups.setdefault(root(kp), []).append(segment)
    loops = []
    for group in groups.values():
        p, q = np.array([s[0] for s in group]), np.array([s[1] for s in group])
        cross = p[:, 0] * q[:, 1] - q[:, 0] * p[:, 1]
        area = cross.sum() / 2
        centroid = ((p + q) * cross[:, None]).sum(axis=0) / (6 * area)
        loops.append((float(area), centroid, float(np.linalg.norm(p - centroid, axis=1).min())))
    return loops


# ------------------------------------------------------------ current and complete


def test_the_parameter_file_is_generated_from_the_markers_file():
    assert (ROOT / "scad" / "params.scad").read_text(encoding="utf-8") == hardware.params_text(MARKERS), \
        "hardware/scad/params.scad is stale: run `make hardware`"


def test_moving_a_marker_in_the_markers_file_moves_its_recess():
    moved = dataclasses.replace(MARKERS, stand=dataclasses.replace(STAND, right_marker_centre=(96.0, 64.0)))
    assert "[96, 64, 40.000]" in hardware.params_text(moved)
    assert "[96, 64," not in hardware.params_text(MARKERS)


def test_every_part_has_its_stl_file_and_picture_and_they_are_small():
    for name in NAMES:
        stl = (ROOT / "stl" / f"{name}.stl").read_bytes()
        assert len(stl) == 84 + 50 * int.from_bytes(stl[80:84], "little"), f"{name}.stl is not a binary STL file"
        assert len(stl) < 400_000, f"{name}.stl: {len(stl)} bytes"
        assert (ROOT / "images" / f"{name}.png").stat().st_size < 60_000


def test_no_committed_stl_file_is_stale_against_its_sources_and_numbers():
    manifest = tomllib.loads((ROOT / "stl" / "manifest.toml").read_text(encoding="utf-8"))
    assert sorted(manifest) == sorted(NAMES)
    for part in hardware.PARTS:
        entry = manifest[part.name]
        assert entry["inputs"] == hardware.input_digest(part, ROOT / "scad"), \
            f"{part.name}.stl is stale: its OpenSCAD sources or params.scad changed since; run `make hardware`"
        assert entry["stl"] == hardware.file_digest(ROOT / "stl" / f"{part.name}.stl"), \
            f"{part.name}.stl is not the file `make hardware` wrote"


def test_the_stand_built_again_by_openscad_is_the_committed_one(tmp_path):
    if shutil.which("openscad") is None:
        pytest.skip("openscad is not installed (`make hardware` installs it); the manifest's hashes were checked")
    (part,) = [p for p in hardware.PARTS if p.name == "stand"]
    out = tmp_path / "stand.stl"
    subprocess.run(hardware.openscad_command(part, ROOT / "scad", out), check=True)
    # The same shape (another OpenSCAD version may cut it into other triangles).
    built, committed = hardware.read_stl(out), mesh("stand")
    for measure in (hardware.mesh_volume, hardware.mesh_area):
        assert measure(built) == pytest.approx(measure(committed), rel=1e-4), "stand.stl is stale: run `make hardware`"
    for bound in (np.min, np.max):
        assert bound(built.reshape(-1, 3), axis=0) == pytest.approx(bound(committed.reshape(-1, 3), axis=0), abs=0.01)


def test_an_stl_file_does_not_change_with_the_order_openscad_lists_its_triangles(tmp_path):
    triangles = mesh("button-lid")
    rng = np.random.default_rng(5)
    shuffled = triangles[rng.permutation(len(triangles))]
    shuffled = np.stack([np.roll(t, k, axis=0) for t, k in zip(shuffled, rng.integers(0, 3, len(shuffled)), strict=True)])
    hardware.write_stl(tmp_path / "a.stl", triangles, "a")
    hardware.write_stl(tmp_path / "b.stl", shuffled, "a")
    assert (tmp_path / "a.stl").read_bytes() == (tmp_path / "b.stl").read_bytes()
    assert hardware.mesh_volume(hardware.read_stl(tmp_path / "b.stl")) == pytest.approx(hardware.mesh_volume(triangles))


# ------------------------------------------------------------------- printable


@pytest.mark.parametrize("name", NAMES)
def test_each_part_is_a_closed_manifold_solid(name):
    triangles = mesh(name)
    _, index = np.unique(np.round(triangles.reshape(-1, 3), 4), axis=0, return_inverse=True)
    faces = index.reshape(-1, 3)
    assert (faces[:, 0] != faces[:, 1]).all() and (faces[:, 1] != faces[:, 2]).all() and (faces[:, 2] != faces[:, 0]).all()
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    assert len(np.unique(directed, axis=0)) == len(directed), "an edge is used twice in one direction"
    _, counts = np.unique(np.sort(directed, axis=1), axis=0, return_counts=True)
    assert (counts == 2).all(), f"{(counts != 2).sum()} edges are not shared by exactly two triangles"
    assert hardware.mesh_volume(triangles) > 1000  # facing outwards, and not a sliver


@pytest.mark.parametrize("name", NAMES)
def test_each_part_fits_a_220_mm_bed_and_stands_on_it(name):
    points = mesh(name).reshape(-1, 3)
    extent = points.max(axis=0) - points.min(axis=0)
    assert extent[0] <= hardware.BED_MM and extent[1] <= hardware.BED_MM, f"{name}: {extent[:2]} mm"
    assert points[:, 2].min() == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize("name", NAMES)
def test_no_part_overhangs_more_than_45_degrees(name):
    # The docs say every part prints without supports: a face that looks down more steeply
    # than 45 degrees from upright must lie on the bed.
    triangles = mesh(name)
    down = normals(triangles)[:, 2] < -math.cos(math.radians(45)) - 1e-6
    off_bed = triangles[down][:, :, 2].max(axis=1) > 1e-3
    assert not off_bed.any(), f"{name}: {off_bed.sum()} faces overhang, e.g. {triangles[down][off_bed][0].tolist()}"


# --------------------------------------------------------------------- the stand


def test_the_stand_puts_each_sticker_recess_where_the_renderer_puts_its_marker():
    board = stand_plane((0.0, RADIUS), STAND.lean_deg)
    triangles = stand_mesh() + (0.0, RADIUS, 0.0) - board.origin  # from the foot, in the world's axes
    face = normals(triangles) @ board.normal > 0.999
    depth = triangles.mean(axis=1) @ board.normal
    floors = triangles[face & (depth < -0.1) & (depth > -2.0)]  # below the face: the recesses' floors
    uv = np.stack([floors @ board.u, floors @ board.v], axis=2)
    for what, u, v, side in hardware.stand_recesses(MARKERS):
        mine = uv[(np.abs(uv.mean(axis=1) - (u, v)) < side / 2 + 2).all(axis=1)].reshape(-1, 2)
        assert len(mine), f"no recess for the {what}"
        low, high = mine.min(axis=0), mine.max(axis=0)
        expected = on_board(u, v, 0.0)
        found = on_board(*((low + high) / 2), 0.0)
        assert np.linalg.norm(found - expected) <= 1.0, f"the {what}'s recess is off by {found - expected} mm"
        assert side <= (high - low).min() and (high - low).max() <= side + 1.5, f"{what}: {high - low} mm"


def test_the_stand_holds_a_card_of_59_by_91_mm_sleeved_or_not_at_the_lean_the_reader_assumes():
    triangles = stand_mesh()
    card = MARKERS.card
    c, bottom = STAND.card_centre_u, STAND.card_bottom_v
    sleeved = card.width + 2.5  # a sleeve adds about 1.25 mm each side
    free = [on_board(u, v, w) for u in np.linspace(c - sleeved / 2, c + sleeved / 2, 9)
            for v in np.linspace(bottom + 0.3, bottom + card.height, 7) for w in (0.2, STAND.slot_width - 0.2)]
    assert not inside(triangles, np.array(free)).any(), "the stand is in the way of a card in its slot"
    # The slot's floor holds the card's bottom edge, the lip stands in front of it (at most
    # the height markers.toml gives, so it hides no sticker) and the board behind it.
    assert inside(triangles, np.array([on_board(u, bottom - 0.5, 1.0) for u in (c - 25, c, c + 25)])).all()
    lip = STAND.lip_height
    assert inside(triangles, np.array([on_board(c, bottom + lip - 0.5, STAND.slot_width + 0.5)])).all()
    assert not inside(triangles, np.array([on_board(c, bottom + lip + 0.5, STAND.slot_width + 0.5)])).any()
    assert inside(triangles, np.array([on_board(c, bottom + 40, -1.0)])).all()
    assert lip <= 9.0  # docs/markers.md: a higher lip hides the white round the card's lower sticker


def test_the_renderer_draws_the_stand_from_the_markers_files_numbers():
    ledge = dataclasses.replace(STAND, slot_width=3.0, ledge_front=8.0, lip_height=4.0, ledge_length=80.0)
    markers = dataclasses.replace(MARKERS, stand=ledge)
    scene = TableScene(seats=2, present=(1,), seat_cards={1: "5"}, markers=markers, placement_jitter=0.0)
    layout = _layout(scene, 1152, 648, 3, Conditions.clean())
    board = next(s for s in layout.sprites if s.texture[0] == "stand").plane
    drawn = next(s for s in layout.sprites if s.texture[0] == "solid")
    assert drawn.rect == pytest.approx((ledge.card_centre_u - 40, 0.0, ledge.card_centre_u + 40, ledge.card_bottom_v + 4))
    assert (drawn.plane.origin - board.origin) @ board.normal == pytest.approx(8.0)
    card = next(s for s in layout.sprites if s.texture[0] not in ("stand", "solid", "mat"))
    assert (card.plane.origin - board.origin) @ board.normal == pytest.approx(3.0)
    assert TableScene().stand_lean_deg == STAND.lean_deg


def test_the_stand_does_not_tip_and_the_readme_says_how_far_it_may():
    forward, backward = hardware.tipping_angles(stand_mesh())
    assert forward >= 10 and backward >= 25, (forward, backward)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"forward {forward:.0f}°" in readme and f"backward {backward:.0f}°" in readme


# ------------------------------------------------------------ the button box


def test_the_button_lid_has_three_12_mm_holes():
    lid = mesh("button-lid")
    loops = slice_loops(lid, 1.5)
    buttons = [loop for loop in loops if loop[0] < 0 and 11.5 < 2 * math.sqrt(-loop[0] / math.pi) < 13]
    assert len(buttons) == 3
    for _area, _centre, nearest in buttons:
        assert 6.0 <= nearest <= 6.25, "a 12 mm button goes through, without play"
    assert sum(1 for loop in loops if loop[0] > 0) == 1  # one plate


def test_the_readme_shows_every_part_its_picture_and_its_estimate():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    manifest = tomllib.loads((ROOT / "stl" / "manifest.toml").read_text(encoding="utf-8"))
    for name in NAMES:
        assert f"images/{name}.png" in readme and f"stl/{name}.stl" in readme
        row = re.search(rf"stl/{re.escape(name)}\.stl\)[^\n]*", readme)
        estimate = f"{manifest[name]['grams']} g, {manifest[name]['minutes']} min"
        assert row and estimate in row.group(0), f"{name}: the manifest says {estimate}"


def test_the_howto_shows_which_sticker_goes_in_which_recess_as_the_markers_file_places_them():
    committed = cv2.imread(str(ROOT / "images" / "stand-stickers.png"))
    drawn = hardware.sticker_map(MARKERS)
    assert committed is not None and committed.shape == drawn.shape

    def stark_pixels(image: np.ndarray) -> int:
        # OpenCV's releases smooth the edges of text and lines a little differently (5.x moved
        # pixels by up to 65 levels along them), so only a stark difference is staleness: a
        # recess or a number drawn elsewhere changes thousands of pixels by 150 or more.
        return int((np.abs(committed.astype(int) - image.astype(int)).max(axis=2) > 100).sum())

    assert stark_pixels(drawn) < 50, "hardware/images/stand-stickers.png is stale: run `make hardware`"
    moved = dataclasses.replace(MARKERS, stand=dataclasses.replace(MARKERS.stand, card_bottom_v=MARKERS.stand.card_bottom_v + 10))
    assert stark_pixels(hardware.sticker_map(moved)) >= 50
    assert "images/stand-stickers.png" in (ROOT / "markers-howto.md").read_text(encoding="utf-8")
