"""Planes, a pinhole camera with mild barrel distortion, and homographies between them.

World coordinates are millimetres on the table: origin at the table centre under the
camera, ``x`` east, ``y`` north, ``z`` up. The camera hangs over the centre looking down,
so the image's right is east and its top is north (a top view, not mirrored). Seats go
round clockwise as seen from above, as players do.

Every marked object (a card face, a stand's board, the centre mat) is flat, so within
one object the mapping from its own millimetre coordinates to image pixels is a
homography. The renderer uses that to draw objects; the reader uses the inverse to
decide which stand or slot a detected card belongs to.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: Camera Module 3 Wide at full resolution: 2.75 mm lens over 1.4 um pixels.
FULL_WIDTH, FULL_HEIGHT = 4608, 2592
FULL_RES_FOCAL_PX = 1964.0
#: Radial distortion that stretches the 99-degree pinhole field to the lens's 102 degrees.
WIDE_LENS_K1 = -0.03


@dataclass(frozen=True)
class Plane:
    """A flat surface: world point of its origin and unit vectors along its u and v axes."""

    origin: np.ndarray
    u: np.ndarray
    v: np.ndarray

    @property
    def normal(self) -> np.ndarray:
        return np.cross(self.u, self.v)

    def to_world(self, points_mm: np.ndarray) -> np.ndarray:
        points = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        result: np.ndarray = self.origin + points[:, :1] * self.u + points[:, 1:2] * self.v
        return result

    def offset(self, distance_mm: float) -> Plane:
        """The parallel plane ``distance_mm`` in front (along the normal)."""
        return Plane(self.origin + distance_mm * self.normal, self.u, self.v)

    def sub_plane(self, origin_uv: tuple[float, float], angle_deg: float = 0.0) -> Plane:
        """A plane in the same surface with its origin moved and its axes turned."""
        a = math.radians(angle_deg)
        u = math.cos(a) * self.u + math.sin(a) * self.v
        v = -math.sin(a) * self.u + math.cos(a) * self.v
        return Plane(self.to_world(np.array([origin_uv]))[0], u, v)


def table_plane(centre_xy: tuple[float, float], yaw_deg: float, height_mm: float = 0.0) -> Plane:
    """A plane lying on the table (face up), centred at ``centre_xy`` and turned by yaw."""
    a = math.radians(yaw_deg)
    return Plane(
        np.array([centre_xy[0], centre_xy[1], height_mm]),
        np.array([math.cos(a), math.sin(a), 0.0]),
        np.array([-math.sin(a), math.cos(a), 0.0]),
    )


def stand_plane(foot_xy: tuple[float, float], lean_deg: float, turn_deg: float = 0.0) -> Plane:
    """The face of a stand whose foot is at ``foot_xy``, facing the table centre.

    The board leans back (away from the centre) by ``lean_deg`` and is turned about the
    vertical by ``turn_deg`` from facing the centre squarely; ``u`` runs to the right as
    seen from the centre, ``v`` up the board.
    """
    a = math.atan2(foot_xy[1], foot_xy[0]) + math.radians(turn_deg)
    radial = np.array([math.cos(a), math.sin(a), 0.0])
    up = np.array([0.0, 0.0, 1.0])
    lean = math.radians(lean_deg)
    v = math.cos(lean) * up + math.sin(lean) * radial
    u = np.cross(radial, up)
    return Plane(np.array([foot_xy[0], foot_xy[1], 0.0]), u, v)


def rotation_xyz(rx_deg: float, ry_deg: float, rz_deg: float) -> np.ndarray:
    """Rotation about the camera's own x (tilt), y (tilt) and z (the optical axis)."""
    ax, ay, az = (math.radians(a) for a in (rx_deg, ry_deg, rz_deg))
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rz = np.array([[math.cos(az), -math.sin(az), 0], [math.sin(az), math.cos(az), 0], [0, 0, 1]])
    result: np.ndarray = rz @ ry @ rx
    return result


#: World -> camera axes for a camera looking straight down: x east, y south, z down.
LOOKING_DOWN = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])


