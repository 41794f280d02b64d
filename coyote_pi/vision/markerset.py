"""What each printed marker means: the mapping file ``coyote_pi/data/markers.toml``.

Every marker has a *role*, a short string that says what it marks:

===================  =========================================================
``card:<name>``      a playing card's face, ``<name>`` as in :mod:`coyote_pi.cards`
``coyote``           the Trickster variant's Coyote card
``stand:<seat>``     the stand of seat 1..6 (its marker left of the card)
``stand-right:<seat>`` the same stand's second marker, right of the card
``mat:left|right``   the centre mat's two locating markers
``slot:<slot>``      a centre-mat slot: ``centre``, ``extra`` or ``draw``
===================  =========================================================

A :class:`MarkerSet` holds one scheme's mapping (ArUco ids or QR payloads), the
printed sizes, and the physical layout of cards, stands and the mat that the reader,
the synthetic-table renderer and the sticker sheets share. This module needs only the
standard library, so importing it is cheap.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property
from importlib import resources

from coyote_pi.cards import STANDARD, Deck
from coyote_pi.engine.game import MAX_PLAYERS

SCHEMES = ("aruco", "qr")


class Slot(StrEnum):
    """The centre mat's slots: the centre card, the Coyote card's extra draw, the ``?`` draw."""

    CENTRE = "centre"
    EXTRA = "extra"
    DRAW = "draw"


SLOTS = tuple(Slot)
#: Every seat a stand can have a marker for: the engine's player limit.
SEATS = tuple(range(1, MAX_PLAYERS + 1))
LOCATORS = ("left", "right")


def card_role(card: str) -> str:
    return f"card:{card}"


def stand_role(seat: int) -> str:
    return f"stand:{seat}"


def stand_right_role(seat: int) -> str:
    return f"stand-right:{seat}"


def slot_role(slot: str) -> str:
    return f"slot:{slot}"


def locator_role(name: str) -> str:
    return f"mat:{name}"


COYOTE_ROLE = "coyote"


def roles_of(deck: Deck) -> tuple[str, ...]:
    """Every role a marker file for ``deck`` maps, in a fixed order: the deck's cards, the
    Coyote card, stands (their left markers, then their right ones), mat locators, slots."""
    return (
        tuple(card_role(c) for c in deck.names)
        + (COYOTE_ROLE,)
        + tuple(stand_role(s) for s in SEATS)
        + tuple(stand_right_role(s) for s in SEATS)
        + tuple(locator_role(n) for n in LOCATORS)
        + tuple(slot_role(s) for s in SLOTS)
    )


#: Every role of the standard deck's markers.
ALL_ROLES: tuple[str, ...] = roles_of(STANDARD)


def role_kind(role: str) -> str:
    """``"card"``, ``"coyote"``, ``"stand"``, ``"stand-right"``, ``"mat"`` or ``"slot"``."""
    return role.split(":", 1)[0]


def role_subject(role: str) -> str:
    """What the role names: the card, seat number (as text), locator or slot name."""
    return role.split(":", 1)[1] if ":" in role else role


class MarkerFileError(ValueError):
    """The marker mapping file is inconsistent (a missing role, a repeated id, ...)."""


@dataclass(frozen=True)
class CardLayout:
    width: float
    height: float
    sticker_below_top: float  # from the card's top edge to the sticker's centre
    back_rgb: tuple[int, int, int]  # the main colour of every card's back


@dataclass(frozen=True)
class StandLayout:
    board_width: float
    board_height: float
    marker_centre: tuple[float, float]
    right_marker_centre: tuple[float, float]  # the stand's second marker, right of the card
    card_centre_u: float
    card_bottom_v: float
    card_slack: float
    empty_patch_centre: tuple[float, float]  # the printed patch a card in the stand hides
    empty_patch_side: float
    lean_deg: float  # how far the board leans back from upright
    slot_width: float  # the card slot's width in front of the board's face
    ledge_front: float  # the lip's front face, in front of the board's face
    lip_height: float  # the lip's top above the card's bottom edge
    ledge_length: float  # along the board, centred on the card


@dataclass(frozen=True)
class MatLayout:
    width: float
    height: float
    slot_width: float
    slot_height: float
    slots: dict[str, tuple[float, float]]
    locators: dict[str, tuple[float, float]]


@dataclass(frozen=True, eq=False)
class MarkerSet:
    """One scheme's markers: codes, printed sizes and the shared physical layout.

    For ``scheme == "aruco"`` :attr:`codes` maps role -> dictionary id (an int); for
    ``"qr"`` it maps role -> payload text. Instances compare and hash by identity, so
    caches of drawn markers can be keyed by the set they were drawn from.
    """

    scheme: str
    codes: dict[str, int | str]
    size_mm: dict[str, float]
    quiet_zone_modules: int
    card: CardLayout
    stand: StandLayout
    mat: MatLayout
    dictionary: str | None = None
    card_prints: int = 1  # how often each playing card carries its marker (see card_print_places)

    def role_of(self, code: int | str) -> str | None:
        """The role a decoded id or payload stands for, or None for an unknown code."""
        return self._roles_by_code.get(code)

    @cached_property
    def _roles_by_code(self) -> dict[int | str, str]:
        return {code: role for role, code in self.codes.items()}

    def marker_mm(self, role: str) -> float:
        """Printed side of the marker for ``role`` (without its quiet zone)."""
        return self.size_mm[role_kind(role)]

    @property
    def modules(self) -> int:
        """Modules across one marker: 4x4 data + 1-module border, or QR version 1's 21."""
        if self.scheme == "qr":
            return 21
        return _dictionary_marker_bits(self.dictionary) + 2

    def card_print_places(self) -> list[tuple[tuple[float, float], float]]:
        """Where a playing card carries its marker: (centre, turn) of each print, the
        centre in millimetres from the card's centre (y towards its top edge), the turn
        in degrees counter-clockwise. The first print sits below the top edge; a second
        one is the first turned half a turn about the card's centre, as a playing card
        repeats its index in the opposite corner, so a card put in upside down shows a
        print in the same places."""
        below_top = self.card.height / 2 - self.card.sticker_below_top
        return [((0.0, below_top), 0.0), ((0.0, -below_top), 180.0)][: self.card_prints]

    def stand_marker_centre(self, role: str) -> tuple[float, float]:
        """Centre of a stand's marker (``stand:<seat>`` or ``stand-right:<seat>``) on its
        board, in stand millimetres."""
        return self.stand.right_marker_centre if role_kind(role) == "stand-right" else self.stand.marker_centre

    def sticker_mm(self, role: str) -> float:
        """Side of the cut sticker: the marker plus its white quiet zone all round."""
        marker = self.marker_mm(role)
        return marker * (self.modules + 2 * self.quiet_zone_modules) / self.modules


