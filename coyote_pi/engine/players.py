"""Scripted players for simulations, benchmarks, property tests and the demo.

A :class:`ScriptedPlayer` decides from its own :class:`~coyote_pi.engine.views.SeatView`
only (it cannot cheat). Its randomness comes from :func:`decision_rng`, seeded by the
game's seed, the seat and the point of the round (round, bids so far, peek and Coyote
card this turn, guesses), so every decision is a pure function of the game so far: a
simulated table that crashes and resumes plays on exactly as it would have, and a table
that observes its cards plays the same game as one that knows the deck.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from coyote_pi import cards
from coyote_pi.engine import events
from coyote_pi.engine.game import BIDDING, DEAL, DRAW, OVER, REVEAL, Game, GameConfig, Legal
from coyote_pi.engine.rules import adjusted
from coyote_pi.engine.views import SeatView, seat_view

#: The average value an unseen card of the standard deck adds, roughly: number cards
#: average 5, ``?`` about as much, ``Max 0`` takes away the highest card.
_MEAN_UNSEEN = 3.5


class ScriptedPlayer:
    """Bids its estimate of the total, with some bluff; challenges bids well above it.

    ``boldness`` is how far above its estimate it still believes a bid; it peeks and uses
    the Coyote card now and then, so simulations exercise every rule.
    """

    def __init__(self, boldness: float = 3.0, curiosity: float = 0.3, deck: cards.Deck = cards.STANDARD) -> None:
        self.boldness = boldness
        self.curiosity = curiosity
        self.deck = deck

    def estimate(self, view: SeatView) -> float:
        """The known cards as they count (the special cards' rules applied; a card drawn
        for, ``?``, is not known yet), and an average for each unseen card."""
        known = [card for card in view.known_cards() if card not in self.deck.drawn_for]
        counts, _ = adjusted(known, self.deck)
        return sum(counts.values()) + _MEAN_UNSEEN * view.unknown_count()

    def act(self, view: SeatView, legal: Legal, rng: DecisionRandom) -> events.Event:
        """The seat's next action on its turn."""
        seat = view.seat
        if legal.peek and view.eyes[seat][0] > 1 and rng.random() < self.curiosity:
            return events.Peek(seat)
        if legal.coyote_card and rng.random() < self.curiosity:
            return events.UseCoyoteCard(seat)
        estimate = self.estimate(view)
        if legal.challenge and view.bid is not None and view.bid > estimate + self.boldness * rng.random() * 2:
            return events.Challenge(seat)
        wanted = round(estimate + rng.uniform(-self.boldness, self.boldness))
        if legal.min_bid is None:
            return events.Bid(seat, wanted)
        step = 1 if rng.random() < 0.7 else rng.randint(2, 4)
        return events.Bid(seat, max(legal.min_bid + step - 1, wanted))

    def guess(self, view: SeatView, options: Sequence[int]) -> events.Guess:
        """Trickster: guess the bidder when the bid looks believable."""
        bidder, challenger = (options[0], options[1]) if options[0] == view.bidder else (options[1], options[0])
        believable = view.bid is not None and view.bid <= self.estimate(view)
        return events.Guess(view.seat, bidder if believable else challenger)


class DecisionRandom:
    """SplitMix64: a tiny seedable generator with the few ``random.Random`` methods the
    players use. Every decision gets a fresh one, and seeding Python's Mersenne Twister
    would cost more than the rest of the decision."""

    _MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self._state = seed & self._MASK

    def _next(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & self._MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self._MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self._MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next() >> 11) / 9007199254740992.0  # 53 random bits in [0, 1)

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self.random()

    def randint(self, low: int, high: int) -> int:
        return low + self._next() % (high - low + 1)


def decision_rng(seed: int | str, seat: int, game: Game) -> DecisionRandom:
    """The generator for ``seat``'s next decision, fixed by the seed and the point of the
    round (not by how the cards were observed, so virtual and physical tables agree)."""
    r = game.current_round
    point = (len(r.bids) * 4 + r.peeked_this_turn * 2 + r.coyote_card_this_turn) * 8 + len(r.guesses)
    base = zlib.crc32(str(seed).encode())
    return DecisionRandom(((base * 1_000_003 + game.round_number) * 10_007 + point) * 7 + seat)


