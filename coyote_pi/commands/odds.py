"""``coyote-pi odds``: the exact chance that a bid holds, from one seat's point of view.

Give what the seat sees: the other seats' cards (``--see``), the centre card if it
peeked (``--centre``), and whether a Coyote-card draw lies in the centre (``--extra``
if someone else drew it, ``--my-draw CARD`` if this seat did)::

    coyote-pi odds 12 --see 5 ? -10
    coyote-pi odds 12 --see 5 ? -10 --centre 7 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction

from coyote_pi import cards
from coyote_pi.engine.errors import IllegalAction, Refusal
from coyote_pi.engine.game import MAX_PLAYERS
from coyote_pi.engine.odds import total_distribution


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "a negative bid goes first: coyote-pi odds -3 --see 5 -10"
    parser.add_argument("bid", type=int, help="the bid whose chance to hold is wanted")
    parser.add_argument("--see", nargs="+", required=True, metavar="CARD",
                        help=f"the cards on the other seats' stands (1 to {MAX_PLAYERS - 1})")
    parser.add_argument("--centre", metavar="CARD", help="the centre card, if this seat peeked")
    extra = parser.add_mutually_exclusive_group()
    extra.add_argument("--extra", action="store_true", help="another seat drew with the Coyote card")
    extra.add_argument("--my-draw", metavar="CARD", help="the card this seat drew with the Coyote card")
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    try:
        if len(args.see) > MAX_PLAYERS - 1:
            raise IllegalAction(f"--see takes the other stands' cards: at most {MAX_PLAYERS - 1} at a table of "
                                f"{MAX_PLAYERS}, not {len(args.see)}", code=Refusal.BAD_ODDS_QUERY)
        known = cards.parse_cards(args.see)
        if args.centre:
            known.append(cards.parse_card(args.centre))
        if args.my_draw:
            known.append(cards.parse_card(args.my_draw))
        unknown = 1 + (args.centre is None) + bool(args.extra)
        distribution = total_distribution(known, unknown)
    except (cards.CardError, IllegalAction) as error:
        print(f"coyote-pi odds: {error}", file=sys.stderr)
        return 2
    chance = distribution.probability_at_least(args.bid)
    fair = distribution.highest_bid_with(Fraction(1, 2))
    if args.json:
        print(json.dumps({
            "bid": args.bid,
            "probability": float(chance),
            "favourable": distribution.count_at_least(args.bid),
            "outcomes": distribution.outcomes,
            "highest_even_bid": fair,
            "totals": {str(t): n for t, n in sorted(distribution.counts.items())},
        }))
    else:
        print(f"The bid {args.bid} holds with probability {float(chance):.4f} "
              f"({distribution.count_at_least(args.bid)} of "
              f"{distribution.outcomes} equally likely outcomes).")
        print(f"The highest bid that holds at least half the time: {fair}.")
    return 0
