"""Is every stand sharp enough and large enough? The focus check behind ``coyote-pi doctor``.

A card is read from its sticker's cells; the camera's lens is focused at one distance,
and the stands sit nearer and farther than it. Each stand's own large marker tells how
that stand is seen: its size in pixels, and its blur, fitted to its cells as the
confirmation fits it (:mod:`coyote_pi.vision.cells`). A card sticker in that stand is
smaller than the stand's marker by the printed sizes' ratio and lies at the same
distance, so it is blurred by the same pixels over fewer pixels per module:

- **too small**: the card sticker's module would cover fewer than
  :data:`MIN_CARD_MODULE_PX` pixels (fix: a lower mast, or the full-resolution still);
- **out of focus**: the blur would spread over more than :data:`MAX_CARD_BLUR` of a
  card module, where a lone cell greys towards its neighbours and the confirmation
  starts refusing reads (fix: focus between the nearest and the farthest stand, see
  :func:`lens_position_for`; more light, so the lens is not wide open on a moving hand);
- **faint**: the marker's black-to-white contrast is under :data:`MIN_STAND_CONTRAST`
  grey levels (fix: more light on the table).

Each stand's distance from the lens follows from its marker's size and the camera's focal
length; the fixed lens position that keeps every stand equally sharp lies half-way, in
dioptres, between the nearest and the farthest (:func:`lens_position_for`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from coyote_pi.vision.cells import marker_focus
from coyote_pi.vision.detect import STAND_KINDS, ArucoDetector, expected_cells
from coyote_pi.vision.geometry import FULL_RES_FOCAL_PX, FULL_WIDTH
from coyote_pi.vision.markerset import MarkerSet, load_markers, role_kind, role_subject

#: Fewest pixels a card sticker's module may cover: the real photos' markers were read
#: down to about 3 (a 1280 x 720 webcam frame of the table gives 3.2 to 3.6).
MIN_CARD_MODULE_PX = 3.0
#: Most blur (a Gaussian's sigma) a card sticker's module may take, in module widths:
#: past it the confirmation's margins on real photos fell fast (docs/markers.md).
MAX_CARD_BLUR = 0.3
#: Weakest black-to-white contrast, grey levels, of a stand marker on a lit table.
MIN_STAND_CONTRAST = 60.0
#: The kinds of problem :meth:`StandSharpness.kinds` names (setup's words for them:
#: ``setup.stand_<kind>`` in :mod:`coyote_pi.words.translator`).
SMALL, SOFT, FAINT = "small", "soft", "faint"
#: Stands are looked for in a copy of the frame about this wide (as the reader's anchors).
_SEARCH_WIDTH = 768


@dataclass(frozen=True)
class StandSharpness:
    """How one stand is seen: measured on its marker(s), predicted for its card sticker."""

    seat: int
    marker_px: float  # the stand marker's side, pixels
    blur_px: float  # the fitted blur, pixels (a Gaussian's sigma)
    contrast: float  # black-to-white, grey levels
    cell_contrast: float  # darkest white cell minus lightest black cell, grey levels
    card_module_px: float  # pixels per module of a card sticker in this stand
    distance_m: float  # from the lens, estimated from the marker's size

    @property
    def card_blur(self) -> float:
        """The blur in a card sticker's module widths."""
        return self.blur_px / max(self.card_module_px, 1e-9)

    def kinds(self) -> list[str]:
        """What is wrong with how this stand is seen: any of :data:`SMALL`, :data:`SOFT`
        and :data:`FAINT` (empty: nothing)."""
        checks = {SMALL: self.card_module_px < MIN_CARD_MODULE_PX, SOFT: self.card_blur > MAX_CARD_BLUR,
                  FAINT: self.contrast < MIN_STAND_CONTRAST}
        return [kind for kind, wrong in checks.items() if wrong]

    def problems(self) -> list[str]:
        """:meth:`kinds` in words for a person at a terminal, each with the fix."""
        words = {
            SMALL: f"too small: a card module is {self.card_module_px:.1f} px (keep {MIN_CARD_MODULE_PX:g}): "
                   "lower the mast or move the stand nearer the camera",
            SOFT: f"out of focus: blur {self.blur_px:.1f} px, {self.card_blur:.2f} of a card module "
                  f"(keep {MAX_CARD_BLUR:g}): focus at {self.distance_m:.2f} m or between the nearest and "
                  "farthest stand (sudo coyote-pi doctor --focus), and light the table well",
            FAINT: f"faint: contrast {self.contrast:.0f} grey levels (keep {MIN_STAND_CONTRAST:g}): "
                   "more light on the table",
        }
        return [words[kind] for kind in self.kinds()]

    def summary(self) -> str:
        return (f"stand {self.seat}: marker {self.marker_px:.0f} px, card module {self.card_module_px:.1f} px, "
                f"blur {self.blur_px:.1f} px ({self.card_blur:.2f} module), contrast {self.contrast:.0f}, "
                f"cell contrast {self.cell_contrast:.0f}, about {self.distance_m:.2f} m")


def stand_sharpness(frame: np.ndarray, markers: MarkerSet | None = None) -> dict[int, StandSharpness]:
    """Each stand found in ``frame`` (BGR, any resolution) and how sharply it is seen,
    by seat. A stand whose two markers are both found is judged by the sharper one
    (the other may be under a hand)."""
    markers = markers or load_markers("aruco")
    found = ArucoDetector(markers).stands(frame, max(1, round(frame.shape[1] / _SEARCH_WIDTH)))
    focal_px = FULL_RES_FOCAL_PX * frame.shape[1] / FULL_WIDTH
    best: dict[int, StandSharpness] = {}
    for marker in found.markers:
        if marker.role is None or role_kind(marker.role) not in STAND_KINDS:
            continue
        cells = expected_cells(markers, marker.role)
        (focus,) = marker_focus(frame, marker.corners[None], cells)
        printed_mm = markers.marker_mm(marker.role)
        seat = int(role_subject(marker.role))
        stand = StandSharpness(
            seat=seat, marker_px=focus.side_px, blur_px=focus.blur_px, contrast=focus.contrast,
            cell_contrast=focus.cell_contrast,
            card_module_px=focus.module_px * markers.size_mm["card"] / printed_mm,
            distance_m=focal_px * printed_mm / max(focus.side_px, 1e-9) / 1000,
        )
        if seat not in best or stand.card_blur < best[seat].card_blur:
            best[seat] = stand
    return dict(sorted(best.items()))


#: Stands that must be measured before their distances, not the autofocus, set the lens.
FOCUS_STANDS = 2


def lens_position_from_still(frame: np.ndarray) -> float | None:
    """The lens position (dioptres) that keeps every stand in ``frame`` (a still of the
    table) equally sharp (:func:`lens_position_for`); None when fewer than
    :data:`FOCUS_STANDS` stands are seen (the camera then keeps where autofocus found focus)."""
    stands = stand_sharpness(frame)
    return lens_position_for(stands) if len(stands) >= FOCUS_STANDS else None


def lens_position_for(stands: dict[int, StandSharpness]) -> float | None:
    """The fixed lens position, in dioptres, that keeps every stand equally sharp:
    half-way between the nearest and the farthest stand (a lens's defocus blur grows
    with the difference in dioptres). None without a stand."""
    if not stands:
        return None
    powers = [1.0 / s.distance_m for s in stands.values()]
    return (min(powers) + max(powers)) / 2
