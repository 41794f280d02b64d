"""``[speech]`` in the table's configuration: its keys, their bounds, one line per mistake."""

from __future__ import annotations

import pytest

from coyote_pi.config import ConfigError, SpeechSettings, load_config_text


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
