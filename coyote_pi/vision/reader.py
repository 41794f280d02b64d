"""Reading a whole table from one camera frame: which card is in each seat's stand, what
lies on the centre mat's slots, and everything that could not be placed.

How the default (``"aruco"``) reader stays fast on a 4608 x 2592 still:

1. **Anchors at low resolution.** Stand and mat markers are printed large, so they are
   found in a copy of the frame shrunk to about 768 pixels wide.
2. **Cards in regions of interest at full resolution.** Each stand's marker fixes, by a
   homography from the stand's own millimetres to the image, exactly where that seat's
   card must stand; the mat's markers fix where its slots are. Only those small regions
   are read, each scaled so the expected sticker has the size the detector is tuned for.
3. **A wider search only for a stand not found.** An empty stand proves itself (its
   empty-stand patch is in full view), a covered card is covered wherever one looks, and
   each region already spans everything that counts as its seat's or slot's, so none of
   these needs more. Only a stand whose marker was not found is looked for again, at
   twice the anchor pass's resolution. The whole frame at full resolution is read only
   when asked (``thorough="always"``): that also finds cards lying where they do not belong.

Assignment never guesses: a card counts for a seat only if its marker lies in the seat's
card region *and* in the stand's plane; two different cards in one place, one card in
two places, a marker-shaped thing that cannot be decoded - each is reported as such,
with no value.

What a reading says is the plain data of :mod:`~coyote_pi.vision.reading`; where the
stands, the mat, their card places and slots lie in the image is
:mod:`~coyote_pi.vision.table_geometry`'s. The reader keeps the passes and the
decisions: which card is whose, and what each seat and slot truly shows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import cached_property, partial

import cv2
import numpy as np

from coyote_pi.cards import ALL_CARDS, display_name
from coyote_pi.vision.artwork import empty_patch_cells
from coyote_pi.vision.detect import (
    STAND_KINDS,
    ArucoDetector,
    Detections,
    Marker,
    QrDetector,
    Region,
    cell_agreement,
    cell_colours,
    cell_means,
    expected_cells,
    pattern_agreement,
)
from coyote_pi.vision.geometry import apply_homography, rectangle_corners, square_corners
from coyote_pi.vision.markerset import (
    COYOTE_ROLE,
    SLOTS,
    MarkerSet,
    Slot,
    load_markers,
    role_kind,
    role_subject,
    slot_role,
    stand_right_role,
    stand_role,
)
from coyote_pi.vision.reading import CoyoteRead, SeatRead, Sighting, SlotRead, TableReading
from coyote_pi.vision.states import SeatState, SlotState
from coyote_pi.vision.table_geometry import Stand, TableGeometry, image_box, point_list

METHODS = ("tuned", "opencv-default")
#: Width (pixels) of the shrunken copy the anchors are found in.
ANCHOR_PASS_WIDTH = 768
#: A slot's marker that is not decoded still counts as visible when this share of its
#: cells, sampled where the mat says it is, matches its pattern; at or below the second
#: share it counts as hidden (a face-down card), and in between as partly covered.
SLOT_VISIBLE_AGREEMENT = 0.92
SLOT_HIDDEN_AGREEMENT = 0.7
#: A slot with more than this share blown out by glare is "unclear", never "face_down".
SLOT_GLARE_SHARE = 0.03
#: A slot holds a face-down card only when at least this share of the cells over its
#: middle show the cards' back colour (a face, a hand or glare do not).
BACK_SHARE = 0.7
#: ... a cell shows it when its chromaticity (colour over brightness) is this close.
BACK_CHROMA_DISTANCE = 0.1
#: The part of a slot sampled for the back: a card may lie a little off and turned.
BACK_SAMPLE_MM = (44.0, 72.0)
#: The Coyote card counts as a seat's when it lies within this distance of that stand's
#: foot (it lies 85-105 mm in front of the stand) and this much nearer to it than to
#: any other stand; it is "in the centre" when it lies on the mat (on its Coyote spot).
COYOTE_SEAT_MM = 160.0
COYOTE_SEAT_MARGIN_MM = 60.0
#: The stand search looks this far (degrees, round the mat) beyond the found stands on
#: either side of a missing one: its markers lie between their feet, and a stand's
#: height moves them a few degrees in the image.
SEARCH_MARGIN_DEG = 10.0
#: Two prints of one code belong to one card when one lies within this distance (card
#: millimetres, its centre) of where the other says the card's other print is.
PRINT_PAIR_MM = 8.0


class TableReader:
    """Reads a Coyote table from camera frames.

    ``scheme`` picks the stickers: ``"aruco"`` (default) or ``"qr"``. ``seats`` lists the
    seats that should have a stand on the table; a missing stand is then reported as
    "no_stand" (without it, every stand found is read). ``method="opencv-default"``
    reads the whole frame with OpenCV's default detector settings instead of the tuned
    path (the benchmark's baseline). ``thorough`` is "auto" (look again, at a higher
    resolution, only for stands not found), "always" (read the whole frame at full
    resolution) or "never".

    The fast path looks only at stands and slots, so a stray card elsewhere on the table
    appears in ``unplaced`` only when the whole frame was read (``"whole-frame" in
    reading.passes``, with ``thorough="always"``). A reader holds OpenCV detectors: use
    one per thread.
    """

    def __init__(self, scheme: str = "aruco", *, seats: Iterable[int] | None = None, method: str = "tuned",
                 thorough: str = "auto", markers: MarkerSet | None = None) -> None:
        if method not in METHODS:
            raise ValueError(f"unknown method {method!r}")
        if thorough not in ("auto", "always", "never"):
            raise ValueError(f"thorough must be auto, always or never, not {thorough!r}")
        self.markers = markers or load_markers(scheme)
        self.geometry = TableGeometry(self.markers)
        self.scheme = self.markers.scheme
        self.expected_seats = tuple(sorted(seats)) if seats is not None else None
        self.method = method
        self.thorough = thorough
        if self.scheme == "qr":
            self._qr = QrDetector(self.markers)
        else:
            self._aruco = ArucoDetector(self.markers)

    # ------------------------------------------------------------------- reading

    def read(self, frame: np.ndarray) -> TableReading:
        """Read one frame: a BGR (or grey, or BGRA) uint8 image as a numpy array."""
        frame = as_bgr(frame)
        if self.scheme == "qr":
            return self._assign(frame, self._qr.whole_frame(frame), ["qr-whole-frame"])
        if self.method == "opencv-default":
            return self._assign(frame, self._aruco.opencv_default(frame), ["opencv-default"])
        if self.thorough == "always":
            return self._assign(frame, self._aruco.whole_frame(frame), ["whole-frame"])
        detections = self._fast_pass(frame)
        reading = self._assign(frame, detections, ["anchors", "regions"])
        if self.thorough == "auto" and self._stands_not_found(reading):
            found = {seat for seat, r in reading.seats.items() if r.status != SeatState.NO_STAND}
            detections.extend(self._stand_search(frame, found, _merge(detections.markers)))
            reading = self._assign(frame, detections, ["anchors", "regions", "stand-search"])
        return reading

    def _fast_pass(self, frame: np.ndarray) -> Detections:
        h, w = frame.shape[:2]
        detections = self._aruco.anchors(frame, _anchor_factor(w))
        stands, mat = self.geometry.locate(detections.markers, warnings=[])
        slots = []
        for slot, back_shown in (self._card_backs_shown(frame, mat, SLOTS) if mat is not None else {}).items():
            assert mat is not None, "the slots' backs are looked for on a mat"
            box, sticker_px = self.geometry.slot_region(mat, slot, (w, h))
            if not box:
                continue
            # A slot is read until it shows a card or its own marker. One whose middle
            # shows the cards' back holds a face-down card, which shows neither: one
            # threshold window is enough to find a face-up card lying off its middle.
            enough = _anything if back_shown else partial(_has_card_or, slot_role(slot))
            slots.append(Region(box, sticker_px, enough))
        detections.extend(self._read_stands(frame, stands.values(), slots))
        return detections

    def _read_stands(self, frame: np.ndarray, stands: Iterable[Stand], also: Sequence[Region] = ()) -> Detections:
        """The card region of each stand (and the regions ``also``), read at full resolution."""
        size = (frame.shape[1], frame.shape[0])
        found = Detections([], np.zeros((0, 4, 2)))
        # The stickers' own places first (small, so the detector sees them at their
        # best; both prints at once, so two that disagree are seen to), then the whole
        # card place for a card not where it should be.
        stickers = {stand.seat: Region(box, sticker_px, _has_card) for stand in stands
                    for box, sticker_px in [self.geometry.stand_sticker_region(stand, size)] if box}
        reads = self._aruco.regions(frame, [*stickers.values(), *also])
        for read in reads:
            found.extend(read)
        card_seen = {seat for seat, read in zip(stickers, reads) if _has_card(read.markers)}
        places = []
        for stand in stands:
            if stand.seat in card_seen:
                continue
            box, sticker_px = self.geometry.stand_card_region(stand, size)
            if not box:
                continue
            # A stand whose empty-stand patch is in full view holds no card in its place:
            # one threshold window over the whole place is enough to find one lying off
            # it. A covered stand gets every window.
            places.append(Region(box, sticker_px, _anything if self._empty_patch_visible(frame, stand) else _has_card))
        for read in self._aruco.regions(frame, places):
            found.extend(read)
        return found

    def _stands_not_found(self, reading: TableReading) -> bool:
        """Only a stand whose marker was not found at all calls for a wider search: an
        empty stand proves itself by its patch, a covered one is covered wherever one looks."""
        return not reading.seats or any(r.status == SeatState.NO_STAND for r in reading.seats.values())

    def _stand_search(self, frame: np.ndarray, found: set[int], anchors: list[Marker]) -> Detections:
        """Stand markers looked for again at twice the anchor pass's resolution (a stand
        seen nearly edge-on or on a busy cloth can be lost at the lower one), only where
        the missing stands can be (:meth:`_search_boxes`), and the cards of the stands it
        adds. Still far cheaper than reading the whole frame."""
        factor = max(1, _anchor_factor(frame.shape[1]) // 2)
        detections = Detections([], np.zeros((0, 4, 2)))
        for box in self._search_boxes(frame.shape, found, anchors):
            detections.extend(self._aruco.stands(frame, factor, box))
        stands, _ = self.geometry.locate(detections.markers, warnings=[])
        detections.extend(self._read_stands(frame, [s for seat, s in stands.items() if seat not in found]))
        return detections

    def _search_boxes(self, shape: tuple[int, ...], found: set[int], anchors: list[Marker],
                      ) -> list[tuple[int, int, int, int] | None]:
        """Where the stands not found can be: for each run of missing seats, the part of
        the frame over the wedge of the table between the found stands on either side
        (seats go round the table in order), from half the nearest stand's distance
        from the mat outwards. Angles are measured on the table itself (through the
        mat's markers), so a tilted or turned camera does not move the wedge off its
        stands. Without the mat, the seats expected, or two stands found, the whole frame
        (``[None]``)."""
        stands, mat = self.geometry.locate(anchors, warnings=[])
        stands = {seat: s for seat, s in stands.items() if seat in found}
        expected = self.expected_seats or ()
        if mat is None or len(stands) < 2 or not expected:
            return [None]
        to_table = self.geometry.to_plane(mat)
        feet = {seat: apply_homography(to_table, apply_homography(s.to_image, np.zeros((1, 2))))[0]
                for seat, s in stands.items()}
        angle = {seat: float(np.arctan2(y, x)) for seat, (x, y) in feet.items()}
        near, far = 0.5 * min(map(np.linalg.norm, feet.values())), 2.0 * max(map(np.linalg.norm, feet.values()))
        order = list(expected)
        gaps = set()
        for index, seat in enumerate(order):
            if seat in stands:
                continue
            around = [order[(index + k) % len(order)] for k in range(1, len(order))]
            gaps.add((next(s for s in reversed(around) if s in stands), next(s for s in around if s in stands)))
        boxes: list[tuple[int, int, int, int]] = []
        h, w = shape[:2]
        margin = np.radians(SEARCH_MARGIN_DEG)
        for before, after in sorted(gaps):
            # Seats go clockwise (angles falling) from ``before`` to ``after``.
            sweep = (angle[before] - angle[after]) % (2 * np.pi) or 2 * np.pi
            if sweep + 2 * margin >= 2 * np.pi:
                return [None]
            turns = angle[after] - margin + np.linspace(0.0, sweep + 2 * margin, 24)
            ring = np.concatenate([np.stack([r * np.cos(turns), r * np.sin(turns)], axis=1) for r in (near, far)])
            box = image_box(apply_homography(mat, ring), (w, h), pad=0)
            if box:
                boxes.append(box)
        # Wedges that together cover most of the frame are read as one: they overlap.
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) >= 0.8 * w * h:
            return [None]
        return [*boxes]

    # ---------------------------------------------------------------- assignment

    def _assign(self, frame: np.ndarray, detections: Detections, passes: list[str]) -> TableReading:
        warnings: list[str] = []
        markers = _merge(detections.markers)
        candidates = _not_under(detections.candidates, markers)
        stands, mat = self.geometry.locate(markers, warnings)
        mat_to_plane = None if mat is None else self.geometry.to_plane(mat)
        sightings: list[Sighting] = []

        cards = self._cards_seen([m for m in markers if m.role and role_kind(m.role) == "card"])
        size = (frame.shape[1], frame.shape[0])
        card_boxes = {seat: self.geometry.stand_card_region(stand, size)[0] for seat, stand in stands.items()}
        seen_at: dict[str, int] = {}
        for prints in cards:
            seen_at[str(prints[0].role)] = seen_at.get(str(prints[0].role), 0) + 1  # card prints all have roles
        duplicates = sorted({role_subject(r) for r, n in seen_at.items() if n > 1}, key=_card_order)

        seat_cards: dict[int, list[Marker]] = {s: [] for s in stands}
        slot_cards: dict[str, list[Marker]] = {s: [] for s in SLOTS}
        unplaced: list[str] = []
        for prints in cards:
            # A card is where any of its prints puts it; prints that put it in two places
            # leave it unplaced, as a single print lying between two places does.
            places = list(dict.fromkeys(place for m in prints
                                        for place in self._places(stands, card_boxes, mat_to_plane, m)))
            name = role_subject(str(prints[0].role))
            shown = display_name(name)
            if len(places) == 1 and places[0][0] == "seat":
                seat_cards[int(places[0][1])].append(prints[0])
                sightings += [Sighting(f"seat {places[0][1]}: {shown}", "card", point_list(m.corners)) for m in prints]
            elif len(places) == 1:
                slot_cards[str(places[0][1])].append(prints[0])
                sightings += [Sighting(f"{places[0][1]}: {shown}", "card", point_list(m.corners), show_label=False)
                              for m in prints]
            else:
                unplaced.append(name)
                if len(places) > 1:
                    where = " or ".join(f"{kind} {place}" for kind, place in places)
                    warnings.append(f"card {name} lies where it could belong to {where}")
                sightings += [Sighting(f"unplaced: {shown}", "problem", point_list(m.corners)) for m in prints]

        seats: dict[int, SeatRead] = {}
        by_role = {m.role: m for m in markers if m.role and role_kind(m.role) in STAND_KINDS}
        for seat, stand in sorted(stands.items()):
            seats[seat] = self._seat_result(frame, stand, seat_cards[seat], candidates, duplicates)
            for role in (stand_role(seat), stand_right_role(seat)):
                if role in by_role:
                    sightings.append(Sighting(f"stand {seat}", "anchor", point_list(by_role[role].corners)))
        for seat in self.expected_seats or ():
            if seat not in seats:
                seats[seat] = SeatRead(None, SeatState.NO_STAND, f"stand {seat}'s marker is not in view")

        slots = self._slot_results(frame, mat, markers, slot_cards, candidates, duplicates, sightings)
        coyote = self._coyote(markers, stands, mat, mat_to_plane, warnings, sightings)

        unknown = []
        for m in markers:
            if m.role is None:
                unknown.append(str(m.code))
                sightings.append(Sighting(f"unknown {m.code}", "unknown", point_list(m.corners)))
        if mat is None:
            warnings.append("centre mat not found: the centre slots cannot be read")
        for seat, result in seats.items():
            if result.status == SeatState.UNREADABLE:
                for quad in candidates[self.geometry.candidates_in_stand(stands[seat], candidates)]:
                    sightings.append(Sighting(f"seat {seat}: unreadable", "candidate", point_list(quad)))
        return TableReading(
            seats=seats, slots=slots, coyote=coyote, unplaced=sorted(unplaced, key=_card_order),
            duplicates=duplicates, unknown_ids=sorted(set(unknown)), warnings=warnings, scheme=self.scheme,
            passes=passes, sightings=sightings, card_areas=self.geometry.card_areas(stands, mat),
            stand_outlines={seat: point_list(apply_homography(s.to_image, self.geometry.stand_needs))
                            for seat, s in stands.items()},
        )

    def _places(self, stands: dict[int, Stand], card_boxes: dict[int, tuple[int, int, int, int] | None],
                mat_to_plane: np.ndarray | None, marker: Marker) -> list[tuple[str, int | str]]:
        """Every place one card print lies in: ("seat", n) and ("slot", name). Only the
        stands whose card place's box (``card_boxes``, by seat) holds the print are
        tried: the box bounds the very rectangle
        :meth:`~coyote_pi.vision.table_geometry.TableGeometry.place_in_stand` accepts."""
        (x, y) = marker.centre
        seats = [("seat", seat) for seat, box in card_boxes.items()
                 if box and box[0] <= x <= box[2] and box[1] <= y <= box[3]
                 and self.geometry.place_in_stand(stands[seat], marker.corners)]
        slot = None if mat_to_plane is None else self.geometry.slot_at(mat_to_plane, marker.corners)
        return seats + ([("slot", slot)] if slot else [])

    def _cards_seen(self, prints: list[Marker]) -> list[list[Marker]]:
        """Card markers grouped by the card they are printed on: a card carries its
        marker twice (:meth:`MarkerSet.card_print_places`), so two prints of one code
        are one card when each lies where the other's square says the card's second
        print must be; otherwise they are two cards (a duplicate)."""
        cards: list[list[Marker]] = []
        of_code: dict[int | str, list[list[Marker]]] = {}
        for m in prints:
            same_code = of_code.setdefault(m.code, [])
            pair = next((c for c in same_code if self.markers.card_prints == 2 and len(c) == 1
                         and self._prints_of_one_card(c[0], m)), None)
            if pair is not None:
                pair.append(m)
            else:
                cards.append([m])
                same_code.append(cards[-1])
        return cards

    def _prints_of_one_card(self, a: Marker, b: Marker) -> bool:
        """Are ``a`` and ``b`` (one code) the two prints on one card? Each print's own
        square says where the other must be; a small square's perspective is shaky that
        far out, so either one saying it is enough."""
        return self._lies_as_other_print(a, b) or self._lies_as_other_print(b, a)

    def _lies_as_other_print(self, first: Marker, other: Marker) -> bool:
        """Does ``other`` lie where ``first``'s card has its other print? In a print's own
        millimetres (y up, origin at its centre) the card's centre lies straight below it,
        and the other print is this one turned half a turn about that centre: its centre
        twice as far below, its top edge running the other way."""
        own, other_centre = self._print_pair
        to_own = cv2.getPerspectiveTransform(first.corners.astype(np.float32), own).astype(np.float64)
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = apply_homography(to_own, other.corners).tolist()
        return math.dist(((x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4), other_centre) <= PRINT_PAIR_MM and x1 < x0

    @cached_property
    def _print_pair(self) -> tuple[np.ndarray, tuple[float, float]]:
        """A card print's corners in its own millimetres, and where the card's other print
        has its centre there (see :meth:`_lies_as_other_print`)."""
        (_, below_top), _ = self.markers.card_print_places()[0]
        return square_corners((0.0, 0.0), self.markers.size_mm["card"]).astype(np.float32), (0.0, -2 * below_top)

    def _seat_result(self, frame: np.ndarray, stand: Stand, found: list[Marker], candidates: np.ndarray,
                     duplicates: list[str]) -> SeatRead:
        seat = stand.seat
        names = sorted({role_subject(str(m.role)) for m in found}, key=_card_order)
        if len(names) > 1:
            return SeatRead(None, SeatState.AMBIGUOUS, f"several cards in stand {seat}: {', '.join(names)}")
        if names and names[0] in duplicates:
            return SeatRead(None, SeatState.DUPLICATE, f"card {names[0]} is seen in more than one place")
        if names:
            return SeatRead(names[0], SeatState.OK)
        # "missing" is said only on proof: the patch a card would hide is in full view.
        if self._empty_patch_visible(frame, stand):
            return SeatRead(None, SeatState.MISSING, f"stand {seat} is empty: its empty-stand patch is in full view")
        if self.geometry.candidates_in_stand(stand, candidates).any():
            return SeatRead(None, SeatState.UNREADABLE,
                            f"a sticker in stand {seat} cannot be read (covered, blurred or glared)")
        return SeatRead(None, SeatState.COVERED,
                        f"no card read in stand {seat}, but its empty-stand patch is hidden (a hand, glare, "
                        f"a card put in wrongly)")

    def _empty_patch_visible(self, frame: np.ndarray, stand: Stand) -> bool:
        """Is the stand's empty-stand patch (printed where a card hides it) seen whole?
        A checkerboard stuck on a quarter turn shows the other phase: either is the patch."""
        layout = self.markers.stand
        corners = apply_homography(stand.to_image, square_corners(layout.empty_patch_centre, layout.empty_patch_side))
        cells = empty_patch_cells()
        means = cell_means(frame, corners[None], len(cells))  # sampled once, judged against both phases
        shares = cell_agreement(np.repeat(means, 2, axis=0), np.stack([cells, ~cells]))[1]
        visible: bool = shares.max() >= SLOT_VISIBLE_AGREEMENT
        return visible

    def _card_backs_shown(self, frame: np.ndarray, mat: np.ndarray, slots: Sequence[str]) -> dict[str, bool]:
        """For each of ``slots``: do the cells over its middle show the cards' back colour?
        Positive evidence of a face-down card: a hidden slot marker alone could be a hand.
        (A slot off the frame shows nothing.) All slots are sampled in one batch."""
        w, h = BACK_SAMPLE_MM
        middles = np.concatenate([rectangle_corners(self.markers.mat.slots[slot], w / 2, h / 2) for slot in slots])
        corners = apply_homography(mat, middles).reshape(-1, 4, 2)
        shares = _chroma_shares(cell_colours(frame, corners, 5, 8), self.markers.card.back_rgb)
        return dict(zip(slots, (shares >= BACK_SHARE).tolist()))

    def _slot_marker_covers(self, frame: np.ndarray, mat: np.ndarray, markers: list[Marker]) -> dict[Slot, str]:
        """Is each slot's own marker "decoded", "visible", "hidden" or "partly" covered?
        Unless it was decoded, its cells are sampled where the mat says it is printed and
        compared with its pattern (a face-down card shows none of it): all such slots in
        one batch."""
        mat_to_plane = self.geometry.to_plane(mat)
        covers = {slot: "decoded" for slot in SLOTS
                  if any(m.role == slot_role(slot) and self.geometry.slot_at(mat_to_plane, m.corners, "slot") == slot
                         for m in markers)}
        sampled = [slot for slot in SLOTS if slot not in covers]
        if sampled:
            roles = [slot_role(slot) for slot in sampled]
            printed = np.concatenate([self.geometry.marker_plane_points(role) for role in roles])
            agreements = pattern_agreement(frame, apply_homography(mat, printed).reshape(-1, 4, 2),
                                           np.stack([expected_cells(self.markers, role) for role in roles]))
            for slot, agreement in zip(sampled, agreements.tolist()):
                covers[slot] = ("visible" if agreement >= SLOT_VISIBLE_AGREEMENT else
                                "hidden" if agreement <= SLOT_HIDDEN_AGREEMENT else "partly")
        return covers

    def _slot_rectangle(self, slot: str) -> np.ndarray:
        """A slot's printed rectangle, in the mat's millimetres."""
        layout = self.markers.mat
        return rectangle_corners(layout.slots[slot], layout.slot_width / 2, layout.slot_height / 2)

    def _glare_share(self, frame: np.ndarray, mat: np.ndarray, slot: str) -> float:
        """Share of a slot's area that is blown out: glare can erase a face-up card's
        sticker outline so completely that nothing marker-shaped is left to see."""
        means = cell_means(frame, apply_homography(mat, self._slot_rectangle(slot)), 24)[0]
        return float((means >= 245).mean())  # NaN off the frame: none blown out

    def _slot_results(self, frame: np.ndarray, mat: np.ndarray | None, markers: list[Marker],
                      slot_cards: dict[str, list[Marker]], candidates: np.ndarray, duplicates: list[str],
                      sightings: list[Sighting]) -> dict[Slot, SlotRead]:
        if mat is None:
            return {s: SlotRead(SlotState.UNCLEAR, None, "centre mat not found") for s in SLOTS}
        mat_to_plane = self.geometry.to_plane(mat)
        results = {}
        covers = self._slot_marker_covers(frame, mat, markers)
        for slot in SLOTS:
            cover = covers[slot]
            names = sorted({role_subject(str(m.role)) for m in slot_cards[slot]}, key=_card_order)  # card prints have roles
            if len(names) > 1:
                result = SlotRead(SlotState.UNCLEAR, None, f"several cards on the {slot} slot: {', '.join(names)}")
            elif names and cover == "decoded":
                result = SlotRead(SlotState.UNCLEAR, None, f"card {names[0]} lies beside the {slot} slot, not on it")
            elif names and names[0] in duplicates:
                result = SlotRead(SlotState.UNCLEAR, None, f"card {names[0]} is seen in more than one place")
            elif names:
                result = SlotRead(SlotState.FACE_UP, names[0])
            elif cover in ("decoded", "visible"):
                result = SlotRead(SlotState.EMPTY)
            elif cover == "partly":
                result = SlotRead(SlotState.UNCLEAR, None, f"the {slot} slot is partly covered")
            elif self.geometry.candidates_on_slot(mat_to_plane, candidates, slot).any():
                result = SlotRead(SlotState.UNCLEAR, None,
                                  f"something on the {slot} slot looks like a sticker but cannot be read")
            elif self._glare_share(frame, mat, slot) > SLOT_GLARE_SHARE:
                result = SlotRead(SlotState.UNCLEAR, None, f"glare on the {slot} slot hides what lies there")
            elif self._card_backs_shown(frame, mat, [slot])[slot]:
                result = SlotRead(SlotState.FACE_DOWN)
            else:
                result = SlotRead(SlotState.UNCLEAR, None,
                                  f"something hides the {slot} slot but no card back is seen (a hand?)")
            results[slot] = result
            outline = apply_homography(mat, self._slot_rectangle(slot))
            label = f"{slot}: {result.state.replace('_', ' ')}"
            if result.card:
                label += f" {display_name(result.card)}"
            kind = "slot" if result.state != SlotState.UNCLEAR else "problem"
            sightings.append(Sighting(label, kind, point_list(outline)))
        return results

    def _coyote(self, markers: list[Marker], stands: dict[int, Stand], mat: np.ndarray | None,
                mat_to_plane: np.ndarray | None, warnings: list[str], sightings: list[Sighting]) -> CoyoteRead:
        seen = [m for m in markers if m.role == COYOTE_ROLE]
        if not seen:
            return CoyoteRead()
        if len(seen) > 1:
            warnings.append("the Coyote card is seen in more than one place")
            return CoyoteRead("table")
        marker = seen[0]
        missing = sorted(set(self.expected_seats or ()) - set(stands))
        if mat_to_plane is None:
            warnings.append("the Coyote card is seen but cannot be placed without the centre mat")
            result = CoyoteRead("unplaced")
        else:
            spot = apply_homography(mat_to_plane, marker.centre[None])[0]
            feet = {seat: apply_homography(mat_to_plane, apply_homography(s.to_image, np.zeros((1, 2))))[0]
                    for seat, s in stands.items()}
            near = sorted((float(np.linalg.norm(spot - foot)), seat) for seat, foot in feet.items())
            layout = self.markers.mat
            if abs(spot[0]) <= layout.width / 2 and abs(spot[1]) <= layout.height / 2:
                result = CoyoteRead("centre")
            elif near and near[0][0] <= COYOTE_SEAT_MM and (
                    len(near) == 1 or near[1][0] > near[0][0] + COYOTE_SEAT_MARGIN_MM):
                result = CoyoteRead("seat", near[0][1])
            elif missing:
                # It may lie in front of a stand that was not found: "table" would say it does not.
                stands_text = ", ".join(map(str, missing))
                warnings.append(f"the Coyote card is seen but cannot be placed while stand {stands_text} is not found")
                result = CoyoteRead("unplaced")
            else:
                result = CoyoteRead("table")
        where = {"centre": "centre", "seat": f"seat {result.seat}", "table": "table", "unplaced": "not placed"}[
            result.place]
        sightings.append(Sighting(f"Coyote card: {where}", "anchor", point_list(marker.corners)))
        return result


def _chroma_shares(colours: np.ndarray, rgb: tuple[int, int, int]) -> np.ndarray:
    """For (N, ..., 3) BGR cell colours: per N, the share of cells whose chromaticity is
    within :data:`BACK_CHROMA_DISTANCE` of the colour ``rgb``'s (NaN cells never are)."""
    bgr = colours.reshape(len(colours), -1, 3)
    chroma = bgr / np.maximum(bgr.sum(axis=2, keepdims=True), 1.0)
    offset = chroma - np.array(rgb[::-1], np.float32) / max(1, sum(rgb))
    near = (offset * offset).sum(axis=2) <= BACK_CHROMA_DISTANCE**2
    result: np.ndarray = near.sum(axis=1) / near.shape[1]
    return result


def _anchor_factor(width: int) -> int:
    """How much the anchor pass shrinks a frame ``width`` pixels wide."""
    return max(1, round(width / ANCHOR_PASS_WIDTH))


def _anything(found: list[Marker]) -> bool:
    return True


def _has_card(found: list[Marker]) -> bool:
    return any(m.role and role_kind(m.role) == "card" for m in found)


def _has_card_or(role: str, found: list[Marker]) -> bool:
    return _has_card(found) or any(m.role == role for m in found)


def _merge(markers: list[Marker]) -> list[Marker]:
    """Drop repeats of one marker found by two passes (same code, same place), keeping
    the one found at the highest resolution (its corners are the most precise)."""
    kept: list[Marker] = []
    kept_by_code: dict[int | str, list[tuple[Marker, tuple[float, float]]]] = {}
    for m in sorted(markers, key=lambda m: -m.scale):
        # In plain Python: each marker is compared with the kept ones of its code, on two numbers each.
        centre = tuple(m.centre.tolist())
        same_code = kept_by_code.setdefault(m.code, [])
        if not any(math.dist(at, centre) < 0.5 * k.side_px for k, at in same_code):
            same_code.append((m, centre))
            kept.append(m)
    return kept


def _not_under(quads: np.ndarray, markers: list[Marker]) -> np.ndarray:
    """Candidates that are not just another outline of a marker that was read."""
    if not len(quads) or not markers:
        return quads
    centres = quads.sum(axis=1)[:, None, :] / 4
    marker_centres = np.array([m.centre for m in markers])
    reach = 0.5 * np.array([m.side_px for m in markers])
    apart = np.sqrt(((centres - marker_centres) ** 2).sum(axis=2)) >= reach  # (quads, markers)
    result: np.ndarray = quads[apart.all(axis=1)]
    return result


def _card_order(name: str) -> int:
    return ALL_CARDS.index(name) if name in ALL_CARDS else len(ALL_CARDS)


def as_bgr(frame: object) -> np.ndarray:
    """Accept what cameras and image files give: BGR, grey or BGRA, 8 or 16 bits."""
    array = np.asarray(frame)
    if array.dtype == np.uint16:
        array = (array >> 8).astype(np.uint8)
    if array.dtype != np.uint8:
        raise ValueError(f"expected an 8-bit image, got {array.dtype}")
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[:, :, 0]
    if array.ndim == 2:
        return cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
    if array.ndim == 3 and array.shape[2] == 4:
        return cv2.cvtColor(array, cv2.COLOR_BGRA2BGR)
    if array.ndim == 3 and array.shape[2] == 3:
        return array
    raise ValueError(f"expected a colour or grey image, got an array of shape {array.shape}")
