"""``coyote-pi bench TARGET``: speed and memory figures, measured side by side in one run.

Targets are never asserted by timed unit tests (CI machines are shared and noisy); each
benchmark prints its figures, the targets they are meant to meet, and the ratios between
paths measured in the same run. Only the chosen target's module is imported.
"""

from __future__ import annotations

import argparse
import importlib

#: target -> module providing ``configure(parser)`` and ``run(args)``.
TARGETS = {
    "engine": "coyote_pi.engine.bench",
    "vision": "coyote_pi.vision.bench",
    "table": "coyote_pi.table.bench",
    "soak": "coyote_pi.sim.soak",
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", choices=TARGETS, help="what to measure")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the target's own options (see TARGET --help)")


def run(args: argparse.Namespace) -> int:
    module = importlib.import_module(TARGETS[args.target])
    parser = argparse.ArgumentParser(prog=f"coyote-pi bench {args.target}", description=module.__doc__)
    module.configure(parser)
    return int(module.run(parser.parse_args(args.options)) or 0)
