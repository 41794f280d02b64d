"""Finding markers in a frame: the tuned ArUco path, OpenCV's defaults, and QR via pyzbar.

Every detector returns :class:`Marker` objects with corners in full-frame pixels, in the
printed marker's own order (top-left, top-right, bottom-right, bottom-left), plus
candidate quadrilaterals that looked like a marker but could not be decoded
(a sticker under a finger, blurred or glared): the reader reports those as
"unreadable" instead of pretending nothing is there.

Before any decoded marker is believed, :func:`confirmed` samples its cells from the image
and checks them against the code it claims to be: every cell must be clearly black or
clearly white and agree with the code. A marker that decodes only by a narrow margin
is demoted to a candidate. This is how "never guess" is enforced at pixel level.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from typing import Any, NamedTuple

import cv2
import numpy as np

from coyote_pi.vision import artwork
from coyote_pi.vision.cells import CELL_MARGIN, MIN_CONTRAST, confirmation_margins, on_image, sample_points
from coyote_pi.vision.markerset import MarkerSet, role_kind

#: Roles the low-resolution pass looks for: large markers, found in a small image.
ANCHOR_KINDS = ("stand", "stand-right", "mat", "slot", "coyote")
#: The kinds of a stand's two markers.
STAND_KINDS = ("stand", "stand-right")


@dataclass(frozen=True)
class Marker:
    """A decoded and confirmed marker. ``role`` is None for a code not in the mapping."""

    code: int | str
    role: str | None
    corners: np.ndarray  # (4, 2) float, full-frame pixels
    scale: float = 1.0  # the resolution it was found at (1 = full resolution)

    # Cached: the reader compares every marker with every other one (repeats, candidates).
    @cached_property
    def centre(self) -> np.ndarray:
        result: np.ndarray = self.corners.sum(axis=0) / 4
        return result

    @cached_property
    def side_px(self) -> float:
        return sum(quad_sides(self.corners)) / 4


def no_candidates() -> np.ndarray:
    return np.zeros((0, 4, 2))


@dataclass
class Detections:
    """Confirmed markers, and ``candidates``: an (N, 4, 2) array of marker-shaped
    quadrilaterals that could not be read (kept as one array: there can be thousands).
    ``unconfirmed`` holds those of the candidates that OpenCV decoded and
    :func:`confirmed` did not believe (the benches count them apart)."""

    markers: list[Marker]
    candidates: np.ndarray
    unconfirmed: np.ndarray = field(default_factory=no_candidates)

    def extend(self, other: Detections) -> None:
        self.markers.extend(other.markers)
        self.candidates = np.concatenate([self.candidates, other.candidates])
        self.unconfirmed = np.concatenate([self.unconfirmed, other.unconfirmed])


#: Each corner's predecessor round a quadrilateral: ``quad[PREVIOUS]`` is
#: ``np.roll(quad, 1, axis=0)`` at a fraction of the cost (the reader does it thousands
#: of times a frame on four points).
PREVIOUS = [3, 0, 1, 2]


def sides(quads: np.ndarray) -> np.ndarray:
    """The four side lengths of each of (..., 4, 2) quadrilaterals."""
    d = quads - quads[..., PREVIOUS, :]
    result: np.ndarray = np.sqrt((d * d).sum(axis=-1))
    return result


def quad_sides(quad: np.ndarray) -> list[float]:
    """The four side lengths of one (4, 2) quadrilateral, as :func:`sides` orders them, in
    plain Python: the reader asks for them hundreds of times a frame, and numpy's per-call
    cost on four points outweighs the work."""
    points = quad.tolist()
    return [math.dist(points[i - 1], points[i]) for i in range(4)]


def side_lengths(quads: np.ndarray) -> np.ndarray:
    """Mean side length of each of (N, 4, 2) quadrilaterals."""
    result: np.ndarray = sides(quads).sum(axis=1) / 4
    return result


# ------------------------------------------------------------------ confirming a read
#
# The reader confirms and settles dozens of markers a frame. Done one marker at a time,
# numpy's and OpenCV's per-call costs outweighed the work on a few hundred pixels; so
# every function here takes a whole batch of quadrilaterals, (N, 4, 2), and gathers
# their pixels from the frame in one OpenCV call.


#: Samples per cell side when a marker's cells are read back for confirmation.
_SAMPLES_PER_CELL = 5
#: The samples of a cell that are averaged: a fifth of each cell at its edges is ignored.
_INNER_SAMPLES = tuple(range(1, _SAMPLES_PER_CELL - 1))


@lru_cache(maxsize=32)
def _unit_grid(cols: int, rows: int, offsets: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Sample points of a ``rows`` x ``cols`` grid of cells in the unit square, as (u, v)
    each of shape (rows * k, cols * k): point j along a side of n cells lies at
    j / (n * samples), as a pixel centre does in ``cv2.warpPerspective``'s output."""
    per = _SAMPLES_PER_CELL
    along = np.asarray(offsets, np.float64)
    us = (np.arange(cols)[:, None] * per + along).ravel() / (cols * per)
    vs = (np.arange(rows)[:, None] * per + along).ravel() / (rows * per)
    u, v = np.meshgrid(us, vs)
    return u, v


