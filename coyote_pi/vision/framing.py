"""Is every stand in view, with room to spare? The set-up check behind ``coyote-pi
doctor`` and ``coyote-pi read``.

A stand the camera sees only just is lost as soon as the mast is bumped, the lamp's
heat bends it or someone leans on the table: its marker or its card slides out of the
frame. So a stand counts as well placed only when the whole part of its board the
reader needs (both markers and the card's place, :attr:`TableReading.stand_outlines`)
lies at least :data:`EDGE_MARGIN` of the frame's height inside every edge: about two
degrees of camera tilt at the documented 65 cm mast.
"""

from __future__ import annotations

from coyote_pi.vision.reading import TableReading
from coyote_pi.vision.states import SeatState

#: How far inside the frame a stand must lie, as a share of the frame's height
#: (78 px at 2592: a camera tilted by 2.3 degrees moves the image that much).
EDGE_MARGIN = 0.03


def framing_problems(reading: TableReading, frame_size: tuple[int, int], seats=None,
                     margin: float = EDGE_MARGIN) -> dict[int, str]:
    """For each stand that is missing or too near an edge of a ``frame_size`` (width,
    height) frame: its seat and what is wrong, in words. Empty when every stand is well
    in view.

    ``seats`` are the seats that should have a stand; by default every seat from 1 up
    to the highest one found (tables fill their seats from 1), so a gap is noticed.
    """
    width, height = frame_size
    found = {seat for seat, result in reading.seats.items() if result.status != SeatState.NO_STAND}
    expected = set(seats) if seats is not None else set(range(1, max(found, default=0) + 1))
    need = margin * height
    problems = {}
    for seat in sorted(expected | found):
        outline = reading.stand_outlines.get(seat)
        if seat not in found or outline is None:
            problems[seat] = "not in view: neither of its markers was found"
            continue
        xs, ys = [x for x, _ in outline], [y for _, y in outline]
        room = {"left": min(xs), "right": width - 1 - max(xs), "top": min(ys), "bottom": height - 1 - max(ys)}
        edge, space = min(room.items(), key=lambda item: item[1])
        if space < 0:
            problems[seat] = f"partly out of view at the {edge} edge"
        elif space < need:
            problems[seat] = f"only {space:.0f} px from the {edge} edge (keep {need:.0f} px)"
    return problems


def framing_advice(problems: dict[int, str]) -> list[str]:
    """One line per stand of :func:`framing_problems`, with what to do."""
    return [f"stand {seat} {what}: move the stand towards the centre or the camera over the mat's centre"
            for seat, what in sorted(problems.items())]
