"""``coyote-pi run``: the table device, on real hardware or simulated.

Real table (what the systemd service runs)::

    coyote-pi run --config /etc/coyote-pi/config.toml

reads the TOML configuration (see ``coyote_pi/data/coyote-pi.example.toml``), opens the
display, buttons and camera it names, resumes the newest unfinished game of the
record folder (``--new`` starts a fresh one instead), tells systemd it is ready and
pings its watchdog from the main loop. After a game the table offers a new one.

Simulated table::

    coyote-pi run --sim                 # you press the seats' keys, the OLED is drawn in the terminal
    coyote-pi run --sim --deal question # ... and round 1 has ? in the centre (see coyote_pi.sim.deals)
    coyote-pi run --sim --scripted      # scripted players press mock GPIO pins; ends with the game
    coyote-pi run --sim --web           # ... and the table's web page at http://127.0.0.1:8080/
    coyote-pi run --sim --speak         # ... saying bids and verdicts aloud (--speak DIR: as WAV files)
    coyote-pi run --sim --coach         # ... and each move of a seat you play judged from its view (docs/review.md)

The camera is the synthetic table: scripted hands deal real cards from a seeded deck
into the rendered scene, turn them up at the reveal and draw for ``?``; the controller
sees only rendered frames, read by the real vision code. With a person at the keys, the
terminal (:mod:`coyote_pi.sim.console`) shows the OLED, the table as one seat sees it,
the keys and the record. Simulated games keep their records in ``<record dir>/sim``
(by default ``~/.local/share/coyote-pi/games/sim``); the path is printed at the start
and the end. With ``--web [HOST:PORT]`` the table publishes for its web page and runs
the page (``coyote-pi web``) as a child process on the simulation's folders
(:mod:`coyote_pi.sim.web_page`), stopped with the table; on the Pi the page is its own
service and the configuration's ``[web]`` section says where it is.

Flags override the configuration file; a bad file or flag is reported in one line, and
so is a record folder that is not a writable folder or that another table is using
(each table locks its folder while it runs).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import logging
import random
import re
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

from coyote_pi.config import ConfigError, GameSettings, TableConfig, check_game_settings, load_config, split_listen
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.errors import DeviceConfigError, DeviceError, PinMapError
from coyote_pi.devices.keyboard import KeyboardButtons
from coyote_pi.locale import LANGUAGES
from coyote_pi.memory import tune_malloc
from coyote_pi.pi import doctor, journal, notify
from coyote_pi.players import levels_text
from coyote_pi.speech.speaker import speech_or_none
from coyote_pi.table import stages
from coyote_pi.table.part import Table
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.table.rig import Resumption, Rig, open_rig, resume_newest
from coyote_pi.table.store import RecordStore, TableMemory, Unresumable, lock_folder
from coyote_pi.words.translator import Translator

if TYPE_CHECKING:
    from coyote_pi.record import RecordedGame
    from coyote_pi.sim.rig import SimRig
    from coyote_pi.sim.web_page import WebPage

#: The exit status for a bad configuration file or flag. The unit's RestartPreventExitStatus=
#: names it: restarting cannot fix a file, so systemd stops instead of looping.
CONFIG_ERROR = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration (default: built-in defaults)")
    parser.add_argument("--sim", action="store_true", help="simulated table: synthetic camera, keyboard or scripted players")
    parser.add_argument("--scripted", action="store_true", help="with --sim: scripted players press mock GPIO pins")
    parser.add_argument("--new", action="store_true", help="start a new game instead of resuming the newest unfinished one")
    parser.add_argument("--players", type=int, metavar="N", help="number of players, 2-6 (--sim: the table's stands)")
    parser.add_argument("--variant", choices=("basic", "trickster"))
    parser.add_argument("--language", choices=LANGUAGES)
    parser.add_argument("--start-seat", metavar="SEAT", help='the seat that starts round 1, or "ask"')
    parser.add_argument("--virtual", metavar="SEATS",
                        help='seats the table plays itself, e.g. "3:strong" or "2:cautious,3:bluffer" '
                             f"(levels: {levels_text()}; docs/players.md)")
    parser.add_argument("--record-dir", metavar="DIR", help="where game records are kept")
    parser.add_argument("--seed", type=int, help="--sim: the seed of the next new game's deck and players "
                                                 "(later games draw their own)")
    parser.add_argument("--deal", metavar="PLAN",
                        help='--sim: the cards of some rounds of the next new game, e.g. "5,?,max0,-10;*;question" '
                             "(stands from seat 1, then the centre, then the deck's top; * from the shuffle; rounds "
                             "split by ;) or a scenario: question, max0, coyote-card; an unfinished newest game is "
                             "resumed as it was dealt, so another plan then needs --new (docs/simulator.md)")
    # A plan may begin with a negative card ("-10,5,7,9"): argparse would take it for an
    # option, as it takes anything after a dash but a plain negative number. No option of
    # this command begins with a dash and a digit, so such a word is always a value.
    parser._negative_number_matcher = re.compile(r"^-\d")
    parser.add_argument("--camera-size", metavar="WxH", help="--sim: the synthetic camera's frame size (default 2304x1296)")
    parser.add_argument("--no-view", action="store_true", help="--sim --scripted: do not draw the OLED in the terminal")
    parser.add_argument("--coach", action="store_true",
                        help="--sim: judge each move of a seat you play, from that seat's view (docs/review.md)")
    parser.add_argument("--web", nargs="?", const="127.0.0.1:8080", metavar="HOST:PORT",  # sim.web_page.DEFAULT_LISTEN
                        help="--sim: serve the table's web page too (default address 127.0.0.1:8080)")
    parser.add_argument("--speak", nargs="?", const="", metavar="DIR",
                        help="say the table's public events aloud with espeak-ng through this computer's sound "
                             "(as [speech] enabled does), or into DIR as WAV files and phrases.txt")
    parser.add_argument("-v", "--verbose", action="store_true", help="log the play-by-play")


def run(args: argparse.Namespace) -> int:
    tune_malloc()  # camera frames are large and short-lived: give them back to the OS
    journal.configure_logging(logging.INFO if args.verbose or not args.sim else logging.WARNING)
    try:
        config, devices_config = _settings(args)
        folder_lock = lock_folder(config.record_dir)
    except (ConfigError, DeviceError) as error:
        journal.print_error(f"coyote-pi run: {error}")
        return CONFIG_ERROR
    with folder_lock:
        try:
            return _run_table(args, config, devices_config)
        except DeviceError as error:
            journal.print_error(f"coyote-pi run: {error}")
            # A setting or pin map a device refuses is the file's fault too; anything else may pass.
            return CONFIG_ERROR if isinstance(error, (DeviceConfigError, PinMapError)) else 1


def _settings(args: argparse.Namespace) -> tuple[TableConfig, DevicesConfig]:
    """The table and device configuration: file, then preset, then flags."""
    config = load_config(args.config)
    try:
        devices_config = DevicesConfig.from_mapping(config.devices, preset="sim" if args.sim else "real")
    except DeviceConfigError as error:
        raise ConfigError(f"{config.source}: {error}") from None
    start = args.start_seat
    if start is not None and start != "ask":
        if not start.isdigit():
            raise ConfigError(f'--start-seat must be a seat number or "ask", not {start!r}')
        start = int(start)
    flags = GameSettings(args.players, args.variant, args.language, None if start == "ask" else start, args.virtual)
    check_game_settings(flags)
    config = config.with_game(**{k: v for k, v in dataclasses.asdict(flags).items() if v is not None})
    if start == "ask":
        config = config.with_game(start_seat=None)
    if args.record_dir:
        config = config.replace(record_dir=Path(args.record_dir))
    if args.speak is not None:
        config = config.replace(speech=dataclasses.replace(config.speech, enabled=True))
    if args.sim:
        config, devices_config = _sim_settings(args, config, devices_config)
    elif args.deal is not None:
        raise ConfigError("--deal chooses the cards of the simulated table: use it with --sim")
    elif args.web is not None:
        raise ConfigError("--web serves the simulated table's page: use it with --sim "
                          "(on the Pi the page is its own service: [web] in the configuration)")
    elif args.coach:
        raise ConfigError("--coach judges the moves of the simulated table: use it with --sim")
    return config, devices_config


def _sim_settings(args: argparse.Namespace, config: TableConfig,
                  devices_config: DevicesConfig) -> tuple[TableConfig, DevicesConfig]:
    # Here, not at the top: the real table never loads the simulation (tests/test_layers.py).
    from coyote_pi.sim.rig import sim_record_dir

    players = config.game.players or 4
    config = config.with_game(players=players).replace(record_dir=sim_record_dir(config))
    if args.deal is not None:
        config = _with_deal(args.deal, config)
    if args.web is not None:
        split_listen(args.web)
        config = config.with_web(enabled=True, listen=args.web, url="")
    width, height = _size(args.camera_size or "2304x1296")
    camera = dataclasses.replace(devices_config.camera, backend="synthetic", width=width, height=height)
    buttons = dataclasses.replace(devices_config.buttons, backend="mock" if args.scripted else "keyboard")
    terminal = not _has_console(args) and not (args.scripted and args.no_view)  # else the console draws the OLED
    display = dataclasses.replace(devices_config.display, driver="dummy", terminal=terminal)
    return config, dataclasses.replace(devices_config, camera=camera, buttons=buttons, display=display)


def _has_console(args: argparse.Namespace) -> bool:
    """A person plays ``run --sim`` in a terminal: the simulated table's console draws it."""
    return args.sim and not args.scripted and sys.stdout.isatty()


