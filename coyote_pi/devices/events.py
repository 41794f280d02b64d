"""What the seat buttons tell the controller: one small immutable :class:`ButtonEvent` each.

Every button backend (GPIO through gpiozero, gpiozero's mock pins, the keyboard) puts
the same events into a :class:`queue.Queue` that the caller owns, and does nothing else:
the controller's single loop takes them out and owns all game state::

    >>> import queue
    >>> events = queue.Queue()
    >>> events.put(ButtonEvent(seat=2, button="plus", kind=PRESS, time=12.5))
    >>> events.get()
    ButtonEvent(seat=2, button='plus', kind='press', time=12.5)

Kinds of event:

- ``"press"`` (:data:`PRESS`): a button went down (once per press, contact bounce removed).
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

PRESS = "press"
REPEAT = "repeat"
CHORD = "chord"
KINDS: tuple[str, ...] = (PRESS, REPEAT, CHORD)

#: The ``button`` of a chord event: minus and plus pressed together.
CHORD_BUTTON = "minus+plus"
#: The buttons whose hold produces repeat events.
REPEATING_BUTTONS: tuple[str, ...] = ("minus", "plus")


@dataclass(frozen=True)
class ButtonEvent:
    """One thing a player did with a seat's buttons.

    ``seat`` is 1-based; ``button`` is ``"minus"``, ``"plus"``, ``"ok"`` or
    ``"minus+plus"``; ``kind`` is ``"press"``, ``"repeat"`` or ``"chord"``.
    """

    seat: int
    button: str
    kind: str
    time: float
