"""Generate ``docs/wiring.md`` from the pin map, so the wiring guide can never disagree with it.

The document has a table per seat, the OLED and camera connections, the shutdown button
and a text drawing of the 40-pin header. Regenerate it after editing
``hardware/pinmap.toml``::

    python -m coyote_pi.commands.wiring --write docs/wiring.md

(:mod:`coyote_pi.commands.wiring`; ``--check docs/wiring.md`` exits with status 1 when
the file is stale, as the test suite checks.)
"""

from __future__ import annotations

from coyote_pi.devices.pinmap import GPIO_TO_HEADER, HEADER, RESERVED_GPIOS, PinMap

REGENERATE_COMMAND = "python -m coyote_pi.commands.wiring --write docs/wiring.md"

#: What each button does, as the controller uses them.
BUTTON_USES: dict[str, str] = {
    "minus": "step the selection down (a lower bid, the previous action)",
    "plus": "step the selection up (a higher bid, the next action: Coyote!, peek, Coyote card)",
    "ok": "confirm the selection",
}

#: Where the OLED's power goes: 3.3 V on pin 1, ground on pin 6 beside the I2C pins.
OLED_POWER_PIN, OLED_GROUND_PIN = 1, 6
#: The 5 V pin an I2S amplifier takes its power from.
AMPLIFIER_POWER_PIN = 2

#: Every ground pin of the header, in header order.
GROUND_PINS = tuple(pin for pin, name in HEADER.items() if name == "GND")


def _row(header_pin: int) -> int:
    return (header_pin - 1) // 2


def ground_plan(pins: PinMap) -> dict[str, int]:
    """Give each group of wires its own ground pin: ``{"OLED": 6, "seat 1": 9, ...}``.

    A header pin takes one jumper wire, so each seat gets one ground wire that is
    daisy-chained to its three buttons. Groups pick, in order, the free ground pin nearest
    to their own pins; when there are more groups than ground pins the last ones share.
    """
    groups: list[tuple[str, list[int]]] = [("OLED", [OLED_GROUND_PIN])]
    if pins.shutdown is not None:
        groups.append(("shutdown button", [pins.shutdown.header]))
    groups += [(f"seat {seat.number}", [pin.header for _, pin in seat.buttons()]) for seat in pins.seats]
    if pins.amplifier:
        groups.append(("I2S amplifier", [pin.header for pin in pins.amplifier.values()]))
    plan: dict[str, int] = {}
    for name, group_pins in groups:
        free = [ground for ground in GROUND_PINS if ground not in plan.values()] or list(GROUND_PINS)
        plan[name] = min(free, key=lambda ground: (sum(abs(_row(ground) - _row(p)) for p in group_pins), ground))
    return plan


def oled_connections(pins: PinMap) -> list[tuple[str, int, str]]:
    """The OLED module's four pins: ``(module pin, header pin, what it carries)``."""
    return [
        ("VCC", OLED_POWER_PIN, "3.3 V (not 5 V: the module's pull-ups would put 5 V on the Pi's I2C pins)"),
        ("GND", ground_plan(pins)["OLED"], "ground"),
        ("SDA", pins.sda.header, f"I2C data, GPIO{pins.sda.gpio}"),
        ("SCL", pins.scl.header, f"I2C clock, GPIO{pins.scl.gpio}"),
    ]


def _pin_labels(pins: PinMap) -> dict[int, str]:
    """Header pin -> what is connected to it, for the header drawing."""
    labels = {pin.header: label for label, pin in pins.uses()}
    for group, ground in ground_plan(pins).items():
        labels[ground] = f"{labels[ground]} + {group} ground" if ground in labels else f"{group} ground"
    labels.update({GPIO_TO_HEADER[gpio]: f"keep free: {why}" for gpio, why in RESERVED_GPIOS.items()
                   if GPIO_TO_HEADER[gpio] not in labels})
    labels[OLED_POWER_PIN] = "OLED VCC"
    if pins.amplifier:
        labels[AMPLIFIER_POWER_PIN] = "I2S amplifier VIN"
    return labels


def _spare_or_blank(pin: int, labels: dict[int, str]) -> str:
    return "spare" if HEADER[pin].startswith("GPIO") and pin not in labels else ""


def header_diagram(pins: PinMap) -> list[str]:
    """The 40-pin header as two columns of text: odd pins on the left, even on the right."""
    labels = _pin_labels(pins)
    text = {pin: labels.get(pin) or _spare_or_blank(pin, labels) for pin in HEADER}
    left_width = max(len(text[pin]) for pin in range(1, 41, 2))
    lines = []
    for odd in range(1, 41, 2):
        even = odd + 1
        left = f"{text[odd]:>{left_width}}  {HEADER[odd]:>6} {odd:>2} o"
        right = f"o {even:<2} {HEADER[even]:<6}  {text[even]}"
        lines.append(f"{left} {right}".rstrip())
    return lines


