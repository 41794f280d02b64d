"""``run --sim --deal``: the simulated table deals the cards a person chose."""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

import pytest

from coyote_pi import cards
from coyote_pi.cli import help_parser
from coyote_pi.cli import main as coyote_pi
from coyote_pi.commands import run as run_command
from coyote_pi.engine import GameConfig
from coyote_pi.record import RecordedGame, Vault, read_record
from coyote_pi.sim.deals import DealError, DealPlan, parse_deal
from coyote_pi.sim.rig import SimOptions, open_sim_rig
from coyote_pi.table.rig import resume_newest

from .conftest import Spy, fast_sim, play, sim_devices, table_config


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
    (["--sim", "--deal", "-10,x"], 'coyote-pi run: --deal \'-10,x\': round 1: "x" is not a Coyote card'),
])
def test_run_says_what_is_wrong_with_a_deal_in_one_line(tmp_path, capsys, flags, message):
    assert coyote_pi(["run", "--record-dir", str(tmp_path), *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["--deal", "-10,5,7,9"], ["--deal=-10,5,7,9"], ["--deal", "-5;question"]])
def test_a_plan_may_begin_with_a_negative_card(argv):
    parser = help_parser("coyote-pi run", "")
    run_command.configure(parser)
    assert parser.parse_args(["--sim", *argv, "--players", "3"]).deal == argv[-1].removeprefix("--deal=")


def test_a_simulated_game_deals_the_planned_rounds(tmp_path):
    config = table_config(tmp_path, 3, "basic", start=1)
    played = play(config, sim=fast_sim(4, deal=parse_deal("5,?,max0,-10;question")))
    first, second = played.record.game.results[:2]
    assert (first.seat_cards, first.centre) == ({1: "5", 2: "?", 3: "max0"}, "-10")
    assert first.score.replacement is not None and first.score.adjustments  # ? drawn for, Max 0 zeroed
    assert second.centre == cards.QUESTION
    assert second.score.replacement == parse_deal("5,?,max0,-10;question").order(4, 2, 3)[4]  # the deck's top


def _play_on(rig, spy, timeout: float = 120) -> None:
    """Run ``rig``'s controller (its simulated table already started) to the game-over screen."""
    thread = threading.Thread(target=rig.controller.run, kwargs={"until_over": True}, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        rig.controller.stop()
        thread.join(5)
        pytest.fail("the game did not end in time; last lines:\n" + "\n".join(spy.lines[-30:]))


def _games(config, sim: SimOptions, new_games: int = 2, **rig_options) -> list[Path]:
    """The records of the games one simulated table plays: the finished game it resumes (if
    any), then ``new_games`` new ones, each started as ok at the previous one's end does."""
    spy = Spy()
    rig = open_sim_rig(config, sim_devices(), sim, listeners=[spy], new_game_when_over=True, **rig_options)
    try:
        rig.sim.start()
        paths = []
        for number in range(new_games + bool(rig_options.get("resumed"))):
            if number > 0 or rig.controller.state.recorded is None:
                rig.controller.game_start.new_game()  # what ok does at the game's end (the loop is not running now)
            if rig.controller.game.winner is None:
                _play_on(rig, spy)
            paths.append(rig.controller.state.recorded.path)
        return paths
    finally:
        rig.close()


def _salts(path: Path) -> list[str]:
    return [opening["salt"] for line in read_record(path).lines if line["kind"] == "opening"
            for opening in line["openings"]]


def test_two_games_of_one_simulated_table_never_share_a_deal_or_a_salt(tmp_path):
    first, second = _games(table_config(tmp_path, 3, start=1), fast_sim(4))
    seeds = [Vault(path).read(Vault.SETUP)["seed"] for path in (first, second)]
    assert seeds[0] == 4 and seeds[1] != 4  # the given seed deals the first game; the next its own
    deals = [[(r.seat_cards, r.centre) for r in read_record(path).game.results] for path in (first, second)]
    assert deals[0][0] != deals[1][0] and deals[0][1] != deals[1][1]
    # each game really follows its own seed (so that replaying the seed deals the game again)
    assert deals[1][0][0] == dict(zip((1, 2, 3), cards.shuffled_deck(seeds[1], 1)))
    salts = _salts(first) + _salts(second)
    assert len(salts) > 10 and len(set(salts)) == len(salts)


def test_a_plan_deals_the_next_new_game_after_a_finished_one_and_only_that_one(tmp_path):
    config = table_config(tmp_path, 3, start=1)
    over = play(config, sim=fast_sim(4))
    resumed = resume_newest(config, new=False)
    assert isinstance(resumed.table, tuple) and resumed.table[0].game.winner is not None
    shown, planned, after = _games(config, fast_sim(9, deal=parse_deal("question")), resumed=resumed.table)
    assert shown == over.path and Vault(planned).read(Vault.SETUP).items() >= {"seed": 9, "deal": "question"}.items()
    assert read_record(planned).game.results[0].centre == cards.QUESTION
    assert "deal" not in Vault(after).read(Vault.SETUP) and Vault(after).read(Vault.SETUP)["seed"] not in (4, 9)


@pytest.mark.parametrize("flags,given", [(["--deal", "max0"], "--deal chooses"), (["--seed", "3"], "--seed chooses"),
                                         (["--deal", "max0", "--seed", "3"], "--deal and --seed choose")])
def test_a_plan_for_an_unfinished_game_that_would_be_resumed_is_refused_in_one_line(tmp_path, capsys, flags, given):
    unfinished = RecordedGame.start(tmp_path / "sim" / "game-0001.jsonl", GameConfig(players=3), {"source": "sim"},
                                    private_meta={"seed": 5})
    unfinished.close()
    assert coyote_pi(["run", "--sim", "--scripted", "--record-dir", str(tmp_path), *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"coyote-pi run: {given} the cards of a new game, but the newest one, game-0001.jsonl, "
                          "is unfinished") and "add --new" in err and err.count("\n") == 1
    assert sorted(path.name for path in (tmp_path / "sim").glob("*.jsonl")) == ["game-0001.jsonl"]


def test_the_same_plan_and_seed_again_resume_the_game_they_began(tmp_path):
    """After a crash, the same command again goes on with the game it started."""
    path = tmp_path / "game-0001.jsonl"
    RecordedGame.start(path, GameConfig(players=3), {"source": "sim"}, private_meta={"seed": 5, "deal": "max0"}).close()
    unfinished = RecordedGame.resume(path)
    try:
        assert run_command._unplayable_plan(argparse.Namespace(deal=" max0", seed=5), unfinished) is None
        assert run_command._unplayable_plan(argparse.Namespace(deal="max0", seed=None), unfinished) is None
        assert run_command._unplayable_plan(argparse.Namespace(deal="question", seed=5), unfinished).startswith(
            "--deal chooses")
    finally:
        unfinished.close()
