"""The speaker: the table's public moments in, spoken phrases out, on a thread of its own.

The controller's loop calls :meth:`Speech.hear` after every pass; that only compares the
moment with the last one and puts it in a list (microseconds), so the loop never waits
for the voice. The speech thread words the moments (:class:`~.announcer.Announcer`),
drops the phrases a newer one overtook (:data:`~.announcer.OVERTAKES`: a burst of bids
says only the newest; a verdict's explanation stops when the game goes on), and speaks
the rest in order with espeak-ng into the sink.

A missing espeak-ng or a sound device that cannot play is one log line; the table plays
on (without speech, or with it again once the device plays).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from pathlib import Path

from coyote_pi.config import SpeechSettings
from coyote_pi.speech.announcer import CUT, OVERTAKES, Announcer, Phrase
from coyote_pi.speech.moment import Moment
from coyote_pi.speech.sinks import AlsaSink, FolderSink, Sink, SoundError
from coyote_pi.speech.voice import Espeak, Voice, VoiceMissing

log = logging.getLogger(__name__)

class Speech:
    """Speaks what the table's public moments announce through ``voice`` into ``sink``;
    ``announce`` is the ``[speech] announce`` level, ``clock`` the table's."""

    def __init__(self, sink: Sink, voice: Voice, *, announce: str = "all",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.sink, self.voice, self._clock = sink, voice, clock
        self._announcer = Announcer(announce)
        self._changed = threading.Condition()
        self._inbox: list[tuple[Moment, float]] = []
        self._last: Moment | None = None
        self._closing = False
        self._drain = False
        self._pending: list[Phrase] = []  # the speech thread's own
        self._failing = False
        self._silenced = False
        self._busy = False  # the speech thread works on what it took from the inbox
        self._settings: SpeechSettings | None = None  # new settings, for the speech thread to take
        self._thread = threading.Thread(target=self._work, name="speech", daemon=True)
        self._thread.start()

    def hear(self, moment: Moment) -> None:
        """The table's public facts after a pass of its loop (the controller's thread)."""
        if moment == self._last:
            return
        self._last = moment
        with self._changed:
            self._inbox.append((moment, self._clock()))
            self._changed.notify()

    def use(self, settings: SpeechSettings) -> None:
        """Speak with ``settings``' volume, rate, voice and announce level from the next
        phrase on (the web page's setup, between games)."""
        with self._changed:
            self._settings = settings
            self._changed.notify()

    def close(self, *, drain: bool = False, timeout: float = 5.0) -> None:
        """Stop speaking (``drain``: after what is waiting is said), waiting at most ``timeout``."""
        with self._changed:
            self._closing, self._drain = True, drain
            self._changed.notify()
        self._thread.join(timeout)

    def idle(self) -> bool:
        """Nothing heard is still waiting to be said."""
        with self._changed:
            return not self._inbox and not self._pending and not self._busy

    def _work(self) -> None:
        while True:
            with self._changed:
                while not self._inbox and not self._pending and not self._closing:
                    self._changed.wait()
                if self._closing and not (self._drain and (self._inbox or self._pending)):
                    return
                self._busy = True
            self._take_heard()
            if self._pending:
                self._say(self._pending.pop(0))
            with self._changed:
                self._busy = False

    def _take_heard(self) -> None:
        """Word the moments heard so far and queue their phrases (the speech thread)."""
        with self._changed:
            heard, self._inbox = self._inbox, []
            settings, self._settings = self._settings, None
        if settings is not None:
            self.voice = Espeak(volume=settings.volume, rate=settings.rate, voice=settings.voice)
            self._announcer.announce(settings.announce)
        for moment, when in heard:
            for phrase in self._announcer.phrases(moment, when):
                dropped = OVERTAKES[phrase.kind]
                self._pending = [waiting for waiting in self._pending if waiting.kind not in dropped]
                self._pending.append(phrase)

    def _until_overtaken(self, phrase: Phrase, chunks: Iterable[bytes]) -> Iterator[bytes]:
        """``chunks``, stopped when a newer phrase overtakes ``phrase`` while it is said (:data:`CUT`)."""
        for chunk in chunks:
            yield chunk
            if phrase.kind in CUT:
                self._take_heard()
                if any(phrase.kind in OVERTAKES[waiting.kind] for waiting in self._pending):
                    return

    def _say(self, phrase: Phrase) -> None:
        if self._silenced:
            return
        chunks = self.voice.speak(phrase.text, phrase.language)
        try:
            first = next(chunks, b"")  # espeak-ng's first samples: the sound's format is known then
            self.sink.play(phrase, self.voice.sound, self._until_overtaken(phrase, chain([first], chunks)))
            if self._failing:
                self._failing = False
                log.warning("speech: the table speaks again")
        except VoiceMissing as error:
            self._silenced = True
            log.error("speech: %s; the table plays on without speech", error)
        except (SoundError, RuntimeError, OSError) as error:
            if not self._failing:
                self._failing = True
                log.error("speech: %s; the table plays on without speech until it can", error)
        finally:
            chunks.close()


def speech_or_none(settings: SpeechSettings, folder: str | None = None) -> Speech | None:
    """The table's voice when ``[speech] enabled`` (or ``run --speak``) asks for it, into
    ``folder`` as WAV files when one is named (``run --speak DIR``); None: a silent table."""
    if not settings.enabled:
        return None
    return table_speech(settings, FolderSink(Path(folder), time.monotonic()) if folder else None)


def table_speech(settings: SpeechSettings, sink: Sink | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> Speech:
    """The speech ``[speech]`` asks for, into ``sink`` (None: the configured ALSA device)."""
    voice = Espeak(volume=settings.volume, rate=settings.rate, voice=settings.voice)
    return Speech(sink if sink is not None else AlsaSink(settings.device), voice, announce=settings.announce,
                  clock=clock)
