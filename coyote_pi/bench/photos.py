"""Markers found in real photographs: the reader's whole-frame pass beside OpenCV's default.

A folder of photos is measured against its truth file (``truth.json``: for each photo,
by its path under the folder, its ``dictionary``, ``size`` and ``markers``, each with its
``id`` and ``corners``, four points in the photo's pixels in OpenCV's order). Every photo
is read, OpenCV pinned to one thread, by two paths with the photo's own dictionary:

  whole-frame      :meth:`ArucoDetector.whole_frame`, the pass a frame gets when the
                   reader has no table layout to go by, every read confirmed
  opencv-default   OpenCV's ArucoDetector with its default settings, unconfirmed

A true marker counts as **found** when a detected marker of its id has its centre
within half the true marker's side of the true centre; a detection there with another
id is a **wrong id**. A true marker not found is missed for one of three causes:
**too small** (its perimeter is below what the path looks at: OpenCV's
``minMarkerPerimeterRate`` of the photo's longer side), **rejected** (the path decoded
it and its confirmation did not believe the read) or **not decoded** (anything else).
Detections that lie on no true marker are counted apart (``other``): a truth file need
not be exhaustive, so they are reported, not scored.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from coyote_pi.cards import shuffled_deck
from coyote_pi.sim.optics import calibrated
from coyote_pi.sim.render import render_scene_with_truth
from coyote_pi.sim.scene import Conditions, TableScene
from coyote_pi.vision.cells import marker_focus
from coyote_pi.vision.detect import FULL_PARAMS, ArucoDetector, Detections, dictionary_pattern, expected_cells, sides
from coyote_pi.vision.markerset import MarkerSet, load_markers

#: The paths compared, in the order printed.
PHOTO_PATHS = ("whole-frame", "opencv-default")


class TruthError(ValueError):
    """A truth file that cannot be used (its message is one line for the user)."""


@dataclasses.dataclass(frozen=True)
class PhotoTruth:
    """One photo of a truth file: where it is, its dictionary and its markers."""

    path: Path
    name: str
    dictionary: str
    ids: tuple[int, ...]
    corners: np.ndarray  # (N, 4, 2) in the photo's pixels


def load_truth(folder: Path) -> list[PhotoTruth]:
    """Every photo of ``folder/truth.json``, in the file's order; :class:`TruthError`
    with a one-line message for a missing or malformed file or a missing photo."""
    path = folder / "truth.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise TruthError(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError as error:
        raise TruthError(f"{path} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise TruthError(f"{path}: expected an object of photos, found {type(data).__name__}")
    photos = []
    for name, entry in data.items():
        try:
            markers = entry["markers"]
            ids = tuple(int(m["id"]) for m in markers)
            corners = np.array([m["corners"] for m in markers], np.float64).reshape(-1, 4, 2)
            dictionary = str(entry["dictionary"])
        except (KeyError, TypeError, ValueError) as error:
            raise TruthError(f"{path}: entry {name!r} is malformed ({error!r})") from None
        if not hasattr(cv2.aruco, dictionary):
            raise TruthError(f"{path}: entry {name!r} names an unknown dictionary {dictionary!r}")
        if not (folder / name).is_file():
            raise TruthError(f"{path}: photo {name!r} is not in {folder}")
        photos.append(PhotoTruth(folder / name, name, dictionary, ids, corners))
    return photos


@dataclasses.dataclass
class PhotoTally:
    """What one path did on a set of photos."""

    markers: int = 0
    found: int = 0
    wrong: int = 0
    too_small: int = 0
    rejected: int = 0
    not_decoded: int = 0
    other: int = 0
    times_ms: list[float] = dataclasses.field(default_factory=list)

    def add(self, other: PhotoTally) -> None:
        for field in dataclasses.fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms) if self.times_ms else 0.0

    @property
    def worst_ms(self) -> float:
        return max(self.times_ms, default=0.0)


def markers_for(dictionary: str) -> MarkerSet:
    """The project's ArUco marker set drawn from ``dictionary`` (codes outside the set's
    roles are confirmed against the dictionary's own patterns)."""
    return dataclasses.replace(load_markers("aruco"), dictionary=dictionary)


def _centres(quads: np.ndarray) -> np.ndarray:
    result: np.ndarray = quads.reshape(-1, 4, 2).mean(axis=1)
    return result


def score_photo(truth: PhotoTruth, found: Detections, smallest_perimeter: float) -> PhotoTally:
    """Compare one path's detections on one photo with the photo's truth."""
    tally = PhotoTally(markers=len(truth.ids))
    centres = _centres(truth.corners)
    reach = sides(truth.corners).mean(axis=1) / 2
    used = np.zeros(len(found.markers), bool)
    detected = _centres(np.array([m.corners for m in found.markers]).reshape(-1, 4, 2))
    for i, code in enumerate(truth.ids):
        near = np.linalg.norm(detected - centres[i], axis=1) <= reach[i] if len(detected) else np.zeros(0, bool)
        codes = {found.markers[j].code for j in np.flatnonzero(near)}
        used |= near
        if code in codes:
            tally.found += 1
        elif 4 * 2 * reach[i] < smallest_perimeter:  # four sides of twice the reach
            tally.too_small += 1
        elif len(found.unconfirmed) and (np.linalg.norm(_centres(found.unconfirmed) - centres[i], axis=1)
                                         <= reach[i]).any():
            tally.rejected += 1
        else:
            tally.not_decoded += 1
        tally.wrong += len(codes - {code})
    # Markers beside the truth, each counted once (several threshold windows find the same one).
    others: list[np.ndarray] = []
    for j in np.flatnonzero(~used):
        marker = found.markers[j]
        if all(np.linalg.norm(marker.centre - centre) > marker.side_px / 2 for centre in others):
            others.append(marker.centre)
    tally.other = len(others)
    return tally


