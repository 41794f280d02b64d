"""The overhead camera: one method, :meth:`Camera.capture`, returning a BGR frame.

Every backend returns a numpy array of shape ``(height, width, 3)``, dtype ``uint8``,
channels in OpenCV's blue-green-red order, and raises :class:`CameraError` (one line
saying what went wrong) instead of returning nothing. The controller treats a
``CameraError`` as "the camera failed" and offers the manual path::

    with FolderCamera("frames/", loop=True) as camera:
        frame = camera.capture()          # the next image of the folder, in name order

Backends (``[camera] backend`` in the configuration):

- ``picamera2``: :class:`Picamera2Camera`, the Pi camera, full-resolution stills
  (4608x2592 on a Camera Module 3), streaming only while the table looks, with a fixed
  lens and mains flicker avoided. picamera2 is imported only when used.
- ``webcam``: :class:`WebcamCamera`, OpenCV ``VideoCapture`` (a device index or a path/URL).
- ``folder``: :class:`FolderCamera`, replays image files in natural name order
  (``frame2`` before ``frame10``), optionally looping.
- ``synthetic`` and ``failing``: the simulated table's cameras, in :mod:`coyote_pi.sim.camera`.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

import numpy as np

from coyote_pi.devices.errors import CameraError, CameraLibraryError
from coyote_pi.devices.focus import FocusSettings, describe, dioptres, load_focus, plausible, save_focus
from coyote_pi.devices.scheduler import ScheduledCall, Scheduler

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})
#: The Camera Module 3's full still resolution.
FULL_RESOLUTION = (4608, 2592)


def checked_frame(frame: object, source: str) -> np.ndarray:
    """``frame`` as an ``(h, w, 3)`` uint8 BGR array, or :class:`CameraError` naming ``source``."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise CameraError(f"{source} returned no 8-bit image ({type(frame).__name__})")
    if frame.ndim == 2:
        frame = np.repeat(frame[:, :, None], 3, axis=2)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = frame[:, :, :3]  # drop the padding/alpha byte of XBGR/BGRA layouts
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
        raise CameraError(f"{source} returned an image of unusable shape {frame.shape}")
    return frame


