"""Finding markers in a frame: the tuned ArUco path, OpenCV's defaults, and QR via pyzbar.

Every detector returns :class:`Marker` objects with corners in full-frame pixels, in the
printed marker's own order (top-left, top-right, bottom-right, bottom-left), plus
candidate quadrilaterals that looked like a marker but could not be decoded
(a sticker under a finger, blurred or glared): the reader reports those as
"unreadable" instead of pretending nothing is there.

Before any decoded marker is believed, :func:`confirm` samples its cells from the image
and checks them against the code it claims to be: every cell must be clearly black or
clearly white and agree with the code. A marker that decodes only by a narrow margin
is demoted to a candidate. This is how "never guess" is enforced at pixel level.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial

import cv2
import numpy as np

from coyote_pi.vision import artwork
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
        return self.corners.sum(axis=0) / 4

    @cached_property
    def side_px(self) -> float:
        return sum(quad_sides(self.corners)) / 4


def no_candidates() -> np.ndarray:
    return np.zeros((0, 4, 2))


@dataclass
class Detections:
    """Confirmed markers, and ``candidates``: an (N, 4, 2) array of marker-shaped
    quadrilaterals that could not be read (kept as one array: there can be thousands)."""

    markers: list[Marker]
    candidates: np.ndarray

    def extend(self, other: Detections) -> None:
        self.markers.extend(other.markers)
        self.candidates = np.concatenate([self.candidates, other.candidates])


#: Each corner's predecessor round a quadrilateral: ``quad[PREVIOUS]`` is
#: ``np.roll(quad, 1, axis=0)`` at a fraction of the cost (the reader does it thousands
#: of times a frame on four points).
PREVIOUS = [3, 0, 1, 2]


def sides(quads: np.ndarray) -> np.ndarray:
    """The four side lengths of each of (..., 4, 2) quadrilaterals."""
    d = quads - quads[..., PREVIOUS, :]
    return np.sqrt((d * d).sum(axis=-1))


def quad_sides(quad: np.ndarray) -> list[float]:
    """The four side lengths of one (4, 2) quadrilateral, as :func:`sides` orders them, in
    plain Python: the reader asks for them hundreds of times a frame, and numpy's per-call
    cost on four points outweighs the work."""
    points = quad.tolist()
    return [math.dist(points[i - 1], points[i]) for i in range(4)]


def side_lengths(quads: np.ndarray) -> np.ndarray:
    """Mean side length of each of (N, 4, 2) quadrilaterals."""
    return sides(quads).sum(axis=1) / 4


# ------------------------------------------------------------------ confirming a read


#: Samples per cell side when a marker's cells are read back for confirmation.
_SAMPLES_PER_CELL = 5
#: A cell must sit at least this share of the black-to-white contrast away from the
#: midpoint between the marker's black and white levels.
CELL_MARGIN = 0.12
#: Weakest black-to-white contrast (grey levels) that still counts as a printed marker.
MIN_CONTRAST = 18.0


def cell_means(image: np.ndarray, corners: np.ndarray, cells: int) -> np.ndarray:
    """Mean grey level of each of ``cells`` x ``cells`` cells of the quad ``corners``
    (given in the grey or BGR ``image``'s pixel coordinates), ignoring a fifth of each
    cell at its edges. A BGR image is turned grey after the warp: a few hundred pixels,
    not the thousands round the quad."""
    side = cells * _SAMPLES_PER_CELL
    square = np.float32([(0, 0), (side, 0), (side, side), (0, side)])
    warp = cv2.getPerspectiveTransform(np.float32(corners), square)
    patch = to_gray(cv2.warpPerspective(image, warp, (side, side), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REPLICATE))
    inner = patch.reshape(cells, _SAMPLES_PER_CELL, cells, _SAMPLES_PER_CELL)[:, 1:-1, :, 1:-1]
    # A sum and a division: ``mean`` costs several times more in numpy's Python layer,
    # and the reader samples hundreds of markers a frame.
    return inner.sum(axis=(1, 3), dtype=np.float32) / (_SAMPLES_PER_CELL - 2) ** 2


def cell_agreement(means: np.ndarray, expected_black: np.ndarray) -> tuple[float, float]:
    """How well sampled cells match a code: (smallest normalised margin, share agreeing).

    The margin is each cell's distance from the black/white midpoint towards its
    expected side, divided by the contrast; it is negative for a cell on the wrong side.
    """
    black_cells = int(np.count_nonzero(expected_black))
    if black_cells in (0, expected_black.size):
        return -1.0, 0.0  # no contrast to judge by
    black_sum = float(means[expected_black].sum())
    black = black_sum / black_cells
    white = (float(means.sum()) - black_sum) / (expected_black.size - black_cells)
    contrast = white - black
    if contrast < MIN_CONTRAST:
        return -1.0, 0.0
    signed = np.where(expected_black, -1.0, 1.0) * (means - (white + black) / 2) / contrast
    return float(signed.min()), float(np.count_nonzero(signed > 0)) / signed.size


def bounds(points: np.ndarray, shape, before: int, after: int) -> tuple[int, int, int, int]:
    """The pixel box (x0, y0, x1, y1) round ``points``, ``before`` pixels wider on the
    top and left and ``after`` on the bottom and right, cut to a frame of ``shape``. In
    plain Python: the reader asks for thousands of these a frame, and numpy's per-call
    cost on four points outweighs the work."""
    (left, top), (right, bottom) = points.min(axis=0).tolist(), points.max(axis=0).tolist()
    return (max(math.floor(left) - before, 0), max(math.floor(top) - before, 0),
            min(math.ceil(right) + after, shape[1]), min(math.ceil(bottom) + after, shape[0]))


def cell_means_in_frame(frame: np.ndarray, corners: np.ndarray, cells: int) -> np.ndarray | None:
    """:func:`cell_means` for a quad given in full-frame pixels (None if it is off the
    frame), warping only the part of the frame it covers."""
    x0, y0, x1, y1 = bounds(corners, frame.shape, 2, 3)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    return cell_means(frame[y0:y1, x0:x1], corners - (x0, y0), cells)


def cell_colours(frame: np.ndarray, corners: np.ndarray, cols: int, rows: int) -> np.ndarray | None:
    """Mean BGR colour of each of ``rows`` x ``cols`` cells of the quad ``corners``
    (full-frame pixels, clockwise from the top-left), shape (rows, cols, 3); None if the
    quad is off the frame."""
    x0, y0, x1, y1 = bounds(corners, frame.shape, 2, 3)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    n = _SAMPLES_PER_CELL
    target = np.float32([(0, 0), (cols * n, 0), (cols * n, rows * n), (0, rows * n)])
    warp = cv2.getPerspectiveTransform(np.float32(corners - (x0, y0)), target)
    patch = cv2.warpPerspective(frame[y0:y1, x0:x1], warp, (cols * n, rows * n), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return patch.reshape(rows, n, cols, n, 3).astype(np.float32).mean(axis=(1, 3))


def _frame_cell_agreement(frame: np.ndarray, corners: np.ndarray, expected_black: np.ndarray) -> tuple[float, float]:
    """:func:`cell_agreement` for a quad given in full-frame pixels."""
    means = cell_means_in_frame(frame, corners, expected_black.shape[0])
    return (-1.0, 0.0) if means is None else cell_agreement(means, expected_black)


def confirm(frame: np.ndarray, corners: np.ndarray, expected_black: np.ndarray) -> bool:
    """True when every cell of the quad (full-frame pixels) is clearly the colour the
    code says, judged in the full-resolution frame whatever resolution found it."""
    return _frame_cell_agreement(frame, corners, expected_black)[0] >= CELL_MARGIN


def to_full(points: np.ndarray, scale: float, offset) -> np.ndarray:
    """Pixel coordinates in a copy resized by ``scale`` (of the part of the frame at
    ``offset``) back in the full frame. Pixel centres sit at integers in both, so the
    half-pixel terms matter: without them a 1/6 copy puts every corner 2.5 px off."""
    return (points + 0.5) / scale - 0.5 + np.asarray(offset, dtype=np.float64)


#: Corners found in a copy shrunk below this scale are settled on the full frame; at
#: half the resolution or more they are within a pixel, as close as placing a card and
#: sampling its cells (a fifth of a cell's side from its edges) need.
REFINE_BELOW_SCALE = 0.5


def refine_corners(frame: np.ndarray, corners: np.ndarray, scale: float) -> np.ndarray:
    """Corners found in a copy shrunk by ``scale`` are only that precise once scaled up;
    settle them on the full-resolution image (each is a sharp black-on-white corner)."""
    side = sum(quad_sides(corners)) / 4
    # The window must reach the true corner (about one pixel of the small copy away) but
    # stay within the marker's border module: wider windows settle on the wrong corner.
    half = int(min(max(round(1.5 / scale), 2), max(2, side / 7)))
    x0, y0, x1, y1 = bounds(corners, frame.shape, 2 * half, 2 * half + 1)
    patch = to_gray(frame[y0:y1, x0:x1])
    points = (corners - (x0, y0)).astype(np.float32).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    refined = cv2.cornerSubPix(patch, points, (half, half), (-1, -1), criteria).reshape(4, 2)
    moved = np.linalg.norm(refined - points.reshape(4, 2), axis=1).max()
    # A corner that wandered further than the search window latched onto something else.
    return refined.astype(np.float64) + (x0, y0) if moved <= 2 * half else corners


def pattern_agreement(frame: np.ndarray, corners: np.ndarray, expected_black: np.ndarray) -> float:
    """Share of a marker's cells that match its pattern where it should be printed
    (0 when there is no black-and-white contrast there at all)."""
    return _frame_cell_agreement(frame, corners, expected_black)[1]


@lru_cache(maxsize=512)
def expected_cells(markers: MarkerSet, role: str) -> np.ndarray:
    """The printed pattern of ``role``'s marker: True where a module is black."""
    return artwork.marker_modules(markers, role)


@lru_cache(maxsize=4096)
def _expected_unknown_aruco(dictionary_name: str, code: int, modules: int) -> np.ndarray:
    image = cv2.aruco.generateImageMarker(artwork.aruco_dictionary(dictionary_name), code, modules, borderBits=1)
    return image < 128


# ---------------------------------------------------------------------------- ArUco


def _params(**settings) -> cv2.aruco.DetectorParameters:
    params = cv2.aruco.DetectorParameters()
    for name, value in settings.items():
        setattr(params, name, value)
    return params


#: The low-resolution pass: one threshold window, big markers only, exact codes. The
#: perimeter floor (0.06 of the copy's width, about 12 px a side at 768) keeps the
#: slot markers, the smallest anchors, and skips most card stickers, which cost time only.
ANCHOR_PARAMS = dict(
    minDistanceToBorder=1,
    adaptiveThreshWinSizeMin=7,
    adaptiveThreshWinSizeMax=7,
    minMarkerPerimeterRate=0.06,
    errorCorrectionRate=0.0,
    polygonalApproxAccuracyRate=0.05,
)
#: Regions of interest are scaled so that the expected sticker is about this many
#: pixels on its shorter side before detection; the parameters below are tuned for it.
ROI_STICKER_PX = 44.0
#: The least and greatest scale a region is read at.
ROI_SCALES = (0.5, 2.0)
#: Outlines in a region with sides shorter than this share of the expected sticker's
#: are not decoded (a sticker seen obliquely keeps well over half its side).
ROI_SMALLEST_SHARE = 0.4
#: (``minMarkerPerimeterRate`` is set per region from it: see :meth:`ArucoDetector.region`.)
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
#: The whole-frame fallback at full resolution (slow, thorough), run once per window.
FULL_WINDOWS = (9, 21)
FULL_PARAMS = dict(
    minMarkerPerimeterRate=0.02,
    errorCorrectionRate=0.0,
    polygonalApproxAccuracyRate=0.06,
    perspectiveRemovePixelPerCell=6,
    perspectiveRemoveIgnoredMarginPerCell=0.2,
)


class ArucoDetector:
    """The ArUco detectors the reader uses, all confirming what they decode."""

    def __init__(self, markers: MarkerSet):
        self.markers = markers
        dictionary = artwork.aruco_dictionary(markers.dictionary)
        self._anchor = cv2.aruco.ArucoDetector(dictionary, _params(**ANCHOR_PARAMS))
        self._roi = [cv2.aruco.ArucoDetector(dictionary, _params(**ROI_PARAMS, adaptiveThreshWinSizeMin=w,
                                                                 adaptiveThreshWinSizeMax=w))
                     for w in ROI_WINDOWS]
        self._full = [cv2.aruco.ArucoDetector(dictionary, _params(**FULL_PARAMS, adaptiveThreshWinSizeMin=w,
                                                                  adaptiveThreshWinSizeMax=w))
                      for w in FULL_WINDOWS]
        self._default = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())

    def _collect(self, frame, found, scale: float, offset: tuple[float, float], keep=None,
                 candidate_px: tuple[float, float] | None = None) -> Detections:
        """Turn detectMarkers output (on an image ``scale`` times the size of the part of
        ``frame`` at ``offset``) into confirmed markers in full-frame pixels.

        ``keep`` limits the roles kept (unknown codes and candidates are then dropped);
        ``candidate_px`` keeps only candidates whose side (in the detector's image) is in
        that range.
        """
        corners, ids, rejected = found
        markers, demoted = [], []
        shift = offset
        for quad, code in zip(corners, [] if ids is None else ids.ravel().tolist()):
            quad = quad.reshape(4, 2).astype(np.float64)
            role = self.markers.role_of(int(code))
            if keep is not None and (role is None or role_kind(role) not in keep):
                continue
            full = to_full(quad, scale, shift)
            if scale < REFINE_BELOW_SCALE:
                full = refine_corners(frame, full, scale)
            expected = (expected_cells(self.markers, role) if role is not None else
                        _expected_unknown_aruco(self.markers.dictionary, int(code), self.markers.modules))
            if not confirm(frame, full, expected):
                demoted.append(quad)
                continue
            markers.append(Marker(int(code), role, full, scale))
        if keep is not None:
            return Detections(markers, no_candidates())
        quads = np.array([q.reshape(4, 2) for q in rejected] + demoted, dtype=np.float64).reshape(-1, 4, 2)
        if candidate_px is not None and len(quads):
            sides = side_lengths(quads)
            quads = quads[(sides >= candidate_px[0]) & (sides <= candidate_px[1])]
        return Detections(markers, to_full(quads, scale, shift))

    def anchors(self, frame_bgr: np.ndarray, factor: int) -> Detections:
        """Stands, mat markers and the Coyote card, found in a 1/``factor`` copy of the frame."""
        return self._large(frame_bgr, factor, keep=ANCHOR_KINDS)

    def stands(self, frame_bgr: np.ndarray, factor: int, box: tuple[int, int, int, int] | None = None) -> Detections:
        """Stand markers only, found in a 1/``factor`` copy of the frame (or of its part
        ``box``: x0, y0, x1, y1)."""
        return self._large(frame_bgr, factor, keep=STAND_KINDS, box=box)

    def _large(self, frame_bgr: np.ndarray, factor: int, keep=None,
               box: tuple[int, int, int, int] | None = None) -> Detections:
        """Large markers (of the roles ``keep``, or all), found in a 1/``factor`` copy of
        the frame or of its part ``box``."""
        x0, y0, x1, y1 = box or (0, 0, frame_bgr.shape[1], frame_bgr.shape[0])
        scale = 1.0 / factor
        small = cv2.resize(frame_bgr[y0:y1, x0:x1], None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        return self._collect(frame_bgr, detect_padded(self._anchor, padded_gray(small)), scale,
                             (float(x0), float(y0)), keep=keep)

    def region(self, frame_bgr: np.ndarray, box: tuple[int, int, int, int], sticker_px: float,
               enough: Callable[[list[Marker]], bool]) -> Detections:
        """Markers in ``box`` (x0, y0, x1, y1) of the full frame, read after scaling the box
        so the expected sticker is about :data:`ROI_STICKER_PX` pixels. Threshold windows
        are tried in turn until ``enough`` is satisfied with the markers found."""
        x0, y0, x1, y1 = box
        part = frame_bgr[y0:y1, x0:x1]
        scale = float(np.clip(ROI_STICKER_PX / max(sticker_px, 1.0), *ROI_SCALES))
        if abs(scale - 1.0) > 0.1:
            # Linear, not area: area averaging costs ten times as much at the usual
            # non-integer scales and read no more markers on the bench's frames. Shrunk
            # before it is turned grey, enlarged after: the conversion works on the fewer pixels.
            resize = partial(cv2.resize, dsize=None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
            gray = to_gray(resize(part)) if scale < 1.0 else resize(to_gray(part))
        else:
            scale, gray = 1.0, to_gray(part)
        expected = sticker_px * scale
        # Stickers seen obliquely are narrower one way than the other: allow for it.
        candidate_px = (0.5 * expected, 2.5 * expected)
        found = Detections([], no_candidates())
        padded = padded_gray(gray)
        # OpenCV decodes every square outline it finds, and a card's back pattern or busy
        # art gives dozens far smaller than a sticker (a face-down card's slot cost ten
        # times more than a face-up one's): let it skip those before decoding them.
        smallest_perimeter = 4 * ROI_SMALLEST_SHARE * expected
        for detector in self._roi:
            params = detector.getDetectorParameters()
            params.minMarkerPerimeterRate = smallest_perimeter / max(padded.image.shape)
            detector.setDetectorParameters(params)
            found.extend(self._collect(frame_bgr, detect_padded(detector, padded), scale, (x0, y0),
                                       candidate_px=candidate_px))
            if enough(found.markers):
                break
        return found

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
            for detector in self._full:
                found.extend(self._collect(frame_bgr, detect_padded(detector, band), 1.0, (0.0, float(y0))))
            del band  # before the next band's is made: one band-sized image at a time
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
    return Padded(padded, np.array((side, top), np.float32))


def detect_padded(detector, padded: Padded):
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
    best, best_corners = 0.0, None
    for turn in range(4):
        turned = np.roll(corners, -turn, axis=0)
        _, agreement = cell_agreement(cell_means(gray, turned, expected_black.shape[0]), expected_black)
        if agreement > best:
            best, best_corners = agreement, turned
    return best_corners if best >= QR_MIN_AGREEMENT else None
