"""What the seat buttons tell the controller: one small immutable :class:`ButtonEvent` each.

Every button backend (GPIO through gpiozero, gpiozero's mock pins, the keyboard) puts
the same events into a :class:`queue.Queue` that the caller owns, and does nothing else:
the controller's single loop takes them out and owns all game state::

    >>> import queue
    >>> events = queue.Queue()
    >>> events.put(ButtonEvent(seat=2, button="plus", kind=PRESS, time=12.5))
    >>> event = events.get()
    >>> event.button is Button.PLUS and event.kind is PressKind.PRESS   # the names become members
    True

Kinds of event:

- ``"press"`` (:attr:`PressKind.PRESS`, or :data:`PRESS` for short): a button went down (once per press, contact bounce removed).
- ``"repeat"`` (:data:`REPEAT`): minus or plus is still held: first after
  ``hold_delay`` (0.6 s), then every ``repeat_interval`` (0.15 s). Use it to step bids faster.
- ``"chord"`` (:data:`CHORD`): minus and plus are down together: the undo. Its ``button``
  is ``"minus+plus"`` (:data:`CHORD_BUTTON`). It follows the ``press`` of whichever of the
  two went down first; that press only moved the selection, so undoing is unaffected.

``time`` is when the device layer noticed the event, on the clock it was given
(``time.monotonic`` unless a test injects another).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class PressKind(StrEnum):
    """What a button did: went down, is held (minus or plus), or was pressed with its twin."""

    PRESS = "press"
    REPEAT = "repeat"
    CHORD = "chord"


class Button(StrEnum):
    """A seat's three buttons, and the chord of minus and plus (the undo)."""

    MINUS = "minus"
    PLUS = "plus"
    OK = "ok"
    CHORD = "minus+plus"


#: Short names for the kinds, as the backends and the table's parts use them.
PRESS, REPEAT, CHORD = PressKind.PRESS, PressKind.REPEAT, PressKind.CHORD
#: The ``button`` of a chord event: minus and plus pressed together.
CHORD_BUTTON = Button.CHORD
#: The buttons whose hold produces repeat events.
REPEATING_BUTTONS: tuple[Button, ...] = (Button.MINUS, Button.PLUS)


@dataclass(frozen=True)
class ButtonEvent:
    """One thing a player did with a seat's buttons.

    ``seat`` is 1-based; ``button`` a :class:`Button` and ``kind`` a :class:`PressKind`
    (their plain names are taken too, and an unknown one is refused: ValueError).
    """

    seat: int
    button: Button
    kind: PressKind
    time: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "button", Button(self.button))
        object.__setattr__(self, "kind", PressKind(self.kind))


class EventSink(Protocol):
    """Where button backends put their events: the caller's queue (the controller's takes
    its other items too, so the backends ask only that it takes a :class:`ButtonEvent`)."""

    def put(self, item: ButtonEvent) -> None: ...
