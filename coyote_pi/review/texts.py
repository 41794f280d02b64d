"""A review in words, in the table's languages (the catalogs of :mod:`coyote_pi.locale`):
for ``coyote-pi review``, the web page's round and game pages and ``run --sim --coach``."""

from __future__ import annotations

from coyote_pi.engine import events
from coyote_pi.players.turn import Move
from coyote_pi.review.judge import THRESHOLDS, Certainty, GameReview, Judgement, Mark, RoundLoss, SeatSummary
from coyote_pi.words.translator import Translator


def percent(chance: float) -> str:
    """``0.667`` as ``67%`` (below 1% and above 99% shown as such, never a false 0 or 100)."""
    value = chance * 100
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{value:.0f}%"


def move_text(tr: Translator, move: Move) -> str:
    if isinstance(move, events.Bid):
        return tr("review.move.bid", amount=move.amount)
    if isinstance(move, events.Challenge):
        return tr("review.move.challenge")
    if isinstance(move, events.UseCoyoteCard):
        return tr("review.move.coyote_card")
    return tr("review.move.guess", winner=move.winner)


def mark_text(tr: Translator, mark: Mark) -> str:
    return tr(f"review.mark.{mark}")


def thresholds_text(tr: Translator) -> str:
    return tr("review.thresholds", **{str(mark): percent(limit) for mark, limit in THRESHOLDS})


def certainty_text(tr: Translator, judgement: Judgement) -> str | None:
    """The certainty the seat could see, worded, or None."""
    if judgement.certainty == Certainty.CANNOT_HOLD:
        return tr("review.certain.cannot_hold", bid=judgement.bid, seat=judgement.seat, highest=judgement.highest)
    if judgement.certainty == Certainty.SURE_TO_HOLD:
        return tr("review.certain.sure_to_hold", bid=judgement.bid, seat=judgement.seat, lowest=judgement.lowest)
    return None


def judgement_lines(tr: Translator, judgement: Judgement) -> list[str]:
    """A decision judged: the move against the best, then its mark, odds and certainty."""
    head = tr("review.decision", line=judgement.line, round=judgement.round, seat=judgement.seat,
              played=move_text(tr, judgement.played), played_loss=percent(judgement.played_loss),
              best=move_text(tr, judgement.best), best_loss=percent(judgement.best_loss),
              difference=percent(judgement.difference))
    details = []
    if judgement.mark is not None:
        details.append(mark_text(tr, judgement.mark))
    if judgement.odds is not None:
        details.append(tr("review.odds", bid=judgement.bid, odds=percent(float(judgement.odds))))
    if (certain := certainty_text(tr, judgement)) is not None:
        details.append(certain)
    return [head, *(f"    {detail}" for detail in details)]


def summary_text(tr: Translator, summary: SeatSummary) -> str:
    return tr("review.summary", seat=summary.seat, decisions=summary.decisions, accuracy=f"{summary.accuracy:.1f}",
              inaccuracies=summary.marks[Mark.INACCURACY], mistakes=summary.marks[Mark.MISTAKE],
              blunders=summary.marks[Mark.BLUNDER])


def loss_text(tr: Translator, loss: RoundLoss) -> str:
    if loss.decision is None:
        return tr("review.lost_without_decision", round=loss.round, seat=loss.loser)
    return tr("review.lost", round=loss.round, seat=loss.loser, move=move_text(tr, loss.decision.played),
              line=loss.decision.line)


def review_lines(tr: Translator, review: GameReview, title: str, seat: int | None = None) -> list[str]:
    """The whole review (of one seat, or of every seat): title, legend, summaries, the
    rounds lost and every decision."""
    seats = range(1, review.players + 1) if seat is None else (seat,)
    lines = [title, tr("review.legend"), thresholds_text(tr), ""]
    lines += [summary_text(tr, review.summary(s)) for s in seats]
    lines += ["", tr("review.rounds_lost")]
    lines += [f"  {loss_text(tr, loss)}" for loss in review.losses if seat is None or loss.loser == seat]
    lines += ["", tr("review.decisions")]
    for judgement in review.judgements:
        if seat is None or judgement.seat == seat:
            lines += [f"  {line}" for line in judgement_lines(tr, judgement)]
    return lines