def render_wiring(pins: PinMap, source_name: str = "hardware/pinmap.toml") -> str:
    """The whole ``docs/wiring.md`` for ``pins`` (``source_name`` is how the doc cites the map)."""
    out = [
        "<!-- Generated from the pin map: do not edit by hand. -->",
        "# Wiring",
        "",
        f"Generated from `{source_name}`, the single source of truth for the code, this page and the",
        "tests (a test fails when they drift apart). After editing the pin map, regenerate it with",
        "",
        f"    {REGENERATE_COMMAND}",
        "",
        "GPIO numbers are Broadcom (BCM) numbers, as gpiozero uses them. \"Pin\" is the physical pin",
        "on the 40-pin header: pin 1 (3.3 V) is at the end of the header away from the USB ports, on",
        "the row nearer the middle of the board; odd pins run along that row, even pins along the",
        "board's edge. Wire with the Pi switched off.",
        "",
        "## Seat buttons",
        "",
        "Each button has two legs: one goes to its GPIO pin, the other to ground. No resistors are",
        "needed: the Pi's internal pull-up holds the line high until the button pulls it to ground.",
        "A header pin takes one wire, so each seat has one ground wire from its own ground pin,",
        "daisy-chained to the second leg of all three buttons. The software debounces the",
        "contacts, so any momentary push button works.",
        "",
        "Hold minus or plus to step quickly; press minus and plus together to undo.",
        "",
    ]
    grounds = ground_plan(pins)
    for seat in pins.seats:
        out += [
            f"### Seat {seat.number}",
            "",
            f"Ground: pin {grounds[f'seat {seat.number}']}, to all three buttons.",
            "",
            "| Button | Use | GPIO | Pin |",
            "|---|---|---|---|",
        ]
        out += [f"| {name} | {BUTTON_USES[name]} | GPIO{pin.gpio} | {pin.header} |" for name, pin in seat.buttons()]
        out.append("")
    out += [
        f"## OLED display (I2C bus {pins.i2c_bus})",
        "",
        "An SSD1306 or SH1106 128x64 module (or a larger SSD1309/SSD1322), at I2C address 0x3C",
        "(some modules are set to 0x3D: change `address` under `[display]` in the configuration).",
        "The bus runs at 400 kHz, set in `firmware/config.txt`.",
        "",
        "| OLED pin | Pi pin | Carries |",
        "|---|---|---|",
    ]
    out += [f"| {oled} | {header} | {what} |" for oled, header, what in oled_connections(pins)]
    out += [
        "",
        "## Camera (CSI ribbon)",
        "",
        "The Camera Module 3 Wide uses no header pins: its ribbon goes into a camera connector.",
        "Lift the connector's latch, push the ribbon fully in, press the latch down.",
        "",
        "- Raspberry Pi 4: the CAMERA connector between the HDMI ports and the audio jack, the",
        "  ribbon's metal contacts facing the HDMI ports.",
        "- Raspberry Pi 5: either CAM/DISP connector, with a 22-pin to 15-pin camera cable, the metal",
        "  contacts facing the Ethernet port.",
        "- At the camera end the metal contacts face the camera board.",
        "",
    ]
    if pins.shutdown is not None:
        shutdown = pins.shutdown
        out += [
            "## Shutdown button (optional)",
            "",
            f"One push button between GPIO{shutdown.gpio} (pin {shutdown.header}) and ground "
            f"(pin {grounds['shutdown button']}).",
            f"`firmware/config.txt` enables the gpio-shutdown overlay on GPIO{shutdown.gpio}: a press halts the",
            "Pi cleanly, so the SD card survives. The overlay's default, GPIO3, is the OLED's I2C",
            "clock, hence the other pin; waking a halted Pi works only from GPIO3, so power it up",
            "again with its power button (Pi 5) or by reconnecting the power supply.",
            "",
        ]
    if pins.amplifier:
        lines = pins.amplifier
        out += [
            "## I2S amplifier (optional: the table's voice)",
            "",
            "A MAX98357A board (or another I2S amplifier) with a small 4-8 ohm speaker; docs/raspberry-pi.md",
            "(\"The table's voice\") says how to turn it on (`dtoverlay=max98357a` in config.txt).",
            "",
            "| Amplifier pin | Pi pin | Carries |",
            "|---|---|---|",
            f"| BCLK | {lines['bclk'].header} | bit clock, GPIO{lines['bclk'].gpio} |",
            f"| LRC | {lines['lrclk'].header} | left/right clock, GPIO{lines['lrclk'].gpio} |",
            f"| DIN | {lines['din'].header} | the samples, GPIO{lines['din'].gpio} |",
            f"| VIN | {AMPLIFIER_POWER_PIN} | 5 V |",
            f"| GND | {grounds['I2S amplifier']} | ground |",
            "",
        ]
    out += [
        "## The 40-pin header",
        "",
        "```",
        *header_diagram(pins),
        "```",
        "",
    ]
    return "\n".join(out)

