"""The pin map: the shipped file is valid, found from the package, and bad maps fail clearly."""

from __future__ import annotations

import tomllib

import pytest

from coyote_pi.devices.errors import PinMapError
from coyote_pi.devices.pinmap import (
    BUTTONS,
    GPIO_TO_HEADER,
    HEADER,
    RESERVED_GPIOS,
    default_pinmap_path,
    load_pinmap,
    parse_pinmap,
)

from .conftest import REPO


def test_packaged_pin_map_is_the_hardware_file(pinmap):
    packaged = default_pinmap_path()
    assert packaged.read_bytes() == (REPO / "hardware" / "pinmap.toml").read_bytes()
    assert load_pinmap() == load_pinmap(packaged)
    assert load_pinmap().seats == pinmap.seats


def test_shipped_map_obeys_the_wiring_rules(pinmap):
    used = [pin.gpio for _, pin in pinmap.uses()]
    assert len(used) == len(set(used))
    assert (pinmap.sda.gpio, pinmap.scl.gpio) == (2, 3)
    assert pinmap.shutdown is not None and pinmap.shutdown.gpio != 3
    for label, pin in pinmap.uses():
        assert HEADER[pin.header] == f"GPIO{pin.gpio}", label
        if not label.startswith("OLED"):
            assert pin.gpio not in RESERVED_GPIOS, label
    assert [seat.number for seat in pinmap.seats] == list(range(1, len(pinmap.seats) + 1))
    assert all(len(seat.buttons()) == len(BUTTONS) for seat in pinmap.seats)


def test_header_table_matches_the_pi_header():
    assert len(HEADER) == 40
    assert sorted(GPIO_TO_HEADER) == list(range(28))  # GPIO 0..27 are all on the header once
    assert [pin for pin, name in HEADER.items() if name == "GND"] == [6, 9, 14, 20, 25, 30, 34, 39]


def _map(seat_lines: str, shutdown: str = "gpio = 21\nheader = 40") -> str:
    """A pin map text with two seats' worth of lines supplied by the test."""
    return f"""
[i2c]
bus = 1
sda = {{ gpio = 2, header = 3 }}
scl = {{ gpio = 3, header = 5 }}

[shutdown]
{shutdown}

{seat_lines}
"""


SEAT_1 = """
[[seat]]
number = 1
minus = { gpio = 4, header = 7 }
plus = { gpio = 17, header = 11 }
ok = { gpio = 27, header = 13 }
"""
SEAT_2 = """
[[seat]]
number = 2
minus = { gpio = 22, header = 15 }
plus = { gpio = 10, header = 19 }
ok = { gpio = 9, header = 21 }
"""
GOOD_SEATS = SEAT_1 + SEAT_2


def test_a_minimal_two_seat_map_loads():
    pins = parse_pinmap(_map(GOOD_SEATS))
    assert pins.seat(2).ok.gpio == 9
    with pytest.raises(KeyError, match="no seat 3"):
        pins.seat(3)


def test_the_shutdown_button_is_optional():
    text = _map(GOOD_SEATS).replace("[shutdown]\ngpio = 21\nheader = 40", "")
    assert parse_pinmap(text).shutdown is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("gpio = 9, header = 21", "gpio = 4, header = 7"), "seat 2 ok uses GPIO 4, already used by seat 1 minus"),
        (("gpio = 9, header = 21", "gpio = 14, header = 8"), "seat 2 ok uses GPIO 14, which is reserved for the UART TX"),
        (("gpio = 9, header = 21", "gpio = 2, header = 3"), "seat 2 ok uses GPIO 2, which is reserved for the I2C1 SDA, the OLED"),
        (("gpio = 9, header = 21", "gpio = 0, header = 27"), "reserved for the HAT ID EEPROM"),
        (("gpio = 9, header = 21", "gpio = 9, header = 23"), "seat 2 ok: header pin 23 is GPIO11, not GPIO9 (GPIO9 is header pin 21)"),
        (("gpio = 9, header = 21", "gpio = 9, header = 20"), "header pin 20 is GND"),
        (("gpio = 9, header = 21", "gpio = 40, header = 21"), "GPIO 40 is not on the 40-pin header"),
        (("gpio = 9, header = 21", "gpio = 9, header = 41"), "header pin 41 does not exist"),
        (("gpio = 9, header = 21", 'gpio = "9", header = 21'), "seat 2 ok gpio must be a whole number"),
        (("number = 2", "number = 3"), "[[seat]] #2 has number 3: seats must be numbered 1, 2, 3... in order"),
        (("ok = { gpio = 9, header = 21 }", "okay = { gpio = 9, header = 21 }"), "unknown key 'okay'"),
        (("ok = { gpio = 9, header = 21 }", ""), "[[seat]] #2 is missing the key 'ok'"),
        (("number = 2", "number = 2\ncolour = 'red'"), "unknown key 'colour'"),
    ],
)
def test_bad_seat_entries_are_named_in_one_line(change, message):
    old, new = change
    text = _map(SEAT_1 + SEAT_2.replace(old, new, 1))
    with pytest.raises(PinMapError) as caught:
        parse_pinmap(text, source="test.toml")
    assert str(caught.value).startswith("test.toml: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_shutdown_pin_must_not_collide_with_a_button():
    with pytest.raises(PinMapError, match="seat 1 minus uses GPIO 4, already used by shutdown button"):
        parse_pinmap(_map(GOOD_SEATS, shutdown="gpio = 4\nheader = 7"))


def test_shutdown_pin_must_not_be_the_i2c_clock():
    with pytest.raises(PinMapError, match="shutdown button uses GPIO 3, which is reserved for the I2C1 SCL"):
        parse_pinmap(_map(GOOD_SEATS, shutdown="gpio = 3\nheader = 5"))


def test_i2c_bus_1_must_be_on_gpio_2_and_3():
    text = _map(GOOD_SEATS).replace("sda = { gpio = 2, header = 3 }", "sda = { gpio = 12, header = 32 }")
    with pytest.raises(PinMapError, match="bus 1 is wired to GPIO2"):
        parse_pinmap(text)


def test_seat_count_limits():
    with pytest.raises(PinMapError, match="has 1 seats; Coyote needs 2 to 6"):
        parse_pinmap(_map(SEAT_1))
    with pytest.raises(PinMapError, match="missing the key 'seat'"):
        parse_pinmap(_map(""))
    with pytest.raises(PinMapError, match=r"needs \[\[seat\]\] tables"):
        parse_pinmap("seat = 6\n" + _map(""))


def test_not_toml_and_missing_file(tmp_path):
    with pytest.raises(PinMapError, match="not valid TOML"):
        parse_pinmap("[i2c\nbus = 1", source="broken.toml")
    with pytest.raises(PinMapError, match=r"cannot read the pin map .*missing.toml"):
        load_pinmap(tmp_path / "missing.toml")


def test_missing_i2c_table():
    with pytest.raises(PinMapError, match="the file is missing the key 'i2c'"):
        parse_pinmap(GOOD_SEATS)


def test_package_data_ships_the_pin_map_and_fonts():
    """An installed wheel carries the pin map (the symlink's target) and the fonts."""
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["coyote_pi"]
    package = REPO / "coyote_pi"
    shipped = {path.relative_to(package).as_posix() for pattern in patterns for path in package.glob(pattern)}
    assert {"data/pinmap.toml", "data/fonts/DejaVuSans.ttf", "data/fonts/DejaVuSans-Bold.ttf"} <= shipped
    assert "data/fonts/LICENSE-DejaVu.txt" in shipped
