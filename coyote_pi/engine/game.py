"""The Coyote rules as a state machine: :class:`Game`.

A game moves through phases::

    deal -> bidding -> [guessing] -> [reveal] -> [draw] -> (resolved) -> deal -> ... -> over

- ``deal``: waiting for the cards of the round (:class:`~coyote_pi.engine.events.Deal`).
- ``bidding``: the seat whose turn it is peeks, uses the Coyote card, bids or challenges.
- ``guessing``: Trickster only, the other seats guess who wins the challenge.
- ``reveal``: a face-down card (the centre card, the Coyote card's draw) is not known yet
  and must be observed when turned face up.
- ``draw``: ``?`` is in play and the card drawn to replace it must be observed.
- ``over``: one seat is left, the winner.

Between a resolution and the next deal (or at the end of the game) the verdict may be
corrected: :class:`~coyote_pi.engine.events.Correct` puts right a card the camera
misread, and the round is resolved again from the state before its verdict.

A virtual deal (seeded deck, see :meth:`Game.deal_from_deck`) knows every card, so the
``reveal`` and ``draw`` phases pass by themselves; a physical table observes them. Both
go through the same rules. The game never reads a clock or global random state.

Seats are numbered 1..N clockwise. Every refused event raises
:class:`~coyote_pi.engine.errors.IllegalAction` and leaves the game unchanged.

This module is longer than the project's 600-line guide on purpose: it is one state
machine, each phase's checks beside the transitions they guard, and undo restores the
whole of it; split, a reader would hold several files open to follow one event.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import assert_never

from coyote_pi.cards import STANDARD, CardError, Deck, display_name, load_deck
from coyote_pi.engine import events
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.engine.rules import Score, check_distinct, score
from coyote_pi.json_text import spelled


class Variant(StrEnum):
    """The two ways to play (rules.md): Basic, and Trickster with guesses and the Coyote card."""

    BASIC = "basic"
    TRICKSTER = "trickster"


class Phase(StrEnum):
    """Where a game stands (see the module's docstring); the value is what JSON shows."""

    DEAL = "deal"
    BIDDING = "bidding"
    GUESSING = "guessing"
    REVEAL = "reveal"
    DRAW = "draw"
    OVER = "over"


# The members under their short names, as the engine's callers import them.
BASIC, TRICKSTER = Variant.BASIC, Variant.TRICKSTER
VARIANTS: tuple[str, ...] = tuple(variant.value for variant in Variant)  #: their names, as configs spell them
DEAL, BIDDING, GUESSING, REVEAL, DRAW, OVER = Phase

MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True)
class GameConfig:
    """What the table decides before the first round."""

    players: int
    #: Given as a :class:`Variant` or its name (``"basic"``); kept as the :class:`Variant`.
    variant: Variant = Variant.BASIC
    start_seat: int = 1  #: the youngest player, who starts round 1
    deck: Deck = STANDARD  #: the edition played with (the record names it by its edition)

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise IllegalAction(f"the number of players must be a whole number, not {spelled(self.players)}", code=Refusal.BAD_CONFIG)
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise IllegalAction(
                f"Coyote is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players}",
                code=Refusal.BAD_CONFIG,
            )
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise IllegalAction(f"unknown variant {spelled(self.variant)} (basic or trickster)", code=Refusal.BAD_CONFIG)
        object.__setattr__(self, "variant", Variant(self.variant))  # frozen: set once, here
        start = self.start_seat
        if isinstance(start, bool) or not isinstance(start, int) or start not in range(1, self.players + 1):
            raise IllegalAction(
                f"the start player must be a seat from 1 to {self.players}, not {spelled(self.start_seat)}",
                code=Refusal.BAD_CONFIG,
            )

    def to_dict(self) -> dict[str, object]:
        return {"players": self.players, "variant": self.variant, "start_seat": self.start_seat,
                "edition": self.deck.edition}

    @classmethod
    def from_dict(cls, data: object) -> GameConfig:
        """Parse exactly what :meth:`to_dict` writes: all four keys and no other."""
        if not isinstance(data, dict):
            raise IllegalAction("the game setup must be a JSON object", code=Refusal.BAD_CONFIG)
        keys = {"players", "variant", "start_seat", "edition"}
        unknown, missing = sorted(set(data) - keys), sorted(keys - set(data))
        if unknown:
            raise IllegalAction(f"unknown key(s) in the game setup: {', '.join(map(spelled, unknown))}", code=Refusal.BAD_CONFIG)
        if missing:
            raise IllegalAction(f"the game setup needs the key(s) {', '.join(map(spelled, missing))}", code=Refusal.BAD_CONFIG)
        edition = data["edition"]
        try:
            deck = load_deck(edition) if isinstance(edition, str) else None
        except CardError as error:
            raise IllegalAction(str(error), code=Refusal.BAD_CONFIG) from None
        if deck is None:
            raise IllegalAction(f"an edition is named by text, not {spelled(edition)}", code=Refusal.BAD_CONFIG)
        return cls(data["players"], data["variant"], data["start_seat"], deck)


