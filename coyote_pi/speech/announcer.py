"""What the table says aloud, worked out from one public :class:`~.moment.Moment` to the next.

The :class:`Announcer` compares each moment's public view with the one before and words
what changed (a new bid, a challenge, the Coyote card, the guesses asked for, a verdict,
a correction, undo, the winner) with the same catalogs as the OLED: the verdict's
explanation is :func:`~coyote_pi.words.verdict.explanation_lines`, word for word. It
only ever sees moments, so it says nothing that the page could not show.

Each :class:`Phrase` has a :class:`Kind`; ``[speech] announce`` keeps the kinds of its
level (:data:`LEVELS`), and :data:`OVERTAKES` says which phrases still waiting to be
spoken a newer one makes pointless (a bid overtakes the bid before it; nothing overtakes
a verdict).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from coyote_pi.engine import DEAL, GUESSING, OVER, RoundResult
from coyote_pi.speech.moment import Moment
from coyote_pi.words.translator import Translator
from coyote_pi.words.verdict import explanation_lines


class Kind(StrEnum):
    """What a phrase announces."""

    TURN = "turn"
    BID = "bid"
    UNDO = "undo"
    CHALLENGE = "challenge"
    COYOTE_CARD = "coyote_card"
    GUESS = "guess"
    VERDICT = "verdict"
    EXPLANATION = "explanation"
    CORRECTION = "correction"
    WINNER = "winner"


#: ``[speech] announce`` -> the kinds said (config.ANNOUNCE names the levels).
LEVELS: dict[str, frozenset[Kind]] = {
    "all": frozenset(Kind),
    "bids": frozenset({Kind.BID, Kind.UNDO, Kind.CHALLENGE, Kind.VERDICT, Kind.EXPLANATION, Kind.CORRECTION,
                       Kind.WINNER}),
    "verdicts": frozenset({Kind.VERDICT, Kind.EXPLANATION, Kind.CORRECTION, Kind.WINNER}),
}

#: A new phrase of a kind -> the kinds of the phrases still waiting that it drops: the
#: table never lags behind the game. A verdict, a correction and the winner are never
#: dropped; the explanation after a verdict (every card, the sum, the eyes) is, once the
#: game goes on, and it is even cut off while it is said (:data:`CUT`).
OVERTAKES: dict[Kind, frozenset[Kind]] = {
    Kind.TURN: frozenset({Kind.TURN, Kind.EXPLANATION}),
    Kind.BID: frozenset({Kind.TURN, Kind.BID, Kind.EXPLANATION}),
    Kind.UNDO: frozenset({Kind.TURN, Kind.BID, Kind.EXPLANATION}),
    Kind.CHALLENGE: frozenset({Kind.TURN, Kind.BID, Kind.EXPLANATION}),  # the challenge names the bid
    Kind.COYOTE_CARD: frozenset({Kind.TURN, Kind.EXPLANATION}),
    Kind.GUESS: frozenset({Kind.TURN, Kind.EXPLANATION}),
    Kind.VERDICT: frozenset({Kind.TURN, Kind.GUESS, Kind.EXPLANATION}),
    Kind.EXPLANATION: frozenset({Kind.TURN, Kind.EXPLANATION}),
    Kind.CORRECTION: frozenset({Kind.TURN, Kind.EXPLANATION}),
    Kind.WINNER: frozenset({Kind.TURN}),
}
#: The kinds a phrase that overtakes them stops while they are said, not only before.
CUT = frozenset({Kind.EXPLANATION})

#: The card ``?`` in a text: a question mark that ends no word or sentence.
_QUESTION_CARD = re.compile(r"(?<![\w!?])\?")


@dataclass(frozen=True)
class Phrase:
    """One thing to say: its kind, its text, its language and when its moment was heard."""

    kind: Kind
    text: str
    language: str
    heard: float = 0.0


def sentences(lines: Sequence[str]) -> str:
    """Lines of a screen as spoken sentences (a full stop where a line has none)."""
    return " ".join(line if line.endswith((".", "!", "?")) else f"{line}." for line in lines)


class Announcer:
    """Turns the moments the table hears into phrases; ``announce`` is a :data:`LEVELS` key."""

    def __init__(self, announce: str = "all") -> None:
        self._kinds = LEVELS[announce]
        self._last: Mapping[str, Any] | None = None
        self._verdict: RoundResult | None = None
        self._translators: dict[str, Translator] = {}

    def announce(self, level: str) -> None:
        """Say the kinds of ``level`` (a :data:`LEVELS` key) from now on."""
        self._kinds = LEVELS[level]

    def phrases(self, moment: Moment, heard: float = 0.0) -> list[Phrase]:
        """What to say since the moment before (nothing for the first: it is the baseline)."""
        said = [Phrase(kind, text, moment.language, heard) for kind, text in self._changes(moment)]
        return [phrase for phrase in said if phrase.kind in self._kinds]

    def _tr(self, language: str) -> Translator:
        if language not in self._translators:
            self._translators[language] = Translator(language)
        return self._translators[language]

    def _changes(self, moment: Moment) -> list[tuple[Kind, str]]:
        before, now, verdict = self._last, moment.public, moment.verdict
        known = self._verdict
        self._last, self._verdict = now, verdict
        if now is None:
            return []
        tr = self._tr(moment.language)
        if before is None or before["round"] > now["round"]:
            return self._turn(tr, before, now)  # a game starts (or resumes): only whose turn
        said: list[tuple[Kind, str]] = []
        if now["phase"] not in (DEAL, OVER):  # a round is open: what changed in it
            fresh = now["round"] != before["round"]  # (its deal and its first moves heard at once)
            start = {**now, "bids": [], "challenger": None, "extra_in_play": False, "phase": DEAL} if fresh else before
            said += self._round_changes(tr, start, now)
        if verdict is not None and verdict != known:
            headline, explanation = self._verdict_lines(tr, verdict)
            if known is not None and known.round == verdict.round:
                said.append((Kind.CORRECTION, sentences([tr("say.correction"), *headline])))
            else:
                if before["challenger"] is None:  # the challenge and its verdict in one pass
                    said.append((Kind.CHALLENGE, tr("say.challenge", challenger=verdict.challenger,
                                                    bidder=verdict.bidder, bid=verdict.score.bid)))
                said.append((Kind.VERDICT, sentences(headline)))
            said.append((Kind.EXPLANATION, sentences(explanation)))
        if now["winner"] is not None and before["winner"] is None:
            said.append((Kind.WINNER, tr("over.big", seat=now["winner"])))
        return said + self._turn(tr, before, now)

    def _verdict_lines(self, tr: Translator, verdict: RoundResult) -> tuple[list[str], list[str]]:
        """The verdict in short (the total, who wins, a seat that is out), and the rest of
        the OLED's explanation (each card, the sum, the eyes, who starts next)."""
        score = verdict.score
        headline = [tr("say.total", total=score.total),
                    tr("expl.holds", total=score.total, bid=score.bid) if score.bid_holds
                    else tr("expl.fails", total=score.total, bid=score.bid)]
        if verdict.eliminated is not None:
            headline.append(tr("expl.eliminated", seat=verdict.eliminated))
        # The card ? as a word: a voice would leave the mark out.
        question_card = tr("say.question_card")
        explanation = [_QUESTION_CARD.sub(question_card, line) for line in explanation_lines(tr, verdict)
                       if line not in headline]
        return headline, explanation

    def _round_changes(self, tr: Translator, before: Mapping[str, Any], now: Mapping[str, Any]) -> list[tuple[Kind, str]]:
        said: list[tuple[Kind, str]] = []
        bids_before, bids = before["bids"], now["bids"]
        if len(bids) < len(bids_before):
            seat, amount = bids_before[-1]
            said.append((Kind.UNDO, tr("msg.undone", seat=seat, amount=amount)))
        said += [(Kind.BID, tr("say.bid", seat=seat, bid=amount)) for seat, amount in bids[len(bids_before):]]
        if now["extra_in_play"] and not before["extra_in_play"] and before["turn"] is not None:
            said.append((Kind.COYOTE_CARD, tr("say.coyote_card", seat=before["turn"])))
        if now["challenger"] is not None and before["challenger"] is None:
            said.append((Kind.CHALLENGE, tr("say.challenge", challenger=now["challenger"], bidder=now["bidder"],
                                            bid=now["bid"])))
        if now["phase"] == GUESSING and before["phase"] != GUESSING:
            guessers = [seat for seat in now["active"] if seat not in (now["bidder"], now["challenger"])]
            said.append((Kind.GUESS, tr.plural("say.guess", len(guessers), seats=tr.seats(guessers),
                                               bidder=now["bidder"], challenger=now["challenger"])))
        return said

    def _turn(self, tr: Translator, before: Mapping[str, Any] | None, now: Mapping[str, Any]) -> list[tuple[Kind, str]]:
        seat = now["turn"]
        if seat is None:
            return []
        if not now["bids"]:
            if before is None or (before["turn"], before["round"], before["bids"]) != (seat, now["round"], []):
                return [(Kind.TURN, tr("say.round", round=now["round"], seat=seat))]
            return []
        if before is None or (before["turn"], before["bids"]) != (seat, now["bids"]):
            return [(Kind.TURN, tr("say.turn", seat=seat))]
        return []
