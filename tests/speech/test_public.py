"""Only public information is spoken: whole games of both variants, with the special cards
dealt on purpose, and no spoken text names a card of an open round, its sum, or a guess
before its reveal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coyote_pi.engine.views import open_round, public_view
from coyote_pi.record import read_record
from coyote_pi.sim.deals import parse_deal
from coyote_pi.sim.rig import open_sim_rig
from coyote_pi.speech.announcer import Announcer, Kind, Phrase
from coyote_pi.speech.moment import Moment
from coyote_pi.words.translator import Translator, card_text
from tests.table.conftest import Spy, fast_sim, run_rig, sim_devices, table_config

#: The kinds said while a round is open: none of them is a verdict.
IN_ROUND = {Kind.TURN, Kind.BID, Kind.UNDO, Kind.CHALLENGE, Kind.COYOTE_CARD, Kind.GUESS}


class Ears:
    """The controller's speech, as a test sees it: what it hears is worded at once; the
    truth (the game itself) is looked at beside it, only to judge what was said."""

    def __init__(self) -> None:
        self.controller = None
        self._announcer = Announcer()
        #: (phrase, the open round's cards and sum or None, the public numbers)
        self.heard: list[tuple[Phrase, tuple[list[str], int] | None, set[int]]] = []

    def hear(self, moment: Moment) -> None:
        assert self.controller is not None
        game = self.controller.state.game
        assert game is not None or moment.public is None
        if game is not None:  # what it hears is exactly the page's view, and a closed verdict
            assert moment.public == public_view(game)
            assert moment.verdict is None or open_round(game) is None or open_round(game).number != moment.verdict.round
        truth = None
        public_numbers: set[int] = set()
        if game is not None and (playing := open_round(game)) is not None:
            hidden = [*playing.seat_cards.values(), playing.centre, playing.extra, playing.replacement]
            known = [card for card in hidden if card is not None]
            truth = (known, sum(int(card) for card in known if card.lstrip("-").isdigit()))
            public_numbers = {*range(1, game.config.players + 1), playing.number,
                              *(amount for _, amount in playing.bids), *(() if playing.bid is None else (playing.bid,))}
        for phrase in self._announcer.phrases(moment):
            self.heard.append((phrase, truth, public_numbers))

    def close(self, **_) -> None:
        pass


def numbers(text: str) -> set[int]:
    return {int(number) for number in re.findall(r"-?\d+", text)}


@pytest.mark.parametrize(("variant", "language", "deal"), [
    ("basic", "en", "question;max0"),
    ("basic", "de", "max0;question"),
    ("trickster", "en", "question;coyote-card;max0"),
    ("trickster", "ru", "max0;coyote-card;question"),
])
def test_no_spoken_text_names_a_card_of_an_open_round_its_sum_or_a_guess(variant: str, language: str, deal: str,
                                                                         tmp_path: Path) -> None:
    ears, spy = Ears(), Spy()
    config = table_config(tmp_path, 4, variant, language=language)
    rig = open_sim_rig(config, sim_devices(), fast_sim(7, deal=parse_deal(deal)), listeners=[spy], speech=ears)
    ears.controller = rig.controller
    try:
        run_rig(rig, spy, 120)
    finally:
        rig.close()
    results = read_record(rig.controller.state.playing().path).game.results
    tr = Translator(language)
    card_words = {"Max 0", tr("say.question_card")}
    card_words |= {tr(key, seat=seat) for key in ("expl.guess_right", "expl.guess_wrong") for seat in range(1, 5)}
    card_words |= {tr("step.guess", seat=seat, winner=winner) for seat in range(1, 5) for winner in range(1, 5)}
    in_round = [(phrase, truth, public) for phrase, truth, public in ears.heard if truth is not None]
    assert in_round, "no phrase while a round was open: the test would check nothing"
    for phrase, (cards, total), public in in_round:
        assert phrase.kind in IN_ROUND, phrase
        assert numbers(phrase.text) <= public, (phrase, cards, total)  # no card, no sum: only seats, round, bids
        assert not any(word in phrase.text for word in card_words), phrase
        assert "?" not in phrase.text or phrase.kind == Kind.GUESS, phrase
    guesses = [phrase for phrase, _, _ in in_round if phrase.kind == Kind.GUESS]
    verdicts = [phrase for phrase, _, _ in ears.heard if phrase.kind == Kind.EXPLANATION]
    winners = [phrase for phrase, _, _ in ears.heard if phrase.kind == Kind.WINNER]
    assert len(verdicts) == len(results) and winners == [winners[0]]
    # The verdicts do say the cards once their round is closed (the check above is not vacuous).
    assert all(tr("expl.centre", card=card_text(result.centre)).replace("?", tr("say.question_card")) in said.text
               for result, said in zip(results, verdicts))
    if variant == "trickster":
        assert guesses, "a Trickster game asks for guesses"
        assert any(result.guesses for result in results)
