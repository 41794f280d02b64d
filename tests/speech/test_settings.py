"""``[speech]`` in the table's configuration: its keys, their bounds, one line per mistake."""

from __future__ import annotations

import pytest

from coyote_pi.config import ConfigError, SpeechSettings, load_config_text, page_values, with_page_settings
from coyote_pi.speech.announcer import Kind
from coyote_pi.speech.speaker import Speech
from coyote_pi.speech.voice import Espeak
from tests.speech.conftest import HeldSink, TextVoice, bidding, challenged, dealt_game, moment, wait_idle


def test_the_speech_settings_are_read_and_default_to_silence() -> None:
    assert load_config_text("").speech == SpeechSettings(enabled=False)
    text = '[speech]\nenabled = true\nvolume = 60\nrate = 150\ndevice = "hw:1,0"\nvoice = "en-us"\nannounce = "bids"\n'
    assert load_config_text(text).speech == SpeechSettings(True, 60, 150, "hw:1,0", "en-us", "bids")


@pytest.mark.parametrize(("text", "message"), [
    ("volume = 300", "[speech] volume must be 0 to 200, not 300"),
    ("rate = 20", "[speech] rate must be 80 to 450, not 20"),
    ('announce = "cards"', "[speech] announce"),
    ('device = "-D x"', "[speech] device must be a name such as \"default\" or \"hw:1,0\", not '-D x'"),
    ('device = ""', "[speech] device must not be empty"),
    ("loud = true", "[speech]"),
])
def test_a_wrong_speech_setting_is_one_line_naming_it(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config_text(f"[speech]\n{text}\n", source="config.toml")
    assert str(refused.value).startswith("config.toml: ") and message in str(refused.value)
    assert "\n" not in str(refused.value)


def test_the_web_page_may_change_how_the_table_speaks_but_not_whether_or_where() -> None:
    config = load_config_text('[speech]\nenabled = true\ndevice = "hw:1,0"\n')
    assert page_values(config)["speech"] == {"volume": 100, "rate": 175, "announce": "all"}
    changed = with_page_settings(config, '[speech]\nvolume = 60\nannounce = "verdicts"\n')
    assert changed.speech == SpeechSettings(True, 60, 175, "hw:1,0", "", "verdicts")
    for refused in ("enabled = false", 'device = "hw:0,0"'):
        with pytest.raises(ConfigError, match="is not settable from the web page"):
            with_page_settings(config, f"[speech]\n{refused}\n")
    with pytest.raises(ConfigError, match="volume must be 0 to 200"):
        with_page_settings(config, "[speech]\nvolume = 500\n")


def test_the_speech_takes_new_settings_at_its_next_phrase() -> None:
    game, sink = dealt_game(), HeldSink()
    speech = Speech(sink, TextVoice())
    speech.hear(moment(game))
    speech.use(SpeechSettings(enabled=True, volume=50, rate=200, announce="verdicts"))
    for later in bidding(game, [5, 6]):
        speech.hear(later)
    speech.hear(challenged(game))
    wait_idle(speech)
    speech.close()
    assert [phrase.kind for phrase in sink.played] == [Kind.VERDICT, Kind.EXPLANATION]
    assert isinstance(speech.voice, Espeak) and (speech.voice.volume, speech.voice.rate) == (50, 200)
