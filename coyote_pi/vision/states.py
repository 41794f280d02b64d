"""What a camera reading says about each seat and each centre-mat slot: one word each.

The reader (:mod:`coyote_pi.vision.reader`) sets them, the controller's camera wait
(:mod:`coyote_pi.table.camera_wait`) judges them, and the simulated table lays its
slots in them and reads them back perfectly, so all four name them from here::

    reading.seats[2].status == SeatState.OK
    reading.slots["centre"].state == SlotState.FACE_DOWN

Every state but "unclear" and "covered" is a claim backed by something seen: "missing"
means the stand's empty-stand patch is in full view, "face_down" that a card's back
lies over the slot. A reader that cannot see says so ("covered", "unreadable",
"unclear"), so the table never tells a player "no card" while their card stands there.

Both are ``str`` enums: a member equals its word (``SlotState.FACE_UP == "face_up"``),
which is also what logs, annotations and JSON show.
"""

from __future__ import annotations

from enum import StrEnum


class SeatState(StrEnum):
    """What a seat's stand holds, as read (``SeatRead.status``)."""

    OK = "ok"  #: exactly one card, read
    MISSING = "missing"  #: the stand is seen empty: its empty-stand patch is in full view
    UNREADABLE = "unreadable"  #: something like a sticker that cannot be decoded
    COVERED = "covered"  #: no card read, and the empty-stand patch is hidden: a hand, glare, ...
    DUPLICATE = "duplicate"  #: the seat's card is seen somewhere else too
    AMBIGUOUS = "ambiguous"  #: several cards in one stand
    NO_STAND = "no_stand"  #: the stand's own marker is not in view


class SlotState(StrEnum):
    """How a centre-mat slot looks (``SlotRead.state``; a simulated scene uses the first three)."""

    EMPTY = "empty"  #: the slot's own marker is seen
    FACE_DOWN = "face_down"  #: a card's back is seen over the slot
    FACE_UP = "face_up"  #: a card's sticker is read on the slot
    UNCLEAR = "unclear"  #: covered, under glare, or the mat is not found
