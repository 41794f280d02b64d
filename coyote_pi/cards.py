"""The 17 Coyote playing cards: their names, values and an explicitly seeded deck.

Cards are plain strings so that they read the same in code, in JSON game records and on
the command line:

- the 15 number cards ``"-10"``, ``"-5"``, ``"0"`` .. ``"10"``, ``"15"``, ``"20"``;
- the two special cards ``"?"`` (:data:`QUESTION`) and ``"max0"`` (:data:`MAX0`).

:func:`parse_card` accepts the spellings people type (``"Max 0"``, ``"MAX0"``, ``" 7 "``)
and returns the canonical name, or raises :class:`CardError` with a message a player
understands.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from coyote_pi.json_text import spelled

QUESTION = "?"
MAX0 = "max0"

NUMBER_VALUES: tuple[int, ...] = (-10, -5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20)
NUMBER_CARDS: tuple[str, ...] = tuple(str(v) for v in NUMBER_VALUES)
SPECIAL_CARDS: tuple[str, ...] = (QUESTION, MAX0)
#: Every playing card, in a fixed order (numbers ascending, then ``?``, then ``max0``).
ALL_CARDS: tuple[str, ...] = NUMBER_CARDS + SPECIAL_CARDS

_DISPLAY_NAMES = {QUESTION: "?", MAX0: "Max 0"}


class CardError(ValueError):
    """A card name that is not one of the 17 Coyote playing cards."""


def parse_card(text: object) -> str:
    """Return the canonical name of a card written by a person or a program.

    >>> parse_card("Max 0"), parse_card(" 15 "), parse_card(-5)
    ('max0', '15', '-5')
    """
    if text in _CANONICAL:  # the common case: already a canonical name
        return text
    if isinstance(text, bool):
        raise CardError(f"{spelled(text)} is not a Coyote card")
    if isinstance(text, int):
        text = str(text)
    if not isinstance(text, str):
        raise CardError(f"{spelled(text)} is not a Coyote card name")
    cleaned = text.strip().lower().replace(" ", "").replace("_", "")
    if cleaned in ("max0", "maxo"):
        return MAX0
    if cleaned == QUESTION:
        return QUESTION
    if cleaned.startswith("+"):
        cleaned = cleaned[1:]
    if cleaned in NUMBER_CARDS:
        return cleaned
    raise CardError(
        f"{spelled(text.strip())} is not a Coyote card (cards: {', '.join(display_name(c) for c in ALL_CARDS)})"
    )


def parse_cards(texts: Iterable[object]) -> list[str]:
    """Parse several card names; see :func:`parse_card`."""
    return [parse_card(t) for t in texts]


def is_number(card: str) -> bool:
    """True for the 15 number cards, False for ``?`` and ``Max 0``."""
    return card in _VALUE


def value(card: str) -> int:
    """The printed value of a number card; special cards have none and raise CardError."""
    try:
        return _VALUE[card]
    except KeyError:
        raise CardError(f"{display_name(card)} has no printed value") from None


def display_name(card: str) -> str:
    """How a card is written for people: ``"Max 0"``, ``"?"``, ``"-10"``."""
    return _DISPLAY_NAMES.get(card, card)


_VALUE = {name: v for name, v in zip(NUMBER_CARDS, NUMBER_VALUES)}
_CANONICAL = frozenset(ALL_CARDS)


def shuffled_deck(seed: int | str, round_number: int = 1) -> list[str]:
    """All 17 cards in a random order that depends only on ``seed`` and ``round_number``.

    The engine never touches global random state: a simulated game passes the seed it
    wants, and the same seed always deals the same game. The top of the deck is index 0.
    """
    rng = random.Random(f"coyote-pi:{seed}:{round_number}")
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck
