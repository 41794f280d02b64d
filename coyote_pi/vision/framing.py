"""Is every stand in view, with room to spare? The set-up check behind ``coyote-pi
doctor``, ``coyote-pi read``, the table's setup screen and the web page's camera view.

A stand the camera sees only just is lost as soon as the mast is bumped, the lamp's
heat bends it or someone leans on the table: its marker or its card slides out of the
frame. So a stand counts as well placed only when the whole part of its board the
reader needs (both markers and the card's place, :attr:`TableReading.stand_outlines`)
lies at least :data:`EDGE_MARGIN` of the frame's height inside every edge: about two
degrees of camera tilt at the documented 65 cm mast.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from coyote_pi.vision.reading import TableReading
from coyote_pi.vision.states import SeatState

#: How far inside the frame a stand must lie, as a share of the frame's height
#: (78 px at 2592: a camera tilted by 2.3 degrees moves the image that much).
EDGE_MARGIN = 0.03

#: The two kinds of :class:`FramingProblem` (also the web page's words for them).
MISSING, EDGE = "missing", "edge"


@dataclass(frozen=True)
class FramingProblem:
    """What is wrong with one stand's place in the frame: ``kind`` for a screen to say
    (:data:`MISSING`: neither of its markers found; :data:`EDGE`: partly out of view or
    nearer an edge than the margin), ``words`` with the details for a person at a terminal."""

    kind: str
    words: str


def framing_problems(reading: TableReading, frame_size: tuple[int, int], seats: Iterable[int] | None = None,
                     margin: float = EDGE_MARGIN) -> dict[int, FramingProblem]:
    """For each stand that is missing or too near an edge of a ``frame_size`` (width,
    height) frame: its seat and what is wrong. Empty when every stand is well in view.

    ``seats`` are the seats that should have a stand; by default every seat from 1 up
    to the highest one found (tables fill their seats from 1), so a gap is noticed, and
    every seat the reader was told to expect.
    """
    width, height = frame_size
    found = {seat for seat, result in reading.seats.items() if result.status != SeatState.NO_STAND}
    expected = set(seats) if seats is not None else set(range(1, max(found, default=0) + 1)) | set(reading.seats)
    need = margin * height
    problems = {}
    for seat in sorted(expected | found):
        outline = reading.stand_outlines.get(seat)
        if seat not in found or outline is None:
            problems[seat] = FramingProblem(MISSING, "not in view: neither of its markers was found")
            continue
        xs, ys = [x for x, _ in outline], [y for _, y in outline]
        room = {"left": min(xs), "right": width - 1 - max(xs), "top": min(ys), "bottom": height - 1 - max(ys)}
        edge, space = min(room.items(), key=lambda item: item[1])
        if space < 0:
            problems[seat] = FramingProblem(EDGE, f"partly out of view at the {edge} edge")
        elif space < need:
            problems[seat] = FramingProblem(EDGE, f"only {space:.0f} px from the {edge} edge (keep {need:.0f} px)")
    return problems


def framing_advice(problems: dict[int, FramingProblem]) -> list[str]:
    """One line per stand of :func:`framing_problems`, with what to do."""
    return [f"stand {seat} {problem.words}: move the stand towards the centre or the camera over the mat's centre"
            for seat, problem in sorted(problems.items())]