def next_scripted_event(
    game: Game, players: dict[int, ScriptedPlayer], seed: int | str, *, physical: bool = False,
    deck_order: Callable[[int], list[str]] | None = None,
) -> events.Event | None:
    """The event a scripted table produces next: an observation or a seat's action.

    The dealer deals ``deck_order(round)``, top first: by default the game's deck shuffled
    by ``seed`` and the round (a deal plan, :mod:`coyote_pi.sim.deals`, fixes the cards
    instead). A virtual table (``physical=False``) hands the engine the whole deck at the
    deal, so nothing else needs observing. A physical table reports only what a camera
    sees: the seat cards at the deal, the face-down card(s) when revealed, the card drawn
    for ``?``. The players know what people at the table know (the centre card after a
    peek, their own Coyote-card draw) whatever the device knows, so both tables play the
    same game.

    Returns ``None`` when the game is over.
    """
    if game.phase == OVER:
        return None
    order = deck_order or partial(game.config.deck.shuffled, seed)
    if game.phase == DEAL:
        deal = game.virtual_deal(order(game.round_number + 1))
        return events.Deal(seats=deal.seats) if physical else deal
    r = game.current_round
    if physical:  # the centre card, then the deck, top first
        face_down = order(game.round_number)[len(r.seat_cards):]
    if game.phase == REVEAL:
        return events.Reveal(centre=face_down[0], extra=face_down[1] if r.extra_used else None)
    if game.phase == DRAW:
        return events.DrawReplacement(face_down[1 + r.extra_used])
    legal = game.legal()
    seat = legal.seats[0]
    view = seat_view(game, seat)
    if physical:
        view = replace(view, centre=face_down[0] if view.peeked else None,
                       coyote_card_draw=face_down[1] if r.extra_drawn_by == seat else None)
    if game.phase == BIDDING:
        return players[seat].act(view, legal, decision_rng(seed, seat, game))
    return players[seat].guess(view, legal.guess_options)


def simulate(config: GameConfig, seed: int | str, on_event: Callable[[Game, events.Event], None] | None = None, *,
             physical: bool = False) -> Game:
    """Play a whole game between scripted players, from ``seed`` alone.

    ``on_event(game, event)`` is called after each event is applied (for transcripts).
    ``physical`` makes the table report cards as a camera would (see
    :func:`next_scripted_event`); the game is the same either way.
    """
    game = Game(config)
    players = {s: ScriptedPlayer(deck=config.deck) for s in range(1, config.players + 1)}
    while (event := next_scripted_event(game, players, seed, physical=physical)) is not None:
        game.apply(event)
        if on_event is not None:
            on_event(game, event)
    return game


#: Rounds of :func:`long_bidding_game`: fewer than the 9 a 4-player game needs at least
#: (each round costs its loser one of the 12 peek cards, and the winner keeps 3 at most).
_LONG_ROUNDS = 8


def long_bidding_game(lines: int, undos: int) -> tuple[GameConfig, list[events.Event]]:
    """A legal, unfinished 4-player game whose record has exactly ``lines`` lines, with
    ``undos`` bids taken back (and made again): a long evening for replay benchmarks.

    Eight rounds from a seeded deck; in each, the seats raise by one in turn, then the
    next seat challenges. Its record is the setup line, and per round the deal, the
    bids, an undo and the repeated bid per undo, the challenge, the round's opening line
    and the resolution.
    """
    bids = lines - 1 - 4 * _LONG_ROUNDS - 2 * undos
    if bids < _LONG_ROUNDS or undos > bids:
        raise ValueError(f"{lines} lines cannot hold {_LONG_ROUNDS} rounds with {undos} undos")
    undone = {i * bids // undos for i in range(undos)} if undos else set()
    config = GameConfig(players=4)
    game, played = Game(config), list[events.Event]()

    def play(event: events.Event) -> None:
        game.apply(event)
        played.append(event)

    made = 0
    for round_number in range(_LONG_ROUNDS):
        play(game.virtual_deal(cards.shuffled_deck("long evening", round_number + 1)))
        for amount in range(bids // _LONG_ROUNDS + (round_number < bids % _LONG_ROUNDS)):
            bid = events.Bid(game.current_round.turn, amount)
            play(bid)
            if made in undone:
                play(events.Undo(bid.seat))
                play(bid)
            made += 1
        play(events.Challenge(game.current_round.turn))
    return config, played
