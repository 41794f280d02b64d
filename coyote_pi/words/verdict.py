"""The verdict in words, in the table's language: the explanation of a resolved round and
the names of the cards a correction can put right.

This is the one place a verdict is put in words: the engine gives numbers, cards and
adjustments, never sentences. The OLED's verdict pages (:mod:`~coyote_pi.table.screens`),
the web page (:mod:`coyote_pi.web`), the spoken verdict, the English journal and
transcripts (the play-by-play, :mod:`~coyote_pi.words.transcript`, the golden playthroughs)
and ``coyote-pi resolve`` all say the same sentences from the catalogs. This module needs
only the rules and the texts, so the web page's process uses it without loading the
devices. (A version 2 record's English ``explanation`` is a field of that old format,
spelled by :mod:`coyote_pi.record.versions`, not words of the table's.)
"""

from __future__ import annotations

from coyote_pi.engine import RoundResult
from coyote_pi.engine.events import CardPlace, place_seat
from coyote_pi.engine.rules import Score
from coyote_pi.words.translator import Translator, card_text


def item_name(tr: Translator, item: str) -> str:
    """``"centre"``, ``"extra"``, ``"draw"`` or ``"seat:3"`` as a name: "Seat 3"."""
    seat = place_seat(item)
    return tr(f"item.{CardPlace(item)}") if seat is None else tr("item.seat", seat=seat)


def special_lines(tr: Translator, score: Score) -> list[str]:
    """What each special card in play that changes a number card did, in its rule's words."""
    return [tr(rule.words_nothing, special=card.display) if adjustment is None
            else tr(rule.words, special=card.display, card=adjustment.card, counts=adjustment.counts)
            for card, adjustment in score.changes() if (rule := card.special) is not None]


def counting_lines(tr: Translator, score: Score) -> list[str]:
    """How the total came about: the card drawn for ``?``, what the special cards changed,
    the sum term by term."""
    lines = [] if score.replacement is None else [tr("expl.replacement", card=card_text(score.replacement))]
    lines += special_lines(tr, score)
    terms = " + ".join(str(c.value) if c.value >= 0 else f"({c.value})" for c in score.counted)
    lines.append(tr("expl.total", sum=terms, total=score.total))
    return lines


def outcome_line(tr: Translator, score: Score) -> str:
    """Whether the total reaches the bid, and so who wins."""
    return (tr("expl.holds", total=score.total, bid=score.bid) if score.bid_holds
            else tr("expl.fails", total=score.total, bid=score.bid))


def score_lines(tr: Translator, score: Score) -> list[str]:
    """A challenge scored without a game (``coyote-pi resolve``): the cards in play, how
    they counted, whether the bid holds."""
    cards_in_play = ", ".join(card_text(card) for card in score.cards)
    return [tr("resolve.cards", cards=cards_in_play), *counting_lines(tr, score), outcome_line(tr, score)]


def explanation_lines(tr: Translator, result: RoundResult) -> list[str]:
    """The verdict step by step, in ``tr``'s language."""
    lines = [tr("expl.seat_card", seat=s, card=card_text(c)) for s, c in sorted(result.seat_cards.items())]
    lines.append(tr("expl.centre", card=card_text(result.centre)))
    if result.extra is not None:
        lines.append(tr("expl.extra", seat=result.extra_drawn_by, card=card_text(result.extra)))
    lines += counting_lines(tr, result.score)
    lines.append(tr("expl.challenge", challenger=result.challenger, bidder=result.bidder, bid=result.score.bid))
    lines.append(outcome_line(tr, result.score))
    for seat, guess in sorted(result.guesses.items()):
        lines.append(tr("expl.guess_right", seat=seat) if guess == result.winner else tr("expl.guess_wrong", seat=seat))
    for change in result.eye_changes:
        lines.append(tr(f"eyes.{change.change.replace(' ', '_')}", seat=change.seat))
    if result.eliminated is not None:
        lines.append(tr("expl.eliminated", seat=result.eliminated))
    if result.next_start is not None:
        lines.append(tr("expl.next_start", seat=result.next_start))
    if result.coyote_holder is not None:
        lines.append(tr("expl.coyote_holder", seat=result.coyote_holder))
    return lines
