"""A synthetic camera frame of a Coyote table, for tests, the demo and the benchmarks.

Describe the table with a :class:`~coyote_pi.sim.scene.TableScene` and the imaging with
:class:`~coyote_pi.sim.scene.Conditions` (both in :mod:`coyote_pi.sim.scene`), then::

    frame = render_scene(scene, width=4608, height=2592, seed=7, conditions=Conditions.typical())
    truth = scene_truth(scene, width=4608, height=2592, seed=7, conditions=Conditions.typical())

The same seed always gives the same frame. :func:`scene_truth` says, for every card
sticker, where it landed in the frame, how many pixels wide it is, how far off-axis it
is seen, whether a finger or glare covers it and so whether a reader must read it.

How a frame is drawn: the camera is a pinhole with the wide lens's mild barrel
distortion, hanging over the table centre. Every object (mat, stands, cards) is flat, so
each is drawn with one perspective warp of its cached texture into its own bounding box,
at a texture resolution close to its size on screen. Light, glare and shadows are
computed on a coarse grid and scaled up; blur, sensor noise and JPEG compression are
applied to the whole frame last, as a camera would. With ``Conditions(optics=...)`` the
picture is taken as the Camera Module 3 Wide would take it (:mod:`coyote_pi.sim.optics`):
defocus by each object's distance from the focus plane, a moving hand, lens fall-off,
auto-exposure, a Bayer mosaic with shot and read noise, demosaicing.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from coyote_pi.cards import ALL_CARDS
from coyote_pi.sim.optics import Optics, Surface, expose
from coyote_pi.sim.scene import Conditions, SceneTruth, StickerTruth, TableScene
from coyote_pi.vision import artwork
from coyote_pi.vision.geometry import (
    FULL_WIDTH,
    Camera,
    Plane,
    apply_homography,
    square_corners,
    stand_plane,
    table_plane,
)
from coyote_pi.vision.markerset import COYOTE_ROLE, SLOTS, card_role, load_markers, stand_right_role, stand_role
from coyote_pi.vision.states import SlotState

# ------------------------------------------------------------------------- the layout


@dataclass(frozen=True)
class _Sprite:
    """A flat textured object: texture key, its plane, and the plane rectangle it covers
    (u0, v0, u1, v1) with the texture's top edge at v1."""

    texture: tuple[Any, ...]  # artwork's texture id
    plane: Plane
    rect: tuple[float, float, float, float]


@dataclass(frozen=True)
class _Finger:
    plane: Plane
    outline_mm: np.ndarray  # (N, 2) in the plane


@dataclass(frozen=True)
class _Glare:
    x: float  # image pixels
    y: float
    sx: float
    sy: float
    angle: float
    strength: float

    def at(self, points: np.ndarray) -> np.ndarray:
        d = np.asarray(points, dtype=np.float64) - (self.x, self.y)
        c, s = math.cos(self.angle), math.sin(self.angle)
        a = (d[:, 0] * c + d[:, 1] * s) / self.sx
        b = (-d[:, 0] * s + d[:, 1] * c) / self.sy
        return self.strength * np.exp(-0.5 * (a * a + b * b))


@dataclass(frozen=True)
class _Sticker:
    """A marker on a sprite: what it is, where it counts, its corners in the sprite's plane."""

    role: str
    place: str
    plane: Plane
    corners: np.ndarray
    sprite: int  # index of the sprite it is printed on; later sprites are drawn over it
    index: int = 0  # which print of its role on that object (a card carries two)


@dataclass(frozen=True)
class _Layout:
    camera: Camera
    sprites: tuple[_Sprite, ...]
    fingers: tuple[_Finger, ...]
    glares: tuple[_Glare, ...]
    stickers: tuple[_Sticker, ...]


def _stand_foot(scene: TableScene, seat: int, rng: np.random.Generator, jitter: float) -> tuple[float, float]:
    angle = math.radians(-90.0 - 360.0 * (seat - 1) / scene.seats + rng.uniform(-6, 6) * jitter)
    rx, ry = scene.stand_radius_mm
    scale = 1.0 + rng.uniform(-0.05, 0.05) * jitter
    return (rx * scale * math.cos(angle), ry * scale * math.sin(angle))


