"""Trying a table reader on synthetic tables, condition by condition, scored as players
would judge it: which cards it read, and every time it said something untrue.

:data:`TRIALS` names the conditions (moderate light, one lamp reflection on a marker, a
finger on a card, empty stands beside covered ones, the Coyote card in front of a
seat, a tilted and turned camera on a shorter or taller mast, a gingham cloth, the
harsh end of the specification); :func:`trial_frame` draws one table under one of
them, and :func:`score` compares a reading with the truth::

    frame, scene, truth = trial_frame(TRIALS[0], seed=3)
    tally = score(scene, truth, reader.read(frame))

A :class:`Tally` counts the cards on the table (every card whose marker and stand are in
the frame, covered or not), those read right, and four kinds of untruth: a **wrong
value** (a card read as another), a **wrong seat** (a card put where it does not lie,
the Coyote card included), a **phantom** (a value where no card shows its face) and a
**false claim** (a stand said to be empty or a slot said to hold a face-down card or
nothing, while a card lies there face up).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from coyote_pi.cards import shuffled_deck
from coyote_pi.sim.render import render_scene_with_truth
from coyote_pi.sim.scene import Conditions, SceneTruth, TableScene
from coyote_pi.vision.geometry import FULL_HEIGHT, FULL_WIDTH
from coyote_pi.vision.markerset import Slot
from coyote_pi.vision.reading import TableReading
from coyote_pi.vision.states import SeatState, SlotState


def moderate(rng: np.random.Generator) -> Conditions:
    """Dim or noisy light, a warm cast, a lamp gradient, JPEG down to 60, a bumped camera:
    conditions every frame must be read in."""
    return Conditions(
        blur=float(rng.uniform(0.0, 1.2)),
        noise=float(rng.uniform(0.0, 5.0)),
        glare_spots=int(rng.integers(0, 2)),
        glare_strength=float(rng.uniform(20.0, 60.0)),
        uneven_light=float(rng.uniform(0.0, 0.5)),
        brightness=float(rng.uniform(0.75, 1.1)),
        jpeg_quality=int(rng.integers(60, 96)),
        camera_shift_mm=float(rng.uniform(0.0, 30.0)),
        camera_yaw_deg=float(rng.uniform(0.0, 15.0)),
        camera_tilt_deg=float(rng.uniform(0.0, 3.0)),
    )


def _dealt(rng: np.random.Generator, *, empty: int = 0, coyote: bool = False, **scene: Any) -> TableScene:
    """Six stands, ``empty`` of them without a card; the centre card face down or up."""
    deck = shuffled_deck(int(rng.integers(1 << 30)))
    empty_seats = set(rng.choice(range(1, 7), size=empty, replace=False).tolist()) if empty else set()
    cards = {s: deck.pop() for s in range(1, 7) if s not in empty_seats}
    centre = (SlotState.FACE_UP if rng.random() < 0.5 else SlotState.FACE_DOWN, deck.pop())
    return TableScene(seats=6, seat_cards=cards, slots={"centre": centre},
                      coyote_card=int(rng.integers(1, 7)) if coyote else None, **scene)


def _beside_empty(scene: TableScene) -> tuple[int, ...]:
    """The seats with a card next to an empty stand (they get the fingers)."""
    empty = [s for s in range(1, 7) if s not in scene.seat_cards]
    return tuple(sorted({n for s in empty for n in (s % 6 + 1, (s - 2) % 6 + 1) if n in scene.seat_cards}))


@dataclass(frozen=True)
class Trial:
    """One condition of the bench: how its tables are laid and how they are seen."""

    name: str
    scene: Callable[[np.random.Generator], TableScene]
    conditions: Callable[[np.random.Generator, TableScene], Conditions]
    #: The least share of the cards the reader must read under it.
    recall_target: float


def _one_finger(rng: np.random.Generator, scene: TableScene) -> Conditions:
    seats = sorted(scene.seat_cards)
    return moderate(rng).replace(finger_seats=(int(rng.choice(seats)),), finger_cover=(0.1, 0.3))


TRIALS: tuple[Trial, ...] = (
    Trial("moderate", _dealt, lambda rng, scene: moderate(rng), 0.995),
    Trial("glare on a marker", _dealt, lambda rng, scene: moderate(rng).replace(specular_spots=1), 0.95),
    Trial("finger 10-30 %", _dealt, _one_finger, 0.95),
    Trial("empty beside covered", lambda rng: _dealt(rng, empty=2),
          lambda rng, scene: moderate(rng).replace(finger_seats=_beside_empty(scene), finger_cover=(0.1, 0.3)),
          0.0),
    Trial("Coyote card at a seat", lambda rng: _dealt(rng, coyote=True), lambda rng, scene: moderate(rng), 0.995),
    Trial("tilt 10, any yaw, mast 15 %", _dealt,
          lambda rng, scene: moderate(rng).replace(camera_tilt_deg=10.0, camera_yaw_deg=180.0, mast_change=0.15),
          0.995),
    Trial("gingham cloth", _dealt, lambda rng, scene: moderate(rng).replace(cloth="gingham"), 0.995),
    Trial("harsh", _dealt, lambda rng, scene: Conditions.harsh(), 0.0),
)


def trial_frame(trial: Trial, seed: int,
                size: tuple[int, int] = (FULL_WIDTH, FULL_HEIGHT)) -> tuple[np.ndarray, TableScene, SceneTruth]:
    """(frame, scene, truth) of table ``seed`` under ``trial``."""
    rng = np.random.default_rng([seed, 16])
    scene = trial.scene(rng)
    conditions = trial.conditions(rng, scene)
    frame, truth = render_scene_with_truth(scene, width=size[0], height=size[1], seed=seed, conditions=conditions)
    return frame, scene, truth


@dataclass
class Tally:
    """Cards on the table and read, and every untruth, over any number of frames."""

    cards: int = 0
    read: int = 0
    wrong_values: int = 0
    wrong_seats: int = 0
    phantoms: int = 0
    false_claims: int = 0
    times_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what each untruth was, for a report

    def add(self, other: Tally) -> None:
        for name in ("cards", "read", "wrong_values", "wrong_seats", "phantoms", "false_claims"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.times_ms += other.times_ms
        self.notes += other.notes

    @property
    def recall(self) -> float:
        return self.read / self.cards if self.cards else 1.0

    @property
    def untruths(self) -> int:
        return self.wrong_values + self.wrong_seats + self.phantoms + self.false_claims

    def percentile_ms(self, share: float) -> float:
        return float(np.percentile(self.times_ms, 100 * share)) if self.times_ms else 0.0


def _places(scene: TableScene) -> dict[str, str]:
    """Where each card of the scene lies: ``{card: "seat:3" | "slot:centre" | "table"}``."""
    places = {card: f"seat:{seat}" for seat, card in scene.seat_cards.items() if card}
    places.update({card: f"slot:{name}" for name, (_, card) in scene.slots.items() if card})
    places.update({card: "table" for card, _, _ in scene.loose_cards})
    return places


def score(scene: TableScene, truth: SceneTruth, reading: TableReading) -> Tally:
    """Judge one reading of a frame of ``scene`` against its ``truth``."""
    tally = Tally()
    places = _places(scene)

    def judge_value(place: str, value: str) -> None:
        where = places.get(value)
        if where == place:
            return
        kind = "wrong_seats" if where else ("phantoms" if place not in places.values() else "wrong_values")
        setattr(tally, kind, getattr(tally, kind) + 1)
        tally.notes.append(f"{kind}: {place} read {value}, it lies at {where or 'nowhere'}")

    for seat, result in reading.seats.items():
        if result.card is not None:
            judge_value(f"seat:{seat}", result.card)
        if result.status == SeatState.MISSING and scene.seat_cards.get(seat):
            tally.false_claims += 1
            tally.notes.append(f"false claim: seat {seat} said missing, holds a card")
    for slot, slot_read in reading.slots.items():
        state, _ = scene.slot(slot)
        if slot_read.card is not None:
            judge_value(f"slot:{slot}" if state == SlotState.FACE_UP else f"hidden slot:{slot}", slot_read.card)
        if slot_read.state in (SlotState.FACE_DOWN, SlotState.EMPTY) and slot_read.state != state:
            tally.false_claims += 1
            tally.notes.append(f"false claim: slot {slot} said {slot_read.state}, it is {state}")
    for value in reading.unplaced:
        if value not in places:
            tally.phantoms += 1
            tally.notes.append(f"phantoms: {value} unplaced, on no part of the table")
    _score_coyote(scene, reading, tally)

    for sticker in truth.cards():
        if not (sticker.in_frame and sticker.stand_in_frame) or sticker.place == "table":
            continue
        tally.cards += 1
        if sticker.place == "coyote":
            tally.read += _coyote_place(scene) == (reading.coyote.place, reading.coyote.seat)
            continue
        kind, name = sticker.place.split(":")
        found = reading.seats.get(int(name)) if kind == "seat" else reading.slots.get(Slot(name))
        tally.read += found is not None and found.card == sticker.card
    return tally


def _coyote_place(scene: TableScene) -> tuple[str, int | None]:
    if scene.coyote_card is None:
        return ("not_seen", None)
    return ("centre", None) if scene.coyote_card == "centre" else ("seat", int(scene.coyote_card))


def _score_coyote(scene: TableScene, reading: TableReading, tally: Tally) -> None:
    said = (reading.coyote.place, reading.coyote.seat)
    if said[0] in ("centre", "seat") and said != _coyote_place(scene):
        kind = "wrong_seats" if scene.coyote_card is not None else "phantoms"
        setattr(tally, kind, getattr(tally, kind) + 1)
        tally.notes.append(f"{kind}: the Coyote card placed at {said}, it lies at {_coyote_place(scene)}")
