"""The table's OLED, through luma: draws :class:`Screen` objects and survives I2C glitches.

:class:`TableDisplay` wraps any luma device (a real SSD1306/SH1106/SSD1309/SSD1322, or
luma's ``dummy`` that only keeps the last image) and shows :class:`Screen` objects on it,
laid out by :class:`~coyote_pi.devices.render.ScreenRenderer` for the device's size::

    from luma.core.device import dummy
from PIL import Image
    display = TableDisplay(dummy(width=128, height=64, mode="1"))
    display.show(Screen(title="Seat 2 bids", big="17"))
    display.device.image          # what the panel shows now

Real panels are opened from the ``[display]`` settings with luma's own option parser
(:func:`luma_opener`), so every device and interface luma supports works with the
same names as luma's own tools: ``driver = "sh1106"``, ``interface = "i2c"``, ``port``,
``address``, ``width``, ``height``, ``rotate``.

When the bus fails
------------------
A loose wire or electrical noise makes luma raise ``OSError`` or
``luma.core.error.DeviceNotFoundError`` in the middle of a game. The game must go on, so
:meth:`TableDisplay.show` never raises for that: it logs the error, keeps the newest
screen, and retries on a background timer after 0.5 s, 1 s, 2 s, 5 s and then every 10 s,
each time reopening the device (which re-sends the panel's initialisation, needed
after a brown-out) and drawing the newest screen. Screens shown meanwhile replace the
pending one; a success ends the backoff. :class:`coyote_pi.sim.display.FlakyDummy`
simulates such a bus.

An unplugged panel is retried all evening, so a failed attempt must leave nothing behind.
luma does not see to that: its I2C interface opens the bus (a file descriptor) before the
panel is known to answer, and every luma device registers an ``atexit`` hook that holds
the device, its bus and its frame buffers (about 340 KB) until the process ends. So
:func:`luma_opener` first asks the bus with one byte read through smbus2 (the
library luma itself uses), which costs nothing when nobody answers; when luma fails
later anyway, the half-built device's bus is closed. luma's exit hooks are kept from
``atexit`` altogether: one hook of this module blanks the panels still open at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import inspect
import logging
import threading
import time
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any

from luma.core.device import dummy
from PIL import Image

from coyote_pi.devices.errors import DeviceConfigError, DeviceError
from coyote_pi.devices.render import ScreenRenderer
from coyote_pi.devices.scheduler import ScheduledCall, Timers, given_or_own
from coyote_pi.devices.screen import Screen

log = logging.getLogger(__name__)

#: Seconds to wait before each retry after a failure; the last one repeats.
RETRY_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0, 5.0, 10.0)


def _transient_errors() -> tuple[type[Exception], ...]:
    """The errors a glitching bus raises: worth retrying, never worth stopping the game for."""
    import luma.core.error

    return (OSError, luma.core.error.DeviceNotFoundError)


class TableDisplay:
    """Shows :class:`Screen` objects on a luma device and keeps going when the bus fails.

    ``device`` is a luma device, or a function that opens one (called again to reopen
    after a failure; a failure of the first call is retried like any other). With a
    function, give the logical ``size`` (width, height after rotation) so screens can be
    drawn before the panel answers. ``outputs`` receive every frame (see
    :mod:`coyote_pi.devices.outputs`); ``retry_delays`` is the backoff in seconds;
    ``clock`` stamps the frames given to the outputs. The retries run on ``scheduler``
    (one of its own unless given: a simulation passes one that follows its clock).
    """

    def __init__(
        self,
        device: Any,
        *,
        size: tuple[int, int] | None = None,
        outputs: Iterable[Any] = (),
        retry_delays: Collection[float] = RETRY_DELAYS,
        clock: Callable[[], float] = time.monotonic,
        scheduler: Timers | None = None,
    ):
        if callable(device):
            if size is None:
                raise ValueError("give the display size when passing a function that opens the device")
            self._open: Callable[[], Any] = device  # a luma device (luma has no types)
            self._device: Any | None = None
        else:
            self._open = lambda: device
            self._device = device
            size = size or device.size
        self.size = size
        self.renderer = ScreenRenderer(size)
        self.outputs = list(outputs)
        self._retry_delays = tuple(retry_delays)
        self._clock = clock
        self._scheduler, self._own_scheduler = given_or_own(scheduler, "display retry")
        self._lock = threading.Lock()
        self._on_device = threading.Condition(self._lock)
        self._latest: Image.Image | None = None
        self._shown = True
        self._failures = 0
        self._retry: ScheduledCall | None = None
        self._closed = False
        self.last_error: str | None = None
        if self._device is None:
            with self._lock:
                self._open_locked()

    @property
    def device(self) -> Any:
        """The luma device in use, or ``None`` while it is failing."""
        return self._device

    @property
    def healthy(self) -> bool:
        """True when the newest screen is on the panel (False during a failure backoff)."""
        with self._lock:
            return self._shown

    def page_count(self, screen: Screen) -> int:
        """How many pages ``screen.lines`` take on this display."""
        return self.renderer.page_count(screen)

    def show(self, screen: Screen) -> bool:
        """Draw ``screen``: True when the panel shows it now, False when it will on a retry.

        Call it from the controller's loop. It never raises for bus errors.
        """
        image = self.renderer.render(screen)
        now = self._clock()
        for output in self.outputs:
            output.frame(image, now)
        with self._lock:
            if self._closed:
                return False
            self._latest = image
            self._shown = False
            if self._retry is not None:
                return False  # in backoff: the scheduled retry will draw this newest screen
            return self._draw_locked(image)

    def wait_shown(self, timeout: float | None = None) -> bool:
        """Block until the newest screen is on the panel (or ``timeout`` seconds pass)."""
        with self._on_device:
            return self._on_device.wait_for(lambda: self._shown, timeout)

    def close(self) -> None:
        """Stop retrying, close the outputs (the GIF is written) and release the device."""
        with self._lock:
            self._closed = True
            if self._retry is not None:
                self._retry.cancel()
        if self._own_scheduler is not None:
            self._own_scheduler.close()
        for output in self.outputs:
            close = getattr(output, "close", None)
            if close is not None:
                close()
        if self._device is not None:
            release_luma_device(self._device, blank=True)

    def __enter__(self) -> TableDisplay:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- with the lock held ---------------------------------------------------------

    def _draw_locked(self, image: Image.Image) -> bool:
        """Show ``image`` (the latest screen), opening the device first if it is not open."""
        try:
            if self._device is None:
                self._device = self._open()
            device = self._device
            device.display(image if device.mode == "1" else image.convert(device.mode))
        except _transient_errors() as err:
            self._failed_locked(err)
            return False
        if self._failures:
            log.info("display is back after %d failed attempt(s)", self._failures)
        self._failures = 0
        self.last_error = None
        self._shown = True
        self._on_device.notify_all()
        return True

    def _open_locked(self) -> None:
        """Open the device for the first time; a glitch starts the retry backoff."""
        try:
            self._device = self._open()
        except _transient_errors() as err:
            self._failed_locked(err)

    def _failed_locked(self, err: Exception) -> None:
        self._failures += 1
        self.last_error = f"{type(err).__name__}: {err}"
        delay = self._retry_delays[min(self._failures, len(self._retry_delays)) - 1]
        level = logging.WARNING if self._failures == 1 else logging.DEBUG
        log.log(level, "display write failed (%s); retrying in %.3g s", self.last_error, delay)
        self._release_locked()
        self._retry = self._scheduler.call_later(delay, self._retry_now)

    def _release_locked(self) -> None:
        """Let go of a failed device without writing to it."""
        device, self._device = self._device, None
        if device is not None:
            release_luma_device(device, blank=False)

    def _retry_now(self) -> None:
        with self._lock:
            self._retry = None
            if self._closed:
                return
            if self._latest is None:
                self._open_locked()
            elif not self._shown:
                self._draw_locked(self._latest)


def luma_opener(
    driver: str,
    *,
    interface: str = "i2c",
    port: int = 1,
    address: str = "0x3C",
    width: int = 128,
    height: int = 64,
    rotate: int = 0,
    luma_args: Iterable[str] = (),
) -> Callable[[], object]:
    """A function that opens a luma device by name, its settings checked by luma's own options now.

    ``driver`` is any display luma knows (``ssd1306``, ``sh1106``, ``ssd1309``,
    ``ssd1322``...) or ``"dummy"`` for luma's in-memory device (mode "1"). ``luma_args``
    passes further luma options, e.g. ``["--mode", "1"]`` or SPI settings. Bad names and
    values raise :class:`DeviceConfigError` here. Each call of the function opens the
    panel (hand it to :class:`TableDisplay`, which calls it again to reconnect): a panel
    that does not answer raises luma's own error (``DeviceNotFoundError``, ``OSError``).
    On I2C the panel is asked first (:func:`probe_i2c`), and whatever a failed attempt
    opened is closed before the error leaves. Give a device back with
    :func:`release_luma_device`.
    """
    if driver == "dummy":
        return lambda: _built(lambda: dummy(width=width, height=height, rotate=rotate, mode="1"))
    import argparse

    import luma.core.error
    from luma.core import cmdline

    parser = cmdline.create_parser(
        description="coyote-pi display", parser=argparse.ArgumentParser(exit_on_error=False), autocomplete=False
    )
    argv = [
        f"--display={driver}", f"--interface={interface}", f"--i2c-port={port}", f"--i2c-address={address}",
        f"--width={width}", f"--height={height}", f"--rotate={rotate}", *luma_args,
    ]  # fmt: skip
    try:
        options, unknown = parser.parse_known_args(argv)
    except argparse.ArgumentError as err:
        raise DeviceConfigError(f"[display] settings rejected by luma: {err}") from None
    if unknown:
        raise DeviceConfigError(f"[display] luma does not know the option(s) {' '.join(unknown)}")

    def open_device() -> Any:
        if options.interface == "i2c":
            probe_i2c(options.i2c_port, options.i2c_address)
        try:
            return _built(lambda: cmdline.create_device(options))
        except (luma.core.error.DevicePermissionError, luma.core.error.DeviceAddressError) as err:
            raise DeviceError(f"cannot open the {driver} display: {err} (is the user in the i2c group?)") from None
        except luma.core.error.DeviceDisplayModeError as err:
            raise DeviceConfigError(f"[display] {driver} cannot do {width}x{height}: {err}") from None

    return open_device


def open_luma_device(driver: str, **settings: Any) -> Any:
    """Open a luma device now: ``luma_opener(driver, **settings)()`` (same settings, same errors)."""
    return luma_opener(driver, **settings)()


def probe_i2c(port: int, address: int | str) -> None:
    """Raise unless a chip answers at ``address`` on I2C bus ``port``; open nothing that stays open.

    One byte is read, as ``i2cdetect -r`` and ``coyote-pi doctor`` do (SSD1306 and SH1106
    panels acknowledge a read with their status byte). No bus, or nobody answering,
    raises luma's ``DeviceNotFoundError`` (worth retrying); no permission raises
    :class:`DeviceError`.
    """
    import luma.core.error
    import smbus2

    address = int(str(address), 0)
    where = f"0x{address:02X} on /dev/i2c-{port}"
    try:
        with smbus2.SMBus(port) as bus:
            bus.read_byte(address)
    except PermissionError as err:
        raise DeviceError(f"cannot open /dev/i2c-{port}: {err.strerror} (is the user in the i2c group?)") from None
    except FileNotFoundError:
        raise luma.core.error.DeviceNotFoundError(f"no I2C bus /dev/i2c-{port} (is I2C enabled?)") from None
    except OSError as err:
        raise luma.core.error.DeviceNotFoundError(f"no display answers at {where} ({err.strerror or err})") from None


def release_luma_device(device: Any, *, blank: bool) -> None:
    """Close ``device``'s bus; ``blank`` first switches the panel off (a failed one is not written to)."""
    _OPEN_DEVICES.discard(device)
    device.persist = not blank
    try:
        device.cleanup()
    except _transient_errors() as err:
        log.debug("releasing the display: %s", err)


