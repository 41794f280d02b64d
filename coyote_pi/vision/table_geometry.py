"""Where things are on the table, in millimetres and in pixels: the stands' boards and the
centre mat as planes, fitted to the markers seen on them.

Each stand's board and the mat are flat, and their markers are printed at known places
in their own millimetres (:mod:`~coyote_pi.vision.markerset`). So every marker seen
once on a plane gives four point pairs, and a homography fitted to them maps the plane's
millimetres to the image (:meth:`TableGeometry.locate`). With it the reader knows:

- **where to look**: the image box of a card's stickers or of a slot, and how many
  pixels wide a card sticker will be there (:meth:`TableGeometry.stand_sticker_region`,
  :meth:`TableGeometry.slot_region`);
- **whether a marker lies in the plane**: mapped back into the plane's millimetres, a
  card sticker standing in the stand must come out about 25 mm square; a card lying
  flat in front of the stand comes out squashed (:meth:`TableGeometry.in_plane`);
- **where it lies on the plane**: in a stand's card place, on which slot
  (:meth:`TableGeometry.place_in_stand`, :meth:`TableGeometry.slot_at`).

Markers of one plane that disagree (a folded mat, a stand's two markers far apart) give
no plane at all and a warning: a wrong plane would put cards in wrong seats.

Everything here depends only on the printed layout (a :class:`MarkerSet`) and the
markers found; deciding what a seat or slot *shows* is :mod:`~coyote_pi.vision.reader`'s.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from coyote_pi.vision.detect import STAND_KINDS, Marker, quad_sides, sides
from coyote_pi.vision.geometry import apply_homography, linear_homography, rectangle_corners, square_corners
from coyote_pi.vision.markerset import (
    LOCATORS,
    SEATS,
    SLOTS,
    MarkerSet,
    locator_role,
    role_kind,
    role_subject,
    slot_role,
    stand_right_role,
    stand_role,
)

#: A candidate quad counts as "an unreadable sticker" when its size is within this
#: factor of the sticker expected at that place.
CANDIDATE_SIZE_RANGE = (0.5, 1.8)
#: ... and it is about square in its plane (shortest side over longest at least this).
CANDIDATE_MIN_SQUARENESS = 0.6
#: A marker read in a plane (stand face, mat) must map to a square this close to its
#: printed size there (ratio of each side), or it is not lying in that plane.
PLANE_FIT_RANGE = (0.6, 1.6)
#: A stand's stickers are looked for first where they are when the card stands this
#: close (mm) to its place: the region holding both prints is then no larger than the
#: one a single print needed with the whole slack.
STICKER_SLACK_MM = 6.0
#: Plane fits remembered (a frame fits at most 7 planes a few times over).
FITS_REMEMBERED = 64


@dataclass(frozen=True)
class Stand:
    """One stand placed in the image: its seat and the homographies between its board's
    millimetres (u right, v up from the foot, as seen from the table's centre) and the image."""

    seat: int
    to_image: np.ndarray  # stand mm -> image px
    to_plane: np.ndarray


class TableGeometry:
    """The stands' and the mat's geometry for one printed layout (``markers``)."""

    def __init__(self, markers: MarkerSet):
        self.markers = markers
        self._plane_points: dict[str, np.ndarray] = {}
        self._fits: dict[tuple[tuple[str, ...], bytes], np.ndarray | None] = {}
        self._inverses: dict[bytes, np.ndarray] = {}

    def sticker_region(self, to_image: np.ndarray, centre_mm: tuple[float, float], reach_mm: tuple[float, float],
                       sticker_centre_mm: tuple[float, float], size: tuple[int, int]) -> tuple[tuple[int, int, int, int] | None, float]:
        """Image box around ``centre_mm`` (in the plane ``to_image`` maps from) give or
        take ``reach_mm`` (along each axis), and the shorter side in pixels of a card
        sticker at ``sticker_centre_mm``."""
        corners = np.concatenate([rectangle_corners(centre_mm, *reach_mm),
                                  square_corners(sticker_centre_mm, self.markers.size_mm["card"])])
        seen = apply_homography(to_image, corners)
        return image_box(seen[:4], size), _shorter_side(seen[4:])

    @cached_property
    def stand_needs(self) -> np.ndarray:
        """The corners (stand millimetres) of the part of a stand's board the reader
        needs to see: both markers with their quiet zones and the place a card counts in."""
        layout, card = self.markers.stand, self.markers.card
        us, vs = [layout.card_centre_u - card.width / 2 - layout.card_slack,
                  layout.card_centre_u + card.width / 2 + layout.card_slack], [layout.card_bottom_v,
                                                                                 layout.card_bottom_v + card.height]
        for role in (stand_role(1), stand_right_role(1)):
            (u, v), half = self.markers.stand_marker_centre(role), self.markers.sticker_mm(role) / 2
            us += [u - half, u + half]
            vs += [v - half, v + half]
        needs = np.array([(min(us), max(vs)), (max(us), max(vs)), (max(us), min(vs)), (min(us), min(vs))])
        needs.flags.writeable = False
        return needs

    @cached_property
    def stand_print_centres(self) -> list[tuple[float, float]]:
        """Where a card standing upright in its place has its stickers, in stand millimetres."""
        layout, card = self.markers.stand, self.markers.card
        middle_v = layout.card_bottom_v + card.height / 2
        return [(layout.card_centre_u + x, middle_v + y) for (x, y), _ in self.markers.card_print_places()]

    @cached_property
    def _stickers_place(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The centre and reach (stand mm) of :meth:`stand_sticker_region`'s rectangle."""
        prints = np.array(self.stand_print_centres)
        centre = prints.mean(axis=0)
        reach = self.markers.sticker_mm("card:0") / 2 + STICKER_SLACK_MM + np.abs(prints - centre).max(axis=0)
        return tuple(centre.tolist()), tuple(reach.tolist())

    def stand_sticker_region(self, stand: Stand, size: tuple[int, int]) -> tuple[tuple[int, int, int, int] | None, float]:
        """Where a card standing upright in its place, give or take :data:`STICKER_SLACK_MM`,
        has its stickers (all its prints; a card further off is read in its whole place)."""
        centre, reach = self._stickers_place
        return self.sticker_region(stand.to_image, centre, reach, self.stand_print_centres[0], size)

    def stand_card_region(self, stand: Stand, size: tuple[int, int]) -> tuple[tuple[int, int, int, int] | None, float]:
        """The whole place where a card counts as this seat's (see :meth:`place_in_stand`):
        a card put in upside down or a little off its place is still read there, so an
        unread seat never needs the whole frame."""
        layout, card = self.markers.stand, self.markers.card
        centre = (layout.card_centre_u, layout.card_bottom_v + card.height / 2)
        reach = (card.width / 2 + layout.card_slack, card.height / 2 + layout.card_slack)
        return self.sticker_region(stand.to_image, centre, reach, self.stand_print_centres[0], size)

    def slot_region(self, mat: np.ndarray, slot: str, size: tuple[int, int]) -> tuple[tuple[int, int, int, int] | None, float]:
        """A whole slot: a card on it may lie either way up, and the slot's own marker
        is in its middle."""
        layout = self.markers.mat
        reach = max(layout.slot_width, layout.slot_height) / 2 + 4
        return self.sticker_region(mat, layout.slots[slot], (reach, reach), layout.slots[slot], size)

    def marker_plane_points(self, role: str) -> np.ndarray:
        """The printed corners of an anchor marker in its own plane's millimetres (worked
        out once per role: every plane fit asks for them)."""
        if role not in self._plane_points:
            kind, size = role_kind(role), self.markers.marker_mm(role)
            if kind in STAND_KINDS:
                centre = self.markers.stand_marker_centre(role)
            elif kind == "mat":
                centre = self.markers.mat.locators[role_subject(role)]
            else:
                centre = self.markers.mat.slots[role_subject(role)]
            self._plane_points[role] = square_corners(centre, size)
            self._plane_points[role].flags.writeable = False
        return self._plane_points[role]

    def locate(self, markers: list[Marker], warnings: list[str]) -> tuple[dict[int, Stand], np.ndarray | None]:
        """Stand homographies by seat, and the mat's homography (or None)."""
        stands: dict[int, Stand] = {}
        by_role: dict[str, list[Marker]] = {}
        for m in markers:
            if m.role and role_kind(m.role) in (*STAND_KINDS, "mat", "slot"):
                by_role.setdefault(m.role, []).append(m)
        for seat in SEATS:
            roles = (stand_role(seat), stand_right_role(seat))
            seen = {role: by_role.get(role, []) for role in roles}
            if any(len(found) > 1 for found in seen.values()):
                warnings.append(f"a marker of stand {seat} is seen more than once; seat {seat} ignored")
                continue
            # Either of the stand's two markers places it; both place it more precisely.
            h = self._plane_from(roles, seen, warnings, f"stand {seat}'s two markers disagree about where it "
                                                       f"stands; seat {seat} ignored")
            if h is not None:
                stands[seat] = Stand(seat, h, self.to_plane(h))
        mat_roles = [locator_role(n) for n in LOCATORS] + [slot_role(s) for s in SLOTS]
        seen = {role: by_role.get(role, []) for role in mat_roles}
        for role, found in seen.items():
            if len(found) > 1:
                warnings.append(f"the mat marker {role_subject(role)} is seen {len(found)} times; not used")
        mat = self._plane_from(mat_roles, seen, warnings, "the mat's markers disagree about where the mat is "
                                                          "(is it folded?)")
        return stands, mat

    def _plane_from(self, roles: Iterable[str], seen: dict[str, list[Marker]], warnings: list[str],
                    disagree: str) -> np.ndarray | None:
        """The homography from a plane's millimetres to the image, fitted to every marker
        of ``roles`` seen exactly once on it (None if none is, or if they disagree).

        A reading places the same markers several times (after the anchor pass, after the
        regions, after a stand search), so fits are remembered by the exact corners they
        were made from: the same corners give the same plane without fitting again."""
        used = tuple(role for role in roles if len(seen[role]) == 1)
        if not used:
            return None
        image_pts = [seen[role][0].corners for role in used]
        key = (used, b"".join(q.tobytes() for q in image_pts))
        if key not in self._fits:
            if len(self._fits) >= FITS_REMEMBERED:
                del self._fits[next(iter(self._fits))]  # the oldest: a past frame's
            self._fits[key] = self._fit(used, image_pts)
        h = self._fits[key]
        if h is None:
            warnings.append(disagree)
        return h

    def to_plane(self, to_image: np.ndarray) -> np.ndarray:
        """The inverse of a plane's homography: image pixels to the plane's millimetres
        (remembered like the fits: the reader asks for the mat's several times a frame)."""
        key = to_image.tobytes()
        if key not in self._inverses:
            if len(self._inverses) >= FITS_REMEMBERED:
                del self._inverses[next(iter(self._inverses))]
            self._inverses[key] = np.linalg.inv(to_image)
        return self._inverses[key]

    def _fit(self, used: tuple[str, ...], image_pts: list[np.ndarray]) -> np.ndarray | None:
        """:meth:`_plane_from`'s fit: None when the markers disagree about the plane."""
        src = np.concatenate([self.marker_plane_points(role) for role in used])
        dst = np.concatenate(image_pts)
        h = linear_homography(src, dst)
        if len(used) == 1:
            return h  # one marker's four corners: fitted exactly, nothing to disagree
        off = apply_homography(h, src) - dst
        residual = math.sqrt((off * off).sum(axis=1).max())
        # statistics, not numpy: np.median imports numpy.ma (over 1 MB) for a handful of numbers.
        if residual > 0.25 * statistics.median(_shorter_side(q) for q in image_pts):
            return None
        return h

    def in_plane(self, to_plane: np.ndarray, corners: np.ndarray, kind: str) -> tuple[bool, tuple[float, float]]:
        """Does a marker lie in this plane? Its printed size tells: mapped into the plane's
        millimetres, its sides must come out about the printed length."""
        local = apply_homography(to_plane, corners)
        lengths, size = quad_sides(local), self.markers.size_mm[kind]
        fits = min(lengths) >= PLANE_FIT_RANGE[0] * size and max(lengths) <= PLANE_FIT_RANGE[1] * size
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = local.tolist()  # plain Python: four points
        return fits, ((x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4)

    def place_in_stand(self, stand: Stand, corners: np.ndarray) -> bool:
        fits, (u, v) = self.in_plane(stand.to_plane, corners, "card")
        layout, card = self.markers.stand, self.markers.card
        slack = layout.card_slack
        return fits and (abs(u - layout.card_centre_u) <= card.width / 2 + slack
                         and layout.card_bottom_v - slack <= v <= layout.card_bottom_v + card.height + slack)

    def slot_at(self, mat_to_plane: np.ndarray, corners: np.ndarray, kind: str = "card") -> str | None:
        fits, (x, y) = self.in_plane(mat_to_plane, corners, kind)
        if not fits:
            return None
        layout = self.markers.mat
        for name, (sx, sy) in layout.slots.items():
            if abs(x - sx) <= layout.slot_width / 2 + 6 and abs(y - sy) <= layout.slot_height / 2 + 6:
                return name
        return None

    def card_areas(self, stands: dict[int, Stand], mat: np.ndarray | None) -> list[list[list[float]]]:
        """Each stand's card window and each slot of the mat, as image quadrilaterals."""
        layout, card, mat_layout = self.markers.stand, self.markers.card, self.markers.mat
        centre = (layout.card_centre_u, layout.card_bottom_v + card.height / 2)
        reach = (card.width / 2 + layout.card_slack, card.height / 2 + layout.card_slack)
        areas = [_quad(stand.to_image, centre, reach) for _, stand in sorted(stands.items())]
        if mat is not None:
            slot_reach = (mat_layout.slot_width / 2 + 4, mat_layout.slot_height / 2 + 4)
            areas += [_quad(mat, mat_layout.slots[slot], slot_reach) for slot in SLOTS]
        return areas

    def sticker_sized(self, to_plane: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For (N, 4, 2) image quads: which are about a card sticker's size in the plane,
        and their centres in the plane's millimetres."""
        if not len(quads):
            return np.zeros(0, bool), np.zeros((0, 2))
        local = apply_homography(to_plane, quads.reshape(-1, 2)).reshape(-1, 4, 2)
        lengths = sides(local)
        ratio = lengths.mean(axis=1) / self.markers.size_mm["card"]
        square = lengths.min(axis=1) >= CANDIDATE_MIN_SQUARENESS * lengths.max(axis=1)
        sized = square & (ratio >= CANDIDATE_SIZE_RANGE[0]) & (ratio <= CANDIDATE_SIZE_RANGE[1])
        return sized, local.mean(axis=1)

    def candidates_in_stand(self, stand: Stand, quads: np.ndarray) -> np.ndarray:
        """Mask of marker-shaped quads of about a sticker's size in a stand's card region."""
        sized, centres = self.sticker_sized(stand.to_plane, quads)
        layout, card = self.markers.stand, self.markers.card
        slack = layout.card_slack
        return (sized & (np.abs(centres[:, 0] - layout.card_centre_u) <= card.width / 2 + slack)
                & (centres[:, 1] >= layout.card_bottom_v - slack)
                & (centres[:, 1] <= layout.card_bottom_v + card.height + slack))

    def candidates_on_slot(self, mat_to_plane: np.ndarray, quads: np.ndarray, slot: str) -> np.ndarray:
        sized, centres = self.sticker_sized(mat_to_plane, quads)
        layout = self.markers.mat
        sx, sy = layout.slots[slot]
        return (sized & (np.abs(centres[:, 0] - sx) <= layout.slot_width / 2)
                & (np.abs(centres[:, 1] - sy) <= layout.slot_height / 2))


def image_box(points: np.ndarray, size: tuple[int, int], pad: int = 6) -> tuple[int, int, int, int] | None:
    """The pixel box (x0, y0, x1, y1) round ``points``, ``pad`` pixels wider each way and
    cut to an image of ``size`` (width, height); None if less than 16 pixels remain
    either way. In plain Python: numpy's per-call cost on four points outweighs the work."""
    (left, top), (right, bottom) = points.min(axis=0).tolist(), points.max(axis=0).tolist()
    x0, y0 = max(math.floor(left) - pad, 0), max(math.floor(top) - pad, 0)
    x1, y1 = min(math.ceil(right) + pad, size[0]), min(math.ceil(bottom) + pad, size[1])
    return (x0, y0, x1, y1) if x1 - x0 >= 16 and y1 - y0 >= 16 else None


def _quad(to_image: np.ndarray, centre_mm: tuple[float, float], reach_mm: tuple[float, float]) -> list[list[float]]:
    """The rectangle ``centre_mm`` give or take ``reach_mm`` (along u, along v) of a plane, in the image."""
    return point_list(apply_homography(to_image, rectangle_corners(centre_mm, *reach_mm)))


def _shorter_side(quad: np.ndarray) -> float:
    return min(quad_sides(quad))


def point_list(corners: np.ndarray) -> list[list[float]]:
    """Image points as plain lists rounded to 0.1 px (the sightings' JSON)."""
    points: list[list[float]] = np.round(np.asarray(corners, dtype=np.float64), 1).tolist()
    return points