def _layout(scene: TableScene, width: int, height: int, seed: int, conditions: Conditions) -> _Layout:
    rng = np.random.default_rng([seed, 1])
    markers = scene.markers or load_markers(scene.scheme)
    jitter = scene.placement_jitter
    shift_angle = rng.uniform(0, 2 * math.pi)
    shift = conditions.camera_shift_mm * math.sqrt(rng.random())
    mast = scene.camera_height_mm
    if conditions.mast_change:
        mast *= 1.0 + rng.uniform(-1, 1) * conditions.mast_change
    camera = Camera.over_table(
        width,
        height,
        mast,
        shift_mm=(shift * math.cos(shift_angle), shift * math.sin(shift_angle)),
        tilt_deg=tuple(rng.uniform(-1, 1, size=2) * conditions.camera_tilt_deg),
        yaw_deg=float(rng.uniform(-1, 1) * conditions.camera_yaw_deg),
    )
    card = markers.card
    card_rect = (-card.width / 2, -card.height / 2, card.width / 2, card.height / 2)
    sprites: list[_Sprite] = []
    stickers: list[_Sticker] = []
    fingers: list[_Finger] = []

    def add_card(plane: Plane, card_name_or_role: str, place: str, face_up: bool = True) -> np.ndarray:
        """Lay a card; return where its first sticker is (on a back: would be) in its plane."""
        role = card_name_or_role if card_name_or_role == COYOTE_ROLE else card_role(card_name_or_role)
        texture = artwork.role_texture_id(markers, role) if face_up else ("back", card.width, card.height,
                                                                          card.back_rgb)
        sprites.append(_Sprite(texture, plane, card_rect))
        spots = [_rotate(square_corners(centre, markers.marker_mm(role)), centre, angle)
                 for centre, angle in artwork.sticker_placements(markers, role)]
        if face_up:
            stickers.extend(_Sticker(role, place, plane, corners, len(sprites) - 1, index)
                            for index, corners in enumerate(spots))
        return spots[0]

    # The mat and what lies on it.
    mat_centre = tuple(rng.uniform(-25, 25, size=2) * jitter)
    mat = table_plane(mat_centre, float(rng.uniform(-180, 180)), height_mm=0.5)
    sprites.append(_Sprite(("mat", markers), mat, (-markers.mat.width / 2, -markers.mat.height / 2,
                                                   markers.mat.width / 2, markers.mat.height / 2)))
    for role_name, (x, y) in [(f"mat:{n}", p) for n, p in markers.mat.locators.items()] + [
        (f"slot:{n}", p) for n, p in markers.mat.slots.items()
    ]:
        stickers.append(_Sticker(role_name, role_name, mat, square_corners((x, y), markers.marker_mm(role_name)), 0))
    for slot in SLOTS:
        state, value = scene.slot(slot)
        if state == SlotState.EMPTY:
            continue
        sx, sy = markers.mat.slots[slot]
        turn = float(rng.uniform(-5, 5) * jitter + (180 if rng.random() < 0.5 else 0))
        plane = mat.offset(0.4).sub_plane((sx + rng.uniform(-4, 4) * jitter, sy + rng.uniform(-4, 4) * jitter), turn)
        spot = add_card(plane, value or ALL_CARDS[0], f"slot:{slot}", face_up=state == SlotState.FACE_UP)
        if slot in conditions.finger_slots:
            # Over the first sticker of a face-up card, over the same spot of a back.
            fingers.append(_finger(plane, spot, rng, conditions.finger_cover))

    # Stands, the cards in them, and the ledges that hide the cards' bottom edges.
    stand_planes: dict[int, Plane] = {}
    assert scene.present is not None  # filled in by TableScene.__post_init__
    for seat in scene.present:
        foot = _stand_foot(scene, seat, rng, jitter)
        lean = scene.stand_lean_deg + rng.uniform(-6, 6) * jitter
        board = stand_plane(foot, lean, float(rng.uniform(-10, 10) * jitter))
        stand_planes[seat] = board
        layout = markers.stand
        sprites.append(_Sprite(("stand", markers, seat, scene.board_bgr), board, (-layout.board_width / 2, 0.0,
                                                                  layout.board_width / 2, layout.board_height)))
        for role in [r for r in (stand_role(seat), stand_right_role(seat)) if r in markers.codes]:
            stickers.append(_Sticker(role, role, board, square_corners(markers.stand_marker_centre(role),
                                                                       markers.marker_mm(role)), len(sprites) - 1))
        value = scene.seat_cards.get(seat)
        if value is not None:
            centre = (layout.card_centre_u + rng.uniform(-4, 4) * jitter,
                      layout.card_bottom_v + card.height / 2 + rng.uniform(-1, 3) * jitter)
            plane = board.offset(layout.slot_width).sub_plane(centre, float(rng.uniform(-3, 3) * jitter))
            spot = add_card(plane, value, f"seat:{seat}")
            if seat in conditions.finger_seats:
                # The player's hand is behind the stand: fingers come over the card's top,
                # onto its first sticker.
                fingers.append(_finger(plane, spot, rng, conditions.finger_cover, (40.0, 140.0)))
        # The ledge's lip, as the printed stand has it (hardware/scad/stand.scad).
        ledge = board.offset(layout.ledge_front)
        sprites.append(_Sprite(("solid", (35, 70, 110)), ledge,
                               (layout.card_centre_u - layout.ledge_length / 2, 0.0,
                                layout.card_centre_u + layout.ledge_length / 2, layout.card_bottom_v + layout.lip_height)))

    # The Coyote card and loose cards lie flat on the table.
    if scene.coyote_card is not None:
        if scene.coyote_card == "centre":
            # On the mat's Coyote spot, lying across between the two locators.
            spot = mat.to_world(np.array([(rng.uniform(-4, 4) * jitter, 53.0)]))[0][:2]
            turn = float(np.degrees(np.arctan2(mat.u[1], mat.u[0])) + 90 + rng.uniform(-6, 6) * jitter)
        else:
            # In front of the stand: 85-105 mm from its foot towards the centre, a little
            # to one side or the other.
            stand_foot = stand_planes[int(scene.coyote_card)].origin[:2]
            inward = -stand_foot / np.linalg.norm(stand_foot)
            across = np.array([-inward[1], inward[0]])
            spot = stand_foot + inward * (95 + rng.uniform(-10, 10) * jitter) + across * rng.uniform(-15, 15) * jitter
            turn = float(rng.uniform(-180, 180))
        plane = table_plane(tuple(spot), turn, 0.8)
        add_card(plane, COYOTE_ROLE, "coyote")
    for value, x, y in scene.loose_cards:
        add_card(table_plane((x, y), float(rng.uniform(-180, 180)), 0.4), value, "table")

    glares = tuple(_glare(rng, conditions, width, height, camera, stickers) for _ in range(conditions.glare_spots))
    glares += tuple(_specular(rng, conditions, camera, stickers) for _ in range(conditions.specular_spots))
    return _Layout(camera, tuple(sprites), tuple(fingers), glares, tuple(stickers))