class Camera:
    """The interface every backend implements; use it as a context manager."""

    #: Says which camera this is, for logs and error messages.
    description = "camera"

    def capture(self) -> np.ndarray:
        """Take one frame: ``(height, width, 3)`` uint8 BGR. Raises :class:`CameraError`."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the camera (safe to call twice)."""

    def interrupt(self) -> None:
        """Ask a capture blocked on another thread to give up (a backend that cannot does nothing).

        :class:`~coyote_pi.devices.camera_guard.GuardedCamera` calls it when a capture
        overran its deadline.
        """

    def restart(self) -> None:
        """Close the camera and open it again after a hang (nothing to do for most backends)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


#: libcamera's AfMode "AfModeManual": the lens stays at LensPosition.
AF_MANUAL = 0
#: libcamera's AeFlickerMode "FlickerManual": avoid the period given in AeFlickerPeriod.
FLICKER_MANUAL = 1
#: Seconds an autofocus cycle may take before it counts as failed.
AUTOFOCUS_SECONDS = 10.0


def flicker_period_us(mains_hz: int) -> int:
    """The flicker period of lamps on ``mains_hz`` mains, in microseconds: they flicker at
    twice the mains frequency (50 Hz: 10000 us, 60 Hz: 8333 us)."""
    return round(1_000_000 / (2 * mains_hz))


def load_picamera2() -> Any:
    """picamera2's ``Picamera2`` class, or :class:`CameraLibraryError` saying why there is none.

    Not only a missing package: the apt python3-picamera2 is compiled against its
    release's numpy, and with another numpy in the venv its import raises ValueError
    ("numpy.dtype size changed") or an ImportError about numpy. Whatever the import
    raises, the table falls back to the buttons and ``coyote-pi doctor`` says why.
    """
    try:
        from picamera2 import Picamera2
    except Exception as err:
        if isinstance(err, ModuleNotFoundError) and err.name == "picamera2":
            raise CameraLibraryError(
                "picamera2 is not installed: on Raspberry Pi OS run 'sudo apt install python3-picamera2' "
                "and make the venv with --system-site-packages (or choose another [camera] backend)"
            ) from None
        raise CameraLibraryError(
            f"picamera2 does not load ({type(err).__name__}: {err}; numpy {np.__version__}): the apt camera "
            "stack and the venv's numpy must be those of one Raspberry Pi OS release; make the venv afresh "
            "('sudo rm -r /opt/coyote-pi/venv && sudo make install')"
        ) from None
    return Picamera2


class Picamera2Camera(Camera):
    """The Raspberry Pi camera through picamera2: full-resolution stills, a fixed lens, idle between looks.

    picamera2 comes from Raspberry Pi OS's apt package ``python3-picamera2``; the venv
    must be made with ``--system-site-packages`` to see it. ``size`` is the still size;
    ``camera_number`` picks a camera when several are connected.

    - **Streaming only while looking**: the first capture starts the camera; when no
      capture has come for ``idle_after`` seconds, a timer stops it again (during a
      turn nobody looks at the cards). The first frames after a start may come before
      the automatic exposure has settled: that costs a read, not a wrong card, since
      cards count only when several readings in a row agree.
    - **A fixed lens** (:mod:`coyote_pi.devices.focus`): the position kept in
      ``focus.file`` by an earlier calibration, else the geometry's ``focus.distance_cm``;
      with a ``focus.file`` and nothing in it yet, :meth:`calibrate` runs once now and
      its result is kept. Cameras without autofocus keep their fixed lens.
    - **Mains flicker**: with ``mains_hz`` (50 or 60; 0 leaves it to libcamera) the
      exposure avoids the lamps' flicker period, so stills show no dark bands.

    :meth:`interrupt` cancels a capture blocked on another thread (picamera2 0.3.20 and
    later); :meth:`restart` closes and opens the camera again.
    """

    def __init__(
        self,
        size: tuple[int, int] = FULL_RESOLUTION,
        *,
        camera_number: int = 0,
        focus: FocusSettings = FocusSettings(),
        mains_hz: int = 50,
        idle_after: float = 3.0,
    ):
        Picamera2 = load_picamera2()
        self.description = f"Pi camera {camera_number} at {size[0]}x{size[1]}"
        self._new_camera: Callable[[], Any] = lambda: Picamera2(camera_number)
        self._size = tuple(size)
        self._mains_hz = mains_hz
        self._idle_after = idle_after
        self._lock = threading.Lock()
        self._idle_timer = Scheduler("camera idle")
        self._idle_call: ScheduledCall | None = None
        #: The open picamera2 object (None: closed); picamera2 has no types, hence Any.
        self._camera: Any | None = None
        self._streaming = False
        self._from_still = focus.from_still
        saved = load_focus(focus.file)
        #: The lens position in use, in dioptres (None: the camera has no autofocus to set).
        self.lens_position: float | None = saved if saved is not None else dioptres(focus.distance_cm / 100)
        self._open()
        if saved is None and focus.file is not None and self.lens_position is not None:
            try:
                save_focus(focus.file, self.calibrate())
            except (CameraError, OSError) as err:
                log.warning("focus not calibrated (%s); the lens stays at %s", err, describe(self.lens_position))

    def capture(self) -> np.ndarray:
        with self._lock:
            try:
                self._start_locked()
                frame = self._opened().capture_array("main")
            except Exception as err:
                raise CameraError(f"the Pi camera failed to capture: {err}") from None
            finally:
                self._idle_later_locked()
        return checked_frame(frame, self.description)

    def calibrate(self) -> float:
        """Run one autofocus cycle on the table and fix the lens where it found focus; its dioptres.

        Raises :class:`CameraError` when the camera has no autofocus, or the cycle fails
        or finds a distance no table has (the lens then stays where it was).
        """
        if self.lens_position is None:
            raise CameraError(f"{self.description} has no autofocus: its lens is fixed")
        with self._lock:
            try:
                self._start_locked()
                focused = self._opened().autofocus_cycle(wait=False).get_result(timeout=AUTOFOCUS_SECONDS)
                metadata = self._opened().capture_metadata(wait=False).get_result(timeout=AUTOFOCUS_SECONDS)
                found = metadata.get("LensPosition")
            except Exception as err:
                self.interrupt()
                focused, found = False, f"{type(err).__name__}: {err}"
            finally:
                self._idle_later_locked()
            good = focused and plausible(found)
            if good:
                self.lens_position = self._between_the_stands(float(found))
            self._opened().set_controls({"AfMode": AF_MANUAL, "LensPosition": self.lens_position})
        if not good:
            raise CameraError(f"autofocus found no focus on the table ({found})")
        return self.lens_position

    def _between_the_stands(self, found: float) -> float:
        """The lens position to fix after autofocus found focus at ``found``: what
        ``focus.from_still`` makes of a still taken there (every stand equally sharp), or
        ``found`` when there is no such measure, the still fails, or it gives a distance
        no table has. Called with the lock held and the camera started."""
        if self._from_still is None:
            return found
        try:
            self._opened().set_controls({"AfMode": AF_MANUAL, "LensPosition": found})
            chosen = self._from_still(checked_frame(self._opened().capture_array("main"), self.description))
        except Exception as err:  # a failed still leaves the autofocus's result, which is good
            log.warning("no still to place the focus between the stands (%s): kept %s", err, describe(found))
            return found
        if chosen is None or not plausible(chosen):
            log.info("focus kept where autofocus found it, %s: fewer than two stands measured", describe(found))
            return found
        log.info("focus set between the nearest and the farthest stand: %s (autofocus found %s)",
                 describe(chosen), describe(found))
        return float(chosen)

    def interrupt(self) -> None:
        cancel = getattr(self._camera, "cancel_all_and_flush", None)  # picamera2 0.3.20 and later
        if cancel is not None:
            cancel()

    def restart(self) -> None:
        with self._lock:
            self._close_locked()
            self._open()

    def close(self) -> None:
        self._idle_timer.close()
        with self._lock:
            self._close_locked()

    # --- with the lock held (or before any other thread knows the camera) ----------

    def _open(self) -> None:
        """Open and configure the camera and set its controls; it does not stream yet."""
        try:
            camera = self._camera = self._new_camera()
            # "RGB888" is picamera2's name for 8-bit pixels stored blue, green, red: OpenCV's order.
            camera.configure(camera.create_still_configuration(main={"size": self._size, "format": "RGB888"}))
            controls: dict[str, object] = {}
            if "AfMode" in camera.camera_controls and self.lens_position is not None:
                controls.update(AfMode=AF_MANUAL, LensPosition=self.lens_position)
            else:
                self.lens_position = None
            if self._mains_hz and "AeFlickerMode" in camera.camera_controls:
                controls.update(AeFlickerMode=FLICKER_MANUAL, AeFlickerPeriod=flicker_period_us(self._mains_hz))
            if controls:
                camera.set_controls(controls)
        except Exception as err:  # picamera2 raises several types when no camera answers
            self._close_locked()
            raise CameraError(f"cannot start the Pi camera: {err} (is the ribbon seated? try 'rpicam-hello')") from None

    def _start_locked(self) -> None:
        if self._idle_call is not None:
            self._idle_call.cancel()
            self._idle_call = None
        if not self._streaming:
            self._opened().start()
            self._streaming = True

    def _idle_later_locked(self) -> None:
        call = self._idle_call = self._idle_timer.call_later(self._idle_after, lambda: self._stop_when_idle(call))

    def _stop_when_idle(self, call: ScheduledCall) -> None:
        # A capture holding the lock arms a new timer when it ends: this one has nothing to do.
        if not self._lock.acquire(blocking=False):
            return
        try:
            if self._streaming and call is self._idle_call:
                self._opened().stop()
                self._streaming = False
        finally:
            self._lock.release()

    def _opened(self) -> Any:
        """The open picamera2 object; :class:`CameraError` once the camera is closed (or
        did not open again after a restart)."""
        if self._camera is None:
            raise CameraError(f"{self.description} is closed")
        return self._camera

    def _close_locked(self) -> None:
        if self._idle_call is not None:
            self._idle_call.cancel()
            self._idle_call = None
        self._streaming = False
        if self._camera is not None:
            camera, self._camera = self._camera, None
            camera.close()


class WebcamCamera(Camera):
    """A USB webcam (or a video file/stream) through OpenCV's ``VideoCapture``.

    ``source`` is a device index (``0``, or the string ``"0"``) or a path/URL; ``size``
    asks the camera for a resolution (it may choose the nearest it supports).
    """

    def __init__(self, source: int | str = 0, *, size: tuple[int, int] | None = None):
        import cv2

        if isinstance(source, str) and source.isdigit():
            source = int(source)
        self.description = f"webcam {source!r}"
        self._capture = cv2.VideoCapture(source)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"cannot open {self.description}: no such camera or file")
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # keep frames fresh: the table changes between reads
        if size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def capture(self) -> np.ndarray:
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"{self.description} delivered no frame (unplugged, or the end of the video)")
        return checked_frame(frame, self.description)

    def close(self) -> None:
        self._capture.release()


def _natural_key(path: Path) -> list[object]:
    """Sort key that orders ``frame2`` before ``frame10``."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


