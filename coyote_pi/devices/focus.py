"""Where the Pi camera's lens is focused: fixed from the table's geometry, calibrated once by autofocus.

Continuous autofocus would refocus whenever a hand reaches over the table and could be
caught half-way when a still is taken, so the lens is set once and stays. libcamera
sets it with ``LensPosition``, in dioptres: 1 / the focus distance in metres (0 is
infinity).

- **From the geometry** (``[camera] focus_cm``, :data:`GEOMETRY_FOCUS_CM`): the camera
  hangs 65 cm above the table; the card stickers on the stands are 57.6 cm below the
  lens along its axis and the mat 65 cm (hardware/geometry.md). Focused half-way in
  dioptres, 1 / ((1/0.576 + 1/0.65) / 2) = 0.61 m, both are equally sharp (the Camera
  Module 3 Wide, f = 2.75 mm at f/2.2, then keeps roughly 0.4 to 1.2 m sharp).
- **Calibrated**: one autofocus cycle on the real table finds the lens position the
  geometry only estimates (a mast built a little higher, a lens module's tolerance). The
  service runs it the first time the camera starts and keeps the result in
  ``[camera] focus_file``; ``coyote-pi doctor --focus`` runs it again after the mast or
  the camera was moved. A cycle that fails, or finds a distance no table has (it
  focused on a hand, or on the ceiling), changes nothing.
- **Between the stands**: autofocus makes one spot sharp, but the stands sit nearer and
  farther than it. Both the service's first start and the doctor then take a still at
  the autofocus's position and hand it to :attr:`FocusSettings.from_still` (the vision
  code's measure of every stand's distance,
  :func:`coyote_pi.vision.sharpness.lens_position_from_still`), and fix the lens half-way
  in dioptres between the nearest and the farthest stand. With fewer than two stands in
  view, or a position no table has, the autofocus's own result is kept.

>>> round(dioptres(0.61), 2)
1.64
>>> describe(1.64)
'0.61 m (1.64 dioptres)'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from coyote_pi.files import write_atomically

#: The focus distance the table's geometry gives (see the module documentation).
GEOMETRY_FOCUS_CM = 61
#: Distances an autofocus result may have on this table, in metres: anything else is a failed cycle.
PLAUSIBLE_M = (0.3, 1.5)


@dataclass(frozen=True)
class FocusSettings:
    """Where to focus: ``distance_cm`` until calibrated; ``file`` keeps a calibration (None:
    none kept); ``from_still``, given a still taken where autofocus found focus, says the
    lens position (dioptres) that keeps every stand sharp, or None to keep the
    autofocus's (None: the autofocus's is kept). The devices cannot measure stands
    themselves: whoever builds the camera hands the vision code's measure in."""

    distance_cm: int = GEOMETRY_FOCUS_CM
    file: Path | None = None
    from_still: Callable[[np.ndarray], float | None] | None = None


def dioptres(distance_m: float) -> float:
    """libcamera's ``LensPosition`` for a focus distance in metres."""
    return 1.0 / distance_m


def describe(position: float) -> str:
    """A lens position for people: the distance and the dioptres."""
    return f"{1.0 / position:.2f} m ({position:.2f} dioptres)"


def plausible(position: object) -> bool:
    """Whether an autofocus result is a distance on this table (``position`` in dioptres)."""
    if not isinstance(position, int | float) or position <= 0:
        return False
    near, far = PLAUSIBLE_M
    return dioptres(far) <= position <= dioptres(near)


def load_focus(path: Path | None) -> float | None:
    """The calibrated lens position kept in ``path``; None when there is none (or it is unreadable)."""
    if path is None:
        return None
    try:
        position = json.loads(Path(path).read_text(encoding="utf-8")).get("lens_position")
    except (OSError, ValueError, AttributeError):
        return None
    return float(position) if plausible(position) else None


def save_focus(path: Path, position: float) -> None:
    """Keep ``position`` in ``path``, atomically and durably (written beside it, fsynced,
    then renamed over it)."""
    document = {"lens_position": round(position, 4), "distance_m": round(1.0 / position, 3)}
    write_atomically(Path(path), (json.dumps(document) + "\n").encode("utf-8"), durable=True)