@dataclass(frozen=True)
class Camera:
    """A pinhole camera with one radial distortion term, posed over the table."""

    width: int
    height: int
    focal_px: float
    position: np.ndarray
    rotation: np.ndarray  # world -> camera
    k1: float = WIDE_LENS_K1

    @classmethod
    def over_table(
        cls,
        width: int,
        height: int,
        height_mm: float,
        shift_mm: tuple[float, float] = (0.0, 0.0),
        tilt_deg: tuple[float, float] = (0.0, 0.0),
        yaw_deg: float = 0.0,
    ) -> Camera:
        """The mast camera at ``height_mm``; a smaller frame is the sensor's binned mode."""
        rotation = rotation_xyz(tilt_deg[0], tilt_deg[1], yaw_deg) @ LOOKING_DOWN
        return cls(
            width=width,
            height=height,
            focal_px=FULL_RES_FOCAL_PX * width / FULL_WIDTH,
            position=np.array([shift_mm[0], shift_mm[1], height_mm]),
            rotation=rotation,
        )

    def project(self, points_world: np.ndarray) -> np.ndarray:
        """Image pixel coordinates (x right, y down) of world points, shape (N, 2)."""
        pc = (np.asarray(points_world, dtype=np.float64).reshape(-1, 3) - self.position) @ self.rotation.T
        xn, yn = pc[:, 0] / pc[:, 2], pc[:, 1] / pc[:, 2]
        d = 1.0 + self.k1 * (xn * xn + yn * yn)
        return np.stack([self.width / 2 + self.focal_px * xn * d, self.height / 2 + self.focal_px * yn * d], axis=1)

    def plane_homography(self, plane: Plane, rect_mm: tuple[float, float, float, float]) -> np.ndarray:
        """Homography from plane millimetres to image pixels over ``rect_mm``.

        Fitted by least squares to a 3 x 3 grid of projected points, so it follows the
        lens distortion where the object actually is.
        """
        u0, v0, u1, v1 = rect_mm
        grid = np.array([(u, v) for u in (u0, (u0 + u1) / 2, u1) for v in (v0, (v0 + v1) / 2, v1)])
        return fit_homography(grid, self.project(plane.to_world(grid)))

    def off_axis_deg(self, plane: Plane, point_mm: tuple[float, float]) -> float:
        """Angle between the plane's normal and the line of sight from the point to the lens."""
        point = plane.to_world(np.array([point_mm]))[0]
        sight = self.position - point
        cos = float(np.dot(plane.normal, sight) / np.linalg.norm(sight))
        return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def fit_homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Least-squares homography mapping ``src`` points onto ``dst`` points (N >= 4)."""
    src = np.asarray(src, dtype=np.float64).reshape(-1, 1, 2)
    dst = np.asarray(dst, dtype=np.float64).reshape(-1, 1, 2)
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        raise ValueError("degenerate points: no homography")
    return h


def linear_homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Least-squares homography mapping ``src`` points onto ``dst`` points (N >= 4), the
    linear (direct linear transform) solution only.

    :func:`fit_homography` polishes this by Levenberg-Marquardt, which costs ten times
    as much (about 0.25 ms for two markers' corners). The reader fits a dozen planes a
    frame to the precise corners of printed markers, where the two differ by hundredths
    of a pixel; the renderer keeps the polished fit. Both point sets are moved to their
    centroid and scaled to a unit spread first, so pixels in the thousands and
    millimetres in the tens weigh alike in the solve."""
    src = np.asarray(src, dtype=np.float64).reshape(-1, 2)
    dst = np.asarray(dst, dtype=np.float64).reshape(-1, 2)
    n = len(src)
    # Sums, not ``mean``: numpy's mean costs several times more in its Python layer,
    # and a frame fits a dozen planes.
    src_centre, dst_centre = src.sum(axis=0) / n, dst.sum(axis=0) / n
    s, d = src - src_centre, dst - dst_centre
    src_spread, dst_spread = float(np.abs(s).sum()) / (2 * n), float(np.abs(d).sum()) / (2 * n)
    if not src_spread or not dst_spread:
        raise ValueError("degenerate points: no homography")
    s /= src_spread
    d /= dst_spread
    # Rows u = (h0 x + h1 y + h2) - h6 x u - h7 y u, and likewise for v, with h8 = 1.
    a = np.zeros((2 * n, 8))
    a[:n, 0:2], a[:n, 2], a[n:, 3:5], a[n:, 5] = s, 1.0, s, 1.0
    b = d.T.reshape(-1, 1)
    a[:, 6:8] = -b * np.concatenate([s, s])
    solved, h = cv2.solve(a, b, flags=cv2.DECOMP_LU | cv2.DECOMP_NORMAL)
    if not solved:
        raise ValueError("degenerate points: no homography")
    normalised = np.ones(9)
    normalised[:8] = h.ravel()
    (sx, sy), (dx, dy) = src_centre.tolist(), dst_centre.tolist()
    h = np.array([[dst_spread, 0.0, dx], [0.0, dst_spread, dy], [0.0, 0.0, 1.0]]) @ normalised.reshape(3, 3) @ \
        np.array([[1 / src_spread, 0.0, -sx / src_spread], [0.0, 1 / src_spread, -sy / src_spread], [0.0, 0.0, 1.0]])
    result: np.ndarray = h / h[2, 2]
    return result


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through a 3 x 3 homography (one OpenCV call: the reader maps a
    few points at a time a hundred times a frame, where numpy's per-call cost is most of
    the work)."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    if not len(p):
        return np.zeros((0, 2))
    return cv2.perspectiveTransform(p, np.asarray(h, dtype=np.float64)).reshape(-1, 2)


def square_corners(centre: tuple[float, float], side: float) -> np.ndarray:
    """A marker's corners in plane coordinates (v up), in the order detectors report:
    top-left, top-right, bottom-right, bottom-left of the printed marker."""
    return rectangle_corners(centre, side / 2, side / 2)


def rectangle_corners(centre: tuple[float, float], half_width: float, half_height: float) -> np.ndarray:
    """A rectangle's corners in plane coordinates (v up), in :func:`square_corners`' order."""
    cx, cy = centre
    return np.array([(cx - half_width, cy + half_height), (cx + half_width, cy + half_height),
                     (cx + half_width, cy - half_height), (cx - half_width, cy - half_height)])
