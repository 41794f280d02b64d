"""Who holds a GPIO line: the answer a busy button pin's error message gives.

When a seat's pin cannot be claimed, lgpio says only "GPIO busy". The kernel knows more:
the GPIO character device names each line's *consumer*, what ``gpioinfo`` prints (for
example ``spi0 CS0`` for the SPI driver, ``onewire@4`` for the 1-Wire bus, ``shutdown``
for the gpio-shutdown overlay, ``lg`` for another program using lgpio). Reading it
needs no root, only the gpio group the service runs in. Where the kernel does not say,
:data:`USUAL_HOLDERS` names what Raspberry Pi OS puts on that pin when an interface or
an overlay is switched on::

    >>> holder_of(4, chip=0, dev="/nonexistent")
    'probably the 1-Wire bus (dtoverlay=w1-gpio, GPIO4 by default)'
"""

from __future__ import annotations

import fcntl
import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The SPI0 pins (CE1, CE0, MISO, MOSI, SCLK), taken by ``dtparam=spi=on``.
SPI0_GPIOS = (7, 8, 9, 10, 11)

#: What Raspberry Pi OS puts on a header pin when an interface or overlay is on.
USUAL_HOLDERS: dict[int, str] = {
    0: "the HAT ID EEPROM bus (ID_SD)",
    1: "the HAT ID EEPROM bus (ID_SC)",
    2: "I2C1 SDA (dtparam=i2c_arm=on)",
    3: "I2C1 SCL (dtparam=i2c_arm=on), or a gpio-shutdown overlay without gpio_pin (GPIO3 by default)",
    4: "the 1-Wire bus (dtoverlay=w1-gpio, GPIO4 by default)",
    **{gpio: f"SPI0 {role} (dtparam=spi=on)" for gpio, role in zip(SPI0_GPIOS, ("CE1", "CE0", "MISO", "MOSI", "SCLK"))},
    14: "the serial console TXD (enable_uart=1)",
    15: "the serial console RXD (enable_uart=1)",
    18: "PCM/I2S audio (an audio HAT's dtoverlay), or SPI1 CE0 (dtoverlay=spi1-...)",
    19: "PCM/I2S audio (an audio HAT's dtoverlay), or SPI1 MISO (dtoverlay=spi1-...)",
    20: "PCM/I2S audio (an audio HAT's dtoverlay), or SPI1 MOSI (dtoverlay=spi1-...)",
    21: "PCM/I2S audio (an audio HAT's dtoverlay), or SPI1 SCLK (dtoverlay=spi1-...)",
}

# struct gpio_v2_line_info (linux/gpio.h): name[32], consumer[32], u32 offset, u32
# num_attrs, u64 flags, 10 attributes of 16 bytes, u32 padding[4]: 256 bytes.
_LINE_INFO_SIZE = 256
_CONSUMER = slice(32, 64)
_OFFSET_AT = 64
_FLAGS_AT = 72
_FLAG_USED = 1
#: _IOWR(0xB4, 0x05, struct gpio_v2_line_info)
GPIO_V2_GET_LINEINFO_IOCTL = 0xC100B405


def kernel_consumer(
    gpio: int, chip: int = 0, *, dev: str | os.PathLike[str] = "/dev", ioctl: Callable[..., object] = fcntl.ioctl
) -> str | None:
    """The consumer the kernel names for line ``gpio`` of ``/dev/gpiochipN``; None when the
    line is free or the chip cannot be asked (no such chip, no permission, an old kernel).
    ``ioctl`` is the seam for tests."""
    info = bytearray(_LINE_INFO_SIZE)
    struct.pack_into("<I", info, _OFFSET_AT, gpio)
    try:
        fd = os.open(Path(dev) / f"gpiochip{chip}", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        ioctl(fd, GPIO_V2_GET_LINEINFO_IOCTL, info, True)
    except OSError:
        return None
    finally:
        os.close(fd)
    if not struct.unpack_from("<Q", info, _FLAGS_AT)[0] & _FLAG_USED:
        return None
    consumer = bytes(info[_CONSUMER]).split(b"\0", 1)[0].decode("utf-8", "replace").strip()
    return consumer or "a driver that gives no name"


def holder_of(gpio: int, chip: int | None, **kernel: Any) -> str:
    """Who holds ``gpio``, in words: the kernel's consumer if it names one, else the usual suspect.

    ``chip`` is the GPIO chip the pin factory uses (None: not the kernel's, e.g. mock
    pins, so the kernel is not asked). ``kernel`` passes ``dev`` and ``ioctl`` on to
    :func:`kernel_consumer`.
    """
    consumer = None if chip is None else kernel_consumer(gpio, chip, **kernel)
    usual = USUAL_HOLDERS.get(gpio)
    if consumer is not None:
        return f'held by "{consumer}"' + (f", likely {usual}" if usual else "")
    if usual is not None:
        return f"probably {usual}"
    return "held by another program or driver (`gpioinfo` lists who)"


def holder_for(gpio: int, pin_factory: object = None) -> str:
    """:func:`holder_of` on the chip of gpiozero's ``pin_factory`` (None: gpiozero's default).

    lgpio's factory names its chip (0, or 4 on a Pi 5 with an older kernel); mock pins have none.
    """
    from gpiozero import Device

    return holder_of(gpio, getattr(pin_factory or Device.pin_factory, "chip", None))
