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
import signal
import sys
import threading
from pathlib import Path

from coyote_pi.config import ConfigError, GameSettings, check_game_settings, load_config, split_listen
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.errors import DeviceConfigError, DeviceError, PinMapError
from coyote_pi.locale import LANGUAGES
from coyote_pi.memory import tune_malloc
from coyote_pi.pi import doctor, journal, notify
from coyote_pi.table import stages
from coyote_pi.table.presenter import Listener, Prompt
from coyote_pi.table.rig import open_rig, resume_newest
from coyote_pi.table.store import lock_folder

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
                             "(levels: cautious, bluffer, strong; docs/players.md)")
    parser.add_argument("--record-dir", metavar="DIR", help="where game records are kept")
    parser.add_argument("--seed", type=int, help="--sim: the seed of the simulated deck and players")
    parser.add_argument("--deal", metavar="PLAN",
                        help='--sim: the cards of some rounds, e.g. "5,?,max0,-10;*;question" (stands from seat 1, '
                             "then the centre, then the deck's top; * from the shuffle; rounds split by ;) or a "
                             "scenario: question, max0, coyote-card (docs/simulator.md)")
    parser.add_argument("--camera-size", metavar="WxH", help="--sim: the synthetic camera's frame size (default 2304x1296)")
    parser.add_argument("--no-view", action="store_true", help="--sim --scripted: do not draw the OLED in the terminal")
    parser.add_argument("--web", nargs="?", const="127.0.0.1:8080", metavar="HOST:PORT",  # sim.web_page.DEFAULT_LISTEN
                        help="--sim: serve the table's web page too (default address 127.0.0.1:8080)")
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


def _settings(args: argparse.Namespace):
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
    if args.sim:
        config, devices_config = _sim_settings(args, config, devices_config)
    elif args.deal is not None:
        raise ConfigError("--deal chooses the cards of the simulated table: use it with --sim")
    elif args.web is not None:
        raise ConfigError("--web serves the simulated table's page: use it with --sim "
                          "(on the Pi the page is its own service: [web] in the configuration)")
    return config, devices_config


def _sim_settings(args, config, devices_config):
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


def _has_console(args) -> bool:
    """A person plays ``run --sim`` in a terminal: the simulated table's console draws it."""
    return args.sim and not args.scripted and sys.stdout.isatty()


def _with_deal(text: str, config):
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


def _run_table(args, config, devices_config) -> int:
    # A scripted simulation ends with its game: a finished one is not shown again.
    resumption = resume_newest(config, new=args.new, finished=not (args.sim and args.scripted))
    table = resumption.table
    if isinstance(table, tuple):
        print(_resumed_line(table[0]), file=sys.stderr)
    elif table is not None:  # the table shows it and waits for ok before a new game
        print(f"cannot resume {table.path} ({table.reason}); it is kept as it is", file=sys.stderr)
    page = _start_page(args, config)
    try:
        if args.sim:
            print(f"coyote-pi run --sim: game records go to {config.record_dir}", file=sys.stderr)
            rig, finished = _open_sim(args, config, devices_config, resumption)
        else:
            rig = _open_real(config, devices_config, table, None if resumption.skipped is None else resumption.skipped.stem,
                             args.config)
        try:
            signals = _stop_on_signals(rig.controller)
            rig.run(until_over=args.sim and args.scripted)
        finally:
            rig.close()
            if args.sim:
                _say_where_the_records_are(rig.controller, finished)
    finally:
        if page is not None and (trouble := page.stop()) is not None:
            print(f"coyote-pi run --sim: {trouble}", file=sys.stderr)
    if signal.SIGINT in signals:
        return 130  # as a shell reports a command ended by Ctrl-C
    game = rig.controller.state.game
    if game is not None and game.winner is not None:
        print(f"seat {game.winner} wins; record {rig.controller.state.recorded.path} "
              f"(fingerprint {rig.controller.state.recorded.writer.fingerprint})")
    return 0


def _start_page(args, config):
    """``--sim --web``: the page as a child process on the simulation's folders (None: no page)."""
    if not (args.sim and args.web):
        return None
    from coyote_pi.sim.web_page import WebPage  # the simulation's: see _sim_settings

    page = WebPage(config.record_dir, *config.web_folders(), args.web, config.record_dir.parent / "web.log").start()
    print(f"coyote-pi run --sim: the table's web page is at {page.url} (its log: {page.log_file})", file=sys.stderr)
    return page


def _resumed_line(table) -> str:
    """What the command says of the record it opens: a finished game is not "resumed"."""
    game = table.game
    if game.winner is None:
        return f"resuming {table.path}"
    return f"{table.path}: the game is over, seat {game.winner} won; the table shows its result"


def check_line(table) -> str:
    """How to check a finished game's record (``table``, a RecordedGame) with replay."""
    return f"check it: coyote-pi replay {table.path} --expect {table.writer.fingerprint}"