def _with_deal(text: str, config: TableConfig) -> TableConfig:
    """Check the ``--deal`` plan; a round with the Coyote card makes the game Trickster."""
    from coyote_pi.engine.game import Variant
    from coyote_pi.sim.deals import DealError, parse_deal

    try:
        plan = parse_deal(text)
    except DealError as error:
        raise ConfigError(f"--deal {text!r}: {error}") from None
    if plan.needs_trickster:
        if config.game.variant == Variant.BASIC:
            raise ConfigError(f"--deal {text!r}: the Coyote card is only in the Trickster variant "
                              "(leave out --variant basic)")
        config = config.with_game(variant=Variant.TRICKSTER)
    return config


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise ConfigError(f"--camera-size must look like 2304x1296, not {text!r}") from None
    if not (64 <= width <= 8192 and 64 <= height <= 8192):
        raise ConfigError(f"--camera-size {text} is outside 64..8192 pixels")
    return width, height


def _run_table(args: argparse.Namespace, config: TableConfig, devices_config: DevicesConfig) -> int:
    # What run prints for a person is in the table's language (at the end: as its setup left it).
    tr = Translator(config.game.language or "en")
    # A scripted simulation ends with its game: a finished one is not shown again.
    resumption = resume_newest(config, new=args.new, finished=not (args.sim and args.scripted))
    table = resumption.table
    if args.sim and isinstance(table, tuple) and (refused := _unplayable_plan(args, table[0])) is not None:
        table[0].close()
        journal.print_error(f"coyote-pi run: {refused}")
        return CONFIG_ERROR
    if isinstance(table, tuple):
        print(_resumed_line(table[0], tr), file=sys.stderr)
    elif table is not None:  # the table shows it and waits for ok before a new game
        print(tr("run.not_resumed", path=table.path, reason=table.reason), file=sys.stderr)
    page = _start_page(args, config, tr)
    rig: Rig
    try:
        if args.sim:
            print(f"coyote-pi run --sim: {tr('run.records', folder=config.record_dir)}", file=sys.stderr)
            rig, finished = _open_sim(args, config, devices_config, resumption, page, tr)
        else:
            rig = _open_real(config, devices_config, table, None if resumption.skipped is None else resumption.skipped.stem,
                             args.config, speak=args.speak)
        try:
            signals = _stop_on_signals(rig.controller)
            rig.run(until_over=args.sim and args.scripted)
        finally:
            rig.close()
            if args.sim:
                _say_where_the_records_are(rig.controller, finished)
    finally:
        if page is not None and (status := page.stop()) is not None:
            print(f"coyote-pi run --sim: {tr('run.page_ended', status=status, log=page.log_file)}", file=sys.stderr)
    if signal.SIGINT in signals:
        return 130  # as a shell reports a command ended by Ctrl-C
    game, tr = rig.controller.state.game, rig.controller.tr
    if game is not None and game.winner is not None:
        recorded = rig.controller.state.playing()
        print(tr("run.winner", seat=game.winner, path=recorded.path, fingerprint=recorded.writer.fingerprint))
    return 0


