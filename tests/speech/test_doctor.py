"""``coyote-pi doctor``'s sound check: espeak-ng speaks and ``[speech] device`` plays, or
one line says what to do; ``--speak`` plays a test phrase people can hear."""

from __future__ import annotations

from pathlib import Path

import pytest

from coyote_pi.config import SpeechSettings
from coyote_pi.pi import doctor
from coyote_pi.pi.doctor import FAIL, PASS, SKIP, Doctor, Options
from coyote_pi.speech.sinks import SoundError
from coyote_pi.speech.voice import VoiceMissing
from tests.pi.test_pi_doctor import FakeProbes, fake_host, pi, probes, write  # noqa: F401 (pi, probes: fixtures)


class Ears:
    def __init__(self, error: Exception | None = None) -> None:
        self.error = error
        self.calls: list[tuple[SpeechSettings, str, str, bool]] = []

    def __call__(self, settings: SpeechSettings, text: str, language: str, audible: bool) -> None:
        self.calls.append((settings, text, language, audible))
        if self.error is not None:
            raise self.error


def sound(root: Path, fakes: FakeProbes, ears: Ears, **options) -> doctor.Result:
    host = fake_host(root, fakes)
    host.sound_probe = ears
    return next(result for result in Doctor(host, Options(**options)).checks() if result.name == "sound")


def test_a_silent_table_skips_the_sound_unless_asked_to_speak(pi, probes) -> None:  # noqa: F811
    ears = Ears()
    result = sound(pi, probes, ears)
    assert (result.status, ears.calls) == (SKIP, [])
    assert "[speech] enabled = false" in result.detail
    assert sound(pi, probes, ears, speak=True).status == PASS
    assert ears.calls == [(SpeechSettings(), "Coyote Pi speaks. Seat 1 bids 17.", "en", True)]


def test_a_speaking_table_checks_its_device_quietly_in_its_language(pi, probes) -> None:  # noqa: F811
    write(pi, "etc/coyote-pi/config.toml", '[game]\nlanguage = "de"\n[speech]\nenabled = true\ndevice = "hw:1,0"\n')
    ears = Ears()
    result = sound(pi, probes, ears)
    assert result == doctor.Result(PASS, "sound", "espeak-ng speaks and the sound device hw:1,0 plays")
    assert [(text, language, audible) for _, text, language, audible in ears.calls] == [
        ("Coyote Pi spricht. Platz 1 sagt 17.", "de", False)]


@pytest.mark.parametrize(("error", "advice"), [
    (VoiceMissing("espeak-ng cannot be run (No such file or directory)"), "sudo apt install espeak-ng"),
    (SoundError("the sound device hw:1,0 cannot play (aplay: main:831: audio open error: No such device)"),
     "aplay -L lists the devices; set [speech] device"),
])
def test_a_missing_voice_or_device_fails_with_what_to_do(pi, probes, error, advice) -> None:  # noqa: F811
    write(pi, "etc/coyote-pi/config.toml", '[speech]\nenabled = true\ndevice = "hw:1,0"\n')
    result = sound(pi, probes, Ears(error))
    assert result.status == FAIL and result.detail.startswith(str(error)) and advice in result.detail


def test_the_real_probe_speaks_and_refuses_a_device_that_is_not_there() -> None:
    with pytest.raises(SoundError, match="the sound device no-such-device cannot play"):
        doctor.probe_sound(SpeechSettings(enabled=True, device="no-such-device"), "Seat 1 bids 17.", "en", False)