#: Data bits across one marker of the AprilTag families OpenCV ships.
_APRILTAG_BITS = {"16h5": 4, "25h9": 5, "36h10": 6, "36h11": 6}


def _dictionary_marker_bits(name: str | None) -> int:
    """Data bits across a predefined OpenCV dictionary's marker, read from its name."""
    name = name or ""
    if name.startswith("DICT_APRILTAG_"):
        family = name.removeprefix("DICT_APRILTAG_").lower()
        if family in _APRILTAG_BITS:
            return _APRILTAG_BITS[family]
    elif name.startswith("DICT_") and name[5:6].isdigit() and "X" in name:
        return int(name.removeprefix("DICT_").split("X", 1)[0])
    raise MarkerFileError(f"unsupported ArUco dictionary {name!r}")


def _pair(value: object, where: str) -> tuple[float, float]:
    if not (isinstance(value, list) and len(value) == 2):
        raise MarkerFileError(f"{where} must be a pair of numbers, got {value!r}")
    return (float(value[0]), float(value[1]))


def _rgb(value: object, where: str) -> tuple[int, int, int]:
    if not (isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) and 0 <= v <= 255 for v in value)):
        raise MarkerFileError(f"{where} must be three numbers 0..255 (red, green, blue), got {value!r}")
    return (value[0], value[1], value[2])