class FinishedGames(Listener):
    """The games of one ``run --sim`` that end while it runs: each one's :func:`check_line`
    goes to ``tell`` as the game ends, and stays in :attr:`lines` for the end of the command.
    A game that was over before (a finished record reopened) is not one of them."""

    def __init__(self, controller, tell) -> None:
        self.controller = controller
        self.lines: list[str] = []
        self._tell = tell
        game = controller.state.game
        self._over_before = controller.state.recorded.path if game is not None and game.winner is not None else None

    def on_prompt(self, prompt: Prompt) -> None:
        table = self.controller.state.recorded
        if prompt.stage != stages.GAME_OVER or table is None or table.path == self._over_before:
            return
        check = check_line(table)
        if check not in self.lines:
            self.lines.append(check)
            self._tell(check)


def _say_where_the_records_are(controller, finished: FinishedGames) -> None:
    """At the end of ``run --sim`` (also after Ctrl-C): where the game in play is, and how
    to check every game that ended since the command started (and a finished one it shows)."""
    table = controller.state.recorded
    checks = list(finished.lines)
    if table is None and not checks:
        print(f"no game was started; records are in {controller.store.folder}", file=sys.stderr)
    elif table is not None and controller.game.winner is None:  # replay would show the open round's cards
        print(f"record: {table.path} (unfinished: run --sim resumes it)", file=sys.stderr)
    elif table is not None and check_line(table) not in checks:
        checks.append(check_line(table))
    if checks:
        print("games finished:" if len(checks) > 1 else "game finished:", *checks, sep="\n  ", file=sys.stderr)


def _open_real(config, devices_config, table, not_resumed=None, config_file=None):
    """The real table; it never loads the simulation, unless the configuration asks for
    a part only the simulation has (a failing camera, a glitching display). The command
    line hands the table systemd's notifier and the doctor's checks its web page may ask
    for: the table knows only the Notifier protocol and a function that returns checks."""
    options = dict(resumed=table, meta={"source": "table"}, notifier=notify, new_game_when_over=True,
                   not_resumed=not_resumed, web_doctor=functools.partial(doctor.in_table_checks, config_file))
    if devices_config.camera.backend == "synthetic":
        # Test-only (make test-boot, ci/test-boot.toml): scripted hands lay the cards of the
        # deck of [camera] seed for the synthetic camera, nobody presses a button.
        from coyote_pi.sim.rig import unattended_rig  # only then: see _sim_settings

        return unattended_rig(config, devices_config, **options)
    parts = {}
    if devices_config.simulated:
        from coyote_pi.sim.rig import simulated_parts  # only then: see _sim_settings

        parts = simulated_parts(devices_config)
    return open_rig(config, devices_config, parts=parts, **options)


def _open_sim(args, config, devices_config, resumption):
    """The simulated table, with the seed and deal plan of the game it resumes (or of
    --seed, --deal), and with a person at the keys, its console; and the
    :class:`FinishedGames` that tells each game's check line as it ends."""
    from coyote_pi.sim.console import SimConsole
    from coyote_pi.sim.deals import DealPlan, parse_deal
    from coyote_pi.sim.rig import SimOptions, open_sim_rig

    table, skipped = resumption.table, resumption.skipped
    # Every deal follows from the seed and the plan: they are kept in the record's
    # service-only file, never in its setup line. A resumed game deals on as it began.
    recorded = table[0].private_meta if isinstance(table, tuple) else {}
    seed = recorded.get("seed")
    if seed is None:
        seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    text = recorded.get("deal") if isinstance(table, tuple) else args.deal
    deal = DealPlan() if text is None else parse_deal(text)  # checked by _settings (or when it was recorded)
    private = {"seed": seed, **({"deal": deal.text} if deal.text else {})}
    sim = SimOptions(seed=seed, players=args.scripted, setup_answers={"start": 1 + seed % config.game.players},
                     deal=deal)
    console = SimConsole() if _has_console(args) else None
    watchers = [console] if console is not None else []
    rig = open_sim_rig(config, devices_config, sim, resumed=table, meta={"source": "sim"}, private_meta=private,
                       new_game_when_over=not args.scripted,
                       not_resumed=None if skipped is None else skipped.stem, outputs=watchers, listeners=watchers)
    finished = FinishedGames(rig.controller, console.tell if console is not None else _tell)
    rig.controller.listeners.append(finished)
    if console is not None:
        console.attach(rig.sim, rig.controller)
        if skipped is not None:
            console.notices.append(f"could not resume {skipped.name} ({resumption.reason}): new game")
        rig.devices.buttons.on_other_key = console.key
        console.start()
    return rig, finished


def _tell(line: str) -> None:
    print(line, file=sys.stderr)


def _stop_on_signals(controller) -> list[int]:
    """SIGTERM (systemd stopping the service) and SIGINT (Ctrl-C) end the loop cleanly
    rather than raising in the middle of whatever the loop is doing (a lock held, a
    write half made, a worker never joined). The stop is asked from a new thread: the
    handler runs on the loop's own thread, which may hold the queue's lock just then.
    Returns the list the signals received are noted in."""
    received: list[int] = []
    if threading.current_thread() is threading.main_thread():
        def stop(signum, frame) -> None:
            received.append(signum)
            threading.Thread(target=controller.stop, name="stop on a signal", daemon=True).start()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    return received
