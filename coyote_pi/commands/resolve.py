"""``coyote-pi resolve``: score challenges given as JSON lines, a stable scripting contract.

Input, one JSON object per line on standard input::

    {"bid": 12, "cards": ["5", "?", "max0", "-10"], "deck": ["7", "3"]}

``cards`` are all the cards in play (seats and centre), ``deck`` the rest of the deck,
top first (needed only when ``?`` is in play). Output, one JSON object per input line::

    {"total": -5, "challenger_wins": true, "explanation": ["...", "..."], ...}

``explanation`` is the table's own sentences, from the catalogs, in the language of
``--language`` (English unless given).

A line that cannot be scored gets ``{"error": "...", "line": N}`` (N counts every input
line from 1, blank ones too); the other lines are still answered and the exit status
is 1. Blank lines are skipped. docs/rules.md ("Scoring from a script") has the whole
contract.
"""

from __future__ import annotations

import argparse
import json
import sys

from coyote_pi import cards, json_text
from coyote_pi.engine.errors import IllegalAction
from coyote_pi.engine.rules import check_distinct, score
from coyote_pi.locale import LANGUAGES
from coyote_pi.words.translator import Translator
from coyote_pi.words.verdict import score_lines


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="the language of the explanation (default: en)")
    parser.epilog = 'example: echo \'{"bid": 12, "cards": ["5", "?", "max0", "-10"], "deck": ["7"]}\' | coyote-pi resolve'


def resolve_line(text: str, tr: Translator) -> dict[str, object]:
    """Score one input line, explained in ``tr``'s language; raise ValueError with a readable
    message if it is bad."""
    request = json_text.loads(text)  # its JSONTextError is a ValueError with a readable message
    if not isinstance(request, dict):
        raise ValueError("each line must be a JSON object with 'bid' and 'cards'")
    unknown = set(request) - {"bid", "cards", "deck"}
    if unknown:
        raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
    bid = request.get("bid")
    if isinstance(bid, bool) or not isinstance(bid, int):
        raise ValueError(f"'bid' must be a whole number, got {json_text.spelled(bid)}")
    in_play, deck = request.get("cards"), request.get("deck", [])
    if not isinstance(in_play, list) or not in_play:
        raise ValueError("'cards' must be a non-empty list of the cards in play")
    if not isinstance(deck, list):
        raise ValueError("'deck' must be a list of cards, top first")
    try:
        in_play, deck = cards.parse_cards(in_play), cards.parse_cards(deck)
        check_distinct(in_play + deck, "cards and deck")
        replacement = None
        if cards.QUESTION in in_play:
            if not deck:
                raise ValueError("? is in play: give the rest of the deck in 'deck' (top first)")
            replacement = deck[0]
        scored = score(in_play, bid, replacement)
        return {**scored.to_dict(), "explanation": score_lines(tr, scored)}
    except (cards.CardError, IllegalAction) as error:
        raise ValueError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    tr = Translator(args.language)
    status = 0
    # Bytes, decoded line by line: a line that is not UTF-8 is refused on its own,
    # instead of reaching the card names as undecodable characters.
    for number, raw in enumerate(sys.stdin.buffer, start=1):
        try:
            text = raw.decode("utf-8").rstrip("\r\n")
            if not text.strip():
                continue
            answer = resolve_line(text, tr)
        except UnicodeDecodeError:
            answer, status = {"error": "not UTF-8 text", "line": number}, 1
        except ValueError as error:
            answer, status = {"error": str(error), "line": number}, 1
        print(json.dumps(answer, ensure_ascii=False), flush=True)
    return status
