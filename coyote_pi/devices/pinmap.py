"""The pin map: which GPIO each seat's buttons, the OLED and the shutdown button use.

``hardware/pinmap.toml`` is the single source of truth. The code reads it through
:func:`load_pinmap`, ``docs/wiring.md`` is generated from it (:mod:`coyote_pi.devices.wiring`)
and the tests check both. The package carries it as ``coyote_pi/data/pinmap.toml`` (a
symlink in the source tree, a copy in an installed wheel), so an installed device finds
it without the repository.

GPIO numbers are Broadcom (BCM) numbers, the ones gpiozero uses; each also names its
physical header pin, and the loader checks the two agree with :data:`HEADER`::

    >>> pins = load_pinmap()
    >>> seat = pins.seat(1)
    >>> seat.minus.gpio, seat.minus.header
    (4, 7)
    >>> [name for name, _ in seat.buttons()]
    ['minus', 'plus', 'ok']

A map that breaks a rule raises :class:`~coyote_pi.devices.errors.PinMapError` with one
line saying where and why: a GPIO used twice, a button on a reserved GPIO (0/1 for the
HAT EEPROM, 2/3 for the OLED's I2C bus, 14/15 for the serial console), a header pin that
is not the GPIO it claims, seats not numbered 1..N, or an unknown key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from coyote_pi import schema
from coyote_pi.devices.errors import PinMapError
from coyote_pi.engine.game import MAX_PLAYERS, MIN_PLAYERS

#: The buttons every seat has, in the order they sit on the seat's panel.
BUTTONS: tuple[str, ...] = ("minus", "plus", "ok")

#: GPIOs no button may use, and why.
RESERVED_GPIOS: dict[int, str] = {
    0: "HAT ID EEPROM (ID_SD)",
    1: "HAT ID EEPROM (ID_SC)",
    2: "I2C1 SDA, the OLED",
    3: "I2C1 SCL, the OLED",
    14: "UART TX, the serial console",
    15: "UART RX, the serial console",
}
#: An I2S amplifier's lines (the table's voice, ``[amplifier]``): the Pi's PCM block puts
#: them on these GPIOs, whatever the overlay (max98357a, hifiberry-dac...).
AMPLIFIER_GPIOS: dict[str, int] = {"bclk": 18, "lrclk": 19, "din": 21}

#: The Raspberry Pi's 40-pin header (every model since the B+): physical pin -> what it
#: carries. GPIO pins are written "GPIO<BCM number>".
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND",
    7: "GPIO4", 8: "GPIO14", 9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18",
    13: "GPIO27", 14: "GND", 15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24",
    19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8",
    25: "GND", 26: "GPIO7", 27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND",
    31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}  # fmt: skip

#: BCM GPIO number -> physical header pin, derived from :data:`HEADER`.
GPIO_TO_HEADER: dict[int, int] = {
    int(name[4:]): pin for pin, name in HEADER.items() if name.startswith("GPIO")
}

#: A pin map has a seat for each player of the smallest to the largest game the engine plays.
MIN_SEATS, MAX_SEATS = MIN_PLAYERS, MAX_PLAYERS


@dataclass(frozen=True)
class PinRef:
    """One GPIO line: its BCM number (for gpiozero) and its physical header pin (for wiring)."""

    gpio: int
    header: int


@dataclass(frozen=True)
class SeatPins:
    """The three buttons of one seat (seats are numbered from 1)."""

    number: int
    minus: PinRef
    plus: PinRef
    ok: PinRef

    def buttons(self) -> list[tuple[str, PinRef]]:
        """``[(button name, pin), ...]`` in :data:`BUTTONS` order."""
        return [(name, getattr(self, name)) for name in BUTTONS]


@dataclass(frozen=True)
class PinMap:
    """A validated pin map. Build it with :func:`load_pinmap` or :func:`parse_pinmap`."""

    i2c_bus: int
    sda: PinRef
    scl: PinRef
    shutdown: PinRef | None
    seats: tuple[SeatPins, ...]
    source: str
    #: An I2S amplifier's lines, name -> pin (:data:`AMPLIFIER_GPIOS`); empty: none.
    amplifier: dict[str, PinRef] = field(default_factory=dict)

    def seat(self, number: int) -> SeatPins:
        """The pins of seat ``number`` (1-based); ``KeyError`` if the map has no such seat."""
        for seat in self.seats:
            if seat.number == number:
                return seat
        raise KeyError(f"the pin map has no seat {number} (seats 1..{len(self.seats)})")

    def uses(self) -> list[tuple[str, PinRef]]:
        """Every GPIO the map assigns, labelled for people: ``("seat 2 plus", PinRef)``."""
        used = [("OLED SDA", self.sda), ("OLED SCL", self.scl)]
        if self.shutdown is not None:
            used.append(("shutdown button", self.shutdown))
        for seat in self.seats:
            used += [(f"seat {seat.number} {name}", pin) for name, pin in seat.buttons()]
        used += [(f"I2S amplifier {name.upper()}", pin) for name, pin in self.amplifier.items()]
        return used


def default_pinmap_path() -> Path:
    """Where the packaged pin map lives (works from the source tree and an installed wheel)."""
    return Path(str(resources.files("coyote_pi").joinpath("data", "pinmap.toml")))


def load_pinmap(path: str | Path | None = None) -> PinMap:
    """Read and validate a pin map file; ``None`` means the one shipped with the package."""
    path = Path(path) if path is not None else default_pinmap_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise PinMapError(f"cannot read the pin map {path}: {err.strerror or err}") from None
    return parse_pinmap(text, source=str(path))


def parse_pinmap(text: str, source: str = "pin map") -> PinMap:
    """Validate pin map TOML ``text``; ``source`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise PinMapError(f"{source}: not valid TOML: {err}") from None
    return _Validator(source).pinmap(data)


class _Validator:
    """Turns the raw TOML tables into a :class:`PinMap`, failing on the first broken rule."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, message: str) -> PinMapError:
        return PinMapError(f"{self.source}: {message}")

    def table(self, value: object, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, object]:
        return schema.table(value, where, (*required, *optional), required, fail=self.fail)

    def integer(self, value: object, where: str) -> int:
        return schema.whole_number(value, where, fail=self.fail)

    def pin(self, value: object, where: str) -> PinRef:
        raw = self.table(value, where, ("gpio", "header"))
        gpio = self.integer(raw["gpio"], f"{where} gpio")
        header = self.integer(raw["header"], f"{where} header")
        if gpio not in GPIO_TO_HEADER:
            raise self.fail(f"{where}: GPIO {gpio} is not on the 40-pin header")
        if header not in HEADER:
            raise self.fail(f"{where}: header pin {header} does not exist (pins 1..40)")
        if GPIO_TO_HEADER[gpio] != header:
            raise self.fail(
                f"{where}: header pin {header} is {HEADER[header]}, not GPIO{gpio} "
                f"(GPIO{gpio} is header pin {GPIO_TO_HEADER[gpio]})"
            )
        return PinRef(gpio=gpio, header=header)

    def pinmap(self, data: dict[str, object]) -> PinMap:
        self.table(data, "the file", ("i2c", "seat"), optional=("shutdown", "amplifier"))
        i2c = self.table(data["i2c"], "[i2c]", ("bus", "sda", "scl"))
        bus = self.integer(i2c["bus"], "[i2c] bus")
        sda = self.pin(i2c["sda"], "[i2c] sda")
        scl = self.pin(i2c["scl"], "[i2c] scl")
        if bus == 1 and (sda.gpio, scl.gpio) != (2, 3):
            raise self.fail("[i2c] bus 1 is wired to GPIO2 (SDA) and GPIO3 (SCL) on every Pi")
        shutdown = None
        if "shutdown" in data:
            shutdown = self.pin(data["shutdown"], "[shutdown]")
        seats = self.seats(data["seat"])
        amplifier = self.amplifier(data["amplifier"]) if "amplifier" in data else {}
        pins = PinMap(i2c_bus=bus, sda=sda, scl=scl, shutdown=shutdown, seats=seats, source=self.source,
                      amplifier=amplifier)
        self.check_collisions(pins)
        return pins

    def amplifier(self, raw: object) -> dict[str, PinRef]:
        lines = self.table(raw, "[amplifier]", tuple(AMPLIFIER_GPIOS))
        pins = {name: self.pin(lines[name], f"[amplifier] {name}") for name in AMPLIFIER_GPIOS}
        for name, pin in pins.items():
            if pin.gpio != AMPLIFIER_GPIOS[name]:
                raise self.fail(f"[amplifier] {name} is GPIO {AMPLIFIER_GPIOS[name]} on every Pi (the I2S block's "
                                f"pin), not GPIO {pin.gpio}")
        return pins

    def seats(self, raw: object) -> tuple[SeatPins, ...]:
        if not isinstance(raw, list) or not raw:
            raise self.fail("needs [[seat]] tables, one per seat")
        seats = []
        for index, entry in enumerate(raw, start=1):
            fields = self.table(entry, f"[[seat]] #{index}", ("number", *BUTTONS))
            number = self.integer(fields["number"], f"[[seat]] #{index} number")
            if number != index:
                raise self.fail(f"[[seat]] #{index} has number {number}: seats must be numbered 1, 2, 3... in order")
            buttons = {name: self.pin(fields[name], f"seat {number} {name}") for name in BUTTONS}
            seats.append(SeatPins(number=number, **buttons))
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise self.fail(f"has {len(seats)} seats; Coyote needs {MIN_SEATS} to {MAX_SEATS}")
        return tuple(seats)

    def check_collisions(self, pins: PinMap) -> None:
        owner: dict[int, str] = {}
        for label, pin in pins.uses():
            if pin.gpio in RESERVED_GPIOS and not label.startswith("OLED"):
                raise self.fail(f"{label} uses GPIO {pin.gpio}, which is reserved for the {RESERVED_GPIOS[pin.gpio]}")
            if pin.gpio in owner:
                raise self.fail(f"{label} uses GPIO {pin.gpio}, already used by {owner[pin.gpio]}")
            owner[pin.gpio] = label