@dataclass
class Eyes:
    """A seat's peek cards: how many show an open eye and how many a closed one."""

    open: int
    closed: int

    @property
    def cards(self) -> int:
        return self.open + self.closed


@dataclass(frozen=True)
class Legal:
    """What may happen now. ``seats`` are the seats that may act (empty while the game
    waits for an observation). ``min_bid`` is ``None`` when any whole number may be bid."""

    phase: Phase
    seats: tuple[int, ...] = ()
    bid: bool = False
    min_bid: int | None = None
    challenge: bool = False
    peek: bool = False
    coyote_card: bool = False
    guess_options: tuple[int, ...] = ()

    def describe(self) -> str:
        """One line for people: ``seat 2: bid >= 13 | challenge | peek``."""
        match self.phase:
            case Phase.BIDDING:
                options = [name for name, allowed in (("peek", self.peek), ("coyote card", self.coyote_card)) if allowed]
                if self.bid:
                    options.append("bid any" if self.min_bid is None else f"bid >= {self.min_bid}")
                if self.challenge:
                    options.append("challenge")
                return f"seat {self.seats[0]}: " + " | ".join(options)
            case Phase.GUESSING:
                who = ", ".join(str(s) for s in self.seats)
                return f"seats {who} guess the winner: seat {self.guess_options[0]} or seat {self.guess_options[1]}"
            case Phase.DEAL:
                return "waiting for the cards of the round"
            case Phase.REVEAL:
                return "waiting for the face-down card(s) to be revealed"
            case Phase.DRAW:
                return "waiting for the card drawn to replace ?"
            case Phase.OVER:
                return "the game is over"
            case _:
                assert_never(self.phase)


class EyeReason(StrEnum):
    """Why a verdict changes a seat's eyes."""

    WINNER = "winner"
    LOSER = "loser"
    GUESS_RIGHT = "guess right"
    GUESS_WRONG = "guess wrong"


class EyeTurn(StrEnum):
    """What a verdict does to one seat's peek cards."""

    OPENED = "opened"
    CLOSED = "closed"
    DISCARDED_CLOSED = "discarded closed"
    DISCARDED_OPEN = "discarded open"
    UNCHANGED = "unchanged"


@dataclass(frozen=True)
class EyeChange:
    seat: int
    reason: EyeReason
    change: EyeTurn


@dataclass(frozen=True)
class RoundResult:
    """How a challenge ended, with everything a table needs to check it."""

    round: int
    bidder: int
    challenger: int
    seat_cards: dict[int, str]
    centre: str
    extra: str | None
    extra_drawn_by: int | None
    score: Score
    winner: int
    loser: int
    guesses: dict[int, int]
    eye_changes: tuple[EyeChange, ...]
    eliminated: int | None
    next_start: int | None
    coyote_holder: int | None

    def card_at(self, place: str) -> str | None:
        """The card this verdict has at ``place`` (a :class:`~coyote_pi.engine.events.CardPlace`
        or ``seat:N``); None for the extra or the draw when the round had none."""
        seat = events.place_seat(place)
        if seat is not None:
            return self.seat_cards[seat]
        return {events.CardPlace.CENTRE: self.centre, events.CardPlace.EXTRA: self.extra,
                events.CardPlace.DRAW: self.score.replacement}[events.CardPlace(place)]

    def to_dict(self) -> dict[str, object]:
        return {
            "round": self.round,
            "bidder": self.bidder,
            "challenger": self.challenger,
            "bid": self.score.bid,
            "seats": {str(s): c for s, c in sorted(self.seat_cards.items())},
            "centre": self.centre,
            "extra": self.extra,
            "extra_drawn_by": self.extra_drawn_by,
            "replacement": self.score.replacement,
            "adjustments": [adjustment.to_dict() for adjustment in self.score.adjustments],
            "total": self.score.total,
            "challenger_wins": self.score.challenger_wins,
            "winner": self.winner,
            "loser": self.loser,
            "guesses": {str(s): g for s, g in sorted(self.guesses.items())},
            "eye_changes": [vars(change) for change in self.eye_changes],
            "eliminated": self.eliminated,
            "next_start": self.next_start,
            "coyote_holder": self.coyote_holder,
        }


