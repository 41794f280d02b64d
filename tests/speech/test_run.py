"""``run --speak`` turns the speech on (into a folder with DIR), and the demo's track follows
its GIF's clock."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from PIL import Image

from coyote_pi.commands import run as run_command
from coyote_pi.config import SpeechSettings
from coyote_pi.devices.outputs import GifRecorder
from coyote_pi.speech.sinks import AlsaSink, FolderSink
from coyote_pi.speech.speaker import speech_or_none
from tests.speech.conftest import bidding, dealt_game, moment, wait_idle


def arguments(tmp_path: Path, **changes) -> argparse.Namespace:
    values = dict(config=None, sim=True, players=3, variant=None, language=None, start_seat=None,
                  record_dir=str(tmp_path), scripted=True, camera_size=None, no_view=True, seed=None, deal=None,
                  web=None, virtual=None, speak=None)
    return argparse.Namespace(**{**values, **changes})


def test_speak_turns_the_speech_on_and_without_it_the_table_is_silent(tmp_path: Path) -> None:
    silent, _ = run_command._settings(arguments(tmp_path))
    speaking, _ = run_command._settings(arguments(tmp_path, speak=""))
    assert not silent.speech.enabled and speech_or_none(silent.speech) is None
    assert speaking.speech == dataclasses.replace(SpeechSettings(), enabled=True)
    speech = speech_or_none(speaking.speech, "")
    assert speech is not None and isinstance(speech.sink, AlsaSink) and speech.sink.device == "default"
    speech.close()


def test_speak_dir_writes_each_phrase_as_a_wav_file_with_its_line(tmp_path: Path) -> None:
    speech = speech_or_none(SpeechSettings(enabled=True, announce="bids"), str(tmp_path / "speech"))
    assert speech is not None and isinstance(speech.sink, FolderSink)
    game = dealt_game()
    speech.hear(moment(game))
    for later in bidding(game, [5]):
        speech.hear(later)
    wait_idle(speech)
    speech.close()
    assert sorted(path.name for path in (tmp_path / "speech").iterdir()) == ["0001-bid.wav", "phrases.txt"]
    assert (tmp_path / "speech" / "phrases.txt").read_text().split("\t")[1:] == ["bid", "0001-bid.wav", "Seat 1 bids 5\n"]


def test_the_gif_says_where_a_moment_falls_in_it(tmp_path: Path) -> None:
    gif = GifRecorder(tmp_path / "oled.gif", min_frame_seconds=0.1, max_frame_seconds=3.0)
    for shade, when in ((0, 100.0), (255, 100.05), (0, 110.0)):  # shown 0.05 s (0.1 in the GIF), then 10 s (3)
        gif.frame(Image.new("1", (128, 64), shade), when)
    assert gif.seconds_at(99.0) == 0.0
    assert gif.seconds_at(100.02) == 0.02
    assert gif.seconds_at(100.05) == 0.1
    assert gif.seconds_at(101.05) == 1.1
    assert gif.seconds_at(109.0) == 3.1  # the long frame is shortened: a moment late in it is at its end
    assert gif.seconds_at(111.0) == 4.1
