"""An OLED that is unplugged all evening: thousands of failed reconnects leave nothing behind.

smbus2 and luma run unchanged over :class:`FakeI2CBus`, which stands in for the kernel's
I2C device, so every descriptor and every object a reconnect opens is real.
"""

from __future__ import annotations

import atexit
import errno
import os
import threading
from pathlib import Path

import luma.core.error
import pytest
import smbus2.smbus2 as smbus

from coyote_pi.devices.display import TableDisplay, luma_opener, open_luma_device, release_luma_device
from coyote_pi.devices.errors import DeviceError
from coyote_pi.devices.screen import Screen

RECONNECTS = 10_000
#: Stop early once this many descriptors leaked: the old code would otherwise eat ~3 GB.
LEAK_LIMIT = 50


class FakeI2CBus:
    """Bus ``port`` as a Raspberry Pi's /dev/i2c-N with ``chip`` behind it: None, "probe-only" or "panel".

    Real: smbus2 and luma run unchanged, and opening the bus opens a real file descriptor
    (of a plain file standing in for the device node). Differs from a Pi: the kernel's
    i2c-dev ioctls are answered here. I2C_FUNCS and I2C_SLAVE succeed; a transfer to a
    missing chip fails with EREMOTEIO ("Remote I/O error"), what the Pi's I2C driver
    returns when no chip acknowledges the address. ``"probe-only"`` acknowledges reads
    but fails every write (a loose data wire: the probe passes, luma's set-up fails);
    ``"panel"`` acknowledges everything, like a working SSD1306.
    """

    def __init__(self, monkeypatch, node: Path, chip: str | None = None):
        node.touch()
        self.chip = chip
        real_open = smbus.SMBus.open
        monkeypatch.setattr(smbus.SMBus, "open", lambda bus, port: real_open(bus, str(node)))
        monkeypatch.setattr(smbus, "ioctl", self._ioctl)

    def _ioctl(self, fd, request, arg=0):
        if request == smbus.I2C_FUNCS:
            arg.value = int(smbus.I2cFunc.I2C | smbus.I2cFunc.SMBUS_EMUL)
            return 0
        if request in (smbus.I2C_SLAVE, smbus.I2C_SLAVE_FORCE):
            return 0
        reading = request == smbus.I2C_SMBUS and arg.read_write == smbus.I2C_SMBUS_READ
        if self.chip == "panel" or (self.chip == "probe-only" and reading):
            return 0
        raise OSError(errno.EREMOTEIO, "Remote I/O error")


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_a_missing_panel_is_reported_without_opening_luma(monkeypatch, tmp_path):
    FakeI2CBus(monkeypatch, tmp_path / "i2c-1")
    before = (open_descriptors(), atexit._ncallbacks())
    with pytest.raises(luma.core.error.DeviceNotFoundError, match="no display answers at 0x3C on /dev/i2c-1"):
        open_luma_device("ssd1306", port=1, address="0x3C")
    assert (open_descriptors(), atexit._ncallbacks()) == before


def test_no_bus_and_no_permission_are_told_apart(monkeypatch):
    def refuse(bus, port):
        raise PermissionError(errno.EACCES, "Permission denied")

    with pytest.raises(luma.core.error.DeviceNotFoundError, match="no I2C bus /dev/i2c-7"):
        open_luma_device("ssd1306", port=7)
    monkeypatch.setattr(smbus.SMBus, "open", refuse)
    with pytest.raises(DeviceError, match="i2c group"):
        open_luma_device("ssd1306", port=7)


def test_ten_thousand_failed_reconnects_leave_descriptors_and_memory_flat(monkeypatch, tmp_path):
    """The OLED unplugged: TableDisplay retries without pause; descriptors stay exactly
    level, resident memory grows by less than 5 MB (the old code: 1 descriptor and
    ~340 KB per attempt)."""
    FakeI2CBus(monkeypatch, tmp_path / "i2c-1")
    open_panel = luma_opener("ssd1306", port=1, address="0x3C")
    samples: list[tuple[int, int, int, int]] = []  # (attempt, descriptors, resident bytes, exit hooks)
    enough = threading.Event()

    def counted_open():
        attempt = len(samples) + 1
        measure = attempt % 100 == 0
        samples.append((attempt, open_descriptors(), resident_bytes(), atexit._ncallbacks()) if measure else None)
        if attempt >= RECONNECTS or (attempt > 200 and measure and samples[-1][1] - samples[199][1] > LEAK_LIMIT):
            enough.set()
        return open_panel()

    display = TableDisplay(counted_open, size=(128, 64), retry_delays=(0.0,))
    try:
        assert enough.wait(timeout=600)
    finally:
        display.close()
    measured = [sample for sample in samples if sample is not None]
    _, fds_at_start, rss_at_start, hooks_at_start = measured[1]  # after 200 attempts: imports and caches are warm
    attempt, fds_at_end, rss_at_end, hooks_at_end = measured[-1]
    assert attempt >= RECONNECTS, f"stopped after {attempt} attempts: {fds_at_end - fds_at_start} descriptors leaked"
    assert fds_at_end == fds_at_start and hooks_at_end == hooks_at_start
    assert rss_at_end - rss_at_start < 5 * 1024 * 1024


def test_a_panel_that_fails_while_being_set_up_leaves_nothing_open(monkeypatch, tmp_path):
    """The probe's read passes, luma's first command fails: luma had opened the bus and
    registered its exit hook; both are undone."""
    FakeI2CBus(monkeypatch, tmp_path / "i2c-1", chip="probe-only")
    open_panel = luma_opener("ssd1306", port=1, address="0x3C")
    with pytest.raises(luma.core.error.DeviceNotFoundError):
        open_panel()  # warm up imports
    before = (open_descriptors(), atexit._ncallbacks(), resident_bytes())
    for _ in range(500):
        with pytest.raises(luma.core.error.DeviceNotFoundError, match="I2C device not found on address: 0x3C"):
            open_panel()
    after = (open_descriptors(), atexit._ncallbacks(), resident_bytes())
    assert after[:2] == before[:2]
    assert after[2] - before[2] < 5 * 1024 * 1024  # the old code kept ~340 KB per attempt: 170 MB


def test_a_working_panel_is_released_without_a_trace(monkeypatch, tmp_path):
    """Opened, drawn on, dropped after a glitch, opened again: nothing accumulates."""
    bus = FakeI2CBus(monkeypatch, tmp_path / "i2c-1", chip="panel")
    open_panel = luma_opener("ssd1306", port=1, address="0x3C")
    release_luma_device(open_panel(), blank=True)  # warm up imports
    before = (open_descriptors(), atexit._ncallbacks())
    for _ in range(100):
        device = open_panel()
        assert open_descriptors() == before[0] + 1  # the panel's bus, held while it is in use
        with TableDisplay(device) as display:
            assert display.show(Screen(big="17"))
        assert open_descriptors() == before[0]
    assert (open_descriptors(), atexit._ncallbacks()) == before
    bus.chip = None
    with pytest.raises(luma.core.error.DeviceNotFoundError):
        open_panel()
