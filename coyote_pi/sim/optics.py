"""The Camera Module 3 Wide's optics and sensor, as the renderer imitates them.

:func:`coyote_pi.sim.render.render_scene` draws what lies on the table; with
``Conditions(optics=Optics(...))`` it then takes the picture the way the real camera
would, in this order (:func:`expose`):

0. **Ink and paper**: nothing on the table is darker than printed black, which still
   reflects :attr:`Optics.ink` of what white paper does.
1. **Defocus by distance.** The lens (f = 2.75 mm at f/2.2) is focused at
   :attr:`Optics.focus_m`; a surface at distance d is spread over a disc of diameter
   ``f**2 / N * |1/focus - 1/d|`` on the sensor (thin lens), 1.4 um a pixel at full
   resolution. The table lies at the mast's height, each stand's board nearer; each is
   blurred by its own disc (a Gaussian of the disc's sigma, diameter / 2.83), combined
   with the lens's own spread at best focus, :attr:`Optics.lens_blur_px`, and the
   spread demosaicing and scaling give in the frame's own pixels,
   :attr:`Optics.pixel_blur_px` (0.6-0.9 px on the real photos' marker edges, whatever
   their resolution: so a binned or scaled-down frame is not sharper per pixel).
   The lens also scatters :attr:`Optics.halo_share` of every point's light into a wide
   halo and :attr:`Optics.flare` of the frame's mean light everywhere (veiling glare):
   a black cell among white ones is never black.
2. **A moving hand**: the cards of :attr:`Optics.moving_seats` are smeared along a line
   of :attr:`Optics.motion_px` pixels (a card pushed into its stand during the exposure).
3. **Lens fall-off** left after the ISP's shading correction: :attr:`Optics.falloff`
   darker in the corners.
4. **Auto-exposure under a lamp**: the scene is lit :attr:`Optics.light` times as
   brightly as a well-lit table; the exposure time is at most that table's, and the
   analogue gain makes up the rest, up to :attr:`Optics.max_gain`, so that the frame's
   mean reaches :attr:`Optics.target_level` without its brightest 1 % passing
   :attr:`Optics.highlight_level`. A dim table is a noisy one.
5. **The sensor**: each pixel sees one colour of a Bayer mosaic (BGGR); it collects
   electrons (full well :attr:`Optics.full_well_e`), with shot noise (Poisson, as a
   Gaussian of variance = signal) and read noise (:attr:`Optics.read_noise_e`), amplified
   by the gain, clipped to 8 bits.
6. **Demosaicing**, bilinear (OpenCV's): the colour zipper along every sharp edge.

JPEG compression, if the conditions ask for it, follows as before. The figures are those
of a 1.4 um, f/2.2 phone-class sensor of the IMX708's kind (its full well and read noise
are not published in a datasheet this project can cite: 6,000 e- and 2.5 e- are typical
of its class, and noise measured on the real photos is at least as large; docs/markers.md,
"The renderer, calibrated").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: The Camera Module 3 Wide: focal length and aperture, the sensor's pixel at full resolution.
FOCAL_MM, F_NUMBER, PIXEL_MM, FULL_WIDTH_PX = 2.75, 2.2, 0.0014, 4608


@dataclass(frozen=True)
class Optics:
    """How the camera takes the picture (see the module's docstring). Pixel amounts are
    for a 4608-pixel-wide frame and scale with the frame."""

    focus_m: float = 0.61  # where the lens is focused (inf: at infinity)
    lens_blur_px: float = 1.2  # the lens's spread at best focus (sigma)
    pixel_blur_px: float = 0.8  # demosaicing's and scaling's spread, in the frame's own pixels
    halo_share: float = 0.1  # share of a point's light the lens scatters into a halo ...
    halo_px: float = 6.0  # ... of this sigma
    ink: float = 0.08  # the darkest anything on the table reflects: printed black, against white
    flare: float = 0.04  # veiling glare: this share of the frame's mean light lands everywhere
    moving_seats: tuple[int, ...] = ()
    motion_px: float = 0.0  # how far a moving card travels during the exposure
    falloff: float = 0.25  # share of the light lost in the frame's corners
    light: float = 1.0  # the table's light against a well-lit table's
    max_gain: float = 16.0
    target_level: float = 110.0  # the mean grey auto-exposure aims at ...
    highlight_level: float = 215.0  # ... unless the brightest 1 % would pass this grey
    full_well_e: float = 6000.0
    read_noise_e: float = 2.5

    def defocus_px(self, distance_m: float, width: int = FULL_WIDTH_PX) -> float:
        """The defocus disc's sigma (pixels of a ``width``-wide frame) of a surface
        ``distance_m`` from the lens."""
        focus_power = 0.0 if math.isinf(self.focus_m) else 1.0 / self.focus_m
        diameter_mm = FOCAL_MM**2 / F_NUMBER * abs(focus_power - 1.0 / distance_m) / 1000.0
        return diameter_mm / PIXEL_MM / 2.83 * width / FULL_WIDTH_PX

    def spread_px(self, distance_m: float, width: int = FULL_WIDTH_PX) -> float:
        """The whole blur (sigma, pixels of a ``width``-wide frame) of a surface
        ``distance_m`` away: defocus, the lens's own spread and the pixels' together."""
        own = self.lens_blur_px * width / FULL_WIDTH_PX
        return math.hypot(own, self.defocus_px(distance_m, width), self.pixel_blur_px)


@dataclass(frozen=True)
class Surface:
    """A part of the frame at one distance: its outline (image pixels) and distance."""

    outline: np.ndarray  # (N, 2)
    distance_m: float
    moving: bool = False


def expose(radiance: np.ndarray, optics: Optics, table_m: float, surfaces: Sequence[Surface],
           rng: np.random.Generator) -> np.ndarray:
    """The 8-bit BGR frame the camera takes of ``radiance`` (the drawn scene, BGR uint8,
    as a well-lit table looks): the table ``table_m`` from the lens, ``surfaces`` (in
    drawing order, later ones in front) at their own distances."""
    h, w = radiance.shape[:2]
    frame = radiance.astype(np.float32) * (1.0 - optics.ink) + 255.0 * optics.ink
    sharp = frame.copy()
    _blur_to(frame, sharp, optics.spread_px(table_m, w))
    for surface in surfaces:
        _blur_surface(frame, sharp, surface, optics, w, rng)
    del sharp
    halo = optics.halo_px * w / FULL_WIDTH_PX
    frame *= 1.0 - optics.halo_share
    frame += optics.halo_share * cv2.GaussianBlur(frame, (0, 0), halo) / (1.0 - optics.halo_share)
    frame += optics.flare * float(frame.mean())
    frame *= _falloff(h, w, optics.falloff)
    # Auto-exposure: electrons a pixel collects are its level's share of the full well,
    # times the light; the gain brings the mean to the target unless that would burn out
    # the highlights (the exposure time is already as long as a steady hand allows).
    lit = float(frame.mean()) * optics.light
    brightest = float(np.percentile(frame[::8, ::8], 99)) * optics.light
    gain = min(optics.target_level / max(lit, 1e-3), optics.highlight_level / max(brightest, 1e-3))
    gain = float(np.clip(gain, 1.0, optics.max_gain))
    electrons_per_level = optics.full_well_e / 255.0
    mosaic = _bayer(frame) * (optics.light * electrons_per_level)
    noise = rng.standard_normal(mosaic.shape, dtype=np.float32)
    mosaic += noise * np.sqrt(mosaic + optics.read_noise_e**2)
    raw = np.clip(mosaic * (gain / electrons_per_level), 0, 255).astype(np.uint8)
    return cv2.cvtColor(raw, cv2.COLOR_BayerRG2BGR)


def _blur_to(frame: np.ndarray, sharp: np.ndarray, sigma: float) -> None:
    if sigma >= 0.2:
        cv2.GaussianBlur(sharp, (0, 0), sigma, dst=frame)


def _blur_surface(frame: np.ndarray, sharp: np.ndarray, surface: Surface, optics: Optics, width: int,
                  rng: np.random.Generator) -> None:
    """Blur ``surface``'s part of ``sharp`` by its own spread (and its motion) into ``frame``."""
    h, w = frame.shape[:2]
    sigma = optics.spread_px(surface.distance_m, width)
    motion = optics.motion_px * width / FULL_WIDTH_PX if surface.moving else 0.0
    reach = int(3 * sigma + motion + 2)
    x0, y0 = np.floor(surface.outline.min(axis=0)).astype(int) - reach
    x1, y1 = np.ceil(surface.outline.max(axis=0)).astype(int) + reach
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    part = sharp[y0:y1, x0:x1]
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((surface.outline - (x0, y0)) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    blurred = cv2.GaussianBlur(part, (0, 0), sigma) if sigma >= 0.2 else part.copy()
    if motion >= 1.0:
        kernel = _line_kernel(motion, float(rng.uniform(0, 180)))
        blurred = cv2.filter2D(blurred, -1, kernel)
        mask = cv2.filter2D(mask, -1, kernel)  # the moving card's edge smears too
    region = frame[y0:y1, x0:x1]
    region += (blurred - region) * mask[..., None]


def _line_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A normalised kernel of a straight smear ``length`` pixels long at ``angle_deg``."""
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    c = (size - 1) / 2
    dx, dy = math.cos(math.radians(angle_deg)) * length / 2, math.sin(math.radians(angle_deg)) * length / 2
    cv2.line(kernel, (round(16 * (c - dx)), round(16 * (c - dy))), (round(16 * (c + dx)), round(16 * (c + dy))),
             1.0, 1, cv2.LINE_AA, shift=4)
    return kernel / max(float(kernel.sum()), 1e-9)


def _falloff(h: int, w: int, loss: float) -> np.ndarray:
    """Light left at each pixel, 1 in the middle to 1 - ``loss`` in the corners, (h, w, 1)."""
    y = (np.arange(h, dtype=np.float32) - (h - 1) / 2) / ((h - 1) / 2)
    x = (np.arange(w, dtype=np.float32) - (w - 1) / 2) / ((w - 1) / 2)
    aspect = h / w
    r2 = (x[None, :] ** 2 + (aspect * y[:, None]) ** 2) / (1 + aspect**2)
    return (1.0 - loss * r2)[..., None]


def _bayer(frame: np.ndarray) -> np.ndarray:
    """The single-channel BGGR mosaic of a float BGR frame (blue at even rows and columns):
    OpenCV names it ``COLOR_BayerRG2BGR`` (its names count from the second row)."""
    mosaic = np.empty(frame.shape[:2], np.float32)
    mosaic[0::2, 0::2] = frame[0::2, 0::2, 0]  # blue
    mosaic[0::2, 1::2] = frame[0::2, 1::2, 1]  # green
    mosaic[1::2, 0::2] = frame[1::2, 0::2, 1]  # green
    mosaic[1::2, 1::2] = frame[1::2, 1::2, 2]  # red
    return mosaic


def calibrated(rng: np.random.Generator, *, focus_error_dioptres: float = 0.3) -> Optics:
    """A camera drawn from the range the real photos span (docs/markers.md, "The renderer,
    calibrated"): the lens's spread, its halo and veiling glare, the auto-exposure's
    highlight level and the table's light, each drawn uniformly; the lens focused within
    ``focus_error_dioptres`` of the stands' and the mat's middle (the fixed focus of
    :mod:`coyote_pi.devices.focus`, give or take a module's tolerance)."""
    power = 1.0 / 0.61 + float(rng.uniform(-1.0, 1.0)) * focus_error_dioptres
    return Optics(
        focus_m=1.0 / power if power > 0 else math.inf,
        lens_blur_px=float(rng.uniform(0.8, 2.2)),
        pixel_blur_px=float(rng.uniform(0.7, 1.1)),
        halo_share=float(rng.uniform(0.08, 0.2)),
        flare=float(rng.uniform(0.08, 0.25)),
        highlight_level=float(rng.uniform(150.0, 210.0)),
        light=float(rng.uniform(0.08, 0.6)),
    )
