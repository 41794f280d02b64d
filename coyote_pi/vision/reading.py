"""What one camera frame says about the table: the plain-data result of
:meth:`TableReader.read <coyote_pi.vision.reader.TableReader.read>`.

A :class:`TableReading` holds, for each seat with a stand in view, a :class:`SeatRead`
(its card, or why there is none: a :class:`~coyote_pi.vision.states.SeatState`), for
each centre slot a :class:`SlotRead` (a :class:`~coyote_pi.vision.states.SlotState`),
where the Coyote card lies (:class:`CoyoteRead`), and what could not be placed. A card
value appears only where it is certain; everything else is a state with a reason in
words. The table decides from these readings whether the cards it waits for are there
(:mod:`coyote_pi.table.camera_wait`); ``--annotate`` draws the :class:`Sighting` list
(:mod:`coyote_pi.vision.annotate`), and ``coyote-pi read`` prints :meth:`TableReading.to_json`.

    >>> reading = TableReading(seats={1: SeatRead("7", SeatState.OK), 2: SeatRead(None, SeatState.COVERED)},
    ...                        slots={Slot.CENTRE: SlotRead(SlotState.FACE_DOWN)})
    >>> reading.card_values(), reading.complete()
    ({'seat 1': '7'}, False)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from coyote_pi.vision.markerset import Slot
from coyote_pi.vision.states import SeatState, SlotState


@dataclass
class SeatRead:
    """One seat: what its stand holds (``status``); ``card`` is set only for :attr:`SeatState.OK`."""

    card: str | None
    status: SeatState
    detail: str = ""


@dataclass
class SlotRead:
    """One centre slot: how it looks (``state``); ``card`` only for :attr:`SlotState.FACE_UP`."""

    state: SlotState
    card: str | None = None
    detail: str = ""


@dataclass
class CoyoteRead:
    """Where the Coyote card lies: ``place`` is "centre", "seat", "table" (seen elsewhere
    on the table), "unplaced" (seen, but where it lies cannot be told: no centre mat, or a
    stand it may lie in front of was not found) or "not_seen"."""

    place: str = "not_seen"
    seat: int | None = None


@dataclass
class Sighting:
    """A marker seen in the frame and what the reader made of it (for --annotate)."""

    label: str  # e.g. "seat 3: 7", "stand 3", "unplaced: 5", "unknown id 40"
    kind: str  # "card", "anchor", "slot", "problem", "unknown", "candidate"
    corners: list[list[float]]
    show_label: bool = True  # False where another label already says it (a card on a slot)


@dataclass
class TableReading:
    """Everything read from one frame. Card values appear only where they are certain."""

    seats: dict[int, SeatRead]
    slots: dict[Slot, SlotRead]
    coyote: CoyoteRead = field(default_factory=CoyoteRead)
    unplaced: list[str] = field(default_factory=list)  # cards seen outside every stand and slot
    duplicates: list[str] = field(default_factory=list)  # cards seen in more than one place
    unknown_ids: list[str] = field(default_factory=list)  # codes that are not in the mapping
    warnings: list[str] = field(default_factory=list)
    scheme: str = "aruco"
    passes: list[str] = field(default_factory=list)  # how the frame was read
    sightings: list[Sighting] = field(default_factory=list)
    #: Every place a card can lie, in image pixels (each stand's card window, each mat
    #: slot): what the web page's camera view blanks (not in :meth:`to_dict`).
    card_areas: list[list[list[float]]] = field(default_factory=list)
    #: Where each stand found lies in the frame: the four image corners of the part of its
    #: board the reader needs (both markers and the card's place), by seat.
    stand_outlines: dict[int, list[list[float]]] = field(default_factory=dict)

    def card_values(self) -> dict[str, str]:
        """Every certain card: ``{"seat 1": "7", "slot centre": "?", ...}``."""
        values = {f"seat {s}": r.card for s, r in self.seats.items() if r.status == SeatState.OK and r.card}
        values.update({f"slot {n}": r.card for n, r in self.slots.items() if r.state == SlotState.FACE_UP and r.card})
        return values

    def complete(self) -> bool:
        """True when every seat found holds a card read for certain and no slot is unclear."""
        return (all(r.status == SeatState.OK for r in self.seats.values())
                and all(r.state != SlotState.UNCLEAR for r in self.slots.values())
                and not self.duplicates)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("card_areas")
        data["seats"] = {str(k): v for k, v in data["seats"].items()}
        data["stand_outlines"] = {str(k): v for k, v in data["stand_outlines"].items()}
        return data

    def to_json(self, *, indent: int | None = None, with_sightings: bool = True) -> str:
        data = self.to_dict()
        if not with_sightings:
            data.pop("sightings")
        return json.dumps(data, indent=indent)