@dataclass(frozen=True)
class UndoPoint:
    """The turn state a bid replaced (the bid itself is the last entry of ``bids``)."""

    bid: int | None
    bidder: int | None
    peeked_this_turn: bool
    coyote_card_this_turn: bool


@dataclass
class RoundState:
    """The cards and the bidding of the round in progress."""

    number: int
    start_seat: int
    seat_cards: dict[int, str | None]  #: None: not known until the reveal
    centre: str | None
    deck: list[str] | None
    turn: int
    bid: int | None = None
    bidder: int | None = None
    challenger: int | None = None
    bids: list[tuple[int, int]] = field(default_factory=list)
    turns_done: dict[int, int] = field(default_factory=dict)
    peeked: set[int] = field(default_factory=set)
    peeked_this_turn: bool = False
    coyote_card_this_turn: bool = False
    extra_used: bool = False
    extra: str | None = None
    extra_drawn_by: int | None = None
    guesses: dict[int, int] = field(default_factory=dict)
    guessers: tuple[int, ...] = ()
    replacement: str | None = None
    #: What each bid of this round overwrote, newest last: an undo pops the newest and
    #: puts it back, so taking a bid back costs the same however long the game is.
    undo_points: list[UndoPoint] = field(default_factory=list)

    def in_play(self) -> list[str]:
        """The known cards that count at a challenge."""
        cards = [card for _, card in sorted(self.seat_cards.items()) if card is not None]
        if self.centre is not None:
            cards.append(self.centre)
        if self.extra is not None:
            cards.append(self.extra)
        return cards

    def known_seat_cards(self) -> dict[int, str]:
        """The seats' cards, once every one is known (revealed, if the deal could not name it)."""
        known = {seat: card for seat, card in self.seat_cards.items() if card is not None}
        if len(known) != len(self.seat_cards):
            raise RuntimeError(f"round {self.number} still has unknown seat cards")  # a bug: the reveal names them
        return known

    def challenge(self) -> tuple[int, int, int]:
        """The bid challenged, its bidder and its challenger, once the round has a challenge."""
        if self.bid is None or self.bidder is None or self.challenger is None:
            raise RuntimeError(f"round {self.number} has no challenge yet")  # a bug: the phase promises one
        return self.bid, self.bidder, self.challenger


#: Every class of :data:`~coyote_pi.engine.events.Event`, for a check at run time.
_EVENT_CLASSES = typing.get_args(events.Event)


