"""The Coyote playing cards: a card is a value, a special card a rule, a deck is data.

- :class:`Card` is one playing card: its canonical name (as code, the JSON game record
  and the command line write it: ``"-10"`` .. ``"20"``, ``"?"``, ``"max0"``), its printed
  value (number cards) or the rule it follows (special cards), and how people write it.
  :meth:`Deck.parse` and :attr:`Card.name` are each other's round trip.
- :data:`SPECIAL_RULES` is the one registry of what special cards do: scoring
  (:mod:`coyote_pi.engine.rules`), the exact odds, the virtual players' estimates, the
  verdict's words and the markers all read a special card's rule from it.
- A :class:`Deck` (an edition) is data: ``coyote_pi/data/decks.toml`` lists its number
  values and its special cards with the rule each one uses. :data:`STANDARD` is the
  edition the game is played with.

:func:`parse_card` accepts the spellings people type (``"Max 0"``, ``"MAX0"``, ``" 7 "``)
and returns the canonical name, or raises :class:`CardError` with a message a player
understands.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources

from coyote_pi.json_text import spelled


class CardError(ValueError):
    """A card name that is not one of the deck's playing cards."""


@dataclass(frozen=True)
class Change:
    """How a special card changes one number card: ``target`` picks that card's printed
    value among the number cards that count, ``counts`` says what it then counts (given
    what it counted before: the rules of several special cards apply one after another)."""

    target: Callable[[Sequence[int]], int]
    counts: Callable[[int], int]


@dataclass(frozen=True)
class SpecialRule:
    """What a special card does to the total of the cards in play.

    A special card itself counts 0. Either it is *drawn for* (``?``: the top card of the
    deck counts instead of it, before any other rule), or it makes a :class:`Change` to
    one number card. ``words`` is the catalog key of its line in the verdict's explanation
    (fields ``special``: the special card, ``card``: the changed card, ``counts``: what that
    card now counts), ``words_nothing`` the key when no number card is in play to change.
    """

    name: str
    drawn_for: bool = False
    change: Change | None = None
    words: str = "expl.changed"
    words_nothing: str = "expl.changed_nothing"


#: Every special card's rule, by name: a deck's special cards name their rule here.
SPECIAL_RULES: dict[str, SpecialRule] = {
    rule.name: rule
    for rule in (
        SpecialRule("question", drawn_for=True),
        SpecialRule("max0", change=Change(target=max, counts=lambda before: 0), words="expl.max0_zero",
                    words_nothing="expl.max0_nothing"),
    )
}


@dataclass(frozen=True)
class Card:
    """One playing card of a deck."""

    name: str  #: canonical name: the record's, the code's and the command line's
    value: int | None = None  #: the printed value of a number card
    rule: str | None = None  #: the special card's rule (a key of :data:`SPECIAL_RULES`)
    label: str = ""  #: how people write it, when not as its name ("Max 0")
    spellings: tuple[str, ...] = ()  #: more spellings :meth:`Deck.parse` accepts (lower case, no spaces)

    @property
    def is_number(self) -> bool:
        return self.value is not None

    @property
    def display(self) -> str:
        return self.label or self.name

    @property
    def special(self) -> SpecialRule | None:
        """The card's rule (None for a number card)."""
        return None if self.rule is None else SPECIAL_RULES[self.rule]