def _unplayable_plan(args: argparse.Namespace, resumed: RecordedGame) -> str | None:
    """Why --deal or --seed cannot choose the cards of the next game: the newest game (the
    record ``resumed``) is unfinished and deals on as it began, with another plan or seed
    (None: they can; the same command again after a crash resumes the game it started)."""
    if resumed.game.winner is not None:
        return None
    recorded = resumed.private_meta
    given = [flag for flag, value, kept in (("--deal", args.deal and args.deal.strip(), recorded.get("deal")),
                                            ("--seed", args.seed, recorded.get("seed")))
             if value is not None and value != kept]
    if not given:
        return None
    verb = "choose" if len(given) > 1 else "chooses"
    return (f"{' and '.join(given)} {verb} the cards of a new game, but the newest one, {resumed.path.name}, is "
            "unfinished and run --sim resumes it as it was dealt: add --new to start the new game now "
            "(that one is kept), or finish it first")


def _start_page(args: argparse.Namespace, config: TableConfig, tr: Translator) -> WebPage | None:
    """``--sim --web``: the page as a child process on the simulation's folders, said where
    it is (None: no page; also when another program holds its address: said so)."""
    if not (args.sim and args.web):
        return None
    from coyote_pi.sim.web_page import WebPage, address_taken  # the simulation's: see _sim_settings

    if address_taken(args.web):
        print(f"coyote-pi run --sim: {tr('run.page_busy', address=args.web)}", file=sys.stderr)
        return None
    page = WebPage(config.record_dir, *config.web_folders(), args.web, config.record_dir.parent / "web.log").start()
    print(f"coyote-pi run --sim: {_page_line(page, tr)}", file=sys.stderr)
    return page


