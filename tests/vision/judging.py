"""Judging a reading against the truth of the frame it was read from.

A reading is judged card by card, the way the specification puts it: a card value
that is reported must be the true one (anywhere: seat, slot, Coyote card), every card
that the specification requires to be read (:attr:`StickerTruth.must_read`) must be
read, and every seat the reader was told to expect has a result (a status that says
why its card is not read, when it is not).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from coyote_pi.sim.scene import SceneTruth, TableScene
from coyote_pi.vision.reading import TableReading


@dataclass
class Verdict:
    reads: int = 0  # card values reported
    required: int = 0  # cards the reader had to read
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)
    unaccounted: list[str] = field(default_factory=list)

    def add(self, other: Verdict) -> None:
        self.reads += other.reads
        self.required += other.required
        self.wrong += other.wrong
        self.missed += other.missed
        self.unaccounted += other.unaccounted


def judge(scene: TableScene, truth: SceneTruth, reading: TableReading, where: str = "") -> Verdict:
    verdict = Verdict()
    for seat, result in reading.seats.items():
        if result.card is not None:
            verdict.reads += 1
            if result.status != "ok" or scene.seat_cards.get(seat) != result.card:
                verdict.wrong.append(f"{where} seat {seat}: read {result.card}, truth {scene.seat_cards.get(seat)}")
    for slot, result in reading.slots.items():
        state, card = scene.slot(slot)
        if result.card is not None:
            verdict.reads += 1
            if state != "face_up" or card != result.card:
                verdict.wrong.append(f"{where} slot {slot}: read {result.card}, truth {state} {card}")
        if result.state not in ("unclear", state):
            verdict.wrong.append(f"{where} slot {slot}: read {result.state}, truth {state}")
    for sticker in truth.cards():
        if not sticker.place.startswith(("seat:", "slot:")):
            continue
        kind, name = sticker.place.split(":")
        result = reading.seats.get(int(name)) if kind == "seat" else reading.slots.get(name)
        got = None if result is None else result.card
        if sticker.must_read:
            verdict.required += 1
            if got != sticker.card:
                verdict.missed.append(
                    f"{where} {sticker.place} {sticker.card}: {result} "
                    f"({sticker.width_px:.0f} px wide, {sticker.off_axis_deg:.0f} deg)")
    for seat in scene.present:
        if seat not in reading.seats:
            verdict.unaccounted.append(f"{where} seat {seat}: no result (the reader was told to expect it)")
    return verdict
