"""espeak-ng as the table's voice: a phrase in, 16-bit mono PCM out, streamed as it is made.

espeak-ng (Debian's package; Raspberry Pi OS has it) runs as a child process per phrase,
the text on its standard input (never on its command line), ``--stdout`` giving a WAV
stream whose header is read and dropped. The PCM of the last phrases is kept
(:data:`CACHE_PHRASES`): "Seat 3, your turn" is made once.
"""

from __future__ import annotations

import io
import subprocess
from collections import OrderedDict
from collections.abc import Generator
from dataclasses import dataclass
from typing import Protocol

#: The voice of each language (espeak-ng's own names).
VOICES = {"en": "en", "de": "de", "ru": "ru"}
#: espeak-ng's WAV header before the samples.
HEADER_BYTES = 44
#: How many phrases' sound is kept (a few MB at most: a phrase is ~50 KB a second).
CACHE_PHRASES = 48
#: Longer phrases (over 3 s) are not cached: a verdict is said once.
CACHE_MAX_BYTES = 150_000
#: Read size: about 45 ms of sound, so the first samples go out early.
CHUNK = 2048


class VoiceMissing(RuntimeError):
    """espeak-ng cannot be run."""


@dataclass(frozen=True)
class Sound:
    """The format of what :meth:`Espeak.speak` yields."""

    rate: int = 22050
    channels: int = 1
    sample_width: int = 2


class Voice(Protocol):
    """What the speaker needs of a voice: :class:`Espeak`, or a test's."""

    #: The format of the sound, known once a phrase's first chunk is made.
    sound: Sound

    def speak(self, text: str, language: str) -> Generator[bytes]: ...


class Espeak:
    """Speaks with espeak-ng at ``volume`` (its amplitude, 0-200) and ``rate`` (words per
    minute); ``voice`` replaces the languages' voices when given."""

    def __init__(self, *, volume: int = 100, rate: int = 175, voice: str = "", command: str = "espeak-ng") -> None:
        self.volume, self.rate, self.voice, self.command = volume, rate, voice, command
        self.sound = Sound()
        self._cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    def arguments(self, language: str) -> list[str]:
        voice = self.voice or VOICES.get(language, "en")
        return [self.command, "-v", voice, "-a", str(self.volume), "-s", str(self.rate), "--stdout"]

    def speak(self, text: str, language: str) -> Generator[bytes]:
        """The PCM of ``text``, chunk by chunk as espeak-ng makes it (VoiceMissing when it
        cannot be run; RuntimeError when it fails)."""
        key = (language, text)
        if key in self._cache:
            self._cache.move_to_end(key)
            kept = self._cache[key]
            for start in range(0, len(kept), CHUNK):  # in pieces, as if made now: a phrase can be cut
                yield kept[start:start + CHUNK]
            return
        try:
            process = subprocess.Popen(self.arguments(language), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
        except OSError as error:
            raise VoiceMissing(f"{self.command} cannot be run ({error.strerror or error})") from None
        made, complete = bytearray(), False
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(text.encode())
            process.stdin.close()
            stdout = process.stdout
            assert isinstance(stdout, io.BufferedReader)  # read1: what is there, without waiting for a full chunk
            self._read_header(stdout.read(HEADER_BYTES))
            while chunk := stdout.read1(CHUNK):
                made += chunk
                yield chunk
            complete = True
        finally:
            if not complete:  # stopped early (the table closes, the device failed)
                process.kill()
            code = process.wait()
            stderr = process.stderr.read().decode(errors="replace").strip() if process.stderr else ""
            if process.stderr:
                process.stderr.close()
            if process.stdout:
                process.stdout.close()
        if code != 0:
            raise RuntimeError(f"{self.command} failed ({stderr or f'exit status {code}'})")
        if len(made) <= CACHE_MAX_BYTES:
            self._cache[key] = bytes(made)
            if len(self._cache) > CACHE_PHRASES:
                self._cache.popitem(last=False)

    def _read_header(self, header: bytes) -> None:
        if len(header) < HEADER_BYTES or header[:4] != b"RIFF" or header[36:40] != b"data":
            raise RuntimeError(f"{self.command} gave no WAV sound")
        self.sound = Sound(rate=int.from_bytes(header[24:28], "little"),
                           channels=int.from_bytes(header[22:24], "little"),
                           sample_width=int.from_bytes(header[34:36], "little") // 8)
