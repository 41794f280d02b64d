"""``python -m coyote_pi.commands.golden OUTPUT_DIR`` (``make golden``): write the golden
playthrough transcripts (:mod:`coyote_pi.words.transcript`), then review the diff.

A developer's tool, not a ``coyote-pi`` subcommand.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coyote_pi.cli import run_module
from coyote_pi.words.transcript import GOLDEN_GAMES, transcript


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", type=Path, metavar="OUTPUT_DIR", help="where to write them (tests/golden)")


def run(args: argparse.Namespace) -> int:
    args.out.mkdir(parents=True, exist_ok=True)
    for name, config, seed, physical in GOLDEN_GAMES:
        (args.out / name).write_text(transcript(config, seed, physical), encoding="utf-8")
        print(f"wrote {args.out / name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_module(sys.modules[__name__], "python -m coyote_pi.commands.golden", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