class FolderCamera(Camera):
    """Replays the image files of ``folder`` in natural name order, one per capture.

    With ``loop`` it starts again after the last file; without, a capture past the end
    raises :class:`CameraError`. A file that cannot be decoded raises
    :class:`CameraError` naming it, and the next capture moves on to the next file.
    :attr:`last_path` is the file the latest capture came from.
    """

    def __init__(self, folder: str | Path, *, loop: bool = False):
        self.folder = Path(folder)
        self.loop = loop
        self.description = f"image folder {self.folder}"
        if not self.folder.is_dir():
            raise CameraError(f"{self.description} does not exist")
        self.paths = sorted(
            (path for path in self.folder.iterdir() if path.suffix.lower() in IMAGE_SUFFIXES), key=_natural_key
        )
        if not self.paths:
            raise CameraError(f"{self.description} has no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        self._next = 0
        self.last_path: Path | None = None

    def capture(self) -> np.ndarray:
        if self._next >= len(self.paths):
            if not self.loop:
                raise CameraError(f"{self.description}: no more images (all {len(self.paths)} replayed)")
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        self.last_path = path
        try:
            empty = path.stat().st_size == 0  # checked first: OpenCV warns on the console about a missing file
        except OSError as err:
            raise CameraError(f"cannot read {path}: {err.strerror or err}") from None
        frame = None if empty else read_image(path)
        if frame is None:
            raise CameraError(f"{path} is not a readable image")
        return checked_frame(frame, str(path))


def read_image(path: Path) -> np.ndarray | None:
    """The image file at ``path`` in BGR, decoded straight into the array returned (None:
    not an image).

    ``cv2.imread``'s form with an output array (OpenCV 4.10 and later) decodes into an
    array numpy owns. Its usual form, like ``cv2.imdecode``, decodes into an image of
    OpenCV's own and then copies it for Python: one frame more at once, 36 MB at
    4608 x 2592, the largest allocation of the real table's path (``bench table``)."""
    import cv2

    try:
        return cv2.imread(str(path), None, cv2.IMREAD_COLOR)
    except cv2.error:  # an OpenCV without that form
        return cv2.imread(str(path), cv2.IMREAD_COLOR)


