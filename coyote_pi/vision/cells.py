"""A marker's cells as a real lens shows them: its black, its white and its blur, measured.

A printed marker is a grid of black and white modules. A camera sees each module spread
by its lens and sensor (defocus, a moving hand, demosaicing): a lone white module among
black ones comes out grey, the greyer the fewer pixels a module covers. Judging every
cell against one midpoint between the marker's black and white (the first rule this
project had) then refuses real soft-focus markers whose code was read exactly.

This module models the spread instead of ignoring it. A cell's sampled level is
``black + contrast * sum(k(dy) * k(dx) * white(neighbour))``: the whiteness (0 or 1) of
the cell and of its eight neighbours, weighted by a kernel ``k`` of a Gaussian spread of
``sigma`` module widths, averaged over the points where the cell is sampled. The ring of
modules round the marker (its quiet zone, or whatever lies there) is sampled too and
enters as it is measured. For each of :data:`SIGMAS` the black and the contrast are fitted
to the marker's cells by least squares; the spread that fits best is the marker's
**blur**, and its contrast its **contrast**.

**Confirmation** then judges each cell on its own: under the fitted blur, the level it
would have if it were black and the level it would have if it were white (its neighbours
as they are claimed) differ by ``contrast * k(0)**2``; a cell is confirmed when it lies at
least :data:`CELL_MARGIN` of that difference past the midpoint on its claimed side. A sharp
marker (blur 0) gives exactly the old rule; a soft one is judged against the grey its
pattern must give. A misread cannot pass: a cell whose claimed colour is wrong sits
about half that difference on the *wrong* side, whatever the blur (the fit cannot move it,
since the claimed neighbours are the same in both predictions), and a marker so blurred
that a cell's own module gives less than :data:`MIN_OWN_SHARE` of its level is refused
(its cells could no longer be told apart from their neighbours).

The same fit is the focus check's measurement (:func:`marker_focus`): the blur in module
widths and pixels, and the contrast, of each marker a camera sees.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import NamedTuple

import cv2
import numpy as np

#: Gaussian spreads tried, in module widths (0: sharp). Past 0.5 a module's own share of
#: its cell's level is under :data:`MIN_OWN_SHARE`: no use trying.
SIGMAS = (0.0, 0.12, 0.22, 0.3, 0.38, 0.46)
#: Sample points across each cell, in module widths from the cell's edge: its middle
#: (2 x 2 a cell: a dozen markers a frame are confirmed, and 3 x 3 read no more).
SAMPLE_POSITIONS = (0.35, 0.65)
#: A cell must lie at least this share of the black-versus-white difference of its own
#: level (under the marker's blur) past the midpoint, on its claimed side.
CELL_MARGIN = 0.05
#: A cell's own module must give at least this share of its sampled level.
MIN_OWN_SHARE = 0.4
#: Weakest black-to-white contrast (grey levels) that still counts as a printed marker.
MIN_CONTRAST = 18.0


class CellFit(NamedTuple):
    """The fit of each of N markers' cells: arrays of shape (N,)."""

    black: np.ndarray  # grey level of a black module's cell with black all round
    contrast: np.ndarray  # white minus black, grey levels
    sigma: np.ndarray  # the blur, in module widths
    margin: np.ndarray  # the worst cell's margin (see the module's docstring); -1 where not judged
    residual: np.ndarray  # RMS of the cells' levels about the fitted ones, grey levels (noise, artefacts)


def _phi(x: np.ndarray) -> np.ndarray:
    erf = np.vectorize(math.erf)
    result: np.ndarray = 0.5 * (1.0 + erf(x / math.sqrt(2.0)))
    return result


@cache
def kernel(sigma: float) -> np.ndarray:
    """Weights of the modules one before, at and one after a cell in its sampled level,
    under a Gaussian spread of ``sigma`` module widths (the three sum to about 1)."""
    if sigma <= 0.0:
        return np.array([0.0, 1.0, 0.0])
    positions = np.asarray(SAMPLE_POSITIONS)
    taps = [(_phi((d + 1 - positions) / sigma) - _phi((d - positions) / sigma)).mean() for d in (-1, 0, 1)]
    weights = np.asarray(taps)
    result: np.ndarray = weights / weights.sum()  # modules two away give under 1 %: counted with the next ones
    return result


