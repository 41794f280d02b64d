"""``python -m coyote_pi.commands.wiring``: print, write or check ``docs/wiring.md``.

A developer's tool, not a ``coyote-pi`` subcommand: the wiring guide is generated from
the pin map (:mod:`coyote_pi.devices.wiring`), so it can never disagree with it::

    python -m coyote_pi.commands.wiring --write docs/wiring.md    # after editing the pin map
    python -m coyote_pi.commands.wiring --check docs/wiring.md    # status 1 when it is stale

With no option the document goes to standard output.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coyote_pi.cli import run_module
from coyote_pi.devices.errors import PinMapError
from coyote_pi.devices.pinmap import load_pinmap
from coyote_pi.devices.wiring import REGENERATE_COMMAND, render_wiring


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pinmap", help="pin map file (default: the one shipped with the package)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", metavar="FILE", help="write the document to FILE")
    action.add_argument("--check", metavar="FILE", help="exit 1 when FILE differs from the pin map")


def run(args: argparse.Namespace) -> int:
    try:
        document = render_wiring(load_pinmap(args.pinmap))
    except PinMapError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    if args.check:
        try:
            current = Path(args.check).read_text(encoding="utf-8")
        except OSError as err:
            print(f"error: cannot read {args.check}: {err.strerror or err}", file=sys.stderr)
            return 1
        if current != document:
            print(f"{args.check} is out of date with the pin map; run: {REGENERATE_COMMAND}", file=sys.stderr)
            return 1
        print(f"{args.check} matches the pin map")
        return 0
    if args.write:
        Path(args.write).write_text(document, encoding="utf-8")
        print(f"wrote {args.write}")
        return 0
    sys.stdout.write(document)
    return 0


def main(argv: list[str] | None = None) -> int:
    description = "Print docs/wiring.md generated from the pin map (or write or check it)."
    return run_module(sys.modules[__name__], "python -m coyote_pi.commands.wiring", description, argv)


if __name__ == "__main__":
    raise SystemExit(main())