@dataclass(frozen=True, eq=False)
class Deck:
    """An edition's cards, in a fixed order: numbers ascending, then the special cards.

    Decks compare and hash by identity (a packaged edition is loaded once), so caches
    keyed by a deck stay cheap; a copy of a deck is the deck itself."""

    edition: str
    cards: tuple[Card, ...]
    _by_name: dict[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {card.name: card for card in self.cards})
        if len(self._by_name) != len(self.cards):
            raise CardError(f"the {self.edition} deck names a card twice")

    def __repr__(self) -> str:
        """The edition names the cards (decks.toml): ``Deck('standard')``, short in any repr
        that holds one (a game's configuration)."""
        return f"Deck({self.edition!r})"

    def __copy__(self) -> Deck:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Deck:
        return self

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Every card's name, in the deck's order."""
        return tuple(card.name for card in self.cards)

    @property
    def size(self) -> int:
        return len(self.cards)

    def card(self, name: str) -> Card:
        """The card called ``name`` (canonical); CardError when the deck has none."""
        try:
            return self._by_name[name]
        except KeyError:
            raise CardError(f"{spelled(name)} is not a Coyote card") from None

    def display(self, name: str) -> str:
        """How the card called ``name`` is written for people (a name the deck lacks as it is)."""
        found = self._by_name.get(name)
        return name if found is None else found.display

    @cached_property
    def drawn_for(self) -> frozenset[str]:
        """The special cards the top card of the deck is drawn for (``?``)."""
        return frozenset(c.name for c in self.cards if c.special is not None and c.special.drawn_for)

    @cached_property
    def changers(self) -> tuple[tuple[str, SpecialRule], ...]:
        """The special cards that change a number card, with their rules, in the deck's
        order (the order the rules apply in)."""
        return tuple((c.name, rule) for c in self.cards if (rule := c.special) is not None and rule.change is not None)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    @cached_property
    def _spelled(self) -> dict[str, Card]:
        found = {_cleaned(card.name): card for card in self.cards}
        found.update({_cleaned(card.label): card for card in self.cards if card.label})
        found.update({spelling: card for card in self.cards for spelling in card.spellings})
        return found

    def parse(self, text: object) -> Card:
        """The card written by a person or a program: ``"Max 0"``, ``" 15 "``, ``-5``, ``"+7"``."""
        if isinstance(text, str) and text in self._by_name:  # the common case: a canonical name
            return self._by_name[text]
        if isinstance(text, bool):
            raise CardError(f"{spelled(text)} is not a Coyote card")
        if isinstance(text, int):
            text = str(text)
        if not isinstance(text, str):
            raise CardError(f"{spelled(text)} is not a Coyote card name")
        cleaned = _cleaned(text)
        found = self._spelled.get(cleaned)
        if found is None and cleaned.startswith("+"):  # "+7": a number card with its sign
            signed = self._spelled.get(cleaned[1:])
            found = signed if signed is not None and signed.is_number else None
        if found is None:
            raise CardError(
                f"{spelled(text.strip())} is not a Coyote card (cards: {', '.join(c.display for c in self.cards)})"
            )
        return found

    def shuffled(self, seed: int | str, round_number: int = 1) -> list[str]:
        """All the deck's cards in a random order that depends only on ``seed`` and
        ``round_number`` (the top of the deck is index 0)."""
        rng = random.Random(f"coyote-pi:{seed}:{round_number}")
        deck = list(self.names)
        rng.shuffle(deck)
        return deck


def _cleaned(text: str) -> str:
    return text.strip().lower().replace(" ", "").replace("_", "")


def deck_from_toml(text: str, edition: str) -> Deck:
    """The deck ``edition`` of a decks file (see ``coyote_pi/data/decks.toml``)."""
    data = tomllib.loads(text)
    if edition not in data:
        raise CardError(f"no edition {spelled(edition)} (editions: {', '.join(data)})")
    entry = data[edition]
    numbers = [Card(str(v), value=int(v)) for v in sorted(entry["numbers"])]
    specials = []
    for special in entry.get("special", []):
        if special["rule"] not in SPECIAL_RULES:
            raise CardError(f"the {edition} deck's {special['name']} follows no known rule: {special['rule']}")
        specials.append(Card(special["name"], rule=special["rule"], label=special.get("label", ""),
                             spellings=tuple(special.get("spellings", ()))))
    return Deck(edition, tuple(numbers + specials))


def decks_file_text() -> str:
    """The packaged decks file's text."""
    return resources.files("coyote_pi.data").joinpath("decks.toml").read_text(encoding="utf-8")


@cache
def load_deck(edition: str) -> Deck:
    """A packaged edition's deck."""
    return deck_from_toml(decks_file_text(), edition)


#: The deck the game is played with.
STANDARD = load_deck("standard")
#: Every playing card of the standard deck, in its fixed order.
ALL_CARDS: tuple[str, ...] = STANDARD.names
#: The standard deck's two special cards, for scripted deals and tests.
QUESTION = STANDARD.card("?").name
MAX0 = STANDARD.card("max0").name


def parse_card(text: object) -> str:
    """Return the canonical name of a standard card written by a person or a program.

    >>> parse_card("Max 0"), parse_card(" 15 "), parse_card(-5)
    ('max0', '15', '-5')
    """
    return STANDARD.parse(text).name


def parse_cards(texts: Iterable[object]) -> list[str]:
    """Parse several card names; see :func:`parse_card`."""
    return [parse_card(t) for t in texts]


def is_number(card: str) -> bool:
    """True for the number cards, False for the special ones (``?``, ``Max 0``)."""
    return STANDARD.card(card).is_number


def value(card: str) -> int:
    """The printed value of a number card; special cards have none and raise CardError."""
    printed = STANDARD.card(card).value
    if printed is None:
        raise CardError(f"{display_name(card)} has no printed value")
    return printed


def display_name(card: str) -> str:
    """How a card is written for people: ``"Max 0"``, ``"?"``, ``"-10"``."""
    return STANDARD.display(card)


def shuffled_deck(seed: int | str, round_number: int = 1) -> list[str]:
    """The standard deck in a random order that depends only on ``seed`` and ``round_number``.

    The engine never touches global random state: a simulated game passes the seed it
    wants, and the same seed always deals the same game. The top of the deck is index 0.
    """
    return STANDARD.shuffled(seed, round_number)
