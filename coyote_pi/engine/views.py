"""What each seat may know, and what a public screen may show.

Coyote is a game of hidden information: a seat sees every other seat's card but never
its own; it sees the centre card only after peeking; it knows the card it drew with the
Coyote card. :func:`seat_view` builds exactly that knowledge from a game, and
:func:`public_view` what the table's OLED may show: no card value of an open round.
"""

from __future__ import annotations

from dataclasses import dataclass

from coyote_pi.cards import STANDARD, Deck
from coyote_pi.engine.game import BIDDING, Game, Phase, RoundState


@dataclass(frozen=True)
class SeatView:
    """Everything one seat knows. Card values are those the arbiter knows too: at a
    physical table the device does not see the centre card before the reveal, so a seat
    that peeked there knows it while its view says ``centre=None, peeked=True``."""

    seat: int
    round: int
    phase: Phase
    turn: int | None
    bid: int | None
    bidder: int | None
    eyes: dict[int, tuple[int, int]]  #: seat -> (open, closed), public
    others: dict[int, str]  #: the cards on the other active seats' stands (those known)
    peeked: bool  #: this seat has looked at the centre card this round
    centre: str | None  #: the centre card, if this seat peeked and its value is known
    coyote_card_draw: str | None  #: the card this seat drew with the Coyote card
    extra_in_play: bool  #: someone used the Coyote card: a second face-down card counts
    coyote_holder: int | None
    active_others: tuple[int, ...] = ()  #: the other seats in this round
    playing: bool = True  #: this seat holds a card this round (it is not out)
    deck: Deck = STANDARD  #: the game's deck: the cards a seat reasons about

    def known_cards(self) -> list[str]:
        """The cards in play whose value this seat knows."""
        known = list(self.others.values())
        if self.centre is not None:
            known.append(self.centre)
        if self.coyote_card_draw is not None:
            known.append(self.coyote_card_draw)
        return known

    def unknown_count(self) -> int:
        """How many cards in play this seat cannot see: its own, the centre, the extra
        (and, where the table could not name them, other seats' cards)."""
        unknown = self.playing + (self.centre is None) + len(self.active_others) - len(self.others)
        if self.extra_in_play and self.coyote_card_draw is None:
            unknown += 1
        return unknown

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "bid": self.bid,
            "bidder": self.bidder,
            "eyes": {str(s): list(e) for s, e in self.eyes.items()},
            "others": {str(s): c for s, c in sorted(self.others.items())},
            "peeked": self.peeked,
            "centre": self.centre,
            "coyote_card_draw": self.coyote_card_draw,
            "extra_in_play": self.extra_in_play,
            "coyote_holder": self.coyote_holder,
            "playing": self.playing,
        }


def _eyes(game: Game) -> dict[int, tuple[int, int]]:
    return {s: (e.open, e.closed) for s, e in game.eyes.items()}


def open_round(game: Game) -> RoundState | None:
    """The round being played, or ``None`` before the first deal and between a
    resolution and the next deal (when every card of the last round is public)."""
    r = game.round
    if r is None or (game.results and game.results[-1].round == r.number):
        return None
    return r


def seat_view(game: Game, seat: int) -> SeatView:
    """What ``seat`` may know right now."""
    r = open_round(game)
    if r is None:
        return SeatView(seat, game.round_number, game.phase, None, None, None, _eyes(game), {}, False, None, None,
                        False, game.coyote_holder, deck=game.config.deck)
    peeked = seat in r.peeked
    return SeatView(
        seat=seat,
        round=r.number,
        phase=game.phase,
        turn=game.turn,
        bid=r.bid,
        bidder=r.bidder,
        eyes=_eyes(game),
        others={s: c for s, c in r.seat_cards.items() if s != seat and c is not None},
        peeked=peeked,
        centre=r.centre if peeked else None,
        coyote_card_draw=r.extra if r.extra_drawn_by == seat else None,
        extra_in_play=r.extra_used,
        coyote_holder=game.coyote_holder,
        active_others=tuple(s for s in r.seat_cards if s != seat),
        playing=seat in r.seat_cards,
        deck=game.config.deck,
    )


def public_view(game: Game) -> dict[str, object]:
    """What any public output (the OLED, a log players can read) may show: turn, bids,
    eyes and who peeked; never a card of the open round. Resolved rounds are public."""
    r = open_round(game)
    last = game.last_result
    return {
        "phase": game.phase,
        "round": game.round_number,
        "players": game.config.players,
        "variant": game.variant,
        "active": list(game.active_seats),
        "eyes": {str(s): list(e) for s, e in _eyes(game).items()},
        "turn": game.turn if game.phase == BIDDING else None,
        "bid": r.bid if r is not None else None,
        "bidder": r.bidder if r is not None else None,
        "bids": [list(b) for b in r.bids] if r is not None else [],
        "challenger": r.challenger if r is not None else None,
        "peeked": sorted(r.peeked) if r is not None else [],
        "extra_in_play": r is not None and r.extra_used,
        "coyote_holder": game.coyote_holder,
        "next_start": game.next_start,
        "winner": game.winner,
        "last_result": last.to_dict() if last else None,
    }


def arbiter_state(game: Game) -> dict[str, object]:
    """The full state the arbiter knows, for ``coyote-pi replay`` (includes open cards)."""
    state = public_view(game)
    r = game.round
    state["current_round"] = None if r is None else {
        "number": r.number,
        "start_seat": r.start_seat,
        "seats": {str(s): c for s, c in sorted(r.seat_cards.items())},
        "centre": r.centre,
        "extra": r.extra,
        "replacement": r.replacement,
        "guesses": {str(s): g for s, g in sorted(r.guesses.items())},
    }
    state["results"] = [result.to_dict() for result in game.results]
    return state
