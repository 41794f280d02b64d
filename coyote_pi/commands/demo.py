"""``coyote-pi demo``: a whole game on simulated hardware, from setup to the winner.

Scripted players press gpiozero mock pins (with contact bounce, from their own threads);
scripted hands deal real cards from a seeded deck into a synthetic table that is
rendered as camera frames and read by the real vision code; the real controller runs
the game and draws the real screens on luma's dummy OLED. Nothing is faked between the
buttons and the display. What it writes into the output folder (``make demo``:
``demo-output/``):

- ``oled.gif``: every frame the OLED showed, at the pace it was shown;
- ``speech.wav``: what the table said aloud (espeak-ng; docs/controller.md), in step with
  the GIF, and ``speech.txt``: each phrase with its second in the GIF;
- ``reveal-round-NN.png`` (and ``draw-round-NN.png`` for ``?``): the camera frame that
  settled each reveal, annotated with what the vision code read;
- ``game-0001.jsonl``: the game record, its deals and guesses sealed until each round
  closes (check it with ``coyote-pi replay``);
- ``game-0001.photos/``: the camera frames that settled each reveal and draw, as the
  record names them with their hashes (``coyote-pi replay ... --photos`` checks them);
- ``private/``: what the table keeps to itself (the seed, an open round's cards);
- ``play-by-play.txt``: the transcript printed while the game runs.

With ``--web [HOST:PORT]`` the table's web page runs beside the game (a child process,
:mod:`coyote_pi.sim.web_page`; open the printed address to watch), its folders are
``public/`` and ``requests/`` and its log ``web.log``, and screenshots of its pages go
to ``web/`` when Chromium is installed.

Frames are rendered at 2304x1296 (the camera's binned mode) rather than the full
4608x2592 stills of the real table, to keep the demo near a minute; ``--camera-size``
changes it. The seed picks the deal and the players' decisions; the default one shows a
peek, the Coyote card, a ``?`` draw, an undo and eliminations.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import cv2

from coyote_pi.commands.run import _size
from coyote_pi.config import (
    ConfigError,
    GameSettings,
    Pacing,
    SpeechSettings,
    TableConfig,
    check_game_settings,
    split_listen,
)
from coyote_pi.contract.records import BULLETIN_FOLDER, PHOTOS_SUFFIX, REQUESTS_FOLDER, photos_folder
from coyote_pi.devices.config import DevicesConfig
from coyote_pi.devices.outputs import GifRecorder
from coyote_pi.locale import LANGUAGES
from coyote_pi.players import levels_text
from coyote_pi.record import check_photos, read_record
from coyote_pi.sim.rig import SimOptions, open_sim_rig
from coyote_pi.sim.table import DEMO_PACE
from coyote_pi.sim.web_page import DEFAULT_LISTEN, WebPage, address_taken
from coyote_pi.speech.sinks import TrackSink
from coyote_pi.speech.speaker import table_speech
from coyote_pi.table.presenter import Listener
from coyote_pi.vision.annotate import annotate
from coyote_pi.words.translator import Translator

if TYPE_CHECKING:
    from coyote_pi.record import Record
    from coyote_pi.table.camera_reads import Frame
    from coyote_pi.vision.reading import TableReading

#: A seed whose game shows most of the rules (see the module docstring).
DEMO_SEED = 33
#: The level of the seat the table plays itself (the last seat, unless --virtual says
#: otherwise): the demo shows a virtual player among the scripted people.
DEMO_LEVEL = "strong"
#: The longest the demo waits for the table's last phrases (the winner) to be said.
SPEECH_DRAIN_SECONDS = 60.0
#: Files a previous demo run left in the output folder (replaced by this run).
OUTPUT_PATTERNS = ("oled.gif", "speech.wav", "speech.txt", "reveal-round-*.png", "draw-round-*.png", "game-*.jsonl", "game-*.jsonl.torn",
                   f"game-*{PHOTOS_SUFFIX}", "private", "play-by-play.txt", BULLETIN_FOLDER, REQUESTS_FOLDER,
                   "web", "web.log")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="demo-output", metavar="DIR", help="output folder (default: demo-output)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N", help="2-6 (default 4)")
    parser.add_argument("--variant", choices=("basic", "trickster"), default="trickster")
    parser.add_argument("--language", choices=LANGUAGES, default="en",
                        help="language of the OLED and of what the demo prints (its play-by-play stays English)")
    parser.add_argument("--seed", type=int, default=DEMO_SEED, help=f"deal and decisions (default {DEMO_SEED})")
    parser.add_argument("--virtual", metavar="SEATS",
                        help=f'seats the table plays itself (default: the last seat, "N:{DEMO_LEVEL}"; "": none; '
                             f"levels: {levels_text()}; docs/players.md)")
    parser.add_argument("--camera-size", default="2304x1296", metavar="WxH", help="synthetic frame size")
    parser.add_argument("--web", nargs="?", const=DEFAULT_LISTEN, metavar="HOST:PORT",
                        help=f"serve the table's web page too (default address {DEFAULT_LISTEN})")


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    try:
        size = _size(args.camera_size)
        if args.web is not None:
            split_listen(args.web)
        if args.virtual is None:
            args.virtual = f"{args.players}:{DEMO_LEVEL}"
        check_game_settings(GameSettings(players=args.players, virtual=args.virtual or None))
        _clear_previous(out)
    except (ConfigError, OSError) as error:
        print(f"coyote-pi demo: {error}", file=sys.stderr)
        return 2
    return _play(args, out, size)


def _clear_previous(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for pattern in OUTPUT_PATTERNS:
        for path in out.glob(pattern):
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()


class _Reporter(Listener):
    """Prints the play-by-play, keeps it for the transcript file, saves reveal frames."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.lines: list[str] = []
        self.frames: list[Path] = []
        self.started = time.monotonic()
        # Annotating and compressing a frame takes a while: off the controller's thread.
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="demo frames")

    def on_log(self, line: str) -> None:
        stamped = f"{time.monotonic() - self.started:6.1f}s {line}"
        print(stamped, flush=True)
        self.lines.append(stamped)

    def on_reveal(self, round_number: int, what: str, frame: Frame | None, reading: TableReading | None) -> None:
        if frame is None or reading is None:  # the demo's synthetic camera always has both
            return
        path = self.out / f"{what}-round-{round_number:02d}.png"
        self.frames.append(path)
        self._writer.submit(_save_annotated, path, frame, reading)

    def close(self) -> None:
        self._writer.shutdown(wait=True)
        (self.out / "play-by-play.txt").write_text("\n".join(self.lines) + "\n", encoding="utf-8")