def _card_prints(value: object, scheme: str) -> int:
    if value not in (1, 2):
        raise MarkerFileError(f"[{scheme}] card_prints must be 1 or 2, got {value!r}")
    return int(value)


def parse_marker_file(text: str, scheme: str, deck: Deck = STANDARD) -> MarkerSet:
    """Build the :class:`MarkerSet` for ``scheme`` from the TOML text of a mapping file
    for the cards of ``deck``."""
    if scheme not in SCHEMES:
        raise MarkerFileError(f"unknown marker scheme {scheme!r} (choose {' or '.join(SCHEMES)})")
    data = tomllib.loads(text)
    section = data[scheme]
    codes = dict(section["ids"] if scheme == "aruco" else section["payloads"])
    roles = roles_of(deck)
    missing = [role for role in roles if role not in codes]
    extra = [role for role in codes if role not in roles]
    if missing or extra:
        raise MarkerFileError(f"[{scheme}] roles missing: {missing}, unknown: {extra}")
    if len(set(codes.values())) != len(codes):
        raise MarkerFileError(f"[{scheme}] two roles share a code")
    layout = data["layout"]
    card, stand, mat = layout["card"], layout["stand"], layout["mat"]
    return MarkerSet(
        scheme=scheme,
        codes=codes,
        size_mm={kind: float(v) for kind, v in section["size_mm"].items()},
        quiet_zone_modules=int(section["quiet_zone_modules"]),
        dictionary=section.get("dictionary"),
        card_prints=_card_prints(section.get("card_prints", 1), scheme),
        card=CardLayout(float(card["width"]), float(card["height"]), float(card["sticker_below_top"]),
                        _rgb(card["back_rgb"], "layout.card.back_rgb")),
        stand=StandLayout(
            board_width=float(stand["board_width"]),
            board_height=float(stand["board_height"]),
            marker_centre=_pair(stand["marker_centre"], "layout.stand.marker_centre"),
            right_marker_centre=_pair(stand["right_marker_centre"], "layout.stand.right_marker_centre"),
            card_centre_u=float(stand["card_centre_u"]),
            card_bottom_v=float(stand["card_bottom_v"]),
            card_slack=float(stand["card_slack"]),
            empty_patch_centre=_pair(stand["empty_patch_centre"], "layout.stand.empty_patch_centre"),
            empty_patch_side=float(stand["empty_patch_side"]),
            lean_deg=float(stand["lean_deg"]),
            slot_width=float(stand["slot_width"]),
            ledge_front=float(stand["ledge_front"]),
            lip_height=float(stand["lip_height"]),
            ledge_length=float(stand["ledge_length"]),
        ),
        mat=MatLayout(
            width=float(mat["width"]),
            height=float(mat["height"]),
            slot_width=float(mat["slot_width"]),
            slot_height=float(mat["slot_height"]),
            slots={name: _pair(mat["slots"][name], f"layout.mat.slots.{name}") for name in SLOTS},
            locators={n: _pair(mat["locators"][n], f"layout.mat.locators.{n}") for n in LOCATORS},
        ),
    )


def marker_file_text() -> str:
    """The packaged mapping file's text."""
    return resources.files("coyote_pi.data").joinpath("markers.toml").read_text(encoding="utf-8")


@cache
def load_markers(scheme: str | None = None) -> MarkerSet:
    """The packaged :class:`MarkerSet` for ``scheme`` (the file's default when None)."""
    text = marker_file_text()
    if scheme is None:
        scheme = tomllib.loads(text)["default_scheme"]
    return parse_marker_file(text, scheme)
