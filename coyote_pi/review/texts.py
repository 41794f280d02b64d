"""A review in words, in the table's languages (the catalogs of :mod:`coyote_pi.locale`):
for ``coyote-pi review``, the web page's round and game pages and ``run --sim --coach``.

It words a review's JSON form (:meth:`~coyote_pi.review.judge.GameReview.to_dict`, what
``coyote-pi review --json`` prints), so the web page, which never loads numpy or the
players, words it the same way without computing it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from coyote_pi.engine import events
from coyote_pi.words.translator import Translator

#: A judgement, a seat's summary or a whole review as ``coyote-pi review --json`` prints them.
Data = Mapping[str, Any]


def percent(chance: float) -> str:
    """``0.667`` as ``67%`` (below 1% and above 99% shown as such, never a false 0 or 100)."""
    value = chance * 100
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{value:.0f}%"


def move_text(tr: Translator, move: Data) -> str:
    """A move as a review names it: ``bid 13``, ``Coyote!``, ..."""
    match events.from_dict(dict(move)):
        case events.Bid(amount=amount):
            return tr("review.move.bid", amount=amount)
        case events.Challenge():
            return tr("review.move.challenge")
        case events.UseCoyoteCard():
            return tr("review.move.coyote_card")
        case events.Guess(winner=winner):
            return tr("review.move.guess", winner=winner)
    raise ValueError(f"not a decision: {move}")


def mark_text(tr: Translator, mark: str) -> str:
    return tr(f"review.mark.{mark}")


def thresholds_text(tr: Translator, thresholds: Mapping[str, float]) -> str:
    return tr("review.thresholds", **{mark: percent(limit) for mark, limit in thresholds.items()})


def certainty_text(tr: Translator, judgement: Data) -> str | None:
    """The certainty the seat could see, worded, or None."""
    if judgement["certainty"] == "cannot_hold":
        return tr("review.certain.cannot_hold", bid=judgement["bid"], seat=judgement["seat"],
                  highest=judgement["highest_total"])
    if judgement["certainty"] == "sure_to_hold":
        return tr("review.certain.sure_to_hold", bid=judgement["bid"], seat=judgement["seat"],
                  lowest=judgement["lowest_total"])
    return None


def judgement_head(tr: Translator, judgement: Data) -> str:
    """The move played against the best one, with their values and the difference."""
    return tr("review.decision", line=judgement["line"], round=judgement["round"], seat=judgement["seat"],
              played=move_text(tr, judgement["played"]), played_loss=percent(judgement["played_loss"]),
              best=move_text(tr, judgement["best"]), best_loss=percent(judgement["best_loss"]),
              difference=percent(judgement["difference"]))


def judgement_details(tr: Translator, judgement: Data) -> list[str]:
    """Its mark, the odds of the bid it faced and the certainty, those it has."""
    details = []
    if judgement["mark"] is not None:
        details.append(mark_text(tr, judgement["mark"]))
    if judgement["odds"] is not None:
        details.append(tr("review.odds", bid=judgement["bid"], odds=percent(judgement["odds"])))
    if (certain := certainty_text(tr, judgement)) is not None:
        details.append(certain)
    return details


def summary_text(tr: Translator, summary: Data) -> str:
    return tr("review.summary", seat=summary["seat"], decisions=summary["decisions"],
              accuracy=f"{summary['accuracy']:.1f}", inaccuracies=summary["inaccuracy"],
              mistakes=summary["mistake"], blunders=summary["blunder"])


def loss_text(tr: Translator, loss: Data) -> str:
    if loss["line"] is None:
        return tr("review.lost_without_decision", round=loss["round"], seat=loss["loser"])
    return tr("review.lost", round=loss["round"], seat=loss["loser"], move=move_text(tr, loss["move"]),
              line=loss["line"])


def review_lines(tr: Translator, review: Data, title: str) -> list[str]:
    """The whole review: title, legend, summaries, the rounds lost and every decision."""
    lines = [title, tr("review.legend"), thresholds_text(tr, review["thresholds"]), ""]
    lines += [summary_text(tr, summary) for summary in review["seats"]]
    lines += ["", tr("review.rounds_lost"), *(f"  {loss_text(tr, loss)}" for loss in review["rounds_lost"])]
    lines += ["", tr("review.decisions")]
    for judgement in review["decisions"]:
        lines.append(f"  {judgement_head(tr, judgement)}")
        lines += [f"      {detail}" for detail in judgement_details(tr, judgement)]
    return lines
