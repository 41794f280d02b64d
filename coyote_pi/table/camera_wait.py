"""Deciding from camera readings whether the cards the flow waits for are on the table.

The controller waits for the camera at four points of a round (and, optionally, during
setup to count the stands):

==============  ==============================================================
``deal``        each seat in the game holds exactly one readable card, the centre
                slot holds a face-down card, the other slots are empty
``extra``       the Coyote card's draw lies face down on the extra slot
``reveal``      the centre card (and the extra card, if drawn) lie face up and are
                read; seat cards the deal could not name are read from the stands
``draw``        the card drawn for ``?`` lies face up on the draw slot
==============  ==============================================================

A *look* (:class:`Look`) turns one :class:`~coyote_pi.vision.TableReading` into either
the cards (``result``) or the reasons they cannot be taken yet (``problems``, shown on
the OLED as "Seat 3: card unreadable"). Problems never name a card value: during an
open round that would tell a player their own card. Nor do they claim more than the
reading proves: "Seat 3: no card" only for a stand seen empty, "Seat 3: card covered?"
when a hand or glare hides it, and a slot counts as face down only when the reader saw
a card's back there (a hand over a face-up card is "cannot see the card").

:class:`CameraWait` adds the two rules that make a look trustworthy and a wait finite:
the same result in ``stable_reads`` readings in a row (a card being laid down is not
read half-way), and a count of *failed* readings in a row (no picture at all, or no
part of the table in it) after which the controller switches to entering cards with
the buttons. Card problems are not failures: players are still dealing, and the screen
says what is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from coyote_pi.vision.framing import EDGE, MISSING, framing_problems
from coyote_pi.vision.markerset import Slot
from coyote_pi.vision.reading import SeatRead, SlotRead, TableReading
from coyote_pi.vision.states import SeatState, SlotState
from coyote_pi.words.translator import Translator


class Wait(StrEnum):
    """What a camera wait looks for: the cards of one point of a round, or the stands during
    setup. Not the engine's phases (``deal`` here is the cards on the table, ``extra`` has
    no phase of its own); the table's card-wait stages share these names."""

    DEAL = "deal"
    EXTRA = "extra"
    REVEAL = "reveal"
    DRAW = "draw"
    STANDS = "stands"


#: The waits for a round's cards (the ones a card-wait stage opens; not ``stands``).
CARD_WAITS = (Wait.DEAL, Wait.EXTRA, Wait.REVEAL, Wait.DRAW)


@dataclass(frozen=True)
class Problem:
    """Why the cards cannot be taken yet: an i18n key and its parameters."""

    key: str
    params: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, key: str, **params: object) -> Problem:
        return cls(key, tuple(sorted(params.items())))

    def text(self, tr: Translator) -> str:
        """The problem in the translator's language (slot names are translated too)."""
        params = dict(self.params)
        if "slot" in params:
            params["slot"] = tr(f"slot.{params['slot']}")
        return tr(self.key, **params)

    def to_dict(self) -> dict[str, object]:
        return {"key": self.key, **dict(self.params)}


@dataclass(frozen=True)
class Dealt:
    """The deal's cards: each seat in the game with its card (None: the camera left it unknown)."""

    cards: tuple[tuple[int, str | None], ...]


@dataclass(frozen=True)
class ExtraLaid:
    """The Coyote card's draw lies face down on the extra slot."""


@dataclass(frozen=True)
class Revealed:
    """The cards read at a reveal (``extra`` None when the Coyote card was not used)."""

    centre: str
    extra: str | None
    seats: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Drawn:
    """The card drawn for ``?``, face up on the draw slot."""

    card: str


@dataclass(frozen=True)
class StandsSeen:
    """How many seat stands the camera sees (setup's ``stands`` wait)."""

    count: int


#: What a wait for a round's cards settles on, one type per wait (matched where it is played).
CardsSettled = Dealt | ExtraLaid | Revealed | Drawn
#: What any wait settles on: a round's cards, or setup's count of the stands.
Settled = CardsSettled | StandsSeen


@dataclass(frozen=True)
class Look:
    """What one reading says: the cards (``result``), or ``problems``; ``failed`` when the
    camera gave nothing to judge (no picture, no table)."""

    result: Settled | None = None
    problems: tuple[Problem, ...] = ()
    failed: bool = False

    @property
    def complete(self) -> bool:
        return self.result is not None


CAMERA_FAILED = Look(problems=(Problem.of("problem.camera_error"),), failed=True)
#: The camera gave no frame in time (see coyote_pi.devices.camera_guard): it is being restarted or given up.
CAMERA_HUNG = Look(problems=(Problem.of("problem.camera_hung"),), failed=True)
NO_TABLE = Look(problems=(Problem.of("problem.no_table"),), failed=True)


