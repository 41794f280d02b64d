"""Choosing what the simulated table deals: ``coyote-pi run --sim --deal PLAN``.

Without a plan every round comes from the seeded shuffle
(:func:`~coyote_pi.cards.shuffled_deck`). A plan fixes the cards of some rounds, so a
special card can be tried on purpose instead of by searching for a seed::

    --deal question                 # round 1: ? is the centre card
    --deal "5,?,max0,-10"           # round 1 (3 players): stands 5, ?, Max 0; centre -10
    --deal "*;max0"                 # round 1 shuffled, round 2 the Max 0 scenario
    --deal coyote-card              # Trickster: the Coyote card draws 20 in round 2

The plan is rounds separated by ``;``, round 1 first; rounds after the last one given
come from the shuffle. A round is one of:

- **cards** separated by ``,``, in the order the dealer deals them: one to the stand of
  each seat still in the game (lowest seat first), then the centre card, then the top
  of the deck (the card the Coyote card draws, then the card drawn for ``?``). Cards
  are written as on the command line of ``odds``: ``-10`` .. ``20``, ``?``, ``max0``.
  ``*`` leaves one place to the shuffle, and so do the places after the last card;
- ``*``: the whole round from the shuffle;
- a **scenario** (:data:`SCENARIOS`): ``question``, ``max0`` or ``coyote-card``. A round of
  the one word ``max0`` is the scenario; ``max0,*`` puts Max 0 on the first stand.

The cards not named keep the order of the round's shuffle, so a plan changes nothing
but what it names. :func:`parse_deal` checks a plan and says in one line what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from coyote_pi import cards

#: Scenario name -> what it deals and why (shown by ``run --help`` and the docs).
SCENARIOS: dict[str, str] = {
    "question": "? is the centre card: nobody sees it until someone peeks, and at the challenge "
                "the top card of the deck is drawn for it",
    "max0": "Max 0 is the centre card and the first stand holds 20: the highest number counts 0",
    "coyote-card": "Trickster: the top of the deck is 20, the card the Coyote card draws (the card "
                   "is held from round 2 on, so given first it is round 2 and round 1 is shuffled)",
}
#: The scenario that needs a holder of the Coyote card, so round 2 at the earliest.
_COYOTE_CARD = "coyote-card"
_ANY = "*"


class DealError(ValueError):
    """A ``--deal`` plan that cannot be dealt: the message says why, in one line."""


@dataclass(frozen=True)
class RoundPlan:
    """The cards one round must deal; places left open come from the shuffle."""

    #: Dealt in this order from the top (None: from the shuffle): stands, centre, deck.
    order: tuple[str | None, ...] = ()
    first_stand: str | None = None
    centre: str | None = None
    #: The top of the deck after the deal: what the Coyote card draws (or ``?`` takes).
    deck_top: str | None = None
    scenario: str | None = None

    def deal_order(self, shuffled: list[str], stands: int) -> list[str]:
        """The deck's cards in dealing order for a table of ``stands`` seats in play."""
        fixed = {place: card for place, card in enumerate(self.order) if card is not None}
        for place, card in ((0, self.first_stand), (stands, self.centre), (stands + 1, self.deck_top)):
            if card is not None:
                fixed[place] = card
        rest = iter(card for card in shuffled if card not in fixed.values())
        return [fixed[place] if place in fixed else next(rest) for place in range(len(shuffled))]


_SCENARIO_PLANS = {
    "question": RoundPlan(centre=cards.QUESTION, scenario="question"),
    "max0": RoundPlan(first_stand="20", centre=cards.MAX0, scenario="max0"),
    _COYOTE_CARD: RoundPlan(deck_top="20", scenario=_COYOTE_CARD),
}


@dataclass(frozen=True)
class DealPlan:
    """What each round deals (see the module docstring); the empty plan deals the shuffle."""

    rounds: tuple[RoundPlan, ...] = ()
    #: The plan as written (kept in a simulated game's record, like its seed).
    text: str = ""

    @property
    def needs_trickster(self) -> bool:
        """True when a round shows the Coyote card, which only the Trickster variant has."""
        return any(plan.scenario == _COYOTE_CARD for plan in self.rounds)

    def order(self, seed: int | str, round_number: int, stands: int) -> list[str]:
        """The deck of round ``round_number`` (top first) at a table of ``stands`` seats in play."""
        shuffled = cards.shuffled_deck(seed, round_number)
        if round_number > len(self.rounds):
            return shuffled
        return self.rounds[round_number - 1].deal_order(shuffled, stands)


def parse_deal(text: str) -> DealPlan:
    """The plan written in ``text``; :class:`DealError` says what is wrong with it.

    >>> [plan.centre for plan in parse_deal("*;question").rounds]
    [None, '?']
    >>> parse_deal("5,?,max0,-10").rounds[0].order
    ('5', '?', 'max0', '-10')
    >>> try:
    ...     parse_deal("7,x")
    ... except DealError as error:
    ...     print(error)
    round 1: "x" is not a Coyote card (cards: -10, -5, 0, ..., 20, ?, Max 0)
    """
    if not text.strip():
        raise DealError("the plan is empty (write rounds separated by ;, e.g. \"question\" or \"5,?,max0,-10\")")
    rounds = [_parse_round(number, part.strip()) for number, part in enumerate(text.split(";"), start=1)]
    if rounds[0].scenario == _COYOTE_CARD:
        rounds.insert(0, RoundPlan())  # nobody holds the Coyote card in round 1
    return DealPlan(tuple(rounds), text.strip())


def _parse_round(number: int, text: str) -> RoundPlan:
    if not text:
        raise DealError(f"round {number} is empty (write {_ANY} to deal it from the shuffle)")
    if text == _ANY:
        return RoundPlan()
    words = [word.strip() for word in text.split(",")]
    if len(words) == 1 and words[0].lower() in _SCENARIO_PLANS:
        return _SCENARIO_PLANS[words[0].lower()]
    if len(words) > len(cards.ALL_CARDS):
        raise DealError(f"round {number} names {len(words)} cards; the deck has {len(cards.ALL_CARDS)}")
    order = tuple(None if word == _ANY else _card(number, word, alone=len(words) == 1) for word in words)
    named = [card for card in order if card is not None]
    for card in named:
        if named.count(card) > 1:
            raise DealError(f"round {number} deals {cards.display_name(card)} twice (the deck has each card once)")
    return RoundPlan(order)


def _card(number: int, word: str, *, alone: bool) -> str:
    try:
        return cards.parse_card(word)
    except cards.CardError as error:
        if alone and word.replace("-", "").isalpha():
            raise DealError(f"round {number}: {word!r} is neither a card nor a scenario "
                            f"(scenarios: {', '.join(SCENARIOS)})") from None
        raise DealError(f"round {number}: {error}") from None