_KERNELS = np.stack([kernel(sigma) for sigma in SIGMAS])
#: The share of a cell's level its own module gives, under each of :data:`SIGMAS`.
_OWN_SHARES = _KERNELS[:, 1] ** 2


@lru_cache(maxsize=8)
def _grid(cells: int) -> tuple[np.ndarray, np.ndarray]:
    """(u, v) sample points of ``cells`` + 2 cells a side (the marker and a ring of one
    module round it) in the marker's unit square, shape (k * (cells + 2),) * 2."""
    along = np.asarray(SAMPLE_POSITIONS)
    axis = ((np.arange(-1, cells + 1)[:, None] + along).ravel()) / cells
    u, v = np.meshgrid(axis, axis)
    return u, v


def sample_levels(image: np.ndarray, quads: np.ndarray, cells: int) -> np.ndarray:
    """Mean grey level of each cell of each of (N, 4, 2) quads (in the grey or BGR
    ``image``'s pixels, OpenCV's
    corner order) and of the ring of cells round it: (N, cells + 2, cells + 2), NaN for a
    quad off the image."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    k, side = len(SAMPLE_POSITIONS), cells + 2
    if len(quads) == 0:
        return np.zeros((0, side, side))
    u, v = _grid(cells)
    samples = sample_points(image, quads, u, v)
    if samples.ndim == 3:  # only the samples are turned grey, not the frame round them
        samples = cv2.cvtColor(samples, cv2.COLOR_BGR2GRAY)
    samples = samples.reshape(len(quads), side, k, side, k)
    levels = samples.sum(axis=(2, 4), dtype=np.float64) / (k * k)
    levels[~on_image(quads, image.shape)] = np.nan
    result: np.ndarray = levels
    return result


def sample_points(image: np.ndarray, quads: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The pixels of ``image`` at the points (``u``, ``v``) of the unit square (two
    arrays of one 2-D shape (r, c); 0 and 1 are the marker's outer edges) mapped onto
    each of (N, 4, 2) quads (image pixels, clockwise from the top-left), interpolated
    bilinearly and replicating the image's edge: shape (N * r, c[, channels]).

    The unit square is mapped onto each quad in closed form (Heckbert's square-to-quad
    projective mapping: a few array operations for the whole batch), and one
    ``cv2.remap`` gathers every sample of every quad from the image."""
    (x0, x1, x2, x3), (y0, y1, y2, y3) = (quads[..., i].T[:, :, None, None] for i in (0, 1))
    dx1, dx2, dx3 = x1 - x2, x3 - x2, x0 - x1 + x2 - x3
    dy1, dy2, dy3 = y1 - y2, y3 - y2, y0 - y1 + y2 - y3
    with np.errstate(divide="ignore", invalid="ignore"):  # a quad collapsed to a line
        det = dx1 * dy2 - dy1 * dx2
        g, h = (dx3 * dy2 - dy3 * dx2) / det, (dx1 * dy3 - dy1 * dx3) / det
        den = g * u + h * v + 1.0
        map_x = ((x1 - x0 + g * x1) * u + (x3 - x0 + h * x3) * v + x0) / den
        map_y = ((y1 - y0 + g * y1) * u + (y3 - y0 + h * y3) * v + y0) / den
    shape = (len(quads) * u.shape[0], u.shape[1])
    return cv2.remap(image, map_x.astype(np.float32).reshape(shape), map_y.astype(np.float32).reshape(shape),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def on_image(quads: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which of (N, 4, 2) quads lie on an image of ``shape`` at least 4 pixels each way."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    low, high = quads.min(axis=1), quads.max(axis=1)
    width = np.minimum(high[:, 0], shape[1]) - np.maximum(low[:, 0], 0)
    height = np.minimum(high[:, 1], shape[0]) - np.maximum(low[:, 1], 0)
    result: np.ndarray = np.isfinite(quads).all(axis=(1, 2)) & (width >= 4) & (height >= 4)
    return result


def fit_cells(levels: np.ndarray, expected_black: np.ndarray) -> CellFit:
    """Fit black, contrast and blur to sampled ``levels`` (from :func:`sample_levels`)
    of markers claimed to print ``expected_black`` (one (n, n) pattern for all, or
    (N, n, n)), and judge every cell (see the module's docstring)."""
    levels = np.asarray(levels, np.float64)
    n = levels.shape[1] - 2
    claimed_white = ~np.broadcast_to(expected_black, (len(levels), n, n))
    inner = levels[:, 1:-1, 1:-1]
    count = n * n
    whites = np.count_nonzero(claimed_white, axis=(1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        # A first black and white from the cells' own means, to place the ring's levels.
        black = np.where(claimed_white, 0.0, inner).sum(axis=(1, 2)) / (count - whites)
        white = np.where(claimed_white, inner, 0.0).sum(axis=(1, 2)) / whites
        whiteness = np.clip((levels - black[:, None, None]) / (white - black)[:, None, None], 0.0, 1.0)
    whiteness[:, 1:-1, 1:-1] = claimed_white
    black, contrast, which, predicted, residual = _best_spread(inner, whiteness)
    own_share = _OWN_SHARES[which]
    midpoint = black[:, None, None] + contrast[:, None, None] * (predicted - own_share[:, None, None]
                                                                 * (claimed_white - 0.5))
    with np.errstate(divide="ignore", invalid="ignore"):
        signed = np.where(claimed_white, 1.0, -1.0) * (inner - midpoint) / (contrast * own_share)[:, None, None]
        worst = signed.min(axis=(1, 2))
    judged = ((whites > 0) & (whites < count) & (contrast >= MIN_CONTRAST) & (own_share >= MIN_OWN_SHARE)
              & np.isfinite(worst))
    return CellFit(black, contrast, np.asarray(SIGMAS)[which], np.where(judged, worst, -1.0), residual)


def _best_spread(inner: np.ndarray, whiteness: np.ndarray) -> tuple[np.ndarray, ...]:
    """For each of N markers, the spread of :data:`SIGMAS` whose least-squares fit of
    ``inner = black + contrast * predicted`` leaves the least residual: (black, contrast,
    the spread's index in :data:`SIGMAS`, predicted (N, n, n), the fit's RMS residual).
    Every spread is fitted
    at once: (S, N, ...) arrays, one numpy call each."""
    n_markers = len(inner)
    weights = _KERNELS[:, :, None, None, None]
    rows = weights[:, 0] * whiteness[:, :-2] + weights[:, 1] * whiteness[:, 1:-1] + weights[:, 2] * whiteness[:, 2:]
    predicted = weights[:, 0] * rows[..., :-2] + weights[:, 1] * rows[..., 1:-1] + weights[:, 2] * rows[..., 2:]
    p = predicted.reshape(len(SIGMAS), n_markers, -1)
    y = inner.reshape(1, n_markers, -1)
    p_centred = p - p.mean(axis=2, keepdims=True)
    y_mean = y.mean(axis=2, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        contrast = (p_centred * (y - y_mean)).sum(axis=2) / (p_centred * p_centred).sum(axis=2)
    black = y_mean[..., 0] - contrast * p.mean(axis=2)
    error = ((y - black[..., None] - contrast[..., None] * p) ** 2).sum(axis=2)
    which = np.argmin(np.where(np.isfinite(error), error, np.inf), axis=0)
    pick = (which, np.arange(n_markers))
    return black[pick], contrast[pick], which, predicted[pick], np.sqrt(error[pick] / p.shape[2])


def confirmation_margins(image: np.ndarray, quads: np.ndarray, expected_black: np.ndarray) -> np.ndarray:
    """Each of (N, 4, 2) quads' worst cell margin against its claimed pattern(s)."""
    return fit_cells(sample_levels(image, quads, expected_black.shape[-1]), expected_black).margin


#: Where a marker's outer edge is sampled for :func:`edge_blur_px`: along each side
#: (share of the side, clear of the corners) and across it (module widths, outwards).
_EDGE_ALONG = np.linspace(0.25, 0.75, 9)
_EDGE_ACROSS = np.linspace(-0.6, 0.6, 25)  # a stand leaning away shows its modules narrower across


def edge_blur_px(gray: np.ndarray, quad: np.ndarray, cells: int) -> float:
    """The blur (a Gaussian's sigma, pixels) of a marker's outer edge, from black border
    to white quiet zone, averaged along its four sides: a Gaussian spreads a step's 25 %
    to 75 % rise over 1.349 sigma. Unlike :func:`fit_cells`, whose spreads are in module
    widths, it measures a large marker's small blur to a tenth of a pixel."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    profiles = []
    module_px = []
    for i in range(4):
        start, end = quad[i], quad[(i + 1) % 4]
        along = end - start
        length = float(np.hypot(*along))
        normal = np.array([along[1], -along[0]]) / max(length, 1e-9)
        if np.dot((start + end) / 2 - centre, normal) < 0:
            normal = -normal  # outwards
        module = length / cells
        module_px.append(module)
        points = (start + _EDGE_ALONG[:, None] * along)[:, None, :] + (_EDGE_ACROSS * module)[None, :, None] * normal
        map_xy = points.astype(np.float32)
        profile = cv2.remap(gray, map_xy[..., 0], map_xy[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        profiles.append(profile.astype(np.float64).mean(axis=0))
    profile = np.mean(profiles, axis=0)
    low, high = profile[:3].mean(), profile[-3:].mean()
    if high - low < MIN_CONTRAST:
        return float("nan")
    rise = np.clip((profile - low) / (high - low), 0.0, 1.0)
    rise = np.maximum.accumulate(rise)  # a monotone step: noise cannot cross back
    across_px = _EDGE_ACROSS * float(np.mean(module_px))
    quarter, three_quarters = np.interp([0.25, 0.75], rise, across_px)
    return float(max(three_quarters - quarter, 0.0) / 1.349)


class MarkerFocus(NamedTuple):
    """How sharply a camera sees one marker (see :func:`marker_focus`)."""

    side_px: float  # mean side, pixels
    module_px: float  # pixels per module
    blur_px: float  # the spread of its outer edge, pixels (a Gaussian's sigma: edge_blur_px)
    contrast: float  # white minus black, grey levels
    cell_contrast: float  # the lowest claimed-white minus highest claimed-black cell, grey levels
    residual: float  # the cells' RMS about the fitted levels, grey levels (noise, artefacts)


def marker_focus(frame: np.ndarray, quads: np.ndarray, expected_black: np.ndarray) -> list[MarkerFocus]:
    """Sharpness and size of each of (N, 4, 2) markers in ``frame`` (grey or BGR) that
    print ``expected_black``: the blur of its edge in pixels, the marker's contrast, and its
    **cell contrast**, the gap between its darkest claimed-white and lightest
    claimed-black cell, which is what a soft focus eats first (the confirmation's and
    the focus check's measure of a marker's sharpness)."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    cells = expected_black.shape[-1]
    levels = sample_levels(gray, quads, cells)
    fit = fit_cells(levels, expected_black)
    claimed_white = ~np.broadcast_to(expected_black, (len(quads), cells, cells))
    inner = levels[:, 1:-1, 1:-1]
    lowest_white = np.where(claimed_white, inner, np.inf).min(axis=(1, 2))
    highest_black = np.where(claimed_white, -np.inf, inner).max(axis=(1, 2))
    side = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).mean(axis=1)
    return [MarkerFocus(float(s), float(s / cells), edge_blur_px(gray, quad, cells), float(c), float(w - b), float(r))
            for s, quad, c, w, b, r in zip(side, quads, fit.contrast, lowest_white, highest_black, fit.residual)]
