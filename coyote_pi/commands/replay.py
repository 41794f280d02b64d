"""``coyote-pi replay FILE``: validate a game record and print the final state as JSON.

The record is replayed through the rules engine line by line. An illegal, corrupted,
reordered, non-canonical, truncated or tampered record is rejected with the line number
(1-based) and the reason (exit status 1). ``--expect`` compares the record's fingerprint
(shown on the table's display at every verdict) with the one noted at the table: the
short form or the full hash of the QR code, in any case, with or without spaces and
dashes. It says what a mismatch means: lines added after the noted one, lines removed
from the end, or lines changed; a match is said on standard error ("fingerprint matches"). ``--photos DIR`` checks the reveal and draw photos the
record names against the files in ``DIR`` (a missing or altered photo: exit status 1).

A record may end in a round still open: its cards are sealed in the file, so the state
printed is the one before that round, and ``open_round`` says where the round starts.
"""

from __future__ import annotations

import argparse
import json
import sys

from coyote_pi.engine.game import OVER
from coyote_pi.engine.views import arbiter_state
from coyote_pi.record import Record, RecordError, check_photos, normalize_fingerprint, read_record


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record (.jsonl)")
    parser.add_argument("--expect", metavar="FINGERPRINT",
                        help="the fingerprint shown at the table (like 7K2M-9QXD-4HTR-BW3N), or the full hash")
    parser.add_argument("--photos", metavar="DIR",
                        help="check the reveal and draw photos in DIR (the game's .photos folder) against the record")


def run(args: argparse.Namespace) -> int:
    noted = None
    if args.expect is not None:
        try:
            noted = normalize_fingerprint(args.expect)
        except ValueError as error:
            print(f"{args.file}: --expect: {error}", file=sys.stderr)
            return 1
    try:
        record = read_record(args.file)
    except RecordError as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 1
    if noted is not None:
        mismatch = _mismatch(record, noted)
        if mismatch:
            print(f"{args.file}: fingerprint {record.fingerprint} does not match {noted}: {mismatch}", file=sys.stderr)
            return 1
        # On standard error: standard output stays the JSON state a script reads.
        print(f"{args.file}: fingerprint matches: {record.fingerprint} is this record's last line "
              f"({len(record.lines)} lines)", file=sys.stderr)
    state = arbiter_state(record.game)
    state["record"] = {"lines": len(record.lines), "fingerprint": record.fingerprint, "last_hash": record.last_hash,
                       "undone_at_lines": record.undone, "meta": record.meta,
                       "open_round": record.open_round.to_dict() if record.open_round else None}
    if args.photos is not None:
        checked, problems = check_photos(record, args.photos)
        for problem in problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        if problems:
            return 1
        state["record"]["photos_checked"] = checked
    print(json.dumps(state, indent=2, ensure_ascii=False))
    return 0


def _mismatch(record: Record, noted: str) -> str | None:
    """What it means that ``noted`` is not the record's fingerprint, or None if it is."""
    total = len(record.lines)
    line = record.line_of(noted)
    if line == total:
        return None
    if line is not None:
        return (f"it is the fingerprint of line {line}: lines 1 to {line} are as they were when it was "
                f"noted, and the {total - line} line(s) after it were added later")
    if record.game.phase != OVER:
        return (f"the record stops at line {total}, before the game is over: lines were removed from its "
                "end after the fingerprint was noted (or it was noted from another record)")
    return "lines were changed after it was noted (or it was noted from another record)"
