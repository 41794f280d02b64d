"""``coyote-pi replay FILE``: validate a game record and print the final state as JSON.

The record is replayed through the rules engine line by line. An illegal, corrupted,
reordered, truncated or tampered record is rejected with the line number and the
reason (exit status 1). ``--expect`` compares the record's fingerprint (the hash of
its last line, shown on the table's display) with the one noted at the table, which
also catches lines removed from the end.
"""

from __future__ import annotations

import argparse
import json
import sys

from coyote_pi.engine.views import arbiter_state
from coyote_pi.record import RecordError, read_record


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record (.jsonl)")
    parser.add_argument("--expect", metavar="FINGERPRINT",
                        help="the fingerprint shown at the table (its first 8 or more hex digits)")


def run(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.file)
    except RecordError as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 1
    if args.expect:
        expected = args.expect.strip().lower()
        if len(expected) < 8 or not record.fingerprint.startswith(expected):
            print(f"{args.file}: fingerprint {record.fingerprint[:12]}... does not match {expected!r} "
                  "(lines were changed or removed after it was noted)", file=sys.stderr)
            return 1
    state = arbiter_state(record.game)
    state["record"] = {"lines": len(record.lines), "fingerprint": record.fingerprint,
                       "undone_at_lines": record.undone, "meta": record.meta}
    print(json.dumps(state, indent=2, ensure_ascii=False))
    return 0