def _sees_table(reading: TableReading) -> bool:
    """False when nothing of the table was found: a black, noisy or pointed-away picture."""
    stands = any(read.status != SeatState.NO_STAND for read in reading.seats.values())
    mat = any(read.state != SlotState.UNCLEAR for read in reading.slots.values())
    return stands or mat


def _seat_problem(seat: int, read: SeatRead) -> Problem | None:
    if read.status == SeatState.OK and read.card is not None:
        return None
    # Each key says only what the reading proves: "no card" needs a stand seen empty,
    # a card that cannot be seen is "covered?", one that cannot be decoded "unreadable".
    key = {
        SeatState.MISSING: "problem.seat_missing",
        SeatState.COVERED: "problem.seat_covered",
        SeatState.AMBIGUOUS: "problem.seat_several",
        SeatState.NO_STAND: "problem.seat_no_stand",
    }.get(read.status, "problem.seat_unreadable")
    return Problem.of(key, seat=seat)


def _seat_cards(reading: TableReading, seats: Iterable[int], *, open_round: bool) -> tuple[dict[int, str], list[Problem]]:
    """The cards of ``seats`` and the problems of those that cannot be read.

    A card seen in two places (a misplaced or foreign card) is one problem, never naming
    the card. In an ``open_round`` (the deal) it names no seat either: a seat told that
    its stand and another show the same card learns its own card. The table deals again
    instead, so what a seat can still infer (that its card is one it sees) concerns a
    card it will not play. At the reveal every card is public, and the seats are named.
    """
    cards: dict[int, str] = {}
    problems: list[Problem] = []
    doubled: list[int] = []
    for seat in seats:
        read = reading.seats.get(seat)
        if read is not None and read.status == SeatState.DUPLICATE:
            doubled.append(seat)
            continue
        problem = Problem.of("problem.seat_no_stand", seat=seat) if read is None else _seat_problem(seat, read)
        if problem is None:
            assert read is not None and read.card is not None, "a seat without a problem holds a card read"
            cards[seat] = read.card
        else:
            problems.append(problem)
    if open_round and (doubled or reading.duplicates):
        problems.append(Problem.of("problem.duplicate_deal"))
    elif len(doubled) >= 2:
        problems.append(Problem.of("problem.duplicate", seats=", ".join(map(str, doubled))))
    elif doubled or reading.duplicates:
        problems.append(Problem.of("problem.duplicate_anywhere"))
    return cards, problems


def _slot(reading: TableReading, name: Slot) -> SlotRead | None:
    return reading.slots.get(name)


def _slot_state(reading: TableReading, name: Slot) -> SlotState:
    read = _slot(reading, name)
    return SlotState.UNCLEAR if read is None else read.state


def _face_up_card(reading: TableReading, name: Slot) -> tuple[str | None, Problem | None]:
    """The card face up on slot ``name``, or the problem that stops reading it."""
    read = _slot(reading, name)
    if read is not None and read.state == SlotState.FACE_UP and read.card is not None:
        return read.card, None
    state = SlotState.UNCLEAR if read is None else read.state
    key = {SlotState.EMPTY: "problem.slot_missing",
           SlotState.FACE_DOWN: "problem.slot_face_down"}.get(state, "problem.slot_unclear")
    return None, Problem.of(key, slot=name)


def _checked(reading: TableReading, look: Callable[[], Look]) -> Look:
    return look() if _sees_table(reading) else NO_TABLE


def look_deal(reading: TableReading, active: Iterable[int]) -> Look:
    """The deal: ``result`` is :class:`Dealt`, the seats in the game with their cards."""

    def look() -> Look:
        cards, problems = _seat_cards(reading, active, open_round=True)
        centre = _slot_state(reading, Slot.CENTRE)
        if centre != SlotState.FACE_DOWN:
            key = {SlotState.EMPTY: "problem.slot_missing",
                   SlotState.FACE_UP: "problem.slot_face_up"}.get(centre, "problem.slot_unclear")
            problems.append(Problem.of(key, slot=Slot.CENTRE))
        for name in (Slot.EXTRA, Slot.DRAW):
            if _slot_state(reading, name) in (SlotState.FACE_DOWN, SlotState.FACE_UP):
                problems.append(Problem.of("problem.slot_occupied", slot=name))
        if reading.unplaced:
            problems.append(Problem.of("problem.loose_card"))
        return Look(problems=tuple(problems)) if problems else Look(result=Dealt(tuple(cards.items())))

    return _checked(reading, look)


def look_extra(reading: TableReading) -> Look:
    """The Coyote card's draw face down on the extra slot: ``result`` is :class:`ExtraLaid`."""

    def look() -> Look:
        state = _slot_state(reading, Slot.EXTRA)
        if state == SlotState.FACE_DOWN:
            return Look(result=ExtraLaid())
        key = {SlotState.EMPTY: "problem.slot_missing",
               SlotState.FACE_UP: "problem.slot_face_up"}.get(state, "problem.slot_unclear")
        return Look(problems=(Problem.of(key, slot=Slot.EXTRA),))

    return _checked(reading, look)