def _page_line(page: WebPage, tr: Translator) -> str:
    """Where the page is, or why it is not (``page`` a started WebPage)."""
    if page.serving():
        return tr("run.page", url=page.url, log=page.log_file)
    return tr("run.page_ended", status=page.process.returncode if page.process is not None else "?", log=page.log_file)


def _watch_page(page: WebPage | None, args: argparse.Namespace, tr: Translator,
                show: Callable[[str], None]) -> None:
    """Show where the page is (``show(line)``), and again if it stops by itself while the
    table runs (its address is then no longer this table's page)."""
    if page is None:
        show(tr("run.page_busy", address=args.web))
        return
    show(_page_line(page, tr))
    process = page.process
    if process is None:  # stopped already: nothing left to watch
        return

    def watch() -> None:
        process.wait()
        if page.process is process:  # not stopped by this command: ended by itself
            show(_page_line(page, tr))

    threading.Thread(target=watch, name="web page watch", daemon=True).start()


def _resumed_line(table: RecordedGame, tr: Translator) -> str:
    """What the command says of the record it opens: a finished game is not "resumed"."""
    game = table.game
    if game.winner is None:
        return tr("run.resuming", path=table.path)
    return tr("run.over_shown", path=table.path, seat=game.winner)


def check_line(table: RecordedGame, tr: Translator) -> str:
    """How to check a finished game's record (``table``, a RecordedGame) with replay."""
    return tr("run.check", path=table.path, fingerprint=table.writer.fingerprint)


