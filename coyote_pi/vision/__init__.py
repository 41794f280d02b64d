"""Card vision: printed markers, and reading a table from one camera frame.

The controller uses two things, both importable from here::

    from coyote_pi.vision import TableReader, annotate

    reader = TableReader(scheme="aruco", seats=(1, 2, 3))
    reading = reader.read(frame_bgr)          # -> TableReading
    reading.seats[2].card, reading.seats[2].status, reading.slots["centre"].state
    picture = annotate(frame_bgr, reading)    # what was read, drawn on a copy

Names are loaded on first use (PEP 562), so importing this package does not load
OpenCV or numpy; ``coyote-pi --help`` stays fast. The synthetic table that the tests
and the demo read is drawn by :mod:`coyote_pi.sim.render`.

Modules: :mod:`.markerset` (the mapping file), :mod:`.artwork` (markers and textures),
:mod:`.geometry` (camera and planes), :mod:`.detect` (marker detectors),
:mod:`.reader` (a frame -> a table), :mod:`.reading` (what a reading says), :mod:`.annotate`,
:mod:`.sheets` (printable stickers), :mod:`.image_file` (camera images from files),
:mod:`.framing` (is every stand well in view?). The ``read`` and ``markers`` commands live
in :mod:`coyote_pi.commands`.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "TableReader": "reader",
    "TableReading": "reading",
    "SeatRead": "reading",
    "SlotRead": "reading",
    "CoyoteRead": "reading",
    "Sighting": "reading",
    "annotate": "annotate",
    "MarkerSet": "markerset",
    "load_markers": "markerset",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