def _rotate(points: np.ndarray, centre: tuple[float, float], angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    rotated: np.ndarray = (points - centre) @ rot.T + centre
    return rotated


def _capsule(start: np.ndarray, direction: np.ndarray, length: float, radius: float) -> np.ndarray:
    """Outline of a finger: a rectangle from ``start`` with a round tip, (N, 2) points."""
    d = direction / np.linalg.norm(direction)
    side = np.array([-d[1], d[0]])
    tip = start + d * length
    arc = [tip + radius * (math.cos(t) * side + math.sin(t) * d) for t in np.linspace(0, math.pi, 12)]
    return np.array([start + radius * side] + arc + [start - radius * side])


def _finger(plane: Plane, sticker_mm: np.ndarray, rng: np.random.Generator, cover: tuple[float, float],
            from_deg: tuple[float, float] = (0.0, 360.0)) -> _Finger:
    """A fingertip pressed on the card face, reaching in from a direction in ``from_deg``
    (degrees, 90 = from the card's top), hiding a chosen share of its sticker (quiet zone
    included, because hiding it breaks a marker's outline too)."""
    target = rng.uniform(*cover)
    centre = sticker_mm.mean(axis=0)
    sticker = centre + (sticker_mm - centre) * QUIET_ZONE_FACTOR
    angle = math.radians(rng.uniform(*from_deg))
    direction = -np.array([math.cos(angle), math.sin(angle)])
    start = centre - direction * 70.0
    radius = rng.uniform(7.0, 9.0)
    lo, hi = 0.0, 140.0
    for _ in range(20):  # the tip's reach that hides the target share
        mid = (lo + hi) / 2
        if _covered_fraction(sticker, [_capsule(start, direction, mid, radius)]) < target:
            lo = mid
        else:
            hi = mid
    return _Finger(plane.offset(4.0), _capsule(start, direction, hi, radius))


def _glare(rng: np.random.Generator, conditions: Conditions, width: int, height: int, camera: Camera,
           stickers: Sequence[_Sticker]) -> _Glare:
    """A highlight: half the time on a card (glossy cards reflect the lamp), else anywhere."""
    scale = width / FULL_WIDTH
    card_stickers = [s for s in stickers if s.role.startswith("card:") and s.index == 0]
    if card_stickers and rng.random() < 0.5:
        sticker = card_stickers[int(rng.integers(len(card_stickers)))]
        x, y = camera.project(sticker.plane.to_world(sticker.corners.mean(axis=0, keepdims=True)))[0]
        x, y = x + rng.uniform(-120, 120) * scale, y + rng.uniform(-120, 120) * scale
    else:
        x, y = rng.uniform(0, width), rng.uniform(0, height)
    return _Glare(float(x), float(y), float(rng.uniform(30, 140) * scale), float(rng.uniform(15, 60) * scale),
                  float(rng.uniform(0, math.pi)), float(conditions.glare_strength * rng.uniform(0.5, 1.0)))


def _specular(rng: np.random.Generator, conditions: Conditions, camera: Camera, stickers: Sequence[_Sticker]) -> _Glare:
    """A lamp's reflection on a marker: centred within half a side of a card's first
    sticker or a stand's (left) marker, its radius a share of that marker's side on
    screen. The second markers are never the target: the bench asks whether they save
    a card or stand whose first marking is washed out."""
    targets = [s for s in stickers if s.role.startswith(("card:", "stand:")) and s.index == 0]
    sticker = targets[int(rng.integers(len(targets)))]
    image = camera.project(sticker.plane.to_world(sticker.corners))
    side = float(np.linalg.norm(image - np.roll(image, 1, axis=0), axis=1).mean())
    x, y = image.mean(axis=0) + rng.uniform(-0.5, 0.5, size=2) * side
    radius = rng.uniform(*conditions.specular_size) * side
    return _Glare(float(x), float(y), float(radius), float(radius * rng.uniform(0.4, 1.0)),
                  float(rng.uniform(0, math.pi)), float(conditions.specular_strength * rng.uniform(0.6, 1.0)))


# ---------------------------------------------------------------------------- truth


def _truth(layout: _Layout) -> SceneTruth:
    camera = layout.camera
    outlines = [_sprite_outline(camera, sprite) for sprite in layout.sprites]
    finger_outlines = [camera.project(f.plane.to_world(f.outline_mm)) for f in layout.fingers]
    result = []
    for sticker in layout.stickers:
        image = camera.project(sticker.plane.to_world(sticker.corners))
        # The quiet zone counts: covering it breaks the marker's outline too.
        centre = image.mean(axis=0)
        with_quiet_zone = centre + (image - centre) * QUIET_ZONE_FACTOR
        above = outlines[sticker.sprite + 1:] + finger_outlines
        glare = max((float(g.at(image).max()) for g in layout.glares), default=0.0)
        margin = 3.0
        in_frame = bool(((image >= margin) & (image <= (camera.width - margin, camera.height - margin))).all())
        result.append(
            StickerTruth(
                role=sticker.role,
                place=sticker.place,
                corners=image,
                width_px=float((np.linalg.norm(image[1] - image[0]) + np.linalg.norm(image[2] - image[3])) / 2),
                height_px=float((np.linalg.norm(image[3] - image[0]) + np.linalg.norm(image[2] - image[1])) / 2),
                off_axis_deg=camera.off_axis_deg(sticker.plane, tuple(sticker.corners.mean(axis=0))),
                occluded=_covered_fraction(with_quiet_zone, above),
                glare=glare,
                in_frame=in_frame,
                index=sticker.index,
            )
        )
    # A stand is in view when either of its markers is.
    stands_in_frame = {s.place.split(":")[1] for s in result if s.place.startswith(("stand:", "stand-right:"))
                       and s.in_frame}
    result = [dataclasses.replace(s, stand_in_frame=s.place.split(":")[1] in stands_in_frame)
              if s.place.startswith("seat:") else s for s in result]
    return SceneTruth(tuple(result), camera)


#: A sticker's quiet zone reaches this far beyond its marker (as a factor of its size).
QUIET_ZONE_FACTOR = 1.35


def _sprite_outline(camera: Camera, sprite: _Sprite) -> np.ndarray:
    u0, v0, u1, v1 = sprite.rect
    return camera.project(sprite.plane.to_world(np.array([(u0, v0), (u1, v0), (u1, v1), (u0, v1)])))


def _covered_fraction(quad: np.ndarray, occluders: list[np.ndarray]) -> float:
    """Share of the polygon ``quad`` hidden under any of the ``occluders`` polygons."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    overlapping = [o for o in occluders if (o.max(axis=0) >= lo).all() and (o.min(axis=0) <= hi).all()]
    if not overlapping:
        return 0.0
    scale = 40.0 / max(1e-6, float((hi - lo).max()))  # a raster about 40 cells across
    size = np.ceil((hi - lo) * scale).astype(int) + 2
    area = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(area, [np.round((quad - lo) * scale).astype(np.int32)], 1)
    covered = np.zeros_like(area)
    for outline in overlapping:
        cv2.fillPoly(covered, [np.round((outline - lo) * scale).astype(np.int32)], 1)
    return float((area & covered).sum()) / max(1, int(area.sum()))


def scene_truth(scene: TableScene, *, width: int = FULL_WIDTH, height: int = 2592, seed: int = 0,
                conditions: Conditions | None = None) -> SceneTruth:
    """Where every marker of :func:`render_scene`'s frame (same arguments) landed."""
    return _truth(_layout(scene, width, height, seed, conditions or Conditions.typical()))


# -------------------------------------------------------------------------- drawing


def render_scene(scene: TableScene, *, width: int = FULL_WIDTH, height: int = 2592, seed: int = 0,
                 conditions: Conditions | None = None) -> np.ndarray:
    """A BGR uint8 camera frame of ``scene``; the same arguments give the same frame."""
    return render_scene_with_truth(scene, width=width, height=height, seed=seed, conditions=conditions)[0]


def render_scene_with_truth(scene: TableScene, *, width: int = FULL_WIDTH, height: int = 2592, seed: int = 0,
                            conditions: Conditions | None = None) -> tuple[np.ndarray, SceneTruth]:
    """:func:`render_scene` and :func:`scene_truth` in one go (the layout is built once)."""
    conditions = conditions or Conditions.typical()
    layout = _layout(scene, width, height, seed, conditions)
    rng = np.random.default_rng([seed, 2])
    frame = cv2.resize(artwork.table_texture(width, height, rng, conditions.cloth), (width, height),
                       interpolation=cv2.INTER_LINEAR)
    for sprite in layout.sprites:
        _draw_sprite(frame, layout.camera, sprite)
    for finger in layout.fingers:
        _draw_finger(frame, layout.camera, finger, rng)
    _light(frame, layout, conditions, rng)
    if conditions.optics is not None:
        frame = expose(frame, conditions.optics, _axis_distance_m(layout.camera, layout.camera.position * (1, 1, 0)),
                       _surfaces(layout, conditions.optics), np.random.default_rng([seed, 3]))
    sigma = conditions.blur * width / FULL_WIDTH
    if sigma >= 0.3:
        _blur(frame, sigma)
    if conditions.noise > 0:
        _add_noise(frame, conditions.noise, rng)
    if conditions.jpeg_quality is not None:
        _compress(frame, int(conditions.jpeg_quality))
    return frame, _truth(layout)


def _axis_distance_m(camera: Camera, point_world: np.ndarray) -> float:
    """How far ``point_world`` (mm) lies from the lens along its axis, in metres."""
    return float(((np.asarray(point_world, np.float64) - camera.position) @ camera.rotation.T)[2]) / 1000.0


def _surfaces(layout: _Layout, optics: Optics) -> list[Surface]:
    """Each sprite as a :class:`~coyote_pi.sim.optics.Surface` at its own distance (its
    centre's), in drawing order; the cards of ``optics.moving_seats`` moving."""
    moving = {sticker.sprite for sticker in layout.stickers
              if sticker.place in {f"seat:{seat}" for seat in optics.moving_seats}}
    surfaces = []
    for index, sprite in enumerate(layout.sprites):
        u0, v0, u1, v1 = sprite.rect
        corners = np.array([(u0, v0), (u1, v0), (u1, v1), (u0, v1)])
        centre = sprite.plane.to_world(np.array([((u0 + u1) / 2, (v0 + v1) / 2)]))[0]
        surfaces.append(Surface(layout.camera.project(sprite.plane.to_world(corners)),
                                _axis_distance_m(layout.camera, centre), index in moving))
    return surfaces


def _draw_sprite(frame: np.ndarray, camera: Camera, sprite: _Sprite) -> None:
    u0, v0, u1, v1 = sprite.rect
    to_image = camera.plane_homography(sprite.plane, sprite.rect)
    corners = apply_homography(to_image, np.array([(u0, v0), (u1, v0), (u1, v1), (u0, v1)]))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, frame.shape[1]), min(y1, frame.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    # Pick the texture level whose resolution is just above the object's on screen.
    jac = to_image[:2, :2] - np.outer(apply_homography(to_image, np.array([((u0 + u1) / 2, (v0 + v1) / 2)]))[0],
                                      to_image[2, :2])
    jac /= (to_image[2] @ np.array([(u0 + u1) / 2, (v0 + v1) / 2, 1.0]))
    screen_ppm = float(np.linalg.svd(jac, compute_uv=False).max())
    level = 0
    while artwork.BASE_PPM / 2 ** (level + 1) >= 1.3 * screen_ppm and level < 4:
        level += 1
    texture = artwork.texture_level(sprite.texture, level)
    th, tw = texture.shape[:2]
    texture_to_plane = np.array([[(u1 - u0) / tw, 0, u0], [0, -(v1 - v0) / th, v1], [0, 0, 1.0]])
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    roi = frame[y0:y1, x0:x1].copy()
    cv2.warpPerspective(texture, shift @ to_image @ texture_to_plane, (x1 - x0, y1 - y0), dst=roi,
                        flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    frame[y0:y1, x0:x1] = roi


def _draw_finger(frame: np.ndarray, camera: Camera, finger: _Finger, rng: np.random.Generator) -> None:
    outline = camera.project(finger.plane.to_world(finger.outline_mm))
    skin = np.array(rng.choice([(120, 150, 205), (95, 125, 180), (60, 85, 130), (140, 170, 225)]), float)
    cv2.fillPoly(frame, [np.round(outline * 16).astype(np.int32)], (skin * 0.8).tolist(), cv2.LINE_AA, shift=4)
    centre = outline.mean(axis=0)
    inner = centre + (outline - centre) * 0.75
    cv2.fillPoly(frame, [np.round(inner * 16).astype(np.int32)], skin.tolist(), cv2.LINE_AA, shift=4)


#: Frame rows per band when light is applied: scaling the coarse light grids up a band at
#: a time keeps two frame-sized temporaries (18 MB at 2304 x 1296) out of memory.
_LIGHT_BAND_ROWS = 128


def _upscaled(grid: np.ndarray, size: tuple[int, int], box: tuple[int, int, int, int],
              interpolation: int) -> np.ndarray:
    """The part ``box`` (x0, y0, x1, y1) of ``grid`` scaled up to ``size`` (width,
    height) with ``cv2.resize``'s pixel-centre mapping, without computing the rest."""
    (gh, gw), (width, height), (x0, y0, x1, y1) = grid.shape[:2], size, box
    sx, sy = gw / width, gh / height
    frame_to_grid = np.array([[sx, 0.0, (x0 + 0.5) * sx - 0.5], [0.0, sy, (y0 + 0.5) * sy - 0.5]])
    return cv2.warpAffine(grid, frame_to_grid, (x1 - x0, y1 - y0), flags=interpolation | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def _glare_box(glare3: np.ndarray, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The frame rectangle (x0, y0, x1, y1) outside which the scaled-up glare grid is
    zero (bicubic scaling reaches two cells past the last lit one), or None if unlit."""
    rows, cols = np.nonzero(glare3.max(axis=2))
    if rows.size == 0:
        return None
    (gh, gw), (width, height) = glare3.shape[:2], size
    cell_w, cell_h = width / gw, height / gh
    return (max(0, int((cols.min() - 3) * cell_w)), max(0, int((rows.min() - 3) * cell_h)),
            min(width, math.ceil((cols.max() + 4) * cell_w)), min(height, math.ceil((rows.max() + 4) * cell_h)))


def _light(frame: np.ndarray, layout: _Layout, conditions: Conditions, rng: np.random.Generator) -> None:
    """Uneven light (gradient, vignetting, soft shadows, a tinted lamp) and glare, worked
    out on a coarse grid and applied to the frame band by band."""
    h, w = frame.shape[:2]
    gh, gw = max(4, h // 16), max(4, w // 16)
    y, x = np.mgrid[0:gh, 0:gw].astype(np.float32)
    x, y = (x + 0.5) / gw - 0.5, (y + 0.5) / gh - 0.5
    k = conditions.uneven_light
    angle = rng.uniform(0, 2 * math.pi)
    gradient = 0.5 + (x * math.cos(angle) + y * math.sin(angle) * 0.56)
    gain = conditions.brightness * (1.0 - 0.55 * k * gradient) * (1.0 - 0.6 * k * (x * x + (0.56 * y) ** 2) * 2)
    for _ in range(round(2 * k)):
        cx, cy = rng.uniform(-0.5, 0.5, size=2)
        gain *= 1.0 - 0.35 * k * np.exp(-(((x - cx) / 0.15) ** 2 + ((y - cy) / 0.12) ** 2))
    tint = 1.0 + rng.uniform(-0.06, 0.06, size=3) * k
    gain3 = np.clip(gain[..., None] * tint, 0.0, 1.27)
    # Gains are stored as 0..255 meaning 0..1.27 so that light can also brighten a little.
    gain8 = (gain3 * 200).astype(np.uint8)
    glare3 = None
    if layout.glares:
        pts = np.stack([(x + 0.5) * w, (y + 0.5) * h], axis=-1).reshape(-1, 2)
        glare = np.sum([g.at(pts) for g in layout.glares], axis=0).reshape(gh, gw)
        glare3 = np.clip(np.repeat(glare[..., None], 3, axis=2) * (1.0, 0.98, 0.95), 0, 255).astype(np.uint8)
    # Bicubic scaling is slow, so glare is scaled up only where it lights anything.
    lit = None if glare3 is None else _glare_box(glare3, (w, h))
    for y0 in range(0, h, _LIGHT_BAND_ROWS):
        y1 = min(h, y0 + _LIGHT_BAND_ROWS)
        band = frame[y0:y1]  # whole rows: a contiguous view, changed in place
        _apply_gain(band, _upscaled(gain8, (w, h), (0, y0, w, y1), cv2.INTER_LINEAR))
        if lit is not None and glare3 is not None and max(y0, lit[1]) < min(y1, lit[3]):
            box = (lit[0], max(y0, lit[1]), lit[2], min(y1, lit[3]))
            part = frame[box[1] : box[3], box[0] : box[2]]
            part[:] = cv2.add(part, _upscaled(glare3, (w, h), box, cv2.INTER_CUBIC))


_GAIN_SCALE = np.float32(1 / 200.0)


def _apply_gain(band: np.ndarray, gain8: np.ndarray) -> None:
    """``band`` times ``gain8 / 200``, rounded, in place: the same pixels on every processor.

    ``cv2.multiply(band, gain8, scale=1/200)`` rounds differently on arm64 (about half
    the products of two bytes come out one lower than on x86, so the whole frame
    differed and a harsh QR sticker was lost there). This is x86 OpenCV's arithmetic
    written out: ``(band * scale) * gain`` in float32, each step rounded as IEEE 754
    says, then to the nearest integer, ties to even."""
    product = np.multiply(band, _GAIN_SCALE, dtype=np.float32)
    product *= gain8
    np.rint(product, out=product)
    np.clip(product, 0, 255, out=product)
    band[:] = product


#: Frame rows per JPEG band: a whole number of JPEG's 16-row blocks (MCUs).
_JPEG_BAND_ROWS = 256


def _compress(frame: np.ndarray, quality: int) -> None:
    """The camera's JPEG compression, in place: each band of rows is encoded at
    ``quality`` and decoded back into the frame.

    Bands made of whole 16-row blocks get the blocks the whole frame would, so only the
    smoothing of colour between one band's last row and the next one's first can differ.
    It keeps the decoded copy small: ``cv2.imdecode`` allocates its result twice (its own
    image, then the copy handed to Python), 18 MB for a 2304 x 1296 frame at once."""
    params = [cv2.IMWRITE_JPEG_QUALITY, quality]
    for y0 in range(0, frame.shape[0], _JPEG_BAND_ROWS):
        band = frame[y0 : y0 + _JPEG_BAND_ROWS]
        ok, data = cv2.imencode(".jpg", band, params)
        if not ok:
            raise RuntimeError("OpenCV could not encode a JPEG")
        band[:] = cv2.imdecode(data, cv2.IMREAD_COLOR)


#: Frame rows per band when the frame is blurred.
_BLUR_BAND_ROWS = 128


def _blur(frame: np.ndarray, sigma: float) -> None:
    """``cv2.GaussianBlur(frame, (0, 0), sigma)`` in place, a band of rows at a time, with
    the same result: each band is blurred with as many real rows above and below as the
    kernel reaches. (Blurring the whole frame in place makes OpenCV copy all of it.)"""
    ksize = round(sigma * 3 * 2 + 1) | 1  # OpenCV's own size for an 8-bit image
    reach = ksize // 2
    h = frame.shape[0]
    above = None  # the unblurred rows just above the band (the frame holds blurred ones)
    for y0 in range(0, h, _BLUR_BAND_ROWS):
        y1 = min(h, y0 + _BLUR_BAND_ROWS)
        lo, hi = max(0, y0 - reach), min(h, y1 + reach)
        source = frame[lo:hi].copy()
        if above is not None:
            source[: y0 - lo] = above
        above = source[max(0, y1 - reach - lo) : y1 - lo].copy()
        frame[y0:y1] = cv2.GaussianBlur(source, (ksize, ksize), sigma)[y0 - lo : y1 - lo]


_NOISE_TILE = 1024
_NOISE_BLOCK = 512


@lru_cache(maxsize=1)
def _noise_tile(sigma: float) -> np.ndarray:
    """A fixed field of Gaussian noise of ``sigma`` grey levels, truncated to integers.

    It is kept as int8 when the values fit (3 MB instead of a 12 MB float field) and
    drawn a strip at a time, so no full-size float field is ever held."""
    rng = np.random.default_rng(12345)
    tile = np.empty((_NOISE_TILE, _NOISE_TILE, 3), np.int16)
    strip = 128
    for y0 in range(0, _NOISE_TILE, strip):
        tile[y0 : y0 + strip] = rng.standard_normal((strip, _NOISE_TILE, 3)).astype(np.float32) * sigma
    small = np.iinfo(np.int8)
    if small.min <= tile.min() and tile.max() <= small.max:
        tile = tile.astype(np.int8)
    tile.flags.writeable = False
    return tile


def _add_noise(frame: np.ndarray, sigma: float, rng: np.random.Generator) -> None:
    """Sensor noise: slices of one cached Gaussian field at random offsets, block by block
    (drawing 36 million fresh normals per frame would dominate the rendering time)."""
    tile = _noise_tile(sigma)
    h, w = frame.shape[:2]
    block = _NOISE_BLOCK
    for y0 in range(0, h, block):
        for x0 in range(0, w, block):
            bh, bw = min(block, h - y0), min(block, w - x0)
            oy, ox = rng.integers(0, _NOISE_TILE - block, size=2)
            patch = frame[y0 : y0 + bh, x0 : x0 + bw]
            patch[:] = cv2.add(patch, tile[oy : oy + bh, ox : ox + bw], dtype=cv2.CV_8U)
