"""The ``coyote-pi`` command.

Each subcommand is a module of :mod:`coyote_pi.commands`, imported only when it is run,
so ``coyote-pi --help`` answers without loading OpenCV or numpy. A command module
provides two functions::

    def configure(parser: argparse.ArgumentParser) -> None: ...   # add its arguments
    def run(args: argparse.Namespace) -> int: ...                  # the exit status

To add a command, add one line to :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
import textwrap
from types import ModuleType

from coyote_pi import __version__

#: name -> (module, one-line help). Order is the order shown by ``--help``.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("coyote_pi.commands.demo", "play a complete game on simulated hardware and save its output"),
    "run": ("coyote_pi.commands.run", "run the table device (real, desktop or --sim backends)"),
    "resolve": ("coyote_pi.commands.resolve", "resolve challenges given as JSON lines on stdin"),
    "odds": ("coyote_pi.commands.odds", "exact probability that a bid holds, from one seat's view"),
    "replay": ("coyote_pi.commands.replay", "validate a game record by replaying it; print the final state"),
    "review": ("coyote_pi.commands.review", "judge every decision of a finished game from its seat's view"),
    "read": ("coyote_pi.commands.read", "read the cards in camera images"),
    "markers": ("coyote_pi.commands.markers", "write printable marker sticker sheets (PDF, PNG)"),
    "bench": ("coyote_pi.commands.bench", "measure speed and memory: bench engine|vision|table|soak|web|players|review"),
    "doctor": ("coyote_pi.commands.doctor", "check the Pi's hardware, config and service, one line per check"),
    "install": ("coyote_pi.commands.install", "install (or --uninstall) the device on Raspberry Pi OS"),
    "web": ("coyote_pi.commands.web", "serve the table's web page: follow the game, history, records, setup"),
    "hotspot": ("coyote_pi.commands.hotspot", "open the device's own Wi-Fi when no known one is in reach (at boot)"),
}


def _overview() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = [
        f"usage: coyote-pi COMMAND [options]   (coyote-pi {__version__})",
        "",
        "A Raspberry Pi arbiter for the card game Coyote.",
        "",
        "commands:",
    ]
    lines += [f"  {name.ljust(width)}  {text}" for name, (_, text) in COMMANDS.items()]
    lines += ["", "Run 'coyote-pi COMMAND --help' for a command's options."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_overview())
        return 0
    if argv[0] == "--version":
        print(f"coyote-pi {__version__}")
        return 0
    name = argv[0]
    if name not in COMMANDS:
        print(f"coyote-pi: unknown command {name!r}\n\n{_overview()}", file=sys.stderr)
        return 2
    module_name, text = COMMANDS[name]
    return run_module(importlib.import_module(module_name), f"coyote-pi {name}", text, argv[1:])


def run_module(module: ModuleType, prog: str, description: str, argv: list[str] | None = None) -> int:
    """Parse ``argv`` (the process's arguments when None) with ``module.configure`` and
    return ``module.run``'s exit status. The commands run as ``python -m`` (the installer,
    the developers' wiring and golden tools) go through here too."""
    parser = help_parser(prog, description)
    module.configure(parser)
    args = parser.parse_args(argv)
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 141


def help_parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """An argument parser whose ``--help`` shows ``doc`` (a docstring, or one line) as
    :func:`plain_help` words it: every command's parser is made here."""
    return argparse.ArgumentParser(prog=prog, description=plain_help(doc),
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


#: A Sphinx cross-reference: ``:class:`~coyote_pi.sim.clock.SimClock``` and its kin.
_ROLE = re.compile(r":(?:class|meth|func|mod|attr|data|exc|obj|ref|doc|term):`(~?)([^`]+)`")
#: A section title's underline (a line of one repeated punctuation mark).
_UNDERLINE = re.compile(r"^([-=~^*+#])\1{2,}$")


def plain_help(doc: str | None, width: int = 79) -> str:
    """A docstring as a terminal shows it: cross-references as their names, double
    backquotes and emphasis marks dropped, a section title without its underline, ``::``
    as ``:``; prose wrapped to ``width``, while indented blocks (examples, tables) and
    list items keep their lines::

        >>> print(plain_help("Runs :class:`~coyote_pi.sim.clock.SimClock` (``--hours``)::\\n\\n    coyote-pi x\\n\\nDone."))
        Runs SimClock (--hours):
        <BLANKLINE>
            coyote-pi x
        <BLANKLINE>
        Done.
    """
    if not doc:
        return ""
    text = _ROLE.sub(lambda m: m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2), inspect.cleandoc(doc))
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"\1", text.replace("``", ""))
    blocks: list[str] = []
    pending = [block.splitlines() for block in re.split(r"\n\s*\n", text)]
    while pending:
        lines = pending.pop(0)
        if len(lines) >= 2 and _UNDERLINE.match(lines[1].strip()):
            blocks.append(lines[0].strip())  # a section title
            if lines[2:]:
                pending.insert(0, lines[2:])
        elif not lines or lines == ["::"]:
            continue
        elif all(line.startswith((" ", "\t")) for line in lines):
            blocks.append("\n".join(lines).rstrip())  # an example or a table: as written
        elif lines[0].lstrip().startswith(("- ", "* ")):
            items = re.split(r"\n(?=\s*[-*] )", "\n".join(lines))
            blocks.append("\n".join(textwrap.fill(" ".join(item.split()), width, subsequent_indent="  ")
                                    for item in items))
        else:
            blocks.append(textwrap.fill(" ".join(" ".join(lines).split()), width))
    return re.sub(r"::(?=\n|$)", ":", "\n\n".join(blocks))
