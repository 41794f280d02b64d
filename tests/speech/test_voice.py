"""Real sound from espeak-ng (Debian's package, installed by ``make``), measured: every
language's phrases last about as long as their text and are not silence."""

from __future__ import annotations

import time
import wave
from pathlib import Path

import numpy as np
import pytest

from coyote_pi.speech.announcer import Kind, Phrase
from coyote_pi.speech.sinks import FolderSink, TrackSink
from coyote_pi.speech.voice import Espeak
from coyote_pi.words.translator import Translator

LANGUAGES = ("en", "de", "ru")


def spoken(language: str) -> str:
    tr = Translator(language)
    return f'{tr("say.challenge", challenger=4, bidder=3, bid=17)}. {tr("say.total", total=23)}.'


def samples(path: Path) -> tuple[np.ndarray, int]:
    with wave.open(str(path)) as audio:
        assert (audio.getnchannels(), audio.getsampwidth()) == (1, 2)
        return np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2"), audio.getframerate()


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_is_spoken_as_long_as_its_text_and_is_not_silence(language: str, tmp_path: Path) -> None:
    voice = Espeak()
    text = spoken(language)
    FolderSink(tmp_path, 0.0).play(Phrase(Kind.CHALLENGE, text, language), voice.sound, voice.speak(text, language))
    pcm, rate = samples(tmp_path / "0001-challenge.wav")
    seconds = len(pcm) / rate
    words = len(text.split()) + 4  # the numbers take a word or two each
    # 175 words a minute is about 3 words a second: the same text lasts between half and twice that.
    assert words / 6 < seconds < words / 1.5, (seconds, text)
    loud = np.abs(pcm.astype(np.int32))
    assert loud.max() > 8000  # speech at espeak-ng's normal amplitude, not a whisper or silence
    windows = loud[: len(loud) // 441 * 441].reshape(-1, 441).max(axis=1)  # 20 ms windows
    assert (windows > 1000).mean() > 0.5  # voiced most of the time, not a click in the silence
    assert (tmp_path / "phrases.txt").read_text(encoding="utf-8") == f"    0.00\tchallenge\t0001-challenge.wav\t{text}\n"


def test_a_faster_rate_and_a_lower_volume_are_heard(tmp_path: Path) -> None:
    text = spoken("en")

    def measured(voice: Espeak) -> tuple[float, float]:
        pcm = np.frombuffer(b"".join(voice.speak(text, "en")), dtype="<i2")
        return len(pcm) / voice.sound.rate, float(np.sqrt(np.mean(pcm.astype(np.float64) ** 2)))

    normal_seconds, normal_rms = measured(Espeak())
    fast_seconds, _ = measured(Espeak(rate=350))
    _, quiet_rms = measured(Espeak(volume=25))
    assert fast_seconds < 0.7 * normal_seconds
    assert quiet_rms < 0.5 * normal_rms


def test_a_repeated_phrase_is_made_once() -> None:
    voice = Espeak()
    first = b"".join(voice.speak("Seat 3, your turn", "en"))
    voice.command = "/nonexistent/espeak-ng"  # a second synthesis would fail
    assert b"".join(voice.speak("Seat 3, your turn", "en")) == first


def test_the_demo_track_places_each_phrase_at_its_moment_or_after_the_one_before(tmp_path: Path) -> None:
    voice, track = Espeak(), TrackSink()
    started = time.monotonic()
    for heard, text in ((started + 1.0, "Seat 1 bids 5"), (started + 1.1, "Seat 2 bids 6"), (started + 9.0, "Seat 3")):
        track.play(Phrase(Kind.BID, text, "en", heard), voice.sound, voice.speak(text, "en"))
    count = track.write(tmp_path / "speech.wav", tmp_path / "speech.txt", lambda moment: 2 * (moment - started))
    pcm, rate = samples(tmp_path / "speech.wav")
    times = [float(line.split("\t")[0]) for line in (tmp_path / "speech.txt").read_text().splitlines()]
    first_length = len(track.phrases[0][2]) / 2 / rate
    assert count == 3
    assert times[0] == 2.0 and times[1] == pytest.approx(2.0 + first_length, abs=0.01) and times[2] == 18.0
    assert not pcm[: int(1.9 * rate)].any() and pcm[int(2 * rate): int(2.5 * rate)].any()
    assert len(pcm) / rate == pytest.approx(18.0 + len(track.phrases[2][2]) / 2 / rate, abs=0.01)
