"""Everything that can happen at a Coyote table, as small immutable values.

Two kinds of event drive a :class:`~coyote_pi.engine.game.Game`:

- **actions** a seat takes: :class:`Bid`, :class:`Challenge`, :class:`Peek`,
  :class:`UseCoyoteCard`, :class:`Guess` (Trickster) and :class:`Undo`;
- **observations** of the cards: :class:`Deal` (the cards of a round, dealt from a seeded
  virtual deck or seen by the camera), :class:`Reveal` (face-down cards turned up at a
  challenge) and :class:`DrawReplacement` (the card drawn for ``?``);
- :class:`Correct`: a card of the last verdict that the camera misread, put right by
  the two seats of the challenge before the next deal.

Each event turns into a plain dict for the game record (:func:`to_dict`) and back
(:func:`from_dict`, which rejects malformed input with a readable message).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import assert_never

from coyote_pi import cards
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.json_text import spelled


class EventType(StrEnum):
    """Each event's ``type`` in the record (:func:`to_dict`)."""

    DEAL = "deal"
    BID = "bid"
    CHALLENGE = "challenge"
    PEEK = "peek"
    COYOTE_CARD = "coyote_card"
    GUESS = "guess"
    REVEAL = "reveal"
    DRAW = "draw"
    UNDO = "undo"
    CORRECT = "correct"


class CardPlace(StrEnum):
    """Where a card of a round lies, besides the seats' stands (``seat:N``, :func:`seat_place`)."""

    CENTRE = "centre"
    EXTRA = "extra"  #: the Coyote card's draw
    DRAW = "draw"  #: the card drawn for ``?``


def seat_place(seat: int) -> str:
    """The place of ``seat``'s card, as a correction names it: ``seat:3``."""
    return f"seat:{seat}"


def place_seat(place: str) -> int | None:
    """The seat whose card lies at ``place`` (3 for ``seat:3``); None for a
    :class:`CardPlace`.

        >>> place_seat(seat_place(3)), place_seat(CardPlace.CENTRE)
        (3, None)
    """
    return int(place.removeprefix("seat:")) if place.startswith("seat:") else None


@dataclass(frozen=True)
class Deal:
    """The cards of a new round.

    ``seats`` maps every active seat to the card on its stand, or to ``None`` when the
    table cannot say yet (the camera failed: the card is entered at the reveal, when it
    is public, rather than shown on the display while its owner could look). ``centre`` is the
    face-down centre card when it is known (a virtual deal); a camera cannot see it until
    the reveal, so a physical deal leaves it ``None``. ``deck`` is the rest of the deck,
    top first, when it is known (a virtual deal): the Coyote card and ``?`` then draw from
    it; otherwise those draws are observed when they happen.
    """

    seats: Mapping[int, str | None]
    centre: str | None = None
    deck: tuple[str, ...] | None = None


@dataclass(frozen=True)
class SeatAction:
    """An action that names only the seat taking it."""

    seat: int


@dataclass(frozen=True)
class Bid:
    seat: int
    amount: int


class Challenge(SeatAction):
    """The seat says "Coyote!": it doubts the current bid."""


class Peek(SeatAction):
    """The seat flips an open eye to closed and secretly looks at the centre card."""


class UseCoyoteCard(SeatAction):
    """Trickster: the holder draws the top deck card and lays it face down in the centre."""


@dataclass(frozen=True)
class Guess:
    """Trickster: before the reveal, a seat not in the challenge guesses who will win."""

    seat: int
    winner: int


@dataclass(frozen=True)
class Reveal:
    """The cards that were unknown until the challenge: the centre card, the Coyote
    card's draw (``extra``) and any seat card the deal could not name (``seats``)."""

    centre: str
    extra: str | None = None
    seats: Mapping[int, str] | None = None


@dataclass(frozen=True)
class DrawReplacement:
    """The top card of the deck, drawn to replace ``?``."""

    card: str


class Undo(SeatAction):
    """Takes back the seat's last bid, while it is still the latest thing that happened."""