def cell_samples(image: np.ndarray, quads: np.ndarray, cols: int, rows: int,
                 offsets: tuple[int, ...] = tuple(range(_SAMPLES_PER_CELL))) -> np.ndarray:
    """The pixels of ``rows`` x ``cols`` cells of each of (N, 4, 2) quads (in ``image``'s
    pixels, clockwise from the top-left): each cell is divided into
    :data:`_SAMPLES_PER_CELL` x :data:`_SAMPLES_PER_CELL` sample points, of which those
    at ``offsets`` along each side are taken, interpolated bilinearly and replicating the
    image's edge. Shape (N, rows, k, cols, k[, channels]) with k = len(offsets).

    One ``cv2.remap`` gathers every sample of every quad (:func:`sample_points`)."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    n, k = len(quads), len(offsets)
    if n == 0:
        return np.zeros((0, rows, k, cols, k) + image.shape[2:], image.dtype)
    u, v = _unit_grid(cols, rows, tuple(offsets))
    samples = sample_points(image, quads, u, v)
    return samples.reshape((n, rows, k, cols, k) + image.shape[2:])


def cell_means(image: np.ndarray, quads: np.ndarray, cells: int) -> np.ndarray:
    """Mean grey level of each of ``cells`` x ``cells`` cells of each of (N, 4, 2) quads
    in the grey or BGR ``image``'s pixels, ignoring a fifth of each cell at its edges:
    shape (N, cells, cells), NaN for a quad off the image. Only the samples are turned
    grey: a few hundred pixels a marker, not the thousands round it."""
    samples = cell_samples(image, quads, cells, cells, _INNER_SAMPLES)
    n, k = len(samples), len(_INNER_SAMPLES)
    if samples.ndim == 6:
        samples = to_gray(samples.reshape(n * cells * k, cells * k, 3)).reshape(n, cells, k, cells, k)
    # A sum and a division: ``mean`` costs several times more in numpy's Python layer.
    means = samples.sum(axis=(2, 4), dtype=np.float32) / (k * k)
    means[~on_image(quads, image.shape)] = np.nan
    result: np.ndarray = means
    return result


def cell_agreement(means: np.ndarray, expected_black: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How well sampled cells match codes, for (N, cells, cells) ``means`` against the
    patterns ``expected_black`` (one (cells, cells) for all, or one each): per quad, the
    smallest normalised margin and the share of cells agreeing.

    The margin is each cell's distance from the black/white midpoint towards its
    expected side, divided by the contrast; it is negative for a cell on the wrong side.
    A quad with no contrast to judge by (under :data:`MIN_CONTRAST`, a pattern all one
    colour, or off the image) gets (-1, 0).
    """
    means = np.asarray(means, np.float64)
    expected = np.broadcast_to(expected_black, means.shape)
    total = means.shape[1] * means.shape[2]
    black_cells = np.count_nonzero(expected, axis=(1, 2))
    black_sum = np.where(expected, means, 0.0).sum(axis=(1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        black = black_sum / black_cells
        white = (means.sum(axis=(1, 2)) - black_sum) / (total - black_cells)
        contrast = white - black
        signed = np.where(expected, -1.0, 1.0) * (means - ((white + black) / 2)[:, None, None]) / contrast[:, None, None]
    judged = (black_cells > 0) & (black_cells < total) & (contrast >= MIN_CONTRAST)  # NaN compares False
    margin = np.where(judged, signed.min(axis=(1, 2)), -1.0)
    share = np.where(judged, np.count_nonzero(signed > 0, axis=(1, 2)) / total, 0.0)
    return margin, share


def cell_colours(frame: np.ndarray, quads: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """Mean BGR colour of each of ``rows`` x ``cols`` cells of each of (N, 4, 2) quads
    (full-frame pixels, clockwise from the top-left), ignoring a fifth of each cell at
    its edges: shape (N, rows, cols, 3), NaN for a quad off the frame."""
    samples = cell_samples(frame, quads, cols, rows, _INNER_SAMPLES)
    k = len(_INNER_SAMPLES)
    colours = samples.sum(axis=(2, 4), dtype=np.float32) / (k * k)
    colours[~on_image(quads, frame.shape)] = np.nan
    result: np.ndarray = colours
    return result


def confirmed(frame: np.ndarray, quads: np.ndarray, expected_black: np.ndarray) -> np.ndarray:
    """For (N, 4, 2) quads (full-frame pixels) and their codes' patterns (N, cells,
    cells): True where every cell is clearly the colour the code says, judged in the
    full-resolution frame whatever resolution found it."""
    return confirmation_margins(frame, quads, expected_black) >= CELL_MARGIN


def pattern_agreement(frame: np.ndarray, quads: np.ndarray, expected_black: np.ndarray) -> np.ndarray:
    """For (N, 4, 2) quads where markers should be printed and their patterns (one
    (cells, cells) for all, or (N, cells, cells)): the share of each one's cells that
    match (0 when there is no black-and-white contrast there at all)."""
    return cell_agreement(cell_means(frame, quads, expected_black.shape[-1]), expected_black)[1]


def to_full(points: np.ndarray, scale: float, offset: tuple[float, float]) -> np.ndarray:
    """Pixel coordinates in a copy resized by ``scale`` (of the part of the frame at
    ``offset``) back in the full frame. Pixel centres sit at integers in both, so the
    half-pixel terms matter: without them a 1/6 copy puts every corner 2.5 px off."""
    return (points + 0.5) / scale - 0.5 + np.asarray(offset, dtype=np.float64)


#: Corners found in a copy shrunk below this scale are settled on the full frame; at
#: half the resolution or more they are within a pixel, as close as placing a card and
#: sampling its cells (a fifth of a cell's side from its edges) need.
REFINE_BELOW_SCALE = 0.5
_REFINE_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)


def refine_corners(frame: np.ndarray, quads: np.ndarray, scale: float) -> np.ndarray:
    """Corners found in a copy shrunk by ``scale`` are only that precise once scaled up;
    settle those of (N, 4, 2) quads on the full-resolution image (each is a sharp
    black-on-white corner). A quad any of whose corners wandered further than its search
    window (it latched onto something else) keeps the corners it had.

    The pixels round every corner are cut out, stacked into one image and turned grey
    together, and ``cv2.cornerSubPix`` settles all corners of one window size in one call."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    refined = quads.copy()
    # The window must reach the true corner (about one pixel of the small copy away) but
    # stay within the marker's border module: wider windows settle on the wrong corner.
    halves = [int(min(max(round(1.5 / scale), 2), max(2, sum(quad_sides(q)) / 28))) for q in quads]
    h, w = frame.shape[:2]
    for half in sorted(set(halves)):
        which = [i for i, value in enumerate(halves) if value == half]
        corners = quads[which].reshape(-1, 2)
        # Each corner's tile holds its window wherever the corner may move before it is
        # judged to have wandered (2 * half) and the pixel round the window the gradients need.
        reach = min(3 * half + 2, (min(h, w) - 1) // 2)
        tile = 2 * reach + 1
        origins = np.clip(np.rint(corners).astype(int) - reach, 0, (w - tile, h - tile))
        stacked = np.concatenate([frame[y : y + tile, x : x + tile] for x, y in origins.tolist()])
        points = (corners - origins + np.c_[np.zeros(len(corners)), np.arange(len(corners)) * tile])
        points = points.astype(np.float32).reshape(-1, 1, 2)
        settled = cv2.cornerSubPix(to_gray(stacked), points.copy(), (half, half), (-1, -1), _REFINE_CRITERIA)
        moved = np.linalg.norm(settled - points, axis=2).reshape(-1, 4).max(axis=1)
        settled = settled.reshape(-1, 4, 2).astype(np.float64) - (points.reshape(-1, 4, 2) - quads[which])
        keep = moved <= 2 * half
        refined[np.asarray(which)[keep]] = settled[keep]
    return refined


@lru_cache(maxsize=512)
def expected_cells(markers: MarkerSet, role: str) -> np.ndarray:
    """The printed pattern of ``role``'s marker: True where a module is black."""
    return artwork.marker_modules(markers, role)


@lru_cache(maxsize=4096)
def dictionary_pattern(dictionary_name: str, code: int, modules: int) -> np.ndarray:
    """The printed pattern of ``code`` of an ArUco dictionary, ``modules`` across with its
    border: True where a module is black (for codes no role has)."""
    image = cv2.aruco.generateImageMarker(artwork.aruco_dictionary(dictionary_name), code, modules, borderBits=1)
    return image < 128


# ---------------------------------------------------------------------------- ArUco


def _params(**settings: object) -> cv2.aruco.DetectorParameters:
    params = cv2.aruco.DetectorParameters()
    for name, value in settings.items():
        setattr(params, name, value)
    return params


#: The low-resolution pass: one threshold window, big markers only, exact codes. The
#: perimeter floor (0.06 of the copy's width, about 12 px a side at 768) keeps the
#: slot markers, the smallest anchors, and skips most card stickers, which cost time only.
#: A pixel counts as dark only 10 grey levels below its window's mean (OpenCV's default
#: is 7): a printed anchor's black is far darker than that, while a cloth's or card
#: art's texture at that scale gave thousands of small outlines, most of the pass's
#: time. Not more: at 12 and above, a 1280 x 720 webcam frame lost a stand whose
#: markers are only about 25 px wide in the half-size copy.
#: In a dark frame the offset shrinks with the frame's white (see
#: :func:`anchor_threshold_offset`): 10 grey levels are a third of a printed marker's
#: contrast in a frame exposed at 15 %, and such frames lost clean stands.
ANCHOR_OFFSET, ANCHOR_OFFSET_WHITE, ANCHOR_OFFSET_LEAST = 10.0, 120.0, 3.0
ANCHOR_PARAMS = dict(
    minDistanceToBorder=1,
    adaptiveThreshWinSizeMin=7,
    adaptiveThreshWinSizeMax=7,
    adaptiveThreshConstant=ANCHOR_OFFSET,
    minMarkerPerimeterRate=0.06,
    errorCorrectionRate=0.0,
    polygonalApproxAccuracyRate=0.05,
)
def anchor_threshold_offset(gray: np.ndarray) -> float:
    """The anchor pass's threshold offset for ``gray`` (the small copy): :data:`ANCHOR_OFFSET`
    grey levels in a frame whose paper is :data:`ANCHOR_OFFSET_WHITE` or brighter, less in
    proportion in a darker one (its markers' contrast is less in proportion), never under
    :data:`ANCHOR_OFFSET_LEAST`. The paper's level is the 95th percentile of every
    fourth pixel each way."""
    white = float(np.percentile(gray[::4, ::4], 95))
    return max(ANCHOR_OFFSET_LEAST, ANCHOR_OFFSET * min(1.0, white / ANCHOR_OFFSET_WHITE))


#: Regions of interest are scaled so that the expected sticker is about this many
#: pixels on its shorter side before detection; the parameters below are tuned for it.
ROI_STICKER_PX = 44.0
#: The least and greatest scale a region is read at.
ROI_SCALES = (0.5, 2.0)
#: Outlines in a region with sides shorter than this share of the expected sticker's
#: are not decoded (a sticker seen obliquely keeps well over half its side).
ROI_SMALLEST_SHARE = 0.4
#: (``minMarkerPerimeterRate`` is set per region from it: see :meth:`ArucoDetector.regions`.)
ROI_PARAMS = dict(
    maxMarkerPerimeterRate=4.0,
    minDistanceToBorder=1,
    errorCorrectionRate=0.0,
    polygonalApproxAccuracyRate=0.06,
    perspectiveRemovePixelPerCell=6,
    perspectiveRemoveIgnoredMarginPerCell=0.2,
)
#: Threshold windows tried in turn until a region gives what it should. One window per
#: attempt: OpenCV groups the outlines found under several windows and decodes only one
#: of each group, so several windows at once can lose a marker that each finds alone.
ROI_WINDOWS = (17, 9, 25)
#: The whole-frame pass at full resolution: one detectMarkers call with threshold
#: windows 9 and 21 (OpenCV decodes one outline of each group the windows share). On
#: the real photos it finds nearly as many markers as one call per window (833 against
#: 840 of 860) in the time OpenCV's default detector takes, which is all this pass may
#: cost. Outlines must be straight to 3 % of their perimeter (OpenCV's default; 6 % let
#: twice the outlines through to be decoded, for no marker more).
FULL_WINDOWS = (9, 21)
FULL_PARAMS = dict(
    minMarkerPerimeterRate=0.03,
    errorCorrectionRate=0.0,
    polygonalApproxAccuracyRate=0.03,
    perspectiveRemovePixelPerCell=5,
    perspectiveRemoveIgnoredMarginPerCell=0.2,
)


class Region(NamedTuple):
    """A part of the frame to read at full resolution (see :meth:`ArucoDetector.regions`)."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in full-frame pixels
    sticker_px: float  # the shorter side, in full-frame pixels, of a card sticker there
    enough: Callable[[list[Marker]], bool]  # are the markers found so far all it should give?


class DetectorRead(NamedTuple):
    """One detectMarkers output (corners, ids, rejected) on an image ``scale`` times the
    size of the part of the frame at ``offset``, with what :meth:`ArucoDetector._collect`
    keeps of it: candidates whose side (in that image) lies in ``candidate_px``, if given."""

    found: tuple[Any, ...] | None
    scale: float
    offset: tuple[float, float]
    candidate_px: tuple[float, float] | None = None
    smallest_perimeter: float = 0.0  # (a region's: outlines shorter are not decoded)


#: What :meth:`ArucoDetector._confirm` says of each decoded marker.
CONFIRMED, REJECTED, REPEAT = 1, 0, 2


class ArucoDetector:
    """The ArUco detectors the reader uses, all confirming what they decode."""

    def __init__(self, markers: MarkerSet):
        self.markers = markers
        dictionary = artwork.aruco_dictionary(markers.dictionary)
        self._anchor = cv2.aruco.ArucoDetector(dictionary, _params(**ANCHOR_PARAMS))
        self._roi = [cv2.aruco.ArucoDetector(dictionary, _params(**ROI_PARAMS, adaptiveThreshWinSizeMin=w,
                                                                 adaptiveThreshWinSizeMax=w))
                     for w in ROI_WINDOWS]
        low, high = FULL_WINDOWS
        self._full = [cv2.aruco.ArucoDetector(dictionary, _params(**FULL_PARAMS, adaptiveThreshWinSizeMin=low,
                                                                  adaptiveThreshWinSizeMax=high,
                                                                  adaptiveThreshWinSizeStep=high - low))]
        self._default = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())

    def _collect(self, frame: np.ndarray, reads: list[DetectorRead], keep: Collection[str] | None = None,
                 ) -> list[Detections]:
        """Turn several detectMarkers outputs into confirmed markers in full-frame pixels,
        one :class:`Detections` per read, confirming all the reads' markers at once.

        ``keep`` limits the roles kept (unknown codes and candidates are then dropped).
        """
        decoded = []  # per read: (quads in its image, codes, roles, quads in the full frame)
        for read in reads:
            assert read.found is not None, "reads are collected once detected"
            corners, ids, _ = read.found
            kept, codes, roles = [], [], []
            for quad, code in zip(corners, [] if ids is None else ids.ravel().tolist()):
                role = self.markers.role_of(code)
                if keep is None or (role is not None and role_kind(role) in keep):
                    kept.append(quad)
                    codes.append(code)
                    roles.append(role)
            quads = np.array(kept, np.float64).reshape(-1, 4, 2)
            full = to_full(quads, read.scale, read.offset)
            if read.scale < REFINE_BELOW_SCALE and len(full):
                full = refine_corners(frame, full, read.scale)
            decoded.append((quads, codes, roles, full))
        expected = [expected_cells(self.markers, role) if role is not None else
                    dictionary_pattern(self.markers.dictionary, code, self.markers.modules)
                    for _, codes, roles, _ in decoded for code, role in zip(codes, roles)]
        status = np.zeros(0, np.int8)
        if expected:
            every = np.concatenate([full for *_, full in decoded])
            status, every = self._confirm(frame, every, np.stack(expected),
                                          [code for _, codes, _, _ in decoded for code in codes])
            start = 0
            for i, (quads, codes, roles, _) in enumerate(decoded):
                decoded[i] = (quads, codes, roles, every[start : start + len(codes)])
                start += len(codes)
        results, start = [], 0
        for read, (quads, codes, roles, full) in zip(reads, decoded):
            said, start = status[start : start + len(codes)], start + len(codes)
            ok, failed = said == CONFIRMED, said == REJECTED
            markers = [Marker(code, role, corners, read.scale)
                       for code, role, corners, sure in zip(codes, roles, full, ok.tolist()) if sure]
            if keep is not None:
                results.append(Detections(markers, no_candidates()))
                continue
            assert read.found is not None, "reads are collected once detected"
            rejected = np.concatenate([np.array(read.found[2], np.float64).reshape(-1, 4, 2), quads[failed]])
            if read.candidate_px is not None and len(rejected):
                lengths = side_lengths(rejected)
                rejected = rejected[(lengths >= read.candidate_px[0]) & (lengths <= read.candidate_px[1])]
            results.append(Detections(markers, to_full(rejected, read.scale, read.offset), full[failed]))
        return results

    @staticmethod
    def _confirm(frame: np.ndarray, quads: np.ndarray, patterns: np.ndarray,
                 codes: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """Confirm (N, 4, 2) decoded ``quads`` of ``codes`` against their ``patterns``:
        (each one's :data:`CONFIRMED`, :data:`REJECTED` or :data:`REPEAT` status, the
        quads with the corners they were confirmed on).

        Several threshold windows decode one marker several times: a repeat (the same
        code within a quarter of its side of an earlier one) is confirmed only if the
        earlier one was not, and otherwise dropped. A marker refused on OpenCV's corners
        (found to the pixel, they can sample a soft marker's cells a tenth of a module
        off) is tried again on corners settled to the sub-pixel."""
        quads = quads.copy()
        centres = quads.mean(axis=1)
        same = (np.asarray(codes)[:, None] == np.asarray(codes)[None, :]) & (
            np.linalg.norm(centres[:, None] - centres[None, :], axis=2) < side_lengths(quads)[:, None] / 4)
        first = np.argmax(same, axis=1)  # the earliest decode of each one's marker (itself, if none)
        status = np.full(len(quads), REJECTED, np.int8)
        for wave in (first == np.arange(len(quads)), first != np.arange(len(quads))):
            # Firsts, then the repeats of firsts that were refused.
            trying = np.flatnonzero(wave & (status[first] != CONFIRMED))
            if not len(trying):
                continue
            sure = confirmed(frame, quads[trying], patterns[trying])
            again = trying[~sure]
            if len(again):
                settled = refine_corners(frame, quads[again], 1.0)
                retried = confirmed(frame, settled, patterns[again])
                quads[again[retried]] = settled[retried]
                sure[~sure] = retried
            status[trying[sure]] = CONFIRMED
        status[(first != np.arange(len(quads))) & (status[first] == CONFIRMED) & (status != CONFIRMED)] = REPEAT
        return status, quads

    def anchors(self, frame_bgr: np.ndarray, factor: int) -> Detections:
        """Stands, mat markers and the Coyote card, found in a 1/``factor`` copy of the frame."""
        return self._large(frame_bgr, factor, keep=ANCHOR_KINDS)

    def stands(self, frame_bgr: np.ndarray, factor: int, box: tuple[int, int, int, int] | None = None) -> Detections:
        """Stand markers only, found in a 1/``factor`` copy of the frame (or of its part
        ``box``: x0, y0, x1, y1)."""
        return self._large(frame_bgr, factor, keep=STAND_KINDS, box=box)

    def _large(self, frame_bgr: np.ndarray, factor: int, keep: Collection[str] | None = None,
               box: tuple[int, int, int, int] | None = None) -> Detections:
        """Large markers (of the roles ``keep``, or all), found in a 1/``factor`` copy of
        the frame or of its part ``box``."""
        x0, y0, x1, y1 = box or (0, 0, frame_bgr.shape[1], frame_bgr.shape[0])
        scale = 1.0 / factor
        small = cv2.resize(frame_bgr[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        padded = padded_gray(small)
        params = self._anchor.getDetectorParameters()
        params.adaptiveThreshConstant = anchor_threshold_offset(padded.image)
        self._anchor.setDetectorParameters(params)
        found = detect_padded(self._anchor, padded)
        return self._collect(frame_bgr, [DetectorRead(found, scale, (float(x0), float(y0)))], keep=keep)[0]

    def regions(self, frame_bgr: np.ndarray, regions: list[Region]) -> list[Detections]:
        """The markers in each of ``regions`` of the full frame, each read after scaling
        it so its expected sticker is about :data:`ROI_STICKER_PX` pixels. Threshold
        windows are tried in turn until each region's ``enough`` is satisfied with the
        markers found there; each window's markers of every region still reading are
        confirmed together (one batch, not one per region)."""
        prepared = [self._prepare(frame_bgr, region) for region in regions]
        found = [Detections([], no_candidates()) for _ in regions]
        reading = list(range(len(regions)))
        for detector in self._roi:
            reads = []
            for i in reading:
                padded, read = prepared[i]
                # OpenCV decodes every square outline it finds, and a card's back pattern
                # or busy art gives dozens far smaller than a sticker (a face-down card's
                # slot cost ten times more than a face-up one's): let it skip those.
                params = detector.getDetectorParameters()
                params.minMarkerPerimeterRate = read.smallest_perimeter / max(padded.image.shape)
                detector.setDetectorParameters(params)
                reads.append(read._replace(found=detect_padded(detector, padded)))
            for i, detections in zip(reading, self._collect(frame_bgr, reads)):
                found[i].extend(detections)
            reading = [i for i in reading if not regions[i].enough(found[i].markers)]
            if not reading:
                break
        return found

    @staticmethod
    def _prepare(frame_bgr: np.ndarray, region: Region) -> tuple[Padded, DetectorRead]:
        """A region's part of the frame, scaled and turned grey for detection, and what
        :meth:`_collect` needs to bring its markers back to the full frame."""
        x0, y0, x1, y1 = region.box
        part = frame_bgr[y0:y1, x0:x1]
        scale = min(max(ROI_STICKER_PX / max(region.sticker_px, 1.0), ROI_SCALES[0]), ROI_SCALES[1])
        if abs(scale - 1.0) > 0.1:
            # Linear, not area: area averaging costs ten times as much at the usual
            # non-integer scales and read no more markers on the bench's frames. Shrunk
            # before it is turned grey (straight into the padding), enlarged after: the
            # conversion works on the fewer pixels.
            resize = partial(cv2.resize, dsize=None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
            scaled = resize(part) if scale < 1.0 else resize(to_gray(part))
        else:
            scale, scaled = 1.0, part
        expected = region.sticker_px * scale
        # Stickers seen obliquely are narrower one way than the other: allow for it.
        read = DetectorRead(None, scale, (float(x0), float(y0)), candidate_px=(0.5 * expected, 2.5 * expected),
                            smallest_perimeter=4 * ROI_SMALLEST_SHARE * expected)
        return padded_gray(scaled), read

    def whole_frame(self, frame_bgr: np.ndarray, bands: int | None = None) -> Detections:
        """Every marker in the frame at full resolution (the thorough fallback).

        A large frame is read in ``bands`` horizontal bands (default: see
        :func:`whole_frame_bands`) so that the detector's working images are a band's
        size, not the frame's (at 4608 x 2592 the whole frame at once takes about 50 MB
        more); each band is turned grey once, straight into its padding
        (:func:`padded_gray`), for every threshold window. Neighbouring bands overlap by
        :func:`band_overlap` rows, so every marker up to that height lies wholly inside
        one band; taller ones are found in a copy shrunk so they are still a few dozen
        pixels wide. Repeats are merged by the reader.
        """
        h = frame_bgr.shape[0]
        rows = band_rows(h, whole_frame_bands(frame_bgr.shape) if bands is None else bands)
        found = Detections([], no_candidates())
        for y0, y1 in rows:
            band = padded_gray(frame_bgr[y0:y1], (y0 == 0, y1 == h))  # only the frame's own edges are padded
            reads = [DetectorRead(detect_padded(detector, band), 1.0, (0.0, float(y0))) for detector in self._full]
            # A frame read in one band is confirmed on its grey copy, already made (a
            # third of the pixels to sample); bands on the colour frame, so that a
            # marker's ring of cells is never cut off at a band's edge.
            judged = band.inner() if len(rows) == 1 else frame_bgr
            del band  # before the next band's is made: one band-sized image at a time
            for detections in self._collect(judged, reads):
                found.extend(detections)
            del judged
        if len(rows) > 1:
            found.extend(self._large(frame_bgr, max(1, int(band_overlap(h) // TALL_MARKER_PX))))
        return found

    def opencv_default(self, frame_bgr: np.ndarray) -> Detections:
        """OpenCV's detector with its default settings over the whole frame, unconfirmed:
        the baseline the benchmark compares against."""
        gray = to_gray(frame_bgr)
        corners, ids, rejected = self._default.detectMarkers(gray)
        markers = [Marker(int(code), self.markers.role_of(int(code)), quad.reshape(4, 2).astype(np.float64))
                   for quad, code in zip(corners, [] if ids is None else ids.ravel().tolist())]
        return Detections(markers, np.array(rejected, dtype=np.float64).reshape(-1, 4, 2))


#: Pixels of replicated edge added around an image before detection.
DETECTION_PAD = 12


@dataclass(frozen=True)
class Padded:
    """A grey image widened by a replicated edge (see :func:`padded_gray`)."""

    image: np.ndarray
    #: Where the original image's pixel (0, 0) lies in :attr:`image`, as (x, y).
    shift: np.ndarray

    #: The original image's (height, width).
    size: tuple[int, int]

    def inner(self) -> np.ndarray:
        """The original image in grey: a view of :attr:`image` without its padding."""
        x, y = (int(v) for v in self.shift)
        return self.image[y : y + self.size[0], x : x + self.size[1]]


def padded_gray(image: np.ndarray, edges: tuple[bool, bool] = (True, True)) -> Padded:
    """``image`` (BGR or grey) in grey, widened by :data:`DETECTION_PAD` pixels of its
    replicated edge, as ``cv2.copyMakeBorder(to_gray(image), ..., BORDER_REPLICATE)``
    gives it, but converted straight into the padded array: no grey copy beside it (at a
    band of a 4608 x 2592 frame, 5 MB less at the reader's peak, and one copy less).

    OpenCV misses markers whose white quiet zone runs into the image's edge (a stand at
    the very edge of the frame, a sticker at the edge of a region); the padding gives
    it room. ``edges`` says whether the top and the bottom get it too: a band cut out of
    a frame is not padded where it was cut, so a marker cut in two is left to the band
    that holds all of it instead of being stretched into a false outline."""
    top, bottom = (DETECTION_PAD if edge else 0 for edge in edges)
    side = DETECTION_PAD
    h, w = image.shape[:2]
    padded = np.empty((top + h + bottom, side + w + side), np.uint8)
    inner = padded[top : top + h, side : side + w]
    if image.ndim == 2:
        inner[:] = image
    else:
        cv2.cvtColor(image, cv2.COLOR_BGR2GRAY, dst=inner)
    padded[top : top + h, :side] = inner[:, :1]
    padded[top : top + h, side + w :] = inner[:, -1:]
    padded[:top] = padded[top]
    padded[top + h :] = padded[top + h - 1]
    return Padded(padded, np.array((side, top), np.float32), (h, w))


def detect_padded(detector: cv2.aruco.ArucoDetector, padded: Padded) -> tuple[Any, ...]:
    """``detector.detectMarkers`` on a :func:`padded_gray` image, in the original image's pixels."""
    corners, ids, rejected = detector.detectMarkers(padded.image)
    return ([c - padded.shift for c in corners], ids, [r - padded.shift for r in rejected])


#: Frames larger than this (pixels) are read band by band in the whole-frame pass.
BANDED_FRAME_PIXELS = 2_000_000
#: Bands of a large frame's whole-frame pass.
WHOLE_FRAME_BANDS = 3
#: Markers too tall to fit a band's overlap are looked for in a copy shrunk by a whole
#: factor, where they are still at least about this many pixels tall.
TALL_MARKER_PX = 64.0


def whole_frame_bands(shape: tuple[int, ...]) -> int:
    """How many bands the whole-frame pass reads a frame of ``shape`` in."""
    return WHOLE_FRAME_BANDS if shape[0] * shape[1] > BANDED_FRAME_PIXELS else 1


def band_overlap(height: int) -> int:
    """Rows shared by neighbouring bands of a frame ``height`` rows tall: a sixth of it.
    The tallest marker in the simulated table's frames is an eleventh (117 of 1296 rows),
    which leaves room for the threshold window at a band's cut edge."""
    return height // 6


def band_rows(height: int, bands: int) -> list[tuple[int, int]]:
    """``bands`` row ranges (y0, y1) covering ``height`` rows, neighbours sharing
    :func:`band_overlap` rows."""
    if bands <= 1:
        return [(0, height)]
    overlap = band_overlap(height)
    step = -(-(height - overlap) // bands)
    return [(y0, min(height, y0 + step + overlap)) for y0 in range(0, height - overlap, step)]


def to_gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


# ------------------------------------------------------------------------------- QR


class QrDetector:
    """QR stickers through pyzbar (zbar), for large self-describing stickers."""

    def __init__(self, markers: MarkerSet):
        from pyzbar import pyzbar  # imported here: it loads the zbar shared library

        self.markers = markers
        self._pyzbar = pyzbar

    def whole_frame(self, frame_bgr: np.ndarray) -> Detections:
        """Every QR code in the frame. zbar misses some codes at one scale that it finds at
        another, so a large frame is also scanned at half size; the reader merges repeats."""
        gray = to_gray(frame_bgr)
        found = Detections([], no_candidates())
        for scale in (1.0, 0.5) if gray.shape[1] >= QR_HALF_SCAN_WIDTH else (1.0,):
            image = gray if scale == 1.0 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            found.extend(self._scan(gray, image, scale))
        return found

    def _scan(self, gray: np.ndarray, image: np.ndarray, scale: float) -> Detections:
        markers, candidates = [], []
        for symbol in self._pyzbar.decode(image, symbols=[self._pyzbar.ZBarSymbol.QRCODE]):
            try:
                payload = symbol.data.decode("utf-8")
            except UnicodeDecodeError:
                payload = symbol.data.decode("latin-1")
            polygon = np.array([(p.x, p.y) for p in symbol.polygon], dtype=np.float64)
            if len(polygon) != 4:
                continue
            outline = _clockwise(to_full(polygon, scale, (0.0, 0.0)))
            role = self.markers.role_of(payload)
            if role is None:
                markers.append(Marker(payload, None, outline, scale))
                continue
            corners = _orient_qr(gray, outline, expected_cells(self.markers, role))
            if corners is None:
                candidates.append(outline)
            else:
                markers.append(Marker(payload, role, corners, scale))
        return Detections(markers, np.array(candidates, dtype=np.float64).reshape(-1, 4, 2))


#: Frames at least this wide are also scanned for QR codes at half size.
QR_HALF_SCAN_WIDTH = 2000


def _clockwise(polygon: np.ndarray) -> np.ndarray:
    """The four points in clockwise order on screen (image y points down)."""
    centre = polygon.mean(axis=0)
    angles = np.arctan2(polygon[:, 1] - centre[1], polygon[:, 0] - centre[0])
    return polygon[np.argsort(angles)]


#: Share of a QR code's modules that must match its payload's pattern.
QR_MIN_AGREEMENT = 0.85


def _orient_qr(gray: np.ndarray, corners: np.ndarray, expected_black: np.ndarray) -> np.ndarray | None:
    """zbar's outline of a QR code starts at an arbitrary corner: find the rotation under
    which the sampled modules match the payload's own pattern, or None if none does."""
    turns = np.stack([np.roll(corners, -turn, axis=0) for turn in range(4)])
    _, agreement = cell_agreement(cell_means(gray, turns, expected_black.shape[0]), expected_black)
    best = int(np.argmax(agreement))
    return turns[best] if agreement[best] >= QR_MIN_AGREEMENT else None
