"""Pictures of the physical things: markers, card faces and backs, stands, the mat, the table.

Markers are drawn exactly as they are printed (the sticker sheets use the same
:func:`marker_image`). Everything else is artwork for the synthetic table: it is made
busy on purpose (strong colours, big numerals, stripes, dots and text around the
sticker) because clean test cards flatter every detector.

Objects are drawn in their own millimetre coordinates at :data:`BASE_PPM` pixels per
millimetre; :func:`texture_level` hands out halved copies so the renderer can pick one
close to the size an object has on screen (drawing a much larger texture through a
perspective warp aliases). Only those copies are cached, never the full-size drawings:
a stand is 4 MB and the mat 7.7 MB at :data:`BASE_PPM`, and a 2304-pixel frame (the
simulated table's) draws nothing at that size.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

import cv2
import numpy as np

from coyote_pi.cards import display_name
from coyote_pi.vision.markerset import (
    COYOTE_ROLE,
    LOCATORS,
    SLOTS,
    MarkerSet,
    locator_role,
    role_kind,
    role_subject,
    slot_role,
    stand_right_role,
    stand_role,
)

#: Texture resolution of every drawn object, pixels per millimetre.
BASE_PPM = 8
#: The printable sheets and the PNG export draw each marker module this many pixels wide.
PNG_MODULE_PX = 20

WHITE = (255, 255, 255)
INK = (25, 22, 20)


def stable_rng(*key: object) -> np.random.Generator:
    """A random generator that depends only on ``key`` (not on Python's hash seed)."""
    digest = hashlib.sha256(repr(key).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


# ----------------------------------------------------------------------------- markers


@cache
def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    """OpenCV's predefined dictionary called ``name`` ("DICT_4X4_50", ...)."""
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def _qr_encoder() -> cv2.QRCodeEncoder:
    params = cv2.QRCodeEncoder_Params()  # type: ignore[attr-defined]  # OpenCV's stubs lack this class
    params.version = 1
    params.correction_level = cv2.QRCODE_ENCODER_CORRECT_LEVEL_M
    params.mode = cv2.QRCODE_ENCODER_MODE_BYTE
    return cv2.QRCodeEncoder.create(params)


def marker_modules(markers: MarkerSet, role: str) -> np.ndarray:
    """The marker for ``role`` as a boolean module grid (True = black), no quiet zone."""
    code = markers.codes[role]
    if markers.scheme == "aruco":
        n = markers.modules
        image = cv2.aruco.generateImageMarker(aruco_dictionary(markers.dictionary), int(code), n, borderBits=1)
        return image < 128
    symbol = _qr_encoder().encode(str(code))
    dark = symbol < 128
    rows, cols = np.nonzero(dark)
    grid = dark[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]
    if grid.shape != (markers.modules, markers.modules):
        raise ValueError(f"payload {code!r} does not fit a version-1 QR code")
    result: np.ndarray = grid
    return result


def marker_image(markers: MarkerSet, role: str, module_px: int) -> np.ndarray:
    """The sticker for ``role``: marker plus white quiet zone, grey uint8, square.

    Not cached: it is quick to draw, and drawn only into textures, which are cached."""
    modules = marker_modules(markers, role)
    quiet = markers.quiet_zone_modules
    padded = np.pad(modules, quiet, constant_values=False)
    image = np.where(padded, 0, 255).astype(np.uint8)
    return np.repeat(np.repeat(image, module_px, axis=0), module_px, axis=1)


def paste_sticker(canvas: np.ndarray, markers: MarkerSet, role: str, centre_px: Sequence[float], ppm: float,
                  angle_deg: float = 0.0) -> None:
    """Draw the sticker for ``role`` into ``canvas`` (BGR) centred at ``centre_px``,
    turned ``angle_deg`` clockwise as the canvas is seen."""
    side_px = markers.sticker_mm(role) * ppm
    total_modules = markers.modules + 2 * markers.quiet_zone_modules
    source = marker_image(markers, role, max(2, math.ceil(side_px / total_modules)))
    scale = side_px / source.shape[0]
    a = math.radians(angle_deg)
    c, s = scale * math.cos(a), scale * math.sin(a)
    half = source.shape[0] / 2
    m = np.array([[c, -s, centre_px[0] - c * half + s * half], [s, c, centre_px[1] - s * half - c * half]])
    bgr = cv2.cvtColor(source, cv2.COLOR_GRAY2BGR)
    cv2.warpAffine(bgr, m, (canvas.shape[1], canvas.shape[0]), dst=canvas, flags=cv2.INTER_LINEAR,
                   borderMode=cv2.BORDER_TRANSPARENT)


#: Cells across the empty-stand patch (a checkerboard, black in its top-left corner).
EMPTY_PATCH_CELLS = 4


def empty_patch_cells() -> np.ndarray:
    """The empty-stand patch's pattern: True where a cell is black."""
    i, j = np.indices((EMPTY_PATCH_CELLS, EMPTY_PATCH_CELLS))
    result: np.ndarray = (i + j) % 2 == 0
    return result


def paste_patch(canvas: np.ndarray, centre_px: Sequence[float], side_px: float) -> None:
    """Draw the empty-stand patch into ``canvas`` (BGR), axis-aligned."""
    cell = side_px / EMPTY_PATCH_CELLS
    x0, y0 = centre_px[0] - side_px / 2, centre_px[1] - side_px / 2
    for (i, j), black in np.ndenumerate(empty_patch_cells()):
        colour = INK if black else WHITE
        cv2.rectangle(canvas, (round(x0 + j * cell), round(y0 + i * cell)),
                      (round(x0 + (j + 1) * cell) - 1, round(y0 + (i + 1) * cell) - 1), colour, -1)


# ------------------------------------------------------------------------------- cards


def sticker_placements(markers: MarkerSet, role: str) -> list[tuple[tuple[float, float], float]]:
    """Where the hand-applied stickers sit on a card: centre (mm, card-centred, y up) and
    rotation (degrees, counter-clockwise) of each print (one on the Coyote card, as
    :meth:`MarkerSet.card_print_places` says on a playing card). Slightly off the nominal
    spots, the same way on every draw."""
    places = markers.card_print_places()[:1] if role == COYOTE_ROLE else markers.card_print_places()
    placed = []
    for index, ((x, y), turn) in enumerate(places):
        # The first print's draws come first, so it lies where it lay before cards had two.
        rng = stable_rng("sticker", markers.scheme, role, *((index,) if index else ()))
        dx, dy = rng.uniform(-1.2, 1.2, size=2)
        placed.append(((float(x + dx), float(y + dy)), float(turn + rng.uniform(-3.0, 3.0))))
    return placed


def _palette(rng: np.random.Generator) -> list[tuple[int, int, int]]:
    desert = [(40, 120, 215), (30, 90, 180), (60, 160, 230), (120, 80, 40), (160, 110, 60),
              (70, 50, 140), (50, 140, 90), (200, 170, 90), (90, 60, 30), (30, 60, 160)]
    picks = rng.choice(len(desert), size=4, replace=False)
    return [desert[i] for i in picks]


def _mm_canvas(width_mm: float, height_mm: float, ppm: int) -> np.ndarray:
    return np.zeros((round(height_mm * ppm), round(width_mm * ppm), 3), np.uint8)


def _shade(canvas: np.ndarray, field: np.ndarray, gain: np.ndarray, offset: np.ndarray) -> None:
    """Fill ``canvas`` with ``field * gain + offset`` (a float32 grey field, per-channel
    float32 gains and offsets), clipped to 0..255.

    Worked out a band of rows and one colour at a time: the whole float colour image
    would be four times the size of the finished texture (31 MB for the mat)."""
    band = 64
    for y0 in range(0, canvas.shape[0], band):
        rows = field[y0 : y0 + band]
        for channel in range(canvas.shape[2]):
            canvas[y0 : y0 + band, :, channel] = np.clip(rows * gain[channel] + offset[channel], 0, 255)


def _put_text(canvas: np.ndarray, text: str, org: Sequence[float], scale: float, colour: tuple[int, ...],
              thickness: int, centred: bool = False) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX
    if centred:
        (w, h), _ = cv2.getTextSize(text, font, scale, thickness)
        org = (int(org[0] - w / 2), int(org[1] + h / 2))
    cv2.putText(canvas, text, (int(org[0]), int(org[1])), font, scale, colour, thickness, cv2.LINE_AA)


def _busy_background(canvas: np.ndarray, rng: np.random.Generator, ppm: int) -> None:
    """Gradient, mountains, a sun, stripes, dots and scribbles: the clutter of card art."""
    h, w = canvas.shape[:2]
    top, bottom, accent, ink = _palette(rng)
    t = np.linspace(0.0, 1.0, h, dtype=np.float32)[:, None, None]
    canvas[:] = (np.array(top, np.float32) * (1 - t) + np.array(bottom, np.float32) * t).astype(np.uint8)
    for _ in range(int(rng.integers(3, 6))):
        peak = (int(rng.uniform(0, w)), int(rng.uniform(0.35 * h, 0.75 * h)))
        base = int(rng.uniform(0.2, 0.6) * w)
        pts = np.array([(peak[0] - base, h), peak, (peak[0] + base, h)], np.int32)
        cv2.fillPoly(canvas, [pts], tuple(int(c * rng.uniform(0.5, 1.0)) for c in accent), cv2.LINE_AA)
    cv2.circle(canvas, (int(rng.uniform(0.2, 0.8) * w), int(rng.uniform(0.1, 0.5) * h)),
               int(rng.uniform(5, 12) * ppm), (80, 200, 250), -1, cv2.LINE_AA)
    for _ in range(int(rng.integers(6, 14))):
        y = int(rng.uniform(0, h))
        cv2.line(canvas, (0, y), (w, y + int(rng.uniform(-0.3, 0.3) * h)), ink,
                 max(1, int(rng.uniform(0.3, 1.5) * ppm)), cv2.LINE_AA)
    for _ in range(int(rng.integers(25, 60))):
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        colour = WHITE if rng.random() < 0.4 else ink
        cv2.circle(canvas, centre, max(1, int(rng.uniform(0.4, 2.5) * ppm)), colour, -1, cv2.LINE_AA)
    for _ in range(int(rng.integers(3, 7))):
        pts = rng.uniform((0, 0), (w, h), size=(int(rng.integers(3, 6)), 2)).astype(np.int32)
        cv2.polylines(canvas, [pts], False, ink, max(1, int(0.6 * ppm)), cv2.LINE_AA)


def card_face(markers: MarkerSet, role: str) -> np.ndarray:
    """A card's face at :data:`BASE_PPM`: busy artwork, its value and its sticker.

    ``role`` is ``card:<name>`` or ``coyote``. The image's top is the card's top.
    """
    ppm = BASE_PPM
    layout = markers.card
    canvas = _mm_canvas(layout.width, layout.height, ppm)
    rng = stable_rng("face", role)
    _busy_background(canvas, rng, ppm)
    h, w = canvas.shape[:2]
    label = "COYOTE" if role == COYOTE_ROLE else display_name(role_subject(role))
    big = 1.2 * ppm if len(label) <= 2 else (0.75 * ppm if len(label) <= 5 else 0.45 * ppm)
    _put_text(canvas, label, (w / 2, h * 0.78), big / 3, WHITE, max(2, int(1.6 * ppm)), centred=True)
    _put_text(canvas, label, (w / 2, h * 0.78), big / 3, INK, max(1, int(0.7 * ppm)), centred=True)
    corner = 0.16 * ppm
    _put_text(canvas, label, (2.5 * ppm, 9 * ppm), corner, INK, max(1, ppm // 3))
    rotated = np.ascontiguousarray(canvas[::-1, ::-1])
    _put_text(rotated, label, (2.5 * ppm, 9 * ppm), corner, INK, max(1, ppm // 3))
    canvas[:] = rotated[::-1, ::-1]
    cv2.rectangle(canvas, (ppm, ppm), (w - ppm, h - ppm), INK, max(1, ppm // 2), cv2.LINE_AA)
    for (sx, sy), angle in sticker_placements(markers, role):
        # Card millimetres have y up, the canvas y down: the same turn has the opposite sign.
        paste_sticker(canvas, markers, role, (w / 2 + sx * ppm, h / 2 - sy * ppm), ppm, -angle)
    canvas.flags.writeable = False
    return canvas


def card_back(width_mm: float, height_mm: float, rgb: tuple[int, int, int]) -> np.ndarray:
    """Every card's back: a lattice and the game's name in shades of the one colour ``rgb``
    (so every part of it has that colour's chromaticity), and no marker at all."""
    ppm = BASE_PPM
    canvas = _mm_canvas(width_mm, height_mm, ppm)
    base = np.array(rgb[::-1], np.float64)
    canvas[:] = base
    dark = tuple(int(c) for c in base * 0.6)
    light = tuple(int(c) for c in base * min(1.3, 255 / base.max()))
    h, w = canvas.shape[:2]
    step = 6 * ppm
    for k in range(-h, w + h, step):
        cv2.line(canvas, (k, 0), (k + h, h), dark, max(1, ppm // 3), cv2.LINE_AA)
        cv2.line(canvas, (k, h), (k + h, 0), dark, max(1, ppm // 3), cv2.LINE_AA)
    cv2.rectangle(canvas, (2 * ppm, 2 * ppm), (w - 2 * ppm, h - 2 * ppm), light, ppm, cv2.LINE_AA)
    _put_text(canvas, "COYOTE", (w / 2, h / 2), 0.45 * ppm / 3, light, max(1, ppm // 2), centred=True)
    canvas.flags.writeable = False
    return canvas


# ------------------------------------------------------------------------ stands, mat


def stand_board(markers: MarkerSet, seat: int, board_bgr: tuple[int, int, int] | None = None) -> np.ndarray:
    """A stand's face (stand coordinates, image top = top of the board): wood (or a board
    of the colour ``board_bgr``), its two markers, its empty-stand patch and the seat number."""
    ppm = BASE_PPM
    layout = markers.stand
    canvas = _mm_canvas(layout.board_width, layout.board_height, ppm)
    rng = stable_rng("stand", seat)
    h, w = canvas.shape[:2]
    base = np.array((60, 120, 170), np.float32) * rng.uniform(0.8, 1.1)
    if board_bgr is not None:
        base = np.array(board_bgr, np.float32)
    rows = np.arange(h, dtype=np.float32)[:, None]
    grain = 0.85 + 0.15 * np.sin(rows / (1.7 * ppm) + 3 * np.sin(np.arange(w, dtype=np.float32)[None, :] / (23 * ppm)))
    _shade(canvas, grain, base, np.zeros(3, np.float32))
    # A set without a right marker's code (a stand of before it, a small dictionary) has none.
    for role in [r for r in (stand_right_role(seat),) if r in markers.codes] + [stand_role(seat)]:
        mu, mv = markers.stand_marker_centre(role)
        cx = (mu + layout.board_width / 2) * ppm
        cy = (layout.board_height - mv) * ppm
        paste_sticker(canvas, markers, role, (cx, cy), ppm)
    (pu, pv), side = layout.empty_patch_centre, layout.empty_patch_side
    paste_patch(canvas, ((pu + layout.board_width / 2) * ppm, (layout.board_height - pv) * ppm), side * ppm)
    label_y = cy + (markers.sticker_mm(stand_role(seat)) / 2 + 6) * ppm
    _put_text(canvas, f"SEAT {seat}", (cx, label_y), 0.2 * ppm, INK, max(1, ppm // 3), centred=True)
    canvas.flags.writeable = False
    return canvas


def mat_texture(markers: MarkerSet) -> np.ndarray:
    """The centre mat (mat coordinates, image top = +y): felt, slot outlines with their
    names and markers, and the two locating markers."""
    ppm = BASE_PPM
    layout = markers.mat
    canvas = _mm_canvas(layout.width, layout.height, ppm)
    h, w = canvas.shape[:2]
    rng = stable_rng("mat")
    felt = cv2.resize(rng.normal(0, 6, size=(h // 4 + 1, w // 4 + 1)).astype(np.float32), (w, h))
    _shade(canvas, felt, np.ones(3, np.float32), np.array((95, 75, 55), np.float32))

    def to_px(x: float, y: float) -> tuple[float, float]:
        return ((x + layout.width / 2) * ppm, (layout.height / 2 - y) * ppm)

    titles = {"centre": "CENTRE", "extra": "COYOTE DRAW", "draw": "? DRAW"}
    for slot in SLOTS:
        sx, sy = layout.slots[slot]
        x0, y0 = to_px(sx - layout.slot_width / 2, sy + layout.slot_height / 2)
        x1, y1 = to_px(sx + layout.slot_width / 2, sy - layout.slot_height / 2)
        cv2.rectangle(canvas, (int(x0), int(y0)), (int(x1), int(y1)), (220, 230, 220), max(1, ppm // 2), cv2.LINE_AA)
        paste_sticker(canvas, markers, slot_role(slot), to_px(sx, sy), ppm)
        _put_text(canvas, titles[slot], ((x0 + x1) / 2, y1 - 5 * ppm), 0.14 * ppm, (220, 230, 220),
                  max(1, ppm // 4), centred=True)
    for name in LOCATORS:
        paste_sticker(canvas, markers, locator_role(name), to_px(*layout.locators[name]), ppm)
    _put_text(canvas, "coyote-pi", to_px(0, layout.locators["left"][1]), 0.25 * ppm, (220, 230, 220),
              max(1, ppm // 3), centred=True)
    canvas.flags.writeable = False
    return canvas


#: Texture levels kept: more than one frame of the largest table draws (six stands, nine
#: cards, backs and ledges at two sizes, the mat), so a frame never redraws what the last
#: one drew, while cards of rounds gone by are dropped.
TEXTURE_CACHE_SIZE = 24


@lru_cache(maxsize=TEXTURE_CACHE_SIZE)
def texture_level(source_id: tuple[Any, ...], level: int) -> np.ndarray:
    """``source`` halved ``level`` times (level 0 is the base texture).

    The base texture is drawn afresh for every level asked for and dropped once halved,
    so the cache holds only the sizes a renderer actually draws."""
    image = _TEXTURE_SOURCES[source_id[0]](*source_id[1:])
    for _ in range(level):
        image = cv2.resize(image, (max(1, image.shape[1] // 2), max(1, image.shape[0] // 2)),
                           interpolation=cv2.INTER_AREA)
    image.flags.writeable = False
    return image


def solid(colour: tuple[int, int, int]) -> np.ndarray:
    """A plain colour, for parts without artwork (a stand's ledge)."""
    return np.full((4, 4, 3), colour, np.uint8)


_TEXTURE_SOURCES: dict[str, Callable[..., np.ndarray]] = {"face": card_face, "back": card_back, "stand": stand_board, "mat": mat_texture, "solid": solid}


def role_texture_id(markers: MarkerSet, role: str) -> tuple[Any, ...]:
    """The texture key for a card face (``card:<name>`` or ``coyote``)."""
    if role_kind(role) not in ("card", "coyote"):
        raise ValueError(f"{role} is not a card")
    return ("face", markers, role)


# ------------------------------------------------------------------------------ table


#: Table tops :func:`table_texture` draws; the first three are drawn at random.
TABLE_TOPS = ("wood", "felt", "laminate", "gingham")


def table_texture(width: int, height: int, rng: np.random.Generator, kind: str | None = None) -> np.ndarray:
    """A table top (wood, felt, laminate, or a gingham cloth when asked for) at a quarter
    of the frame size, to be scaled up."""
    w, h = max(8, width // 4), max(8, height // 4)
    drawn = rng.choice(TABLE_TOPS[:3], p=[0.5, 0.25, 0.25])
    kind = kind or drawn
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    scale = 1152.0 / w
    x, y = x * scale, y * scale
    angle = rng.uniform(0, math.pi)
    along = x * math.cos(angle) + y * math.sin(angle)
    across = -x * math.sin(angle) + y * math.cos(angle)
    low = cv2.resize(rng.normal(0, 1, (h // 16 + 2, w // 16 + 2)).astype(np.float32), (w, h))
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    if kind == "wood":
        base = np.array(rng.choice([(45, 85, 140), (60, 105, 160), (35, 60, 100)]), np.float32)
        rings = np.sin(across / rng.uniform(4, 9) + 2.5 * low + 0.002 * along)
        shade = 0.82 + 0.12 * rings + 0.05 * fine + 0.04 * low
        # Board joints every few hundred pixels across the grain.
        joints = (np.mod(across, rng.uniform(260, 420)) < 2.0).astype(np.float32)
        shade -= 0.35 * joints
    elif kind == "felt":
        base = np.array(rng.choice([(60, 110, 40), (110, 60, 30), (50, 50, 120)]), np.float32)
        shade = 0.9 + 0.08 * fine + 0.05 * low
    elif kind == "gingham":
        # Woven checks about 15-25 mm wide: each stripe colours half the cloth, and the
        # squares where two cross are twice as deep; high-contrast edges everywhere.
        ink = np.array(rng.choice([(40, 40, 190), (150, 70, 30), (50, 120, 40), (30, 30, 30)]), np.float32)
        period = rng.uniform(11, 18)
        depth = ((np.mod(along, 2 * period) < period).astype(np.float32)
                 + (np.mod(across, 2 * period) < period).astype(np.float32))[..., None] / 2
        cloth = (1 - depth) * np.float32(235) + depth * ink
        shade = 0.92 + 0.04 * fine + 0.04 * low
        image: np.ndarray = np.clip(shade[..., None] * cloth, 0, 255).astype(np.uint8)
        _clutter(image, rng)
        return image
    elif kind == "laminate":
        base = np.array(rng.choice([(190, 190, 185), (150, 160, 170), (210, 205, 200)]), np.float32)
        shade = 0.88 + 0.03 * fine + 0.06 * low + 0.04 * np.sin(along / 40.0)
    else:
        raise ValueError(f"unknown table top {kind!r} (choose from {', '.join(TABLE_TOPS)})")
    image = np.clip(shade[..., None] * base, 0, 255).astype(np.uint8)
    _clutter(image, rng)
    return image


def _clutter(image: np.ndarray, rng: np.random.Generator) -> None:
    """Things left on a table: a phone, a mug's ring, coins, a scribbled score sheet."""
    h, w = image.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        kind = rng.integers(0, 4)
        cx, cy = float(rng.uniform(0.05, 0.95) * w), float(rng.uniform(0.05, 0.95) * h)
        if kind == 0:
            size = (float(rng.uniform(0.03, 0.05) * w), float(rng.uniform(0.06, 0.09) * w))
            box = cv2.boxPoints(((cx, cy), size, float(rng.uniform(0, 180)))).astype(np.int32)
            cv2.fillPoly(image, [box], (20, 20, 24), cv2.LINE_AA)
        elif kind == 1:
            cv2.circle(image, (int(cx), int(cy)), int(rng.uniform(0.02, 0.035) * w), (40, 60, 90), 3, cv2.LINE_AA)
        elif kind == 2:
            for _ in range(int(rng.integers(2, 6))):
                p = (int(cx + rng.uniform(-30, 30)), int(cy + rng.uniform(-30, 30)))
                cv2.circle(image, p, int(rng.uniform(4, 7)), (80, 170, 200), -1, cv2.LINE_AA)
        else:
            size = (float(rng.uniform(0.06, 0.1) * w), float(rng.uniform(0.08, 0.12) * w))
            angle = float(rng.uniform(0, 180))
            box = cv2.boxPoints(((cx, cy), size, angle)).astype(np.int32)
            cv2.fillPoly(image, [box], (235, 240, 240), cv2.LINE_AA)
            for k in range(6):
                y = int(cy - size[1] / 3 + k * size[1] / 9)
                cv2.line(image, (int(cx - size[0] / 3), y), (int(cx + size[0] / 3 * rng.uniform(0.3, 1)), y),
                         (120, 60, 40), 1, cv2.LINE_AA)
