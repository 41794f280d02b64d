"""``python -m coyote_pi.commands.hardware`` (``make hardware``): build the printable parts
under ``hardware/`` (:mod:`coyote_pi.parts`): the parameter file from markers.toml, every
part's STL file with OpenSCAD, a preview picture of each, and the manifest.

A developer's tool, not a ``coyote-pi`` subcommand.
"""

from __future__ import annotations

import argparse
import shutil
import sys

from coyote_pi.cli import run_module
from coyote_pi.parts import build, hardware_dir


def configure(parser: argparse.ArgumentParser) -> None:
    """No options: it always builds every part."""


def run(args: argparse.Namespace) -> int:
    if shutil.which("openscad") is None:
        print("openscad is not installed: `make hardware` installs it (apt-get install openscad)", file=sys.stderr)
        return 1
    build(hardware_dir())
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_module(sys.modules[__name__], "python -m coyote_pi.commands.hardware", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
