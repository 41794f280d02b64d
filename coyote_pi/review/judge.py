"""Every decision of a finished record judged from what its seat could see then.

A :class:`DecisionCollector` (a :class:`~coyote_pi.record.reader.RecordVisitor`) rebuilds,
for every bid, challenge, use of the Coyote card and Trickster guess, the
:class:`~coyote_pi.players.turn.TurnView` its seat had (never its own card or the centre,
unless it peeked). :func:`judge` values that view's moves through
:func:`~coyote_pi.review.valuation.value_moves`, adds the exact odds of the bid on the table
(:mod:`coyote_pi.engine.odds`) and the certainties, and marks the move played;
:func:`review_record` does it for every decision of the rounds already resolved, with a
summary per seat and the decision that lost each round. docs/review.md says what the
numbers mean.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from coyote_pi.engine import events
from coyote_pi.engine.game import OVER, Game, RoundResult
from coyote_pi.engine.odds import TotalDistribution, total_distribution
from coyote_pi.players.seating import turn_view
from coyote_pi.players.turn import GUESSING, Move, TurnView
from coyote_pi.record.lines import Line
from coyote_pi.record.reader import Record, RecordVisitor, replay_lines
from coyote_pi.review.valuation import value_moves


class Mark(StrEnum):
    """How much worse than the best move the move played was (thresholds: :data:`THRESHOLDS`)."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


#: The least difference (in chance of losing the round) that earns each mark, worst first.
THRESHOLDS: tuple[tuple[Mark, float], ...] = ((Mark.BLUNDER, 0.20), (Mark.MISTAKE, 0.10), (Mark.INACCURACY, 0.05))


class Certainty(StrEnum):
    """What the seat could know for sure of the bid on the table, from its view."""

    CANNOT_HOLD = "cannot_hold"  #: every total it could face is below the bid
    SURE_TO_HOLD = "sure_to_hold"  #: every total it could face reaches the bid


@dataclass(frozen=True)
class Judgement:
    """One decision judged: the seat's view then, the move played and the best one."""

    line: int  #: the record line of the move (1-based)
    view: TurnView
    played: Move
    best: Move
    played_loss: float  #: the chance of losing the round by the move played (a guess: of being wrong)
    best_loss: float
    odds: Fraction | None  #: the exact chance the bid on the table held, from this view (None: no bid yet)
    certainty: Certainty | None
    lowest: int  #: the lowest total this seat could face
    highest: int  #: the highest total this seat could face
    mark: Mark | None

    @property
    def seat(self) -> int:
        return self.view.me

    @property
    def round(self) -> int:
        return self.view.seat.round

    @property
    def bid(self) -> int | None:
        """The bid on the table when the seat decided."""
        return self.view.seat.bid

    @property
    def difference(self) -> float:
        return max(0.0, self.played_loss - self.best_loss)

    def to_dict(self) -> dict[str, object]:
        return {
            "line": self.line, "round": self.round, "seat": self.seat, "phase": self.view.phase,
            "bid": self.bid, "bids": [list(bid) for bid in self.view.bids], "view": self.view.seat.to_dict(),
            "played": events.to_dict(self.played), "best": events.to_dict(self.best),
            "played_loss": round(self.played_loss, 4), "best_loss": round(self.best_loss, 4),
            "difference": round(self.difference, 4),
            "odds": None if self.odds is None else round(float(self.odds), 4),
            "certainty": self.certainty, "lowest_total": self.lowest, "highest_total": self.highest,
            "mark": self.mark,
        }


@dataclass(frozen=True)
class RoundLoss:
    """Who lost a round, and the decision that lost it (its bid called, or its challenge)."""

    round: int
    loser: int
    decision: Judgement | None  #: None when the record holds no decision of the loser that round


@dataclass(frozen=True)
class SeatSummary:
    """A seat's decisions over the game, counted."""

    seat: int
    decisions: int
    marks: dict[Mark, int]
    accuracy: float  #: 100 x (1 - the mean difference), 100 when every move was the best

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "decisions": self.decisions, "accuracy": round(self.accuracy, 1),
                **{str(mark): count for mark, count in self.marks.items()}}


@dataclass
class GameReview:
    """Every judged decision of a record's resolved rounds, and what each round cost whom."""

    players: int
    variant: str
    finished: bool
    judgements: list[Judgement] = field(default_factory=list)
    losses: list[RoundLoss] = field(default_factory=list)

    def of_seat(self, seat: int) -> list[Judgement]:
        return [judgement for judgement in self.judgements if judgement.seat == seat]

    def summary(self, seat: int) -> SeatSummary:
        mine = self.of_seat(seat)
        marks = {mark: sum(judgement.mark == mark for judgement in mine) for mark, _ in reversed(THRESHOLDS)}
        mean = sum(judgement.difference for judgement in mine) / len(mine) if mine else 0.0
        return SeatSummary(seat, len(mine), marks, 100.0 * (1.0 - mean))

    def to_dict(self, seat: int | None = None) -> dict[str, object]:
        seats = range(1, self.players + 1) if seat is None else (seat,)
        return {
            "players": self.players, "variant": self.variant, "finished": self.finished,
            "thresholds": {str(mark): limit for mark, limit in THRESHOLDS},
            "seats": [self.summary(s).to_dict() for s in seats],
            "rounds_lost": [{"round": loss.round, "loser": loss.loser,
                             "line": loss.decision.line if loss.decision else None,
                             "move": events.to_dict(loss.decision.played) if loss.decision else None}
                            for loss in self.losses if seat is None or loss.loser == seat],
            "decisions": [j.to_dict() for j in self.judgements if seat is None or j.seat == seat],
        }