#: luma devices opened here and not yet released: blanked when the process exits.
_OPEN_DEVICES: weakref.WeakSet[Any] = weakref.WeakSet()
_BUILDING = threading.Lock()


@atexit.register
def _blank_open_devices() -> None:
    """What luma's per-device exit hooks would do, once for all devices still open."""
    for device in list(_OPEN_DEVICES):
        with contextlib.suppress(Exception):
            release_luma_device(device, blank=True)


def _built(build: Callable[[], Any]) -> Any:
    """``build()``'s luma device, with luma's exit hook taken off ``atexit``; on failure its bus is closed."""
    with _exit_hooks_caught() as hooks:
        try:
            device = build()
        except BaseException:
            for hook in hooks:
                half_built = _device_of(hook)
                if half_built is not None:
                    release_luma_device(half_built, blank=False)
            raise
    _OPEN_DEVICES.add(device)
    return device


class _HookCatcher:
    """Stands in for the ``atexit`` module inside ``luma.core.device`` while a device is built."""

    def __init__(self) -> None:
        self.hooks: list[Callable[..., object]] = []

    def register(self, hook: Callable[..., object], *args: object, **kwargs: object) -> Callable[..., object]:
        self.hooks.append(hook)
        return hook


@contextlib.contextmanager
def _exit_hooks_caught() -> Iterator[list[Callable[..., object]]]:
    """The exit hooks luma's ``device.__init__`` registers meanwhile, instead of registering them.

    luma offers no way to give its hook back (``atexit.unregister`` needs the function,
    a closure luma does not keep), so its module's name ``atexit`` is swapped for the
    duration, under a lock: only this module builds luma devices.
    """
    import luma.core.device as luma_device

    with _BUILDING:
        catcher = _HookCatcher()
        luma_device.atexit, real = catcher, luma_device.atexit
        try:
            yield catcher.hooks
        finally:
            luma_device.atexit = real


def _device_of(hook: Callable[..., object]) -> Any:
    """The device a luma exit hook would clean up (luma's hook is a closure over ``self``)."""
    bound = getattr(hook, "__self__", None)
    if bound is not None:
        return bound
    return inspect.getclosurevars(hook).nonlocals.get("self")
