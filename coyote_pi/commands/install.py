"""``coyote-pi install``: run the installer (:mod:`coyote_pi.pi.install`) and say what it did.

On the Pi, in an unpacked release, ``sudo python3 -m coyote_pi.commands.install`` runs it
with the system python3, before the virtual environment exists (``sudo make install`` is
the same, where make is installed): like the installer, this module uses the standard
library only.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from coyote_pi.cli import run_module
from coyote_pi.pi import install
from coyote_pi.pi.install import Installer, InstallError, UnsupportedRelease, print_command, run_command


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--uninstall", action="store_true", help="remove what the installer added")
    parser.add_argument("--dry-run", action="store_true", help="print every step it would take; change nothing")
    parser.add_argument("--skip-apt", action="store_true", help="neither install nor remove apt packages")
    parser.add_argument(
        "--skip-apt-package",
        action="append",
        default=[],
        metavar="NAME",
        help="do not install this apt package (e.g. python3-picamera2 off a Pi); repeatable",
    )
    parser.add_argument(
        "--purge",
        action="store_true",
        help="with --uninstall: also remove an edited configuration and the game records",
    )
    parser.add_argument(
        "--root",
        default="/",
        metavar="DIR",
        help="install into DIR instead of / (files only: system commands are printed, not run)",
    )


def run(args: argparse.Namespace) -> int:
    root = Path(args.root)
    real_root = root.resolve() == Path("/")
    if real_root and not args.dry_run and os.geteuid() != 0:
        verb = "uninstall" if args.uninstall else "install"
        command = "sudo python3 -m coyote_pi.commands.install" + (" --uninstall" if args.uninstall else "")
        print(f"coyote-pi {verb}: needs root: run `{command}` (or `sudo make {verb}`) in the release's folder, "
              "or add --dry-run to see the steps", file=sys.stderr)
        return 1
    if not root.is_dir():
        print(f"coyote-pi install: --root {root} is not a folder", file=sys.stderr)
        return 2
    if args.purge and not args.uninstall:
        print("coyote-pi install: --purge goes with --uninstall", file=sys.stderr)
        return 2
    what = "Uninstalling" if args.uninstall else "Installing"
    print(f"{what} coyote-pi{' (dry run: nothing is changed)' if args.dry_run else ''}, root {root}:")
    try:
        installer = Installer(
            root,
            run_command if real_root else print_command,
            dry_run=args.dry_run,
            skip_apt=args.skip_apt,
            skip_packages=args.skip_apt_package,
            purge=args.purge,
        )
        report = installer.uninstall() if args.uninstall else installer.install()
    except UnsupportedRelease as err:  # checked before any step: nothing to pick up later
        print(f"coyote-pi install: {err}", file=sys.stderr)
        return 1
    except InstallError as err:
        done = "Dry run: nothing was changed." if args.dry_run else "Steps before it are done; run again once fixed."
        print(f"coyote-pi install: {err}. {done}", file=sys.stderr)
        return 1
    for note in report.notes:
        print(note)
    if not report.steps:
        print(
            "Nothing to do: "
            + ("nothing of coyote-pi is installed." if args.uninstall else "coyote-pi is installed and up to date.")
        )
    elif args.dry_run:
        print(f"Dry run: {len(report.steps)} steps would run; nothing was changed.")
    else:
        print(f"Done: {len(report.steps)} steps.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python3 -m coyote_pi.commands.install [options]``: the same command without ``coyote-pi``."""
    description = install.__doc__.splitlines()[0]
    arguments = None if argv is None else list(argv)
    return run_module(sys.modules[__name__], "python3 -m coyote_pi.commands.install", description, arguments)


if __name__ == "__main__":  # `sudo make install` starts here, with the system python3
    raise SystemExit(main())
