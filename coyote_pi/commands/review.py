"""``coyote-pi review FILE``: every decision of a finished game judged from what its seat
could see then (docs/review.md).

The record is read and checked as ``replay`` reads it; an invalid or unfinished record is
refused with one line (exit status 1). ``--seat N`` reviews one seat, ``--language`` picks
the words, ``--json`` prints the review for machines. ``--so-far`` reviews the rounds
already over of a game still being written, read as the web page reads it: the round still
open is sealed in the file, so it is never judged.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from coyote_pi.engine.game import OVER
from coyote_pi.locale import LANGUAGES
from coyote_pi.record import RecordError, read_record
from coyote_pi.review.judge import review_record
from coyote_pi.review.texts import review_lines
from coyote_pi.words.translator import Translator


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a finished game record (.jsonl)")
    parser.add_argument("--seat", type=int, metavar="N", help="review this seat only")
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="the language of the review (default: en)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument("--so-far", action="store_true",
                        help="review the rounds already over of a game still being written (the web page's use)")


def run(args: argparse.Namespace) -> int:
    tr = Translator(args.language)
    try:
        record = read_record(args.file, allow_torn_tail=args.so_far)
    except RecordError as error:
        print(tr("review.invalid", file=args.file, error=error), file=sys.stderr)
        return 1
    if record.game.phase != OVER and not args.so_far:
        print(tr("review.unfinished", file=args.file), file=sys.stderr)
        return 1
    players = record.game.config.players
    if args.seat is not None and not 1 <= args.seat <= players:
        print(tr("review.no_seat", seat=args.seat, players=players), file=sys.stderr)
        return 1
    review = review_record(record, Path(args.file).name).to_dict(args.seat)
    if args.json:
        print(json.dumps(review, indent=2, ensure_ascii=False))
        return 0
    title = tr("review.title", file=args.file, players=players, variant=tr(f"variant.{record.game.variant}"))
    print("\n".join(review_lines(tr, review, title)))
    return 0
