"""The synthetic table's contents and imaging conditions, and the truth about a frame of it.

Describe the table with a :class:`TableScene` (which seats have stands, which card is in
each, what lies on the centre mat's slots) and the imaging with :class:`Conditions`
(blur, noise, glare, uneven light, JPEG, fingers, a bumped camera);
:mod:`coyote_pi.sim.render` draws it as a camera frame and reports a :class:`SceneTruth`:
for every card sticker, where it landed in the frame, how many pixels wide it is, how
far off-axis it is seen, whether a finger or glare covers it and so whether a reader
must read it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from coyote_pi.cards import parse_card, shuffled_deck
from coyote_pi.sim.optics import Optics
from coyote_pi.vision.geometry import Camera
from coyote_pi.vision.markerset import COYOTE_ROLE, SCHEMES, SLOTS, MarkerSet, load_markers
from coyote_pi.vision.states import SlotState

#: How a slot of a scene can look (a reading may also find it "unclear").
SLOT_STATES = (SlotState.EMPTY, SlotState.FACE_DOWN, SlotState.FACE_UP)
#: A reader must read every sticker at least this wide (pixels) ...
MIN_READABLE_WIDTH_PX = 40.0
#: ... and seen at most this far off its normal (degrees) ...
MAX_READABLE_OFF_AXIS_DEG = 60.0
#: ... unless glare brightens it by more than this many grey levels.
MAX_READABLE_GLARE = 90.0

@dataclass(frozen=True)
class Conditions:
    """How the camera sees the table. Pixel amounts are for a 4608-pixel-wide frame and
    scale with the frame (the 2304 x 1296 mode is the same optics, binned)."""

    blur: float = 0.9  # Gaussian sigma of the lens blur, pixels
    noise: float = 3.5  # sensor noise sigma, grey levels
    glare_spots: int = 1  # specular highlights
    glare_strength: float = 60.0  # brightest highlight, grey levels added
    uneven_light: float = 0.35  # 0 = even light; 1 = strong gradient, vignetting, shadows
    brightness: float = 1.0
    jpeg_quality: int | None = 90  # None = no compression
    finger_seats: tuple[int, ...] = ()  # seats whose card a finger partly covers
    finger_slots: tuple[str, ...] = ()  # centre-mat slots whose card a finger partly covers
    finger_cover: tuple[float, float] = (0.2, 0.6)  # fraction of the sticker hidden
    camera_shift_mm: float = 15.0  # the mast is a little off the table centre
    camera_yaw_deg: float = 4.0  # ... and turned about its optical axis
    camera_tilt_deg: float = 1.5  # ... and tilted
    mast_change: float = 0.0  # the mast is up to this share higher or lower than the scene says
    specular_spots: int = 0  # lamp reflections centred near a card sticker or a stand marker
    specular_size: tuple[float, float] = (0.3, 1.0)  # their radius, in sides of that marker
    specular_strength: float = 200.0  # grey levels they add at their centre (255: blown out)
    cloth: str | None = None  # the table top ("gingham", ...); None: wood, felt or laminate
    optics: Optics | None = None  # the real camera's optics and sensor (sim/optics.py); None: blur and noise above

    @classmethod
    def clean(cls) -> Conditions:
        """An ideal camera: sharp, noiseless, evenly lit, centred, no compression."""
        return cls(blur=0.0, noise=0.0, glare_spots=0, uneven_light=0.0, jpeg_quality=None,
                   camera_shift_mm=0.0, camera_yaw_deg=0.0, camera_tilt_deg=0.0)

    @classmethod
    def typical(cls) -> Conditions:
        """A living-room table under a ceiling lamp."""
        return cls()

    @classmethod
    def harsh(cls) -> Conditions:
        """The worst the device is specified for: soft focus, noisy, dim corners and
        strong highlights, heavy JPEG, a bumped camera."""
        return cls(blur=1.5, noise=7.0, glare_spots=3, glare_strength=85.0, uneven_light=0.7,
                   brightness=0.85, jpeg_quality=70, camera_shift_mm=40.0, camera_yaw_deg=15.0,
                   camera_tilt_deg=4.0)

    @classmethod
    def sample(cls, rng: np.random.Generator) -> Conditions:
        """Conditions drawn at random from the whole specified range (clean to harsh)."""
        return cls(
            blur=float(rng.uniform(0.0, 1.5)),
            noise=float(rng.uniform(0.0, 7.0)),
            glare_spots=int(rng.integers(0, 4)),
            glare_strength=float(rng.uniform(30.0, 85.0)),
            uneven_light=float(rng.uniform(0.0, 0.7)),
            brightness=float(rng.uniform(0.8, 1.1)),
            jpeg_quality=None if rng.random() < 0.2 else int(rng.integers(70, 96)),
            camera_shift_mm=float(rng.uniform(0.0, 40.0)),
            camera_yaw_deg=float(rng.uniform(0.0, 15.0)),
            camera_tilt_deg=float(rng.uniform(0.0, 4.0)),
        )

    def replace(self, **changes: Any) -> Conditions:
        return dataclasses.replace(self, **changes)


@dataclass
class TableScene:
    """What lies on the table.

    ``seats`` is the table size (2..6): it fixes where stands go round the centre.
    ``present`` lists the seats whose stand is on the table (all by default).
    ``seat_cards`` gives the card in each present stand (missing or None: an empty stand).
    ``slots`` gives each centre-mat slot's state: ``("empty", None)``, ``("face_down",
    card or None)`` or ``("face_up", card)``; slots not given are empty.
    ``coyote_card`` is ``"centre"``, a seat number (lying in front of that stand) or None.
    ``loose_cards`` are ``(card, x_mm, y_mm)`` lying face up elsewhere on the table.
    """

    seats: int = 6
    present: tuple[int, ...] | None = None
    seat_cards: Mapping[int, str | None] = field(default_factory=dict)
    slots: Mapping[str, tuple[str, str | None]] = field(default_factory=dict)
    coyote_card: str | int | None = None
    loose_cards: tuple[tuple[str, float, float], ...] = ()
    scheme: str = "aruco"
    camera_height_mm: float = 650.0
    #: Semi-axes (east-west, north-south) of the ellipse the stands stand on: the frame
    #: is 16:9, so stands sit further out at the sides than at top and bottom.
    stand_radius_mm: tuple[float, float] = (440.0, 290.0)
    #: How far the stands lean back: the printed stand's lean (markers.toml) unless given.
    stand_lean_deg: float = field(default_factory=lambda: load_markers().stand.lean_deg)
    #: How untidily things are placed: 0 = exactly on their marks, 1 = like people do.
    placement_jitter: float = 1.0
    #: The stands' boards' colour (blue, green, red), if not light wood: a dark board
    #: shows that the empty-stand patch needs no white round it.
    board_bgr: tuple[int, int, int] | None = None
    #: The markers to draw, if not the packaged set for ``scheme`` (the benchmark draws
    #: other dictionaries and sticker sizes this way).
    markers: MarkerSet | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= 6:
            raise ValueError(f"a table has 2 to 6 seats, not {self.seats}")
        if self.present is None:
            self.present = tuple(range(1, self.seats + 1))
        self.present = tuple(sorted(set(self.present)))
        if any(not 1 <= s <= self.seats for s in self.present):
            raise ValueError(f"present seats {self.present} outside 1..{self.seats}")
        self.seat_cards = {int(s): (None if c is None else parse_card(c)) for s, c in self.seat_cards.items()}
        if any(s not in self.present for s in self.seat_cards):
            raise ValueError("a card is in the stand of a seat that is not present")
        slots = {}
        for name, (state, card) in self.slots.items():
            if name not in SLOTS or state not in SLOT_STATES:
                raise ValueError(f"bad slot {name!r} state {state!r}")
            if state == SlotState.FACE_UP and card is None:
                raise ValueError(f"slot {name}: a face-up card needs a value")
            slots[name] = (SlotState(state), None if card is None else parse_card(card))
        self.slots = slots
        if self.markers is not None:
            self.scheme = self.markers.scheme
        if self.scheme not in SCHEMES:
            raise ValueError(f"unknown marker scheme {self.scheme!r}")
        self.loose_cards = tuple((parse_card(c), float(x), float(y)) for c, x, y in self.loose_cards)

    def slot(self, name: str) -> tuple[str, str | None]:
        return self.slots.get(name, (SlotState.EMPTY, None))


def random_scene(rng: np.random.Generator, scheme: str = "aruco", seats: int | None = None) -> TableScene:
    """A plausible moment of a game: 2..6 seats dealt from a shuffled deck, some stands
    possibly empty or absent, the centre card face down or turned up, maybe a ``?`` draw."""
    seats = int(rng.integers(2, 7)) if seats is None else seats
    deck = shuffled_deck(int(rng.integers(1 << 30)))
    present = tuple(s for s in range(1, seats + 1) if rng.random() > 0.1) or (1,)
    cards = {s: deck.pop() for s in present if rng.random() > 0.08}
    phase = rng.random()
    slots: dict[str, tuple[str, str | None]] = {"centre": (SlotState.FACE_DOWN, deck.pop())}
    if phase > 0.5:
        slots["centre"] = (SlotState.FACE_UP, slots["centre"][1])
    if phase > 0.75:
        slots["draw"] = (SlotState.FACE_UP, deck.pop())
    if rng.random() < 0.25:
        slots["extra"] = (SlotState.FACE_DOWN if phase <= 0.5 else SlotState.FACE_UP, deck.pop())
    coyote = None
    if rng.random() < 0.3:
        coyote = "centre" if rng.random() < 0.5 else int(rng.choice(present))
    return TableScene(seats=seats, present=present, seat_cards=cards, slots=slots, coyote_card=coyote, scheme=scheme)


@dataclass(frozen=True)
class StickerTruth:
    """Where one marker landed in the frame."""

    role: str
    place: str  # "seat:3", "slot:centre", "coyote", "table", "stand:3", "stand-right:3", "mat:left", ...
    corners: np.ndarray  # (4, 2) image pixels: top-left, top-right, bottom-right, bottom-left
    width_px: float  # mean length of the top and bottom edges
    height_px: float
    off_axis_deg: float
    occluded: float  # fraction of the sticker a finger hides
    glare: float  # grey levels of glare added at the sticker's brightest corner
    in_frame: bool
    stand_in_frame: bool = True  # for a card in a stand: is one of that stand's markers in view?
    index: int = 0  # which print of its role on its object (a playing card carries two)

    @property
    def card(self) -> str | None:
        return self.role.split(":", 1)[1] if self.role.startswith("card:") else None

    @property
    def must_read(self) -> bool:
        """True when the specification requires a reader to read this sticker."""
        return not self.why_not_required

    @property
    def why_not_required(self) -> str:
        if not self.in_frame:
            return "outside the frame"
        if not self.stand_in_frame:
            return "its stand's marker is outside the frame"
        if self.occluded > 0:
            return "covered by a finger"
        if self.width_px < MIN_READABLE_WIDTH_PX:
            return f"{self.width_px:.0f} px wide"
        if self.off_axis_deg > MAX_READABLE_OFF_AXIS_DEG:
            return f"{self.off_axis_deg:.0f} degrees off-axis"
        if self.glare > MAX_READABLE_GLARE:
            return "under glare"
        return ""


@dataclass(frozen=True)
class SceneTruth:
    """Everything a test needs to judge a reading of a rendered frame."""

    stickers: tuple[StickerTruth, ...]
    camera: Camera

    def cards(self) -> list[StickerTruth]:
        """One entry per card face up on the table: of a card's prints, the first that a
        reader must read (either suffices), else its first print."""
        prints: dict[tuple[str, str], list[StickerTruth]] = {}
        for s in self.stickers:
            if s.role.startswith("card:") or s.role == COYOTE_ROLE:
                prints.setdefault((s.role, s.place), []).append(s)
        return [next((s for s in group if s.must_read), group[0]) for group in prints.values()]

    def by_place(self, place: str) -> StickerTruth | None:
        return next((s for s in self.stickers if s.place == place), None)