def _smallest_perimeter(rate: float, image: np.ndarray) -> float:
    return rate * float(max(image.shape[:2]))


def measure_groups(photos: list[PhotoTruth]) -> dict[str, dict[str, PhotoTally]]:
    """:func:`measure_photos` for each group of ``photos`` (the first folder of each
    photo's name in the truth file: ``photos``, ``control``), in the file's order."""
    groups: dict[str, list[PhotoTruth]] = {}
    for truth in photos:
        groups.setdefault(truth.name.split("/")[0] if "/" in truth.name else ".", []).append(truth)
    return {group: measure_photos(members) for group, members in groups.items()}


#: Targets of issue 25 on the real photographs: at least this share of the markers
#: found; as many as OpenCV's default; no wrong id; no slower at the median.
TARGET_SHARE = 830 / 860


#: The group of photos the time target is set on (the control photos' four are too few
#: for a median to mean anything: their times are printed, not judged).
TIMED_GROUP = "photos"


def photo_checks(measured: dict[str, dict[str, PhotoTally]]) -> list[tuple[str, bool]]:
    """Each target, per group of photos, and whether the whole-frame path meets it."""
    checks = []
    for group, tallies in measured.items():
        ours, default = tallies["whole-frame"], tallies["opencv-default"]
        checks += [
            (f"{group}: found >= {100 * TARGET_SHARE:.1f} % of the markers", ours.found >= TARGET_SHARE * ours.markers),
            (f"{group}: found >= OpenCV's default ({default.found})", ours.found >= default.found),
            (f"{group}: 0 wrong ids", ours.wrong == 0),
        ]
        if group == TIMED_GROUP:
            checks.append((f"{group}: median <= OpenCV's default's ({default.median_ms:.1f} ms)",
                           ours.median_ms <= default.median_ms))
    return checks


def measure_photos(photos: list[PhotoTruth]) -> dict[str, PhotoTally]:
    """Each path of :data:`PHOTO_PATHS` over every photo, OpenCV on one thread; each
    photo is read once by each path untimed (the first calls allocate), then timed: in
    CPU time of this process, which other load on a shared machine does not inflate."""
    cv2.setNumThreads(1)
    tallies = {name: PhotoTally() for name in PHOTO_PATHS}
    detectors: dict[str, ArucoDetector] = {}
    for truth in photos:
        image = cv2.imread(str(truth.path), cv2.IMREAD_COLOR)
        if image is None:
            raise TruthError(f"{truth.path} cannot be read as an image")
        detector = detectors.setdefault(truth.dictionary, ArucoDetector(markers_for(truth.dictionary)))
        reads: dict[str, tuple[Callable[[np.ndarray], Detections], float]] = {
            "whole-frame": (detector.whole_frame, float(FULL_PARAMS["minMarkerPerimeterRate"])),
            "opencv-default": (detector.opencv_default, cv2.aruco.DetectorParameters().minMarkerPerimeterRate),
        }
        for name, (read, rate) in reads.items():
            read(image)
            start = time.process_time()
            found = read(image)
            elapsed = (time.process_time() - start) * 1000
            tally = score_photo(truth, found, _smallest_perimeter(rate, image))
            tally.times_ms.append(elapsed)
            tallies[name].add(tally)
    return tallies


# ------------------------------------------------------------------ the calibration curve
#
# How much a camera greys a marker's cells, as a function of the pixels each module
# covers: measured on the real photos (their truth corners) and on the calibrated
# renderer's frames (their truth corners), the same way, so the two can be laid side by side.

#: Bins of pixels per module the curve is reported in.
MODULE_PX_BINS = (2.0, 4.0, 5.0, 6.0, 8.0, 12.0, 20.0, 1000.0)


def marker_measures(image: np.ndarray, corners: np.ndarray, patterns: np.ndarray) -> np.ndarray:
    """For (N, 4, 2) marker ``corners`` in ``image`` printing ``patterns`` (N, n, n; True
    black): (N, 5) rows of pixels per module, edge blur (px), contrast (grey levels), cell
    contrast as a share of the contrast (the darkest claimed-white cell less the lightest
    claimed-black one), and the fit's residual noise (grey levels, RMS over the cells)."""
    if len(corners) == 0:
        return np.zeros((0, 5))
    rows = np.array([(f.module_px, f.blur_px, f.contrast, f.cell_contrast, f.residual)
                     for f in marker_focus(image, corners, patterns)])
    with np.errstate(divide="ignore", invalid="ignore"):
        rows[:, 3] /= rows[:, 2]
    return rows


