"""Draw what a reading saw onto the frame, so a person can check it at a glance.

Green outlines are cards read for certain, blue the stands and mat slots, red anything
that stops the game (unplaced or duplicated cards, unclear slots), yellow marker-shaped
things that could not be read, magenta codes that are not in the mapping. A summary of
every seat and slot is written in the top-left corner. Each thing seen gets one label
(a card's two stickers, a stand's two markers: one), placed where no other label is
(:func:`place_labels`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from coyote_pi.cards import display_name
from coyote_pi.vision.reading import TableReading

_FONT = cv2.FONT_HERSHEY_SIMPLEX
COLOURS = {
    "card": (60, 200, 60),
    "anchor": (230, 140, 40),
    "slot": (230, 140, 40),
    "problem": (40, 40, 230),
    "candidate": (40, 220, 230),
    "unknown": (220, 60, 220),
}


@dataclass(frozen=True)
class Label:
    """A text drawn on the picture: its baseline origin, and the black box behind it
    (left, top, right, bottom; no two labels' boxes overlap)."""

    text: str
    origin: tuple[int, int]
    box: tuple[int, int, int, int]
    colour: tuple[int, int, int]
    scale: float
    thickness: int


def _box_at(text: str, origin: tuple[float, float], shape: tuple[int, ...], scale: float,
            thickness: int) -> tuple[tuple[int, int], tuple[int, int, int, int]]:
    """The origin of ``text`` near ``origin`` kept inside the picture, and its box there."""
    (w, h), base = cv2.getTextSize(text, _FONT, scale, thickness)
    x = min(max(int(origin[0]), 2), max(2, shape[1] - w - 2))
    y = min(max(int(origin[1]), h + 4), shape[0] - base - 2)
    return (x, y), (x - 2, y - h - 4, x + w + 2, y + base + 2)


def _overlaps(box: tuple[int, int, int, int], other: tuple[int, int, int, int]) -> bool:
    return box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]


def place_labels(wanted: Iterable[tuple[str, tuple[float, float], tuple[int, int, int]]], shape: tuple[int, ...],
                 scale: float, thickness: int, placed: Sequence[Label] = ()) -> list[Label]:
    """``placed`` and each wanted label (text, where it would go, colour) after them, at the
    free place nearest to where it would go: moved up or down a line at a time, else
    sideways half its width, so that no two labels cover each other."""
    labels = list(placed)
    for text, origin, colour in wanted:
        (w, h), base = cv2.getTextSize(text, _FONT, scale, thickness)
        step_x, step_y = (w + 4) / 2, h + base + 6
        moves = sorted(((dx, dy) for dx in range(-4, 5) for dy in range(-8, 9)),
                       key=lambda move: (abs(move[0]) * step_x + abs(move[1]) * step_y, move[1] > 0))
        for dx, dy in moves:
            at, box = _box_at(text, (origin[0] + dx * step_x, origin[1] + dy * step_y), shape, scale, thickness)
            if not any(_overlaps(box, label.box) for label in labels):
                break
        else:  # a picture too crowded to keep them apart: where it would go
            at, box = _box_at(text, origin, shape, scale, thickness)
        labels.append(Label(text, at, box, colour, scale, thickness))
    return labels


def _draw(image: np.ndarray, label: Label) -> None:
    left, top, right, bottom = label.box
    cv2.rectangle(image, (left, top), (right, bottom), (0, 0, 0), -1)
    cv2.putText(image, label.text, label.origin, _FONT, label.scale, label.colour, label.thickness, cv2.LINE_AA)


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


def annotation_labels(shape: tuple[int, ...], reading: TableReading) -> list[Label]:
    """The labels :func:`annotate` draws on a picture of ``shape``: the summary in the
    top-left corner, then one label per thing seen (a card's two stickers, a stand's two
    markers: one label above both), none covering another."""
    size = shape[1] / 1000.0
    thickness, scale = _line_width(shape), 0.45 * size
    summary: list[Label] = []
    y = 30 * size
    for line in summary_lines(reading) + reading.warnings:
        summary = place_labels([(line, (10 * size, y), (255, 255, 255))], shape, scale * 1.3, thickness, summary)
        y += 28 * size
    seen: dict[tuple[str, str], list[list[float]]] = {}
    for sighting in reading.sightings:
        if sighting.kind != "candidate" and sighting.show_label:
            seen.setdefault((sighting.kind, sighting.label), []).extend(sighting.corners)
    wanted = []
    for (kind, text), corners in seen.items():
        points = np.array(corners)
        if kind == "slot":  # slots touch each other: label them inside, at the bottom
            origin = (points[:, 0].min(), points[:, 1].max() - 4 * size)
        else:
            origin = (points[:, 0].min(), points[:, 1].min() - 4 * size)
        wanted.append((text, origin, COLOURS[kind]))
    return place_labels(wanted, shape, scale, thickness, summary)


def _line_width(shape: tuple[int, ...]) -> int:
    return max(1, round(shape[1] / 1000.0 * 1.5))


def annotate(frame: np.ndarray, reading: TableReading) -> np.ndarray:
    """A copy of ``frame`` (BGR) with the reading drawn on it."""
    image = np.array(frame, copy=True)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    thickness = _line_width(image.shape)
    for sighting in reading.sightings:
        quad = np.round(np.array(sighting.corners) * 4).astype(np.int32)
        cv2.polylines(image, [quad], True, COLOURS[sighting.kind], thickness, cv2.LINE_AA, shift=2)
    for label in annotation_labels(image.shape, reading):
        _draw(image, label)
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
    stands = []
    for sighting in reading.sightings:
        if sighting.kind in ("anchor", "slot", "unknown"):
            quad = np.round(np.array(sighting.corners) * scale * 4).astype(np.int32)
            cv2.polylines(image, [quad], True, COLOURS[sighting.kind], thickness, cv2.LINE_AA, shift=2)
            if sighting.kind == "anchor":  # "stand 3": no card in it
                top = np.array(sighting.corners).min(axis=0) * scale
                stands.append((sighting.label, (top[0], top[1] - 4), COLOURS["anchor"]))
    for label in place_labels(stands, image.shape, image.shape[1] / 2200, thickness):
        _draw(image, label)
    return image
