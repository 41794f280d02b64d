"""Draw what a reading saw onto the frame, so a person can check it at a glance.

Green outlines are cards read for certain, blue the stands and mat slots, red anything
that stops the game (unplaced or duplicated cards, unclear slots), yellow marker-shaped
things that could not be read, magenta codes that are not in the mapping. A summary of
every seat and slot is written in the top-left corner.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from coyote_pi.cards import display_name
from coyote_pi.vision.reading import TableReading

COLOURS = {
    "card": (60, 200, 60),
    "anchor": (230, 140, 40),
    "slot": (230, 140, 40),
    "problem": (40, 40, 230),
    "candidate": (40, 220, 230),
    "unknown": (220, 60, 220),
}


def _label(image: np.ndarray, text: str, origin: Sequence[float], colour: tuple[int, int, int], scale: float,
           thickness: int) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    (w, h), base = cv2.getTextSize(text, font, scale, thickness)
    x, y = int(origin[0]), int(origin[1])
    x = min(max(x, 0), max(0, image.shape[1] - w - 2))
    y = min(max(y, h + 2), image.shape[0] - base - 2)
    cv2.rectangle(image, (x - 2, y - h - 4), (x + w + 2, y + base + 2), (0, 0, 0), -1)
    cv2.putText(image, text, (x, y), font, scale, colour, thickness, cv2.LINE_AA)


def summary_lines(reading: TableReading) -> list[str]:
    """The reading in a few short lines (also used by ``coyote-pi read``)."""
    lines = []
    for seat, result in sorted(reading.seats.items()):
        value = display_name(result.card) if result.card else result.status.replace("_", " ")
        lines.append(f"seat {seat}: {value}")
    for slot, slot_read in reading.slots.items():
        text = slot_read.state.replace("_", " ") + (f" {display_name(slot_read.card)}" if slot_read.card else "")
        lines.append(f"{slot}: {text}")
    if reading.coyote.place != "not_seen":
        where = f"seat {reading.coyote.seat}" if reading.coyote.place == "seat" else reading.coyote.place
        lines.append(f"Coyote card: {where}")
    if reading.unplaced:
        lines.append("unplaced: " + ", ".join(display_name(c) for c in reading.unplaced))
    if reading.duplicates:
        lines.append("duplicates: " + ", ".join(display_name(c) for c in reading.duplicates))
    if reading.unknown_ids:
        lines.append("unknown codes: " + ", ".join(reading.unknown_ids))
    return lines


def annotate(frame: np.ndarray, reading: TableReading) -> np.ndarray:
    """A copy of ``frame`` (BGR) with the reading drawn on it."""
    image = np.array(frame, copy=True)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    size = image.shape[1] / 1000.0
    thickness = max(1, round(size * 1.5))
    scale = 0.45 * size
    for sighting in reading.sightings:
        colour = COLOURS[sighting.kind]
        quad = np.round(np.array(sighting.corners) * 4).astype(np.int32)
        cv2.polylines(image, [quad], True, colour, thickness, cv2.LINE_AA, shift=2)
        if sighting.kind == "slot":  # slots touch each other: label them inside, at the bottom
            points = np.array(sighting.corners)
            _label(image, sighting.label, (points[:, 0].min(), points[:, 1].max() - 4 * size), colour, scale, thickness)
        elif sighting.kind != "candidate" and sighting.show_label:
            top = np.array(sighting.corners).min(axis=0)
            _label(image, sighting.label, (top[0], top[1] - 4 * size), colour, scale, thickness)
    y = 30 * size
    for line in summary_lines(reading) + reading.warnings:
        _label(image, line, (10 * size, y), (255, 255, 255), scale * 1.3, thickness)
        y += 28 * size
    return image


#: The grey that covers every place a card can be in the setup view.
BLANK = (90, 90, 90)
#: A card's face is larger than its sticker: a seen sticker is blanked this many times its size.
CARD_PER_STICKER = 3.0


def setup_view(frame: np.ndarray, reading: TableReading, width: int = 1024) -> np.ndarray:
    """The camera's view for aiming and focusing it, safe to show anyone: ``frame``
    scaled to at most ``width`` pixels wide, every place a card can lie (each stand's
    card window and each mat slot, from the markers' geometry, whether or not a card
    was read there) and every card sticker seen, read or not, filled in grey; then the
    stands, the slots and unknown markers outlined. No card is named."""
    image = np.asarray(frame)  # no copy; numpy 2 refuses copy=False when one is needed
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    scale = min(1.0, width / image.shape[1])
    if scale < 1.0:
        image = cv2.resize(image, (round(image.shape[1] * scale), round(image.shape[0] * scale)),
                           interpolation=cv2.INTER_AREA)
    else:
        image = image.copy()
    for area in reading.card_areas:
        cv2.fillPoly(image, [np.round(np.array(area) * scale).astype(np.int32)], BLANK)
    for sighting in reading.sightings:
        if sighting.kind in ("card", "problem", "candidate"):  # a card's sticker: blank the card around it
            quad = np.array(sighting.corners) * scale
            centre = quad.mean(axis=0)
            cv2.fillPoly(image, [np.round(centre + (quad - centre) * CARD_PER_STICKER).astype(np.int32)], BLANK)
    thickness = max(1, round(image.shape[1] / 600))
    for sighting in reading.sightings:
        if sighting.kind in ("anchor", "slot", "unknown"):
            quad = np.round(np.array(sighting.corners) * scale * 4).astype(np.int32)
            cv2.polylines(image, [quad], True, COLOURS[sighting.kind], thickness, cv2.LINE_AA, shift=2)
            if sighting.kind == "anchor":  # "stand 3": no card in it
                top = np.array(sighting.corners).min(axis=0) * scale
                _label(image, sighting.label, (top[0], top[1] - 4), COLOURS["anchor"], image.shape[1] / 2200, thickness)
    return image