def photo_measures(photos: list[PhotoTruth]) -> np.ndarray:
    """:func:`marker_measures` of every marker of ``photos``, at its truth corners."""
    rows = [np.zeros((0, 5))]
    for truth in photos:
        image = cv2.imread(str(truth.path), cv2.IMREAD_GRAYSCALE)
        if image is None:
            raise TruthError(f"{truth.path} cannot be read as an image")
        markers = markers_for(truth.dictionary)
        patterns = np.stack([dictionary_pattern(truth.dictionary, code, markers.modules) for code in truth.ids])
        rows.append(marker_measures(image, truth.corners, patterns))
    return np.concatenate(rows)


#: One bin of the calibration curve: pixels per module, markers, blur, contrast, cells p10 and p50, residual.
CurveRow = tuple[str, int, float, float, float, float, float]


def curve(measures: np.ndarray) -> list[CurveRow]:
    """Per bin of :data:`MODULE_PX_BINS` holding markers: (the bin, markers, median edge
    blur px, median contrast, the 10th percentile and the median of the cell contrast
    share, the median residual)."""
    rows = []
    for low, high in pairwise(MODULE_PX_BINS):
        inside = measures[(measures[:, 0] >= low) & (measures[:, 0] < high)]
        if len(inside):
            label = f"{low:g}-{high:g}" if high < 1000 else f">= {low:g}"
            rows.append((label, len(inside), float(np.nanmedian(inside[:, 1])), float(np.median(inside[:, 2])),
                         float(np.percentile(inside[:, 3], 10)), float(np.median(inside[:, 3])),
                         float(np.median(inside[:, 4]))))
    return rows


#: Frame sizes the calibrated renderer's curve is measured at: the camera's full
#: resolution and smaller copies, so card modules cover about 12, 6, 4 and 3 pixels.
RENDERED_SIZES = ((4608, 2592), (2304, 1296), (1536, 864), (1152, 648))


def rendered_measures(conditions: Conditions, seeds: range,
                      sizes: Sequence[tuple[int, int]] = RENDERED_SIZES) -> np.ndarray:
    """:func:`marker_measures` of every card sticker in view and uncovered in tables of six
    stands rendered under ``conditions`` (one table per seed and size), at its truth corners."""
    markers = load_markers("aruco")
    rows = [np.zeros((0, 5))]
    for width, height in sizes:
        for seed in seeds:
            deck = shuffled_deck(seed)
            scene = TableScene(seats=6, seat_cards={s: deck[s] for s in range(1, 7)},
                               slots={"centre": ("face_up", deck[0])})
            frame, truth = render_scene_with_truth(scene, width=width, height=height, seed=seed, conditions=conditions)
            stickers = [s for s in truth.stickers if s.role.startswith("card:") and s.in_frame and not s.occluded]
            if stickers:
                patterns = np.stack([expected_cells(markers, s.role) for s in stickers])
                rows.append(marker_measures(frame, np.stack([s.corners for s in stickers]), patterns))
    return np.concatenate(rows)


#: Tables the calibrated renderer's curve is measured on (each at every size of
#: :data:`RENDERED_SIZES`, with its own camera drawn by :func:`calibrated`).
CURVE_TABLES = 4
#: The bins where the table's cards lie (6 px a module in the binned 2304 x 1296 mode,
#: about 12 at full resolution) and the calibration must be at least as harsh as real.
TABLE_BINS = ("5-6", "6-8", "8-12", "12-20")


def rendered_curve_measures(tables: int = CURVE_TABLES) -> np.ndarray:
    """:func:`rendered_measures` of ``tables`` tables, each under moderate conditions
    seen by its own calibrated camera and compressed at JPEG quality 60-95."""
    rows = [np.zeros((0, 5))]
    for seed in range(1, tables + 1):
        rng = np.random.default_rng([seed, 25])
        conditions = Conditions.typical().replace(blur=0.0, noise=0.0, jpeg_quality=int(rng.integers(60, 96)),
                                                  optics=calibrated(rng))
        rows.append(rendered_measures(conditions, range(seed, seed + 1)))
    return np.concatenate(rows)


def calibration_checks(real: list[tuple[Any, ...]], rendered: list[tuple[Any, ...]]) -> list[tuple[str, bool]]:
    """In each bin of :data:`TABLE_BINS` both measured: is the renderer's blur at least
    the real one, its median cell contrast share at most the real one, its contrast at
    most 10 % above the real one?"""
    by_bin = {row[0]: row for row in rendered}
    checks = []
    for row in real:
        other = by_bin.get(row[0])
        if row[0] not in TABLE_BINS or other is None:
            continue
        checks.append((f"{row[0]} px a module: rendered blur {other[2]:.2f} >= real {row[2]:.2f} px, cells "
                       f"{other[5]:.2f} <= real {row[5]:.2f}, contrast {other[3]:.0f} <= 1.1 x real {row[3]:.0f}",
                       other[2] >= row[2] and other[5] <= row[5] and other[3] <= 1.1 * row[3]))
    return checks
