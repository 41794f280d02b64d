"""Card vision: printed markers, reading a table from one camera frame, a synthetic table.

The controller uses three things, all importable from here::

    from coyote_pi.vision import TableReader, TableScene, Conditions, render_scene, annotate

    reader = TableReader(scheme="aruco", seats=(1, 2, 3))
    reading = reader.read(frame_bgr)          # -> TableReading
    reading.seats[2].card, reading.seats[2].status, reading.slots["centre"].state

    frame = render_scene(TableScene(seats=3, seat_cards={1: "7", 2: "?", 3: "max0"}),
                         width=4608, height=2592, seed=1, conditions=Conditions.typical())

Names are loaded on first use (PEP 562), so importing this package does not load
OpenCV or numpy; ``coyote-pi --help`` stays fast.

Modules: :mod:`.markerset` (the mapping file), :mod:`.artwork` (markers and textures),
:mod:`.geometry` (camera and planes), :mod:`.render` (the synthetic table),
:mod:`.detect` (marker detectors), :mod:`.reader` (a frame -> a table),
:mod:`.annotate`, :mod:`.sheets` (printable stickers), and the ``read``, ``markers``
and ``bench vision`` commands.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "TableReader": "reader",
    "TableReading": "reader",
    "SeatRead": "reader",
    "SlotRead": "reader",
    "CoyoteRead": "reader",
    "Sighting": "reader",
    "TableScene": "render",
    "Conditions": "render",
    "SceneTruth": "render",
    "StickerTruth": "render",
    "render_scene": "render",
    "render_scene_with_truth": "render",
    "scene_truth": "render",
    "random_scene": "render",
    "annotate": "annotate",
    "MarkerSet": "markerset",
    "load_markers": "markerset",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