#: What a correction may name besides a seat's card: the round's cards as the table asks for them.
CORRECTABLE = tuple(CardPlace)


@dataclass(frozen=True)
class Correct:
    """A card of the last verdict, read wrongly and put right while that round is still the
    latest (before the next deal): the verdict is worked out again with it.

    ``item`` names the card: ``"centre"``, ``"extra"`` (the Coyote card's draw),
    ``"draw"`` (the card drawn for ``?``) or ``"seat:N"``. ``card`` is the right card.
    ``confirmed_by`` are the two seats of the challenge in seat order: both confirmed it.
    """

    item: str
    card: str
    confirmed_by: tuple[int, ...]

    @property
    def seat(self) -> int | None:
        """The seat whose card is corrected (None for the centre, extra and draw cards)."""
        return place_seat(self.item)


Event = Deal | Bid | Challenge | Peek | UseCoyoteCard | Guess | Reveal | DrawReplacement | Undo | Correct

_TYPES: dict[EventType, type[Event]] = {
    EventType.DEAL: Deal,
    EventType.BID: Bid,
    EventType.CHALLENGE: Challenge,
    EventType.PEEK: Peek,
    EventType.COYOTE_CARD: UseCoyoteCard,
    EventType.GUESS: Guess,
    EventType.REVEAL: Reveal,
    EventType.DRAW: DrawReplacement,
    EventType.UNDO: Undo,
    EventType.CORRECT: Correct,
}
_NAMES = {cls: name for name, cls in _TYPES.items()}

#: An event as the record writes it (:func:`to_dict`): a JSON object.
EventData = dict[str, object]


def type_name(event: Event) -> EventType:
    return _NAMES[type(event)]


def to_dict(event: Event) -> EventData:
    """A JSON-ready dict: ``{"type": "bid", "seat": 2, "amount": 13}``."""
    out: EventData = {"type": str(_NAMES[type(event)])}
    match event:
        case Deal():
            out["seats"] = {str(seat): card for seat, card in sorted(event.seats.items())}
            out["centre"] = event.centre
            out["deck"] = list(event.deck) if event.deck is not None else None
        case Reveal():
            out["centre"] = event.centre
            out["extra"] = event.extra
            out["seats"] = None if event.seats is None else {str(s): c for s, c in sorted(event.seats.items())}
        case Correct():
            out.update(item=event.item, card=event.card, confirmed_by=list(event.confirmed_by))
        case Bid():
            out.update(seat=event.seat, amount=event.amount)
        case Guess():
            out.update(seat=event.seat, winner=event.winner)
        case DrawReplacement():
            out["card"] = event.card
        case Challenge() | Peek() | UseCoyoteCard() | Undo():
            out["seat"] = event.seat
        case _:
            assert_never(event)
    return out


#: The keys of each event type as :func:`to_dict` writes them (``type`` included).
_KEYS: dict[type[Event], frozenset[str]] = {
    Deal: frozenset({"type", "seats", "centre", "deck"}),
    Bid: frozenset({"type", "seat", "amount"}),
    Guess: frozenset({"type", "seat", "winner"}),
    Reveal: frozenset({"type", "centre", "extra", "seats"}),
    DrawReplacement: frozenset({"type", "card"}),
    Correct: frozenset({"type", "item", "card", "confirmed_by"}),
}
_SEAT_KEYS = frozenset({"type", "seat"})


