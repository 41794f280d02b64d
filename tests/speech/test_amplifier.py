"""An I2S amplifier for the table's voice in the pin map: its pins may not be a button's,
and the wiring generator draws it."""

from __future__ import annotations

import re

import pytest

from coyote_pi.devices.errors import PinMapError
from coyote_pi.devices.pinmap import default_pinmap_path, parse_pinmap
from coyote_pi.devices.wiring import header_diagram, render_wiring

AMPLIFIER = """
[amplifier]
bclk = { gpio = 18, header = 12 }
lrclk = { gpio = 19, header = 35 }
din = { gpio = 21, header = 40 }
"""


def shipped() -> str:
    return default_pinmap_path().read_text(encoding="utf-8")


def test_an_amplifier_on_the_shipped_buttons_pins_is_refused() -> None:
    with pytest.raises(PinMapError, match="I2S amplifier BCLK uses GPIO 18, already used by seat 5 minus"):
        parse_pinmap(shipped() + AMPLIFIER, source="pinmap.toml")


def test_an_amplifier_must_be_on_the_i2s_pins() -> None:
    moved = AMPLIFIER.replace("din = { gpio = 21, header = 40 }", "din = { gpio = 20, header = 38 }")
    with pytest.raises(PinMapError, match=re.escape("[amplifier] din is GPIO 21 on every Pi")):
        parse_pinmap(shipped() + moved, source="pinmap.toml")


def test_with_the_buttons_moved_off_its_pins_the_wiring_shows_the_amplifier() -> None:
    text = (shipped()
            .replace("gpio = 21\nheader = 40", "gpio = 20\nheader = 38")  # the power-off button
            .replace("plus = { gpio = 19, header = 35 }", "plus = { gpio = 12, header = 32 }")
            .replace("minus = { gpio = 18, header = 12 }", "minus = { gpio = 16, header = 36 }"))
    pins = parse_pinmap(text + AMPLIFIER, source="pinmap.toml")
    wiring = render_wiring(pins)
    assert "## I2S amplifier (optional: the table's voice)" in wiring
    assert "| BCLK | 12 | bit clock, GPIO18 |" in wiring and "| DIN | 40 | the samples, GPIO21 |" in wiring
    assert "| VIN | 2 | 5 V |" in wiring
    drawn = "\n".join(header_diagram(pins))
    assert "I2S amplifier LRCLK  GPIO19 35 o" in drawn and "o 2  5V      I2S amplifier VIN" in drawn
    assert "I2S amplifier" not in render_wiring(parse_pinmap(shipped()))  # none: the page is as it was