def look_reveal(reading: TableReading, *, extra: bool, seats: Iterable[int]) -> Look:
    """The reveal: ``result`` is a :class:`Revealed`."""

    def look() -> Look:
        problems = []
        centre, problem = _face_up_card(reading, Slot.CENTRE)
        problems += [problem] if problem else []
        extra_card = None
        if extra:
            extra_card, problem = _face_up_card(reading, Slot.EXTRA)
            problems += [problem] if problem else []
        cards, seat_problems = _seat_cards(reading, seats, open_round=False)
        problems += seat_problems
        if problems:
            return Look(problems=tuple(problems))
        assert centre is not None, "a centre card that is not read is a problem"
        return Look(result=Revealed(centre, extra_card, tuple(sorted(cards.items()))))

    return _checked(reading, look)


def look_draw(reading: TableReading) -> Look:
    """The card drawn for ``?``: ``result`` is :class:`Drawn`."""

    def look() -> Look:
        card, problem = _face_up_card(reading, Slot.DRAW)
        if problem is not None:
            return Look(problems=(problem,))
        assert card is not None, "a draw card that is not read is a problem"
        return Look(result=Drawn(card))

    return _checked(reading, look)


def stands_seen(reading: TableReading) -> StandsSeen:
    """How many seat stands the camera sees (setup offers it as the number of players)."""
    return StandsSeen(sum(1 for read in reading.seats.values() if read.status != SeatState.NO_STAND))


#: How setup names a stand that :func:`~coyote_pi.vision.framing.framing_problems` names.
_FRAMING_KEYS = {MISSING: "setup.stand_missing", EDGE: "setup.stand_edge"}
#: ... and one that :func:`~coyote_pi.vision.sharpness.stand_sharpness` finds wanting
#: (by :meth:`~coyote_pi.vision.sharpness.StandSharpness.kinds`).
_SHARPNESS_KEYS = {"soft": "setup.stand_soft", "small": "setup.stand_small", "faint": "setup.stand_faint"}


def stand_framing(reading: TableReading, frame_size: tuple[int, int], frame: object = None) -> tuple[Problem, ...]:
    """The stands missing (among seats 1 up to the highest found) or too near an edge of
    a ``frame_size`` (width, height) frame, and, given the ``frame`` itself, the stands
    in view that are out of focus, too small or too dark in it, as setup says them: by
    the rules of ``coyote-pi doctor``, one short line per stand (its first problem), no
    card. A ``frame`` that is no image (the scene camera double's) is not measured."""
    framing = framing_problems(reading, frame_size)
    problems = {seat: Problem.of(_FRAMING_KEYS[problem.kind], seat=seat) for seat, problem in framing.items()}
    if frame is not None:
        import numpy as np  # like OpenCV: loaded only with a frame to measure

        from coyote_pi.vision.sharpness import stand_sharpness

        sharpness = stand_sharpness(frame) if isinstance(frame, np.ndarray) else {}
        for seat, stand in sharpness.items():
            kinds = stand.kinds()
            if kinds and seat not in problems:
                problems[seat] = Problem.of(_SHARPNESS_KEYS[kinds[0]], seat=seat)
    return tuple(problems[seat] for seat in sorted(problems))


class CameraWait:
    """One wait for cards: feeds readings to a look and decides when to believe it.

    ``look`` maps a reading to a :class:`Look`. :meth:`feed` returns the result once
    ``stable_reads`` readings in a row agreed on it. :attr:`failures` counts failed
    readings in a row; :attr:`problems` are the latest reasons to wait.
    """

    def __init__(self, name: Wait, look: Callable[[TableReading], Look], stable_reads: int) -> None:
        self.name = name
        self.look = look
        self.stable_reads = stable_reads
        self.problems: tuple[Problem, ...] = ()
        self.failures = 0
        self.reads = 0
        self._streak: tuple[Settled | None, int] = (None, 0)

    def feed(self, reading: TableReading | None = None, *, error: bool = False, hung: bool = False) -> Settled | None:
        """Take one reading (or ``error=True`` for no picture, ``hung=True`` too when the
        camera did not answer in time); the settled result or None."""
        self.reads += 1
        look = (CAMERA_HUNG if hung else CAMERA_FAILED) if error or reading is None else self.look(reading)
        self.failures = self.failures + 1 if look.failed else 0
        self.problems = look.problems
        if not look.complete:
            self._streak = (None, 0)
            return None
        result, count = self._streak
        count = count + 1 if result == look.result else 1
        self._streak = (look.result, count)
        return look.result if count >= self.stable_reads else None