def _save_annotated(path: Path, frame: Frame, reading: TableReading) -> None:
    cv2.imwrite(str(path), annotate(frame, reading), [cv2.IMWRITE_PNG_COMPRESSION, 3])


def _screenshots(page: WebPage, folder: Path, tr: Translator) -> None:
    """Phone and wide screenshots of each of the page's pages into ``folder`` (they need
    Debian's Chromium; without it, one line says so and the demo goes on)."""
    from coyote_pi.web.screenshots import save_screenshots  # Selenium: only with --web

    try:
        saved = save_screenshots(page.url, folder)
    except RuntimeError as error:
        print(f"  ({error})", flush=True)
        return
    print(f"  {tr.plural('demo.screenshots', len(saved), count=len(saved), folder=folder)}", flush=True)


def _play(args: argparse.Namespace, out: Path, size: tuple[int, int]) -> int:
    config = TableConfig(
        game=GameSettings(players=args.players, variant=args.variant, language=args.language, start_seat=None,
                          virtual=args.virtual or None),
        pacing=Pacing(camera_interval=0.25, page_seconds=1.0, message_seconds=0.8),
        record_dir=out,
    )
    if args.web is not None:
        config = config.with_web(enabled=True, listen=args.web, bulletin=out / BULLETIN_FOLDER, requests=out / REQUESTS_FOLDER,
                                 page_settings=out / "page-settings.toml")  # all inside the demo's folder
    devices = DevicesConfig.preset("sim")
    devices = dataclasses.replace(devices, camera=dataclasses.replace(devices.camera, width=size[0], height=size[1],
                                                                     seed=args.seed))
    youngest = 1 + args.seed % args.players
    sim = SimOptions(seed=args.seed, pace=DEMO_PACE, setup_answers={"start": youngest}, misclick=True)
    reporter = _Reporter(out)
    gif = GifRecorder(out / "oled.gif", min_frame_seconds=0.1, max_frame_seconds=3.0)
    track = TrackSink(paced=True)
    speech = table_speech(SpeechSettings(enabled=True), track)
    tr = Translator(args.language)  # what the demo prints for a person (the play-by-play stays English)
    variant = tr("variant.basic") if args.variant == "basic" else tr("variant.trickster")
    print(tr.plural("demo.start", args.players, players=args.players, variant=variant, seed=args.seed,
                    size=f"{size[0]}x{size[1]}", seat=youngest)
          + (tr("demo.virtual", virtual=args.virtual) if args.virtual else ""), flush=True)
    page = None
    if args.web is not None and address_taken(args.web):
        print(f"coyote-pi demo: {tr('run.page_busy', address=args.web)}", flush=True)
    elif args.web is not None:
        page = WebPage(out, *config.web_folders(), args.web, out / "web.log").start()
        print(tr("demo.page", url=page.url), flush=True)
    try:
        rig = open_sim_rig(config, devices, sim, listeners=[reporter], outputs=[gif], speech=speech,
                           meta={"source": "demo"})
        try:
            rig.run(until_over=True)
            if page is not None:  # while the table still runs: stopped, the page says so
                _screenshots(page, out / "web", tr)
        finally:
            rig.close()  # closing the display writes the GIF
            reporter.close()
            speech.close(drain=True, timeout=SPEECH_DRAIN_SECONDS)  # the winner is said to the end
            phrases = track.write(out / "speech.wav", out / "speech.txt", gif.seconds_at)
    finally:
        if page is not None and (status := page.stop()) is not None:
            print(f"coyote-pi demo: {tr('run.page_ended', status=status, log=page.log_file)}", flush=True)
    table = rig.controller.state.playing()  # the demo ran until its game was over
    record = read_record(table.path)
    photos = photos_folder(table.path)
    checked, _ = check_photos(record, photos)
    seconds = time.monotonic() - reporter.started
    print()
    print("\n".join(summary(tr, out, record, table.path, photos, checked=checked, oled_frames=len(gif),
                           camera_frames=len(reporter.frames), phrases=phrases, seconds=seconds)))
    return 0


def summary(tr: Translator, out: Path, record: Record, path: Path, photos: Path, *, checked: int, oled_frames: int,
            camera_frames: int, phrases: int, seconds: float) -> list[str]:
    """What the demo says at its end: who won, and each file it wrote (``record`` read from ``path``)."""
    game = record.game

    def item(name: str, text: str) -> str:
        return f"  {name:<20}{text}"

    return [tr.plural("demo.winner", game.round_number, seat=game.winner, rounds=game.round_number,
                      seconds=f"{seconds:.0f}"),
            tr("demo.written", folder=f"{out}/"),
            item("oled.gif", tr.plural("demo.gif", oled_frames, count=oled_frames)),
            item("speech.wav", tr.plural("demo.speech", phrases, count=phrases)) if phrases else f"  {tr('demo.no_speech')}",
            item("reveal/draw PNGs", tr.plural("demo.frames", camera_frames, count=camera_frames)),
            item(path.name, tr.plural("demo.record", len(record.lines), count=len(record.lines))),
            item("", f"coyote-pi replay {path} --expect {record.fingerprint} --photos {photos}"),
            item(f"{photos.name}/", tr.plural("demo.photos", checked, count=checked)),
            item("play-by-play.txt", tr("demo.transcript"))]
