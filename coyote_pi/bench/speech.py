"""``coyote-pi bench speech``: the table's voice against its targets (issue 36).

1. **Event to first sample**: from the moment the controller hands the speech a bid (the
   end of the loop's pass that applied it) to the first sample of its phrase reaching the
   sound device's sink, one new bid at a time, espeak-ng started afresh for each phrase;
   the first phrase of a new speech (nothing cached, espeak-ng's files not yet read) is
   included. Target: median at most 300 ms.
2. **The loop's added latency while speaking**: what the controller's loop spends per pass
   on the speech (the public moment built and handed over) over whole simulated games,
   while the speech thread speaks without a pause. Target: at most 1 ms (the 99th
   percentile; the largest is printed too).
3. **Memory**: how much more the table's process holds once it has spoken (the thread,
   the cached phrases), plus espeak-ng's peak while it speaks a verdict (its VmHWM,
   sampled from /proc as it runs: a child's ``getrusage`` would count the pages of the
   Python process it was forked from). Target: at most 20 MB.

Without ``--device`` the sound goes to a sink that drops it (a bench machine may have no
sound card), at the pace a device would take it while the loop is timed; with
``--device NAME`` it is played through aplay on that ALSA device (whose own memory, a few
MB, is not counted).
"""

from __future__ import annotations

import statistics
import subprocess
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from coyote_pi import cards
from coyote_pi.engine import Bid, Deal, Event, Game, GameConfig
from coyote_pi.engine.game import TRICKSTER
from coyote_pi.engine.players import simulate
from coyote_pi.speech.announcer import Phrase
from coyote_pi.speech.moment import public_moment
from coyote_pi.speech.sinks import AlsaSink, Sink
from coyote_pi.speech.speaker import Speech
from coyote_pi.speech.voice import Espeak, Sound

TARGET_FIRST_SAMPLE_MS = 300.0
TARGET_LOOP_MS = 1.0
TARGET_MEMORY_MB = 20.0
#: The longest a phrase may take to come out before the bench gives up on it.
WAIT_SECONDS = 10.0


class StampedSink:
    """Notes when each phrase's first sample arrives, then plays it (into ``device``'s aplay)
    or drops it (``paced``: at a device's pace)."""

    def __init__(self, device: Sink | None = None, *, paced: bool = False) -> None:
        self.device, self.paced = device, paced
        self.first: list[tuple[Phrase, float]] = []
        self.arrived = threading.Condition()

    def play(self, phrase: Phrase, sound: Sound, chunks: Iterable[bytes]) -> None:
        stamped = self._stamped(phrase, chunks)
        if self.device is not None:
            self.device.play(phrase, sound, stamped)
            return
        began, taken = time.monotonic(), 0
        for chunk in stamped:
            taken += len(chunk)
            if self.paced:
                time.sleep(max(0.0, began + taken / (sound.rate * sound.channels * sound.sample_width)
                               - time.monotonic()))

    def _stamped(self, phrase: Phrase, chunks: Iterable[bytes]) -> Iterable[bytes]:
        first = True
        for chunk in chunks:
            if first:
                first = False
                with self.arrived:
                    self.first.append((phrase, time.monotonic()))
                    self.arrived.notify_all()
            yield chunk

    def wait_for(self, count: int) -> None:
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.first) >= count, WAIT_SECONDS):
                raise RuntimeError("espeak-ng gave no sound (is it installed? `make venv` installs it)")


def _device(name: str | None) -> Sink | None:
    return None if name is None else AlsaSink(name)


def _dealt(players: int = 4) -> Game:
    game = Game(GameConfig(players))
    game.apply(Deal(seats={seat: cards.ALL_CARDS[seat] for seat in range(1, players + 1)}, centre=cards.ALL_CARDS[0]))
    return game


def first_sample_ms(phrases: int, language: str = "en", device: str | None = None) -> list[float]:
    """Milliseconds from each of ``phrases`` new bids to its first sample, the first one
    the first phrase of a new speech."""
    sink = StampedSink(_device(device))
    speech = Speech(sink, Espeak(), announce="bids")
    try:
        _bid(speech, sink, phrases, language)
    finally:
        speech.close()
    return [1000 * (stamped - phrase.heard) for phrase, stamped in sink.first]


def _bid(speech: Speech, sink: StampedSink, phrases: int, language: str) -> None:
    """Hand ``speech`` a game's moments, one new bid at a time, each said before the next."""
    game = _dealt()
    speech.hear(public_moment("turn", language, game))
    for count in range(1, phrases + 1):
        assert game.turn is not None
        game.apply(Bid(game.turn, count))  # a new amount: never a cached phrase
        speech.hear(public_moment("turn", language, game))
        sink.wait_for(count)
        while not speech.idle():
            time.sleep(0.005)


def loop_ms(games: int, device: str | None = None) -> list[float]:
    """Milliseconds the loop spends on the speech per pass, over ``games`` whole games
    simulated at a table's pace of a pass every 20 ms, while the speech speaks."""
    sink = StampedSink(_device(device), paced=True)
    speech = Speech(sink, Espeak())
    times: list[float] = []

    def on_event(game: Game, _event: Event) -> None:
        began = time.perf_counter()
        speech.hear(public_moment("turn", "en", game))
        times.append(1000 * (time.perf_counter() - began))
        time.sleep(0.02)

    try:
        for seed in range(games):
            simulate(GameConfig(4, TRICKSTER), seed, on_event)
    finally:
        speech.close()
    if not sink.first:
        raise RuntimeError("the speech said nothing while the games were played")
    return times


@dataclass(frozen=True)
class Memory:
    process_mb: float  #: more resident memory in the table's process
    child_mb: float  #: espeak-ng's peak while it speaks

    @property
    def total_mb(self) -> float:
        return self.process_mb + self.child_mb


def _status_mb(pid: int | str, field: str) -> float | None:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return None  # gone already
    values = [int(line.split()[1]) / 1024 for line in lines if line.startswith(f"{field}:")]
    return values[0] if values else None


def espeak_peak_mb(text: str, language: str = "en") -> float:
    """espeak-ng's peak resident memory while it speaks ``text`` (sampled with each chunk it gives)."""
    voice = Espeak()
    process = subprocess.Popen(voice.arguments(language), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(text.encode())
    process.stdin.close()
    peak = 0.0
    while process.stdout.read(4096):
        peak = max(peak, _status_mb(process.pid, "VmHWM") or 0.0)
    process.stdout.close()
    process.wait()
    return peak


def memory(phrases: int = 60, device: str | None = None) -> Memory:
    """The memory speaking ``phrases`` different phrases takes (the cache filled on the way),
    and espeak-ng's while it speaks a long verdict."""
    before = _status_mb("self", "VmRSS")
    if before is None:
        raise RuntimeError("no /proc/self/status: memory is measured on Linux")
    sink = StampedSink(_device(device))
    speech = Speech(sink, Espeak(), announce="bids")
    try:
        _bid(speech, sink, phrases, "en")
        after = _status_mb("self", "VmRSS") or before  # the speech and its cache still there
    finally:
        speech.close()
    verdict = " ".join(f"Seat {seat}: {seat * 3}." for seat in range(1, 7)) + " The total is 63. " * 5
    return Memory(max(0.0, after - before), espeak_peak_mb(verdict, "ru"))


def summary(times: list[float]) -> tuple[float, float, float]:
    """Median, 99th percentile and largest."""
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], ordered[-1]
