"""``run --sim --deal``: the simulated table deals the cards a person chose."""

from __future__ import annotations

import pytest

from coyote_pi import cards
from coyote_pi.cli import main as coyote_pi
from coyote_pi.sim.deals import DealError, DealPlan, parse_deal

from .conftest import fast_sim, play, table_config


def test_no_plan_deals_the_seeded_shuffle():
    assert [DealPlan().order(7, round_number, 4) for round_number in (1, 2)] == \
        [cards.shuffled_deck(7, 1), cards.shuffled_deck(7, 2)]


def test_named_cards_go_to_their_places_and_the_rest_keep_the_shuffles_order():
    plan = parse_deal("5,*,max0,-10;*;question")
    shuffled = cards.shuffled_deck(3, 1)
    order = plan.order(3, 1, 3)
    assert sorted(order) == sorted(cards.ALL_CARDS)
    assert (order[0], order[2], order[3]) == ("5", "max0", "-10")  # stands 1 and 3, the centre of 3 seats
    assert [card for card in order if card not in ("5", "max0", "-10")] == \
        [card for card in shuffled if card not in ("5", "max0", "-10")]
    assert plan.order(3, 2, 3) == cards.shuffled_deck(3, 2)
    assert plan.order(3, 3, 2)[2] == cards.QUESTION  # the centre, after the 2 seats still in play
    assert plan.order(3, 4, 2) == cards.shuffled_deck(3, 4)  # after the plan: the shuffle


@pytest.mark.parametrize("text,stands,places", [
    ("question", 4, {4: "?"}),
    ("max0", 3, {0: "20", 3: "max0"}),
    ("Max0", 5, {0: "20", 5: "max0"}),  # a round of the one word is the scenario, in any case
    ("max0,*", 3, {0: "max0"}),  # with more places it is the card
])
def test_scenarios_put_their_cards_where_they_matter(text, stands, places):
    order = parse_deal(text).order(1, 1, stands)
    assert {place: order[place] for place in places} == places


def test_the_coyote_card_scenario_is_round_2_and_needs_trickster():
    plan = parse_deal("coyote-card")
    assert plan.needs_trickster and not parse_deal("question;max0").needs_trickster
    assert plan.order(5, 1, 4) == cards.shuffled_deck(5, 1)  # nobody holds the Coyote card in round 1
    assert plan.order(5, 2, 4)[4 + 1] == "20"  # the top of the deck after the stands and the centre
    assert parse_deal("question;coyote-card").rounds[1].scenario == "coyote-card"


@pytest.mark.parametrize("text,message", [
    ("", "the plan is empty"),
    ("7,x", 'round 1: "x" is not a Coyote card (cards: -10, -5,'),
    ("*;banana", "round 2: 'banana' is neither a card nor a scenario (scenarios: question, max0, coyote-card)"),
    ("question;;max0", "round 2 is empty (write * to deal it from the shuffle)"),
    ("7,8,7", "round 1 deals 7 twice"),
    (",".join(cards.ALL_CARDS + ("5",)), "round 1 names 18 cards; the deck has 17"),
])
def test_bad_plans_are_refused_in_one_line(text, message):
    with pytest.raises(DealError) as refused:
        parse_deal(text)
    assert str(refused.value).startswith(message) and "\n" not in str(refused.value)


@pytest.mark.parametrize("flags,message", [
    (["--sim", "--deal", "7,x"], 'coyote-pi run: --deal \'7,x\': round 1: "x" is not a Coyote card'),
    (["--sim", "--variant", "basic", "--deal", "coyote-card"],
     "coyote-pi run: --deal 'coyote-card': the Coyote card is only in the Trickster variant"),
    (["--deal", "question"], "coyote-pi run: --deal chooses the cards of the simulated table: use it with --sim"),
])
def test_run_says_what_is_wrong_with_a_deal_in_one_line(tmp_path, capsys, flags, message):
    assert coyote_pi(["run", "--record-dir", str(tmp_path), *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_a_simulated_game_deals_the_planned_rounds(tmp_path):
    config = table_config(tmp_path, 3, "basic", start=1)
    played = play(config, sim=fast_sim(4, deal=parse_deal("5,?,max0,-10;question")))
    first, second = played.record.game.results[:2]
    assert (first.seat_cards, first.centre) == ({1: "5", 2: "?", 3: "max0"}, "-10")
    assert first.score.replacement is not None and first.score.adjustments  # ? drawn for, Max 0 zeroed
    assert second.centre == cards.QUESTION
    assert second.score.replacement == parse_deal("5,?,max0,-10;question").order(4, 2, 3)[4]  # the deck's top