def from_dict(data: object, deck: cards.Deck = cards.STANDARD) -> Event:
    """Parse a dict exactly as :func:`to_dict` writes it; raises IllegalAction(code=Refusal.BAD_EVENT).

    Strict, because a record must show what was used: every key present and no other,
    seats as numbers (as strings only where they are keys of an object), cards of
    ``deck`` (the game's: a record's setup names its edition) by the names the record
    writes (``max0``, not ``Max 0``), whole numbers as whole numbers.
    """

    def card(value: object) -> str:
        return _card(value, deck)

    def card_or_none(value: object) -> str | None:
        return None if value is None else card(value)

    if not isinstance(data, Mapping):
        raise _bad(f"an event must be a JSON object, not {type(data).__name__}")
    name = data.get("type")
    cls = _TYPES.get(EventType(name)) if isinstance(name, str) and name in _TYPE_NAMES else None
    if cls is None:
        raise _bad(f"unknown event type {spelled(name)} (known: {', '.join(_TYPES)})")
    keys = _KEYS.get(cls, _SEAT_KEYS)
    unknown, missing = sorted(set(data) - keys), sorted(keys - set(data))
    if unknown:
        raise _bad(f"unknown key(s) in a {name} event: {', '.join(map(spelled, unknown))}")
    if missing:
        raise _bad(f"a {name} event needs the key(s) {', '.join(map(spelled, missing))}")
    if cls is Deal:
        rest = data["deck"]
        if rest is not None and not isinstance(rest, list):
            raise _bad("'deck' must be a list of cards or null")
        return Deal(
            seats={_seat_key(s): card_or_none(c) for s, c in _object(data["seats"], "seats of a deal").items()},
            centre=card_or_none(data["centre"]),
            deck=None if rest is None else tuple(card(c) for c in rest),
        )
    if cls is Bid:
        return Bid(_seat(data["seat"]), _integer(data["amount"], "amount"))
    if cls is Guess:
        return Guess(_seat(data["seat"]), _seat(data["winner"]))
    if cls is Reveal:
        seats = data["seats"]
        return Reveal(
            card(data["centre"]),
            card_or_none(data["extra"]),
            None if seats is None else {_seat_key(s): card(c) for s, c in _object(seats, "seats of a reveal").items()},
        )
    if cls is DrawReplacement:
        return DrawReplacement(card(data["card"]))
    if cls is Correct:
        confirmed = data["confirmed_by"]
        if not isinstance(confirmed, list):
            raise _bad("'confirmed_by' must be a list of seats")
        return Correct(_item(data["item"]), card(data["card"]), tuple(_seat(seat) for seat in confirmed))
    seat_action = _SEAT_ACTIONS[cls]
    return seat_action(_seat(data["seat"]))


#: The events that name only their seat.
_SEAT_ACTIONS: dict[type[Event], type[Challenge | Peek | UseCoyoteCard | Undo]] = {
    cls: cls for cls in (Challenge, Peek, UseCoyoteCard, Undo)}
_TYPE_NAMES = frozenset(EventType)


def _bad(message: str) -> IllegalAction:
    return IllegalAction(message, code=Refusal.BAD_EVENT)


def _object(value: object, what: str) -> Mapping[object, object]:
    if not isinstance(value, Mapping):
        raise _bad(f"the {what} must be an object mapping seat numbers to cards")
    return value


def _integer(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{what} must be a whole number, not {spelled(value)}")
    return value


def _seat(value: object) -> int:
    return _integer(value, "a seat")


def _seat_key(key: object) -> int:
    """A seat number where JSON needs a string (an object's key): ``"3"``, nothing else."""
    if not (isinstance(key, str) and key.isascii() and key.isdigit() and not key.startswith("0")):
        raise _bad(f"{spelled(key)} is not a seat number")
    return int(key)


def _item(value: object) -> str:
    """A card's place as a correction names it: centre, extra, draw or ``seat:N``."""
    if isinstance(value, str) and (value in CORRECTABLE or (value.startswith("seat:") and _seat_key(value.removeprefix("seat:")))):
        return value
    raise _bad(f"{spelled(value)} is not a card's place (centre, extra, draw or seat:N)")


def _card(value: object, deck: cards.Deck) -> str:
    """A card of ``deck`` by its canonical name; any other name is refused in one line."""
    if isinstance(value, str) and value in deck:
        return value
    try:
        name = deck.parse(value).name
    except cards.CardError as error:  # names the deck's cards
        raise _bad(str(error)) from None
    raise _bad(f"the card {spelled(value)} must be written {spelled(name)}")