class RunningTable(Table, Protocol):
    """What the command asks of the running controller (only the builders import it:
    tests/test_layers.py)."""

    store: RecordStore

    def stop(self) -> None: ...


class FinishedGames(Listener):
    """The games of one ``run --sim`` that end while it runs: each one's :func:`check_line`
    goes to ``tell`` as the game ends, and stays in :attr:`lines` for the end of the command.
    A game that was over before (a finished record reopened) is not one of them."""

    def __init__(self, controller: Table, tell: Callable[[str], None]) -> None:
        self.controller = controller
        self.lines: list[str] = []
        self._tell = tell
        game, recorded = controller.state.game, controller.state.recorded
        self._over_before = recorded.path if recorded is not None and game is not None and game.winner is not None else None

    def on_prompt(self, prompt: Prompt) -> None:
        table = self.controller.state.recorded
        if prompt.stage != stages.GAME_OVER or table is None or table.path == self._over_before:
            return
        check = check_line(table, self.controller.tr)
        if check not in self.lines:
            self.lines.append(check)
            self._tell(check)


class UntilTheNextGame(Listener):
    """Calls ``withdraw`` once a game other than the one the table showed at the start
    has its record: a notice about the next new game (``--deal``'s plan) goes once that
    game has started."""

    def __init__(self, controller: Table, withdraw: Callable[[], None]) -> None:
        self.controller = controller
        self._withdraw: Callable[[], None] | None = withdraw
        self._shown = getattr(controller.state.recorded, "path", None)

    def on_prompt(self, prompt: Prompt) -> None:
        table = self.controller.state.recorded
        if self._withdraw is not None and table is not None and table.path != self._shown:
            self._withdraw()
            self._withdraw = None


def _say_where_the_records_are(controller: RunningTable, finished: FinishedGames) -> None:
    """At the end of ``run --sim`` (also after Ctrl-C): where the game in play is, and how
    to check every game played to its end since the command started (not a finished one
    it only opened)."""
    table, tr = controller.state.recorded, controller.tr
    checks = finished.lines
    if table is not None and controller.game.winner is None:  # replay would show the open round's cards
        print(tr("run.unfinished", path=table.path), file=sys.stderr)
    elif not checks:
        print(tr("run.no_game", folder=controller.store.folder), file=sys.stderr)
    if checks:
        print(tr.plural("run.finished", len(checks)), *checks, sep="\n  ", file=sys.stderr)


def _open_real(config: TableConfig, devices_config: DevicesConfig, table: tuple[RecordedGame, TableMemory] | Unresumable | None, not_resumed: str | None = None,
               config_file: str | None = None, speak: str | None = None) -> Rig:
    """The real table; it never loads the simulation, unless the configuration asks for
    a part only the simulation has (a failing camera, a glitching display). The command
    line hands the table systemd's notifier and the doctor's checks its web page may ask
    for: the table knows only the Notifier protocol and a function that returns checks."""
    options: dict[str, Any] = dict(resumed=table, meta={"source": "table"}, notifier=notify, new_game_when_over=True,
                                   not_resumed=not_resumed,
                                   web_doctor=functools.partial(doctor.in_table_checks, config_file),
                                   speech=speech_or_none(config.speech, speak))
    if devices_config.camera.backend == "synthetic":
        # Test-only (make test-boot, ci/test-boot.toml): scripted hands lay the cards of the
        # deck of [camera] seed for the synthetic camera, nobody presses a button.
        from coyote_pi.sim.rig import unattended_rig  # only then: see _sim_settings

        return unattended_rig(config, devices_config, **options)
    parts: dict[str, object] = {}
    if devices_config.simulated:
        from coyote_pi.sim.rig import simulated_parts  # only then: see _sim_settings

        parts = simulated_parts(devices_config)
    return open_rig(config, devices_config, parts=parts, **options)


