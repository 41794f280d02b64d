"""Where the table's voice goes: the sound device through ALSA's aplay, a folder of WAV
files (``run --sim --speak DIR``), or one track in step with the demo's GIF.

A sink's :meth:`play` takes a phrase's PCM as it is made and returns when it is played
(or written); a device that cannot play raises :class:`SoundError`, which the speaker logs
once and survives.
"""

from __future__ import annotations

import subprocess
import threading
import time
import wave
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from coyote_pi.speech.announcer import Phrase
from coyote_pi.speech.voice import Sound

#: Longest a phrase may keep the sound device (a hung device is given up then).
MAX_PHRASE_SECONDS = 60.0
#: aplay's time to drain and close after the last sample is handed over.
CLOSE_SECONDS = 3.0


class SoundError(RuntimeError):
    """The sound device cannot play."""


class Sink(Protocol):
    def play(self, phrase: Phrase, sound: Sound, chunks: Iterable[bytes]) -> None: ...


class AlsaSink:
    """Plays through ALSA's ``aplay`` (alsa-utils) on ``device`` ("default", "hw:1,0"...)."""

    def __init__(self, device: str = "default", command: str = "aplay") -> None:
        self.device, self.command = device, command

    def play(self, phrase: Phrase, sound: Sound, chunks: Iterable[bytes]) -> None:
        arguments = [self.command, "-q", "-D", self.device, "-t", "raw", "-f", f"S{8 * sound.sample_width}_LE",
                     "-c", str(sound.channels), "-r", str(sound.rate)]
        try:
            process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE)
        except OSError as error:
            raise SoundError(f"{self.command} cannot be run ({error.strerror or error})") from None
        # A device that stops taking samples would block the write: it is given up in time.
        watchdog = threading.Timer(MAX_PHRASE_SECONDS, process.kill)
        watchdog.start()
        written = 0
        try:
            assert process.stdin is not None
            try:
                for chunk in chunks:
                    process.stdin.write(chunk)
                    written += len(chunk)
                process.stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass  # aplay ended early: its status and message say why
            seconds = written / (sound.rate * sound.channels * sound.sample_width)
            try:
                code = process.wait(timeout=seconds + CLOSE_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise SoundError(f"the sound device {self.device} does not play (no answer)") from None
        finally:
            watchdog.cancel()
            stderr = process.stderr.read().decode(errors="replace").strip() if process.stderr else ""
            if process.stderr:
                process.stderr.close()
        if code != 0:
            message = stderr.splitlines()[-1] if stderr else f"exit status {code}"
            raise SoundError(f"the sound device {self.device} cannot play ({message})")


def write_wav(path: Path, sound: Sound, pcm: bytes) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(sound.channels)
        out.setsampwidth(sound.sample_width)
        out.setframerate(sound.rate)
        out.writeframes(pcm)


class FolderSink:
    """Writes each phrase as ``NNNN-kind.wav`` into ``folder``, and a line per phrase into
    ``phrases.txt`` (seconds since ``started`` on the table's clock, kind, file, text)."""

    def __init__(self, folder: Path, started: float) -> None:
        self.folder, self.started = Path(folder), started
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def play(self, phrase: Phrase, sound: Sound, chunks: Iterable[bytes]) -> None:
        self.count += 1
        name = f"{self.count:04d}-{phrase.kind}.wav"
        try:
            write_wav(self.folder / name, sound, b"".join(chunks))
            with (self.folder / "phrases.txt").open("a", encoding="utf-8") as phrases:
                phrases.write(f"{phrase.heard - self.started:8.2f}\t{phrase.kind}\t{name}\t{phrase.text}\n")
        except OSError as error:
            raise SoundError(f"the folder {self.folder} cannot be written ({error.strerror or error})") from None


@dataclass
class TrackSink:
    """Keeps every phrase's sound to write one track afterwards (:meth:`write`). ``paced``:
    each phrase takes as long as it sounds, as on a sound device, so the speaker drops
    what a real table would (the demo's track is what its table would have said)."""

    paced: bool = False
    phrases: list[tuple[Phrase, Sound, bytes]] = field(default_factory=list)

    def play(self, phrase: Phrase, sound: Sound, chunks: Iterable[bytes]) -> None:
        began, pcm = time.monotonic(), bytearray()
        for chunk in chunks:
            pcm += chunk
            if self.paced:  # a chunk is through when a device would have played it
                time.sleep(max(0.0, began + len(pcm) / (sound.rate * sound.channels * sound.sample_width)
                               - time.monotonic()))
        self.phrases.append((phrase, sound, bytes(pcm)))

    def write(self, audio: Path, listing: Path, timeline: Callable[[float], float]) -> int:
        """One WAV of every phrase at ``timeline(heard)`` seconds (the moment's place in
        the GIF), or right after the phrase before when that one still speaks, and the
        phrase list with those times; the number of phrases."""
        if not self.phrases:
            return 0
        sound = self.phrases[0][1]
        frame = sound.channels * sound.sample_width
        track = bytearray()
        lines = []
        for phrase, _, pcm in self.phrases:
            start = max(round(timeline(phrase.heard) * sound.rate) * frame, len(track))
            track += bytes(start - len(track)) + pcm
            lines.append(f"{start / frame / sound.rate:8.2f}\t{phrase.kind}\t{phrase.text}\n")
        write_wav(audio, sound, bytes(track))
        listing.write_text("".join(lines), encoding="utf-8")
        return len(self.phrases)