@lru_cache(maxsize=1024)
def _distribution(known: tuple[str, ...], unknown: int) -> TotalDistribution:
    return total_distribution(known, unknown)


def _certainty(bid: int | None, lowest: int, highest: int) -> Certainty | None:
    if bid is None:
        return None
    if bid > highest:
        return Certainty.CANNOT_HOLD
    if bid <= lowest:
        return Certainty.SURE_TO_HOLD
    return None


def _value_of(values: Mapping[Move, float], move: Move) -> float:
    """The value of ``move``; a bid beyond the run of bids valued takes the nearest one's."""
    if move in values:
        return values[move]
    if isinstance(move, events.Bid):
        bids = [bid for bid in values if isinstance(bid, events.Bid)]
        return values[min(bids, key=lambda bid: abs(bid.amount - move.amount))]
    raise ValueError(f"the valuation has no value for {move}")


def _certainly_wrong(view: TurnView, played: Move, certainty: Certainty | None) -> bool:
    """Whether ``played`` loses for sure where another move wins for sure: a challenge (or a
    guess on the challenger) of a bid sure to hold, anything but a challenge (or a guess on
    the challenger) of a bid that cannot hold."""
    if certainty is None:
        return False
    holds = certainty == Certainty.SURE_TO_HOLD
    if isinstance(played, events.Guess):
        return (played.winner == view.guess_options[0]) != holds
    return view.may_challenge and isinstance(played, events.Challenge) == holds


def judge(line: int, view: TurnView, played: Move, seed: int | str) -> Judgement:
    """The judgement of ``played``, made by ``view``'s seat at ``line``, from ``view`` alone."""
    values = dict(value_moves(view, seed))
    distribution = _distribution(tuple(sorted(view.seat.known_cards())), view.seat.unknown_count())
    lowest, highest = min(distribution.counts), max(distribution.counts)
    bid = view.seat.bid
    odds = None if bid is None else distribution.probability_at_least(bid)
    certainty = _certainty(bid, lowest, highest)
    if certainty is not None:  # what the seat could know for sure overrides the model
        sure_win = certainty == Certainty.CANNOT_HOLD
        if view.phase == GUESSING:
            bidder, challenger = view.guess_options
            values[events.Guess(view.me, bidder)] = 1.0 if sure_win else 0.0
            values[events.Guess(view.me, challenger)] = 0.0 if sure_win else 1.0
        elif view.may_challenge:
            values[events.Challenge(view.me)] = 0.0 if sure_win else 1.0
    best = min(values, key=values.__getitem__)  # the first of equals: the player's preference
    played_loss, best_loss = _value_of(values, played), values[best]
    if _certainly_wrong(view, played, certainty):
        mark: Mark | None = Mark.BLUNDER  # whatever the model says
    else:
        mark = next((mark for mark, limit in THRESHOLDS if played_loss - best_loss >= limit), None)
    return Judgement(line, view, played, best, played_loss, best_loss, odds, certainty, lowest, highest, mark)


#: The moves a review judges (a peek and an undo are not decisions it values).
DECISIONS = (events.Bid, events.Challenge, events.UseCoyoteCard, events.Guess)


class DecisionCollector(RecordVisitor):
    """Collects each decision with its seat's view then, and each verdict. A bid taken
    back by an undo is dropped: it never counted."""

    def __init__(self) -> None:
        self.decisions: list[tuple[int, TurnView, Move]] = []
        self.results: list[RoundResult] = []

    def visit_event(self, number: int, line: Line, event: events.Event, game: Game) -> None:
        if isinstance(event, events.Undo):
            bids = [index for index, (_, _, move) in enumerate(self.decisions) if isinstance(move, events.Bid)]
            del self.decisions[bids[-1]]
        elif isinstance(event, DECISIONS):
            self.decisions.append((number, turn_view(game, event.seat), event))

    def visit_verdict(self, number: int, result: RoundResult, game: Game) -> None:
        self.results.append(result)


def review_record(record: Record, seed: int | str) -> GameReview:
    """The review of ``record``'s resolved rounds (all of them when the game is over); a
    round still open is never judged. ``seed``: what the table's players were seeded with
    (the record's file name)."""
    collector = DecisionCollector()
    replay_lines(record.lines, [collector])
    game = record.game
    review = GameReview(game.config.players, game.variant, game.phase == OVER)
    resolved = {result.round for result in collector.results}
    review.judgements = [judge(number, view, move, seed) for number, view, move in collector.decisions
                         if view.seat.round in resolved]
    for result in _final_results(collector.results):
        decisive = [j for j in review.judgements if j.round == result.round and j.seat == result.loser
                    and not isinstance(j.played, events.Guess)]
        review.losses.append(RoundLoss(result.round, result.loser, decisive[-1] if decisive else None))
    return review


def _final_results(results: list[RoundResult]) -> list[RoundResult]:
    """Each round's latest verdict (a correction resolves a round again)."""
    latest = {result.round: result for result in results}
    return [latest[number] for number in sorted(latest)]
