"""A deadline for every capture: a hung camera is restarted, then given up, never waited on for ever.

picamera2's capture waits for the next frame with no time limit, and a camera can stop
delivering frames in the middle of an evening (a ribbon working loose, a sensor that
locks up, a libcamera fault). :class:`GuardedCamera` wraps any
:class:`~coyote_pi.devices.camera.Camera` so that no capture blocks longer than
``timeout`` seconds::

    camera = GuardedCamera(Picamera2Camera(), timeout=5.0, restarts=2)
    frame = camera.capture()      # a frame, or CameraError within 5 s (plus restarting)

What happens when a capture overruns its deadline:

1. The capture is abandoned: it ran on a thread of its own, so the caller (the
   controller's camera worker) gets :class:`CameraHung` and the controller counts a
   failed read, shows "Camera not answering" on the OLED and writes the error to the
   record.
2. The camera is asked to give the capture up (:meth:`Camera.interrupt`: picamera2
   cancels its queued job) and, once the capture has returned, restarted
   (:meth:`Camera.restart`: closed and opened again).
3. After ``restarts`` restarts without a frame in between, or when the capture does not
   come back, or the restart fails, the camera is *out of order* for the rest of the
   run: every capture fails at once, so the controller's count of failed reads reaches
   ``[table] manual_after`` quickly and the cards are entered with the buttons. No
   thread is ever started on a camera that still has a stuck one.

The systemd watchdog is left out of this on purpose. It restarts the whole service when
the controller's loop stops answering, and the loop never waits on the camera (the
camera worker does), so a hung camera does not stop its pings. Letting the watchdog
lapse for a camera fault would end the game in progress and, with a camera that stays
broken, restart the service over and over; instead the table restarts the camera
itself, then carries on by the buttons and says why on the OLED, in the log and in the
record. Restarting the service (or the Pi) is what brings an out-of-order camera back.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

import numpy as np

from coyote_pi.devices.camera import Camera
from coyote_pi.devices.errors import CameraError

log = logging.getLogger(__name__)

T = TypeVar("T")


class CameraHung(CameraError):
    """A capture overran its deadline; the message says whether the camera was restarted or given up."""


class _Call(Generic[T]):
    """One call of ``function`` on a thread of its own, waited on with a time limit."""

    def __init__(self, function: Callable[[], T], name: str):
        self._returned: list[T] = []  # what the function returned, once it has
        self.error: BaseException | None = None
        self._function = function
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self._returned.append(self._function())
        except BaseException as error:  # handed to the waiting thread, which raises it
            self.error = error

    def finished(self, timeout: float) -> bool:
        self.thread.join(timeout)
        return not self.thread.is_alive()

    def value(self) -> T:
        """What the finished call returned; the error it raised is raised here."""
        if self.error is not None:
            raise self.error
        return self._returned[0]


class GuardedCamera(Camera):
    """``camera`` with a deadline of ``timeout`` seconds on every capture (see the module docs).

    ``restarts`` is how many hangs in a row are met with a restart before the camera is
    given up. :attr:`out_of_order` says why once it has been.
    """

    def __init__(self, camera: Camera, *, timeout: float = 5.0, restarts: int = 2):
        self.camera = camera
        self.description = camera.description
        self.timeout = timeout
        self.restarts = restarts
        self.hangs = 0  #: hangs since the last good frame
        self.out_of_order: str | None = None

    def capture(self) -> np.ndarray:
        if self.out_of_order is not None:
            raise CameraHung(self.out_of_order)
        call = _Call(self.camera.capture, "camera capture")
        if call.finished(self.timeout):
            frame = call.value()
            self.hangs = 0
            return frame
        self.hangs += 1
        late = f"{self.description} gave no frame within {self.timeout:g} s"
        self.camera.interrupt()
        if not call.finished(self.timeout):
            self._give_up(f"{late} and stays stuck")
        if self.hangs > self.restarts:
            self._give_up(f"{late}, {self.hangs} times in a row")
        restart = _Call(self.camera.restart, "camera restart")
        if not restart.finished(self.timeout) or restart.error is not None:
            self._give_up(f"{late}, and restarting it failed ({restart.error or 'no answer'})")
        log.warning("%s: restarted it (%d of %d restarts)", late, self.hangs, self.restarts)
        raise CameraHung(f"{late}: restarted it")

    def _give_up(self, why: str) -> None:
        """Mark the camera out of order, let go of it without waiting, and raise."""
        self.out_of_order = f"{why}: camera out of order until coyote-pi restarts; cards go by the buttons"
        log.error("%s", self.out_of_order)
        _Call(self.camera.close, "camera close")  # may block on the stuck camera: not waited for
        raise CameraHung(self.out_of_order)

    def close(self) -> None:
        if self.out_of_order is None:
            self.camera.close()
