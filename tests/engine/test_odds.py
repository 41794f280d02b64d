"""Exact odds against an independent brute force, and the ``coyote-pi odds`` command.

The brute force shares nothing with :mod:`coyote_pi.engine.odds` but the rules' own
``score``: it lists every ordered way the cards a seat cannot see (its own card, the
centre card, a Coyote-card draw) and the next deck card (the replacement for ``?``) can
come out of the cards the seat has not seen, and scores each one. Every ordering is
equally likely, so the share of orderings giving each total is that total's chance.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import pairwise, permutations

import pytest

from coyote_pi import cards
from coyote_pi.cli import main
from coyote_pi.engine import Bid, IllegalAction, Peek, UseCoyoteCard, score, seat_view
from coyote_pi.engine.odds import bid_odds, total_distribution


def brute_force_chances(known: list[str], unknown: int) -> dict[int, Fraction]:
    """Each possible total and its chance, by scoring every ordering of the unseen cards."""
    unseen = [card for card in cards.ALL_CARDS if card not in known]
    totals: Counter[int] = Counter()
    for drawn in permutations(unseen, unknown + 1):
        hidden, next_card = drawn[:unknown], drawn[unknown]
        in_play = [*known, *hidden]
        replacement = next_card if cards.QUESTION in in_play else None
        totals[score(in_play, 0, replacement).total] += 1
    orderings = sum(totals.values())
    return {total: Fraction(count, orderings) for total, count in totals.items()}


def chance_at_least(chances: dict[int, Fraction], bid: int) -> Fraction:
    return sum((p for total, p in chances.items() if total >= bid), Fraction(0))


CASES = {
    "numbers only, nothing peeked": (["5", "7"], 2),
    "? seen on a stand": (["?", "7"], 2),
    "? unknown, Max 0 seen": (["max0", "-10"], 2),
    "? and Max 0 both seen": (["?", "max0", "15"], 2),
    "centre peeked": (["5", "7", "3"], 1),
    "peeked centre is Max 0": (["20", "max0"], 1),
    "an unseen Coyote-card draw": (["5", "?"], 3),
    "six players": (["20", "15", "10", "-10", "-5"], 2),
    "two players, own draw seen": (["9", "max0"], 2),
}


@pytest.mark.parametrize("known,unknown", CASES.values(), ids=CASES.keys())
def test_distribution_matches_brute_force(known, unknown):
    distribution = total_distribution(known, unknown)
    chances = {total: Fraction(count, distribution.outcomes) for total, count in distribution.counts.items()}
    assert chances == brute_force_chances(known, unknown)


@pytest.mark.parametrize("known,unknown", CASES.values(), ids=CASES.keys())
def test_chance_of_a_bid_is_a_probability_that_falls_as_the_bid_rises(known, unknown):
    distribution = total_distribution(known, unknown)
    lowest, highest = min(distribution.counts), max(distribution.counts)
    chances = [distribution.probability_at_least(bid) for bid in range(lowest - 2, highest + 3)]
    assert all(0 <= p <= 1 for p in chances)
    assert all(later <= earlier for earlier, later in pairwise(chances))
    assert distribution.probability_at_least(lowest) == 1
    assert distribution.probability_at_least(highest + 1) == 0


def test_highest_even_bid_matches_brute_force():
    known, unknown = ["5", "?", "-10"], 2
    chances = brute_force_chances(known, unknown)
    expected = max(total for total in chances if chance_at_least(chances, total) >= Fraction(1, 2))
    assert total_distribution(known, unknown).highest_bid_with(Fraction(1, 2)) == expected


def test_odds_from_a_seat_view_use_exactly_what_the_seat_knows(coyote_card_round, make_deal):
    """Trickster, round 2: seat 2 peeks and draws 20 with the Coyote card; seat 3 peeks."""
    game = coyote_card_round(make_deal({1: "5", 2: "?", 3: "max0"}, "8", "20"))
    for event in (Peek(2), UseCoyoteCard(2), Bid(2, 4), Peek(3)):
        game.apply(event)
    situations = {
        1: (["?", "max0"], 3),  # sees two stands; own card, centre and the draw unknown
        2: (["5", "max0", "8", "20"], 1),  # peeked the centre and drew the 20: only its own card
        3: (["5", "?", "8"], 2),  # peeked the centre; own card and seat 2's draw unknown
    }
    for seat, (known, unknown) in situations.items():
        chances = brute_force_chances(known, unknown)
        for bid in (-5, 10, 25, 40):
            assert bid_odds(seat_view(game, seat), bid) == chance_at_least(chances, bid), (seat, bid)


def test_odds_refuse_impossible_knowledge():
    with pytest.raises(IllegalAction, match="appears twice among the known cards"):
        total_distribution(["5", "5"], 2)
    with pytest.raises(IllegalAction, match="16 unknown cards cannot be in play") as caught:
        total_distribution(["5"], 16)
    assert caught.value.code == "bad_odds_query"


# ---------------------------------------------------------------------------- the command


def run_odds(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["odds", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "args,known,unknown",
    [
        (["--see", "5", "?", "-10"], ["5", "?", "-10"], 2),
        (["--see", "5", "?", "-10", "--centre", "7"], ["5", "?", "-10", "7"], 1),
        (["--see", "5", "?", "--extra"], ["5", "?"], 3),
        (["--see", "5", "Max 0", "--my-draw", "8"], ["5", "max0", "8"], 2),
    ],
    ids=["basic", "peeked", "other-seat-drew", "own-draw"],
)
def test_odds_command_json_matches_brute_force(capsys, args, known, unknown):
    status, out, err = run_odds(capsys, "12", *args, "--json")
    assert (status, err) == (0, "")
    answer = json.loads(out)
    chances = brute_force_chances(known, unknown)
    assert Fraction(answer["favourable"], answer["outcomes"]) == chance_at_least(chances, 12)
    assert answer["probability"] == pytest.approx(float(chance_at_least(chances, 12)))
    shown = {int(total): Fraction(count, answer["outcomes"]) for total, count in answer["totals"].items()}
    assert shown == chances


def test_odds_command_takes_a_negative_bid_before_see_and_five_stands(capsys):
    status, out, _ = run_odds(capsys, "-3", "--see", "1", "2", "3", "4", "5", "--json")
    assert status == 0
    answer = json.loads(out)
    assert answer["bid"] == -3
    assert Fraction(answer["favourable"], answer["outcomes"]) == chance_at_least(
        brute_force_chances(["1", "2", "3", "4", "5"], 1), -3)


def test_odds_command_text_output(capsys):
    status, out, _ = run_odds(capsys, "12", "--see", "5", "?", "-10")
    chance = chance_at_least(brute_force_chances(["5", "?", "-10"], 2), 12)
    assert status == 0
    assert f"The bid 12 holds with probability {float(chance):.4f}" in out
    assert "The highest bid that holds at least half the time:" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (["12", "--see", "5", "11"], '"11" is not a Coyote card'),
        (["12", "--see", "5", "5"], "5 appears twice among the known cards"),
        (["12", "--see", "5", "--centre", "5"], "5 appears twice"),
        (["12", "--see", "5", "--my-draw", "joker"], '"joker" is not a Coyote card'),
        (["12", "--see", "1", "2", "3", "4", "5", "6"], "at most 5 at a table of 6, not 6"),
    ],
    ids=["unknown-card", "seen-twice", "centre-seen", "bad-draw", "more-stands-than-a-table-has"],
)
def test_odds_command_bad_cards_exit_2_with_one_line(capsys, args, message):
    status, out, err = run_odds(capsys, *args)
    assert (status, out) == (2, "")
    assert err.startswith("coyote-pi odds: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("args,message", [(["twelve", "--see", "5"], "invalid int value"),
                                          (["12"], "--see"),
                                          (["12", "--see", "5", "--extra", "--my-draw", "3"], "not allowed with")])
def test_odds_command_bad_arguments_exit_2(capsys, args, message):
    with pytest.raises(SystemExit) as caught:
        main(["odds", *args])
    assert caught.value.code == 2
    assert message in capsys.readouterr().err


def test_odds_command_runs_as_a_program():
    done = subprocess.run([sys.executable, "-m", "coyote_pi", "odds", "12", "--see", "5", "11"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == ('coyote-pi odds: "11" is not a Coyote card (cards: -10, -5, 0, 1, 2, 3, 4, 5, '
                                   "6, 7, 8, 9, 10, 15, 20, ?, Max 0)")