def _open_sim(args: argparse.Namespace, config: TableConfig, devices_config: DevicesConfig, resumption: Resumption,
              page: WebPage | None, tr: Translator) -> tuple[SimRig, FinishedGames]:
    """The simulated table, and with a person at the keys, its console; and the
    :class:`FinishedGames` that tells each game's check line as it ends. A resumed game
    deals on with the seed and plan in its record; --seed and --deal are for the next new
    game (a finished game shown first: the one ok starts), and every later one gets a
    fresh seed. With --web the OLED shows the address only while ``page`` (None: it could
    not start) serves it, and the console says where the page is, or why it is not."""
    from coyote_pi.sim.console import SimConsole
    from coyote_pi.sim.deals import DealPlan, parse_deal
    from coyote_pi.sim.rig import SimOptions, open_sim_rig

    table, skipped = resumption.table, resumption.skipped
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    deal = DealPlan() if args.deal is None else parse_deal(args.deal)  # checked by _settings
    players = config.game.players
    assert players is not None, "set by _sim_settings"
    sim = SimOptions(seed=seed, players=args.scripted, setup_answers={"start": 1 + seed % players},
                     deal=deal)
    console = SimConsole() if _has_console(args) else None
    watchers = [console] if console is not None else []
    serving = page.serving if page is not None else (lambda: False)
    rig = open_sim_rig(config, devices_config, sim, resumed=table, meta={"source": "sim"},
                       new_game_when_over=not args.scripted, web_page=serving if args.web else None,
                       not_resumed=None if skipped is None else skipped.stem, outputs=watchers, listeners=watchers,
                       speech=speech_or_none(config.speech, args.speak))
    tell = console.tell if console is not None else _tell
    finished = FinishedGames(rig.controller, tell)
    rig.controller.listeners.append(finished)
    if isinstance(table, tuple) and args.deal is not None:  # a finished game (an unfinished one refuses a plan)
        if console is None:
            tell(tr("run.deal_next", plan=args.deal))
        else:
            console.show("deal", tr("run.deal_next", plan=args.deal))
            rig.controller.listeners.append(UntilTheNextGame(rig.controller, functools.partial(console.withdraw, "deal")))
    if args.coach:
        from coyote_pi.sim.coach import Coach

        rig.controller.listeners.append(Coach(
            functools.partial(console.show, "coach") if console is not None else _tell,
            functools.partial(console.show, "review") if console is not None else _tell,
            lambda: rig.controller.tr, lambda: getattr(rig.controller.state.recorded, "path", None)))
    if console is not None:
        console.attach(rig.sim, rig.controller)
        if skipped is not None:
            console.notices.append(tr("run.not_resumed_new", name=skipped.name, reason=resumption.reason))
        if args.web:
            _watch_page(page, args, tr, functools.partial(console.show, "page"))
        buttons = rig.devices.buttons
        assert isinstance(buttons, KeyboardButtons), "a console is there only for a person at the keys"
        buttons.on_other_key = console.key
        console.start()
    return rig, finished


def _tell(line: str) -> None:
    print(line, file=sys.stderr)


def _stop_on_signals(controller: RunningTable) -> list[int]:
    """SIGTERM (systemd stopping the service) and SIGINT (Ctrl-C) end the loop cleanly
    rather than raising in the middle of whatever the loop is doing (a lock held, a
    write half made, a worker never joined). The stop is asked from a new thread: the
    handler runs on the loop's own thread, which may hold the queue's lock just then.
    Returns the list the signals received are noted in."""
    received: list[int] = []
    if threading.current_thread() is threading.main_thread():
        def stop(signum: int, frame: FrameType | None) -> None:
            received.append(signum)
            threading.Thread(target=controller.stop, name="stop on a signal", daemon=True).start()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    return received