class Game:
    """A whole game of Coyote, from the first deal to the last seat standing.

    >>> game = Game(GameConfig(players=3, start_seat=2))
    >>> game.deal_from_deck(seed=7)
    >>> game.phase, game.turn
    (<Phase.BIDDING: 'bidding'>, 2)
    >>> game.apply(events.Bid(2, 10))
    >>> game.legal().describe()
    'seat 3: peek | bid >= 11 | challenge'
    """

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        opened, closed = (1, 2) if config.variant == TRICKSTER else (2, 1)
        self.eyes: dict[int, Eyes] = {s: Eyes(opened, closed) for s in range(1, config.players + 1)}
        self.phase: Phase = Phase.DEAL
        self.round: RoundState | None = None
        self.round_number = 0
        self.next_start: int | None = config.start_seat  #: None once the game is over
        self.coyote_holder: int | None = None
        self.coyote_card_used = False
        self.results: list[RoundResult] = []
        self.winner: int | None = None
        #: Every event applied, in order, undone bids and their undos included:
        #: ``Game.from_events(config, history)`` rebuilds this exact state.
        self.history: list[events.Event] = []
        self._active = tuple(self.eyes)  # changes only when a loser is eliminated
        #: The eyes and seats in play before the last verdict: a correction resolves again from them.
        self._before_verdict: tuple[dict[int, Eyes], tuple[int, ...]] | None = None

    # ---------------------------------------------------------------- queries

    @property
    def variant(self) -> Variant:
        return self.config.variant

    @property
    def active_seats(self) -> tuple[int, ...]:
        """The seats still in the game (they have at least one peek card)."""
        return self._active

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is while bidding, else ``None``."""
        return self.round.turn if self.phase == BIDDING and self.round else None

    @property
    def current_round(self) -> RoundState:
        """The round dealt last (:attr:`round`), where the phase promises one: from the
        first deal on (RuntimeError before it, a caller's bug)."""
        if self.round is None:
            raise RuntimeError("no round has been dealt yet")
        return self.round

    @property
    def last_result(self) -> RoundResult | None:
        return self.results[-1] if self.results else None

    def next_active_after(self, seat: int) -> int:
        """The next seat clockwise (higher number, wrapping) that is still in the game."""
        n = self.config.players
        for step in range(1, n + 1):
            candidate = (seat - 1 + step) % n + 1
            if self.eyes[candidate].cards > 0:
                return candidate
        raise IllegalAction("no seat is left in the game", code=Refusal.GAME_OVER)

    def legal(self) -> Legal:
        """What may happen now (see :class:`Legal`)."""
        if self.phase == BIDDING:
            r = self.current_round
            seat = r.turn
            acted = r.peeked_this_turn or r.coyote_card_this_turn
            return Legal(
                BIDDING,
                (seat,),
                bid=True,
                min_bid=None if r.bid is None else r.bid + 1,
                challenge=r.bid is not None and not acted,
                peek=self._peek_refusal(seat) is None,
                coyote_card=self._coyote_card_refusal(seat) is None,
            )
        if self.phase == GUESSING:
            r = self.current_round
            _, bidder, challenger = r.challenge()
            pending = tuple(s for s in r.guessers if s not in r.guesses)
            return Legal(GUESSING, pending, guess_options=(bidder, challenger))
        return Legal(self.phase)

    def is_legal(self, event: events.Event) -> bool:
        try:
            self.copy().apply(event)
        except IllegalAction:
            return False
        return True

    def copy(self) -> Game:
        """An independent copy (replays the history: cheap for one game)."""
        return Game.from_events(self.config, self.history)

    @classmethod
    def from_events(cls, config: GameConfig, played: Iterable[events.Event]) -> Game:
        game = cls(config)
        for event in played:
            game.apply(event)
        return game

    # ---------------------------------------------------------------- dealing

    def deal_from_deck(self, seed: int | str) -> None:
        """Deal the next round from the virtual deck shuffled by ``seed`` and the round number.

        Active seats get the top cards in seat order, the next card goes to the centre,
        and the rest stays as the deck (for the Coyote card and ``?``).
        """
        self.apply(self.virtual_deal(self.config.deck.shuffled(seed, self.round_number + 1)))

    def virtual_deal(self, order: list[str]) -> events.Deal:
        """The :class:`Deal` event that dealing ``order`` (top first) would make."""
        seats = self.active_seats
        return events.Deal(
            seats=dict(zip(seats, order)),
            centre=order[len(seats)],
            deck=tuple(order[len(seats) + 1 :]),
        )

    # ---------------------------------------------------------------- applying events

    def apply(self, event: events.Event) -> None:
        """Apply one action or observation, or raise IllegalAction and change nothing."""
        if not isinstance(event, _EVENT_CLASSES):  # from a caller that is not type-checked
            raise IllegalAction(f"{event!r} is not a Coyote event", code=Refusal.BAD_EVENT)
        if self.phase == OVER and not isinstance(event, events.Correct):  # the final verdict may be corrected
            raise IllegalAction(f"the game is over: seat {self.winner} has won", code=Refusal.GAME_OVER)
        try:
            match event:
                case events.Deal():
                    self._deal(event)
                case events.Bid():
                    self._bid(event)
                case events.Challenge():
                    self._challenge(event)
                case events.Peek():
                    self._peek(event)
                case events.UseCoyoteCard():
                    self._use_coyote_card(event)
                case events.Guess():
                    self._guess(event)
                case events.Reveal():
                    self._reveal(event)
                case events.DrawReplacement():
                    self._draw(event)
                case events.Undo():
                    self._undo(event)
                    return  # it appends itself to the history (it looks at the event before it)
                case events.Correct():
                    self._correct(event)
                case _:
                    assert_never(event)
        except CardError as error:  # a card name built in code rather than parsed
            raise IllegalAction(str(error), code=Refusal.BAD_CARD) from None
        self.history.append(event)

    def _card(self, text: object) -> str:
        """The canonical name of a card of this game's deck."""
        return self.config.deck.parse(text).name

    def _drawn_for(self, in_play: Iterable[str]) -> bool:
        """A card the top card of the deck is drawn for (``?``) is among ``in_play``."""
        return not self.config.deck.drawn_for.isdisjoint(in_play)

    def _require_phase(self, phase: Phase, doing: str) -> None:
        if self.phase != phase:
            raise IllegalAction(f"cannot {doing} now: {self.legal().describe()}", code=Refusal.WRONG_PHASE, phase=self.phase)

    def _require_turn(self, seat: int, doing: str) -> RoundState:
        self._require_phase(BIDDING, doing)
        r = self.current_round
        if seat != r.turn:
            if seat not in self.eyes:
                raise IllegalAction(f"there is no seat {seat} at this table", code=Refusal.NO_SUCH_SEAT, seat=seat)
            if self.eyes[seat].cards == 0:
                raise IllegalAction(f"seat {seat} is out of the game", code=Refusal.SEAT_OUT, seat=seat)
            raise IllegalAction(
                f"it is seat {r.turn}'s turn, not seat {seat}'s", code=Refusal.NOT_YOUR_TURN, seat=seat, turn=r.turn
            )
        return r

    def _deal(self, event: events.Deal) -> None:
        self._require_phase(DEAL, "deal")
        active = self.active_seats
        seats = dict(event.seats)
        if sorted(seats) != list(active):
            raise IllegalAction(
                f"a deal needs one card for each seat in the game ({', '.join(map(str, active))}), "
                f"got seats {', '.join(map(str, sorted(seats))) or 'none'}",
                code=Refusal.BAD_DEAL,
            )
        seats = {s: None if c is None else self._card(c) for s, c in seats.items()}
        cards = [c for c in seats.values() if c is not None]
        centre = None if event.centre is None else self._card(event.centre)
        check_distinct(cards + ([centre] if centre else []), "cards dealt")
        deck = None
        if event.deck is not None:
            if centre is None or len(cards) != len(seats):
                raise IllegalAction("a deal with a known deck must name every card", code=Refusal.BAD_DEAL)
            deck = [self._card(c) for c in event.deck]
            if sorted(cards + [centre] + deck) != sorted(self.config.deck.names):
                raise IllegalAction(f"the deck and the dealt cards must be the {self.config.deck.size} playing cards, "
                                    "each once", code=Refusal.BAD_DEAL)
        start = self.next_start
        if start is None:
            raise RuntimeError("a deal after the game is over")  # apply() refuses it first
        self.round_number += 1
        self.round = RoundState(
            number=self.round_number,
            start_seat=start,
            seat_cards=seats,
            centre=centre,
            deck=deck,
            turn=start,
            turns_done={s: 0 for s in active},
        )
        self.coyote_card_used = False
        self.phase = BIDDING

    def _peek_refusal(self, seat: int) -> str | None:
        r = self.current_round
        if r.peeked_this_turn:
            return f"seat {seat} has already peeked this turn"
        if seat == r.start_seat and r.turns_done[seat] == 0:
            return f"seat {seat} starts this round and may not peek on its first turn"
        if self.eyes[seat].open == 0:
            return f"seat {seat} has no open eye to peek with"
        return None

    def _peek(self, event: events.Peek) -> None:
        r = self._require_turn(event.seat, "peek")
        refusal = self._peek_refusal(event.seat)
        if refusal:
            raise IllegalAction(refusal, code=Refusal.CANNOT_PEEK, seat=event.seat)
        eyes = self.eyes[event.seat]
        eyes.open -= 1
        eyes.closed += 1
        r.peeked.add(event.seat)
        r.peeked_this_turn = True

    def _coyote_card_refusal(self, seat: int) -> str | None:
        r = self.current_round
        if self.variant != TRICKSTER:
            return "the Coyote card is only used in the Trickster variant"
        if self.coyote_holder != seat:
            holder = "nobody" if self.coyote_holder is None else f"seat {self.coyote_holder}"
            return f"seat {seat} does not hold the Coyote card ({holder} does)"
        if self.coyote_card_used:
            return f"seat {seat} has already used the Coyote card this round"
        if r.turns_done[seat] == 0:
            return f"seat {seat} may not use the Coyote card on its first turn of the round"
        return None

    def _use_coyote_card(self, event: events.UseCoyoteCard) -> None:
        r = self._require_turn(event.seat, "use the Coyote card")
        refusal = self._coyote_card_refusal(event.seat)
        if refusal:
            raise IllegalAction(refusal, code=Refusal.CANNOT_USE_COYOTE_CARD, seat=event.seat)
        self.coyote_card_used = True
        r.coyote_card_this_turn = True
        r.extra_used = True
        r.extra_drawn_by = event.seat
        if r.deck is not None:
            r.extra = r.deck.pop(0)

    def _bid(self, event: events.Bid) -> None:
        r = self._require_turn(event.seat, "bid")
        amount = event.amount
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise IllegalAction(f"a bid is a whole number, not {amount!r}", code=Refusal.BAD_BID)
        if r.bid is not None and amount <= r.bid:
            raise IllegalAction(
                f"seat {event.seat} must bid more than {r.bid}, not {amount}",
                code=Refusal.BID_TOO_LOW,
                seat=event.seat,
                amount=amount,
                current=r.bid,
            )
        r.undo_points.append(UndoPoint(r.bid, r.bidder, r.peeked_this_turn, r.coyote_card_this_turn))
        r.bid, r.bidder = amount, event.seat
        r.bids.append((event.seat, amount))
        r.turns_done[event.seat] += 1
        r.peeked_this_turn = r.coyote_card_this_turn = False
        r.turn = self.next_active_after(event.seat)

    def _challenge(self, event: events.Challenge) -> None:
        r = self._require_turn(event.seat, "challenge")
        if r.bid is None:
            raise IllegalAction(
                f"seat {event.seat} cannot challenge: there is no bid yet", code=Refusal.NO_BID, seat=event.seat
            )
        if r.peeked_this_turn:
            done = "peeking and using the Coyote card" if r.coyote_card_this_turn else "peeking"
            raise IllegalAction(
                f"seat {event.seat} cannot challenge right after {done}: it must raise",
                code=Refusal.CHALLENGE_AFTER_PEEK,
                seat=event.seat,
            )
        if r.coyote_card_this_turn:
            raise IllegalAction(
                f"seat {event.seat} cannot challenge right after using the Coyote card: it must raise",
                code=Refusal.CHALLENGE_AFTER_COYOTE_CARD,
                seat=event.seat,
            )
        r.challenger = event.seat
        if self.variant == TRICKSTER:
            r.guessers = tuple(s for s in self.active_seats if s not in (r.bidder, r.challenger))
        self.phase = GUESSING if r.guessers else REVEAL
        if self.phase == REVEAL:
            self._continue_reveal()

    def _guess(self, event: events.Guess) -> None:
        if self.variant == BASIC:  # else told to wait for a phase that never comes
            raise IllegalAction(f"seat {event.seat} cannot guess: a Basic game has no guesses (only Trickster has)",
                                code=Refusal.NOT_A_GUESSER, seat=event.seat)
        self._require_phase(GUESSING, "guess")
        r = self.current_round
        _, bidder, challenger = r.challenge()
        if event.seat not in r.guessers:
            raise IllegalAction(
                f"seat {event.seat} does not guess: the challenge is between seats {bidder} and {challenger}",
                code=Refusal.NOT_A_GUESSER,
                seat=event.seat,
            )
        if event.seat in r.guesses:
            raise IllegalAction(f"seat {event.seat} has already guessed", code=Refusal.ALREADY_GUESSED, seat=event.seat)
        if event.winner not in (bidder, challenger):
            raise IllegalAction(
                f"seat {event.seat} must guess seat {bidder} or seat {challenger}, not seat {event.winner}",
                code=Refusal.BAD_GUESS,
                seat=event.seat,
            )
        r.guesses[event.seat] = event.winner
        if len(r.guesses) == len(r.guessers):
            self.phase = REVEAL
            self._continue_reveal()

    def _continue_reveal(self) -> None:
        """Move on as far as the known cards allow: reveal, draw, then resolution."""
        r = self.current_round
        if r.centre is None or (r.extra_used and r.extra is None) or None in r.seat_cards.values():
            self.phase = REVEAL
            return
        if self._drawn_for(r.in_play()) and r.replacement is None:
            if r.deck is None:
                self.phase = DRAW
                return
            r.replacement = r.deck[0]
        self._resolve()

    def _reveal(self, event: events.Reveal) -> None:
        self._require_phase(REVEAL, "reveal cards")
        r = self.current_round
        centre = self._card(event.centre)
        if r.centre is not None and centre != r.centre:
            raise IllegalAction(
                f"the centre card is {display_name(r.centre)}, not {display_name(centre)}", code=Refusal.BAD_REVEAL
            )
        extra = None if event.extra is None else self._card(event.extra)
        if r.extra_used and extra is None and r.extra is None:
            raise IllegalAction("the Coyote card's draw must be revealed too", code=Refusal.BAD_REVEAL)
        if not r.extra_used and extra is not None:
            raise IllegalAction("nobody used the Coyote card, so there is no second centre card", code=Refusal.BAD_REVEAL)
        if r.extra is not None and extra is not None and extra != r.extra:
            raise IllegalAction(
                f"the Coyote card's draw is {display_name(r.extra)}, not {display_name(extra)}", code=Refusal.BAD_REVEAL
            )
        seats = dict(r.seat_cards)
        for seat, named in (event.seats or {}).items():
            if seat not in seats:
                raise IllegalAction(f"seat {seat} has no card this round", code=Refusal.BAD_REVEAL, seat=seat)
            card = self._card(named)
            known = seats[seat]
            if known is not None and known != card:
                raise IllegalAction(
                    f"seat {seat}'s card is {display_name(known)}, not {display_name(card)}",
                    code=Refusal.BAD_REVEAL,
                    seat=seat,
                )
            seats[seat] = card
        named_seats = {s: c for s, c in seats.items() if c is not None}
        unnamed = [s for s in seats if s not in named_seats]
        if unnamed:
            raise IllegalAction(
                f"the cards of seat(s) {', '.join(map(str, unnamed))} must be revealed too", code=Refusal.BAD_REVEAL
            )
        extra_card = extra or r.extra
        check_distinct(list(named_seats.values()) + [centre] + ([extra_card] if extra_card is not None else []),
                       "cards in play")
        r.seat_cards = dict(named_seats)
        r.centre = centre
        if r.extra_used:
            r.extra = extra or r.extra
        self._continue_reveal()

    def _draw(self, event: events.DrawReplacement) -> None:
        self._require_phase(DRAW, "draw a card for ?")
        r = self.current_round
        card = self._card(event.card)
        if card in r.in_play():
            raise IllegalAction(
                f"{display_name(card)} is already in play; it cannot be the card drawn for ?",
                code=Refusal.BAD_REPLACEMENT,
                card=card,
            )
        r.replacement = card
        self._resolve()

    def _resolve(self) -> None:
        r = self.current_round
        bid, bidder, challenger = r.challenge()
        centre = r.centre
        if centre is None:
            raise RuntimeError("a verdict before the centre card is known")  # _continue_reveal waits for it
        self._before_verdict = ({s: Eyes(e.open, e.closed) for s, e in self.eyes.items()}, self._active)
        result_score = score(r.in_play(), bid, r.replacement, self.config.deck)
        winner, loser = (bidder, challenger) if result_score.bid_holds else (challenger, bidder)
        changes = []
        for seat, guess in sorted(r.guesses.items()):
            if guess == winner:
                changes.append(EyeChange(seat, EyeReason.GUESS_RIGHT, self._open_one(seat)))
            else:
                changes.append(EyeChange(seat, EyeReason.GUESS_WRONG, self._close_one(seat)))
        changes.append(EyeChange(winner, EyeReason.WINNER, self._open_one(winner)))
        loser_eyes = self.eyes[loser]
        if loser_eyes.closed:
            loser_eyes.closed -= 1
            changes.append(EyeChange(loser, EyeReason.LOSER, EyeTurn.DISCARDED_CLOSED))
        else:
            loser_eyes.open -= 1
            changes.append(EyeChange(loser, EyeReason.LOSER, EyeTurn.DISCARDED_OPEN))
        eliminated = loser if loser_eyes.cards == 0 else None
        if eliminated is not None:
            self._active = tuple(s for s in self._active if s != eliminated)
        active = self._active
        next_start = holder = None
        if len(active) == 1:
            self.winner = active[0]
            self.phase = OVER
        else:
            next_start = loser if eliminated is None else self.next_active_after(loser)
            if self.variant == TRICKSTER:
                holder = next_start  # the loser, or the next starter if the loser is out
            self.phase = DEAL
        # Once the game is over there is no next round: nobody starts it or holds the
        # Coyote card (keeping the previous ones would name a seat that may be out).
        self.next_start, self.coyote_holder = next_start, holder
        self.results.append(
            RoundResult(
                round=r.number,
                bidder=bidder,
                challenger=challenger,
                seat_cards=r.known_seat_cards(),
                centre=centre,
                extra=r.extra,
                extra_drawn_by=r.extra_drawn_by,
                score=result_score,
                winner=winner,
                loser=loser,
                guesses=dict(r.guesses),
                eye_changes=tuple(changes),
                eliminated=eliminated,
                next_start=next_start,
                coyote_holder=holder,
            )
        )

    def _correct(self, event: events.Correct) -> None:
        r = self.round
        last = self.last_result
        if self.phase not in (DEAL, OVER) or r is None or last is None or last.round != r.number:
            raise IllegalAction("there is no verdict to correct now: only the latest round's, before the next deal",
                                code=Refusal.NOTHING_TO_CORRECT)
        if r.deck is not None:
            raise IllegalAction("a virtual deal's cards were not read by a camera", code=Refusal.NOTHING_TO_CORRECT)
        seats = tuple(sorted((last.bidder, last.challenger)))
        if tuple(event.confirmed_by) != seats:
            raise IllegalAction(f"a correction is confirmed by the two seats of the challenge, {seats[0]} and "
                                f"{seats[1]}", code=Refusal.BAD_CORRECTION)
        # The cards of the latest verdict by place: a card taken out of play (the draw, once
        # ? is gone) is None, so a later correction cannot bring it back.
        cards: dict[str, str | None] = {events.CardPlace.CENTRE: r.centre, events.CardPlace.EXTRA: r.extra,
                                        events.CardPlace.DRAW: r.replacement}
        cards.update({events.seat_place(s): c for s, c in r.seat_cards.items()})
        card = self._card(event.card)
        wrong = cards.get(event.item)
        if wrong is None:
            raise IllegalAction(f"round {r.number} has no {event.item} card", code=Refusal.BAD_CORRECTION)
        if wrong == card:
            raise IllegalAction(f"the {event.item} card is {display_name(card)} already", code=Refusal.BAD_CORRECTION)
        cards[event.item] = card
        seat_cards = {s: card_at for s in r.seat_cards if (card_at := cards[events.seat_place(s)]) is not None}
        centre, extra = cards[events.CardPlace.CENTRE], cards[events.CardPlace.EXTRA]
        if centre is None:
            raise RuntimeError("a verdict without a centre card")  # every verdict has one
        in_play = [seat_cards[s] for s in sorted(seat_cards)] + [centre] + ([extra] if extra is not None else [])
        check_distinct(in_play, "cards in play")
        replacement = cards[events.CardPlace.DRAW] if self._drawn_for(in_play) else None
        if self._drawn_for(in_play) and replacement is None:
            raise IllegalAction("? would be in play, but no card was drawn for it", code=Refusal.CORRECTION_NEEDS_DRAW)
        if replacement in in_play:
            raise IllegalAction(f"{display_name(replacement)} is in play; it cannot be the card drawn for ?",
                                code=Refusal.BAD_REPLACEMENT, card=replacement)
        # Back to the state before the verdict, then the verdict again from the corrected cards.
        if self._before_verdict is None:
            raise RuntimeError("a verdict without the state before it")  # _resolve keeps it
        eyes, self._active = self._before_verdict
        for seat, before in eyes.items():
            self.eyes[seat].open, self.eyes[seat].closed = before.open, before.closed
        self.winner = None
        r.seat_cards, r.centre, r.extra, r.replacement = dict(seat_cards), centre, extra, replacement
        self._resolve()

    def _open_one(self, seat: int) -> EyeTurn:
        eyes = self.eyes[seat]
        if not eyes.closed:
            return EyeTurn.UNCHANGED
        eyes.closed -= 1
        eyes.open += 1
        return EyeTurn.OPENED

    def _close_one(self, seat: int) -> EyeTurn:
        eyes = self.eyes[seat]
        if not eyes.open:
            return EyeTurn.UNCHANGED
        eyes.open -= 1
        eyes.closed += 1
        return EyeTurn.CLOSED

    def _undo(self, event: events.Undo) -> None:
        # Only a bid that is the very latest event; after an undo the latest is the undo,
        # so the bid below it (raised once already) cannot be taken back in turn.
        last = self.history[-1] if self.history else None
        if isinstance(last, events.Undo) and self.phase == BIDDING and self.current_round.bidder == event.seat:
            r = self.current_round
            raise IllegalAction(
                f"undos do not chain: seat {r.bidder}'s bid of {r.bid} was raised once already and stays",
                code=Refusal.UNDO_AFTER_UNDO, seat=event.seat, amount=r.bid,
            )
        if not isinstance(last, events.Bid) or self.phase != BIDDING:
            raise IllegalAction("there is no bid to take back now", code=Refusal.NOTHING_TO_UNDO, seat=event.seat)
        if last.seat != event.seat:
            raise IllegalAction(
                f"only seat {last.seat}, who made the last bid, can take it back", code=Refusal.NOT_YOUR_BID, seat=event.seat
            )
        r = self.current_round
        point = r.undo_points.pop()
        r.bids.pop()
        r.turns_done[last.seat] -= 1
        r.bid, r.bidder, r.turn = point.bid, point.bidder, last.seat
        r.peeked_this_turn, r.coyote_card_this_turn = point.peeked_this_turn, point.coyote_card_this_turn
        self.history.append(event)

