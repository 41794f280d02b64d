"""The overhead camera: one method, :meth:`Camera.capture`, returning a BGR frame.

Every backend returns a numpy array of shape ``(height, width, 3)``, dtype ``uint8``,
channels in OpenCV's blue-green-red order, and raises :class:`CameraError` (one line
saying what went wrong) instead of returning nothing. The controller treats a
``CameraError`` as "the camera failed" and offers the manual path::

    with FolderCamera("frames/", loop=True) as camera:
        frame = camera.capture()          # the next image of the folder, in name order

Backends (``[camera] backend`` in the configuration):

- ``picamera2``: :class:`Picamera2Camera`, the Pi camera, full-resolution stills
  (4608x2592 on a Camera Module 3). picamera2 is imported only when used.
- ``webcam``: :class:`WebcamCamera`, OpenCV ``VideoCapture`` (a device index or a path/URL).
- ``folder``: :class:`FolderCamera`, replays image files in natural name order
  (``frame2`` before ``frame10``), optionally looping.
- ``synthetic``: :class:`SyntheticCamera`, renders the current scripted table scene with
  ``coyote_pi.vision.render_scene``.
- ``failing``: :class:`FailingCamera`, simulated faults: raises, or returns noise.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np

from coyote_pi.devices.errors import CameraError, CameraLibraryError

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

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def load_picamera2() -> type:
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
    """The Raspberry Pi camera through picamera2, configured for full-resolution stills.

    picamera2 comes from Raspberry Pi OS's apt package ``python3-picamera2``; the venv
    must be made with ``--system-site-packages`` to see it. ``size`` is the still size;
    ``camera_number`` picks a camera when several are connected. The camera keeps
    running between captures so each capture returns a fresh frame at once.
    """

    def __init__(self, size: tuple[int, int] = FULL_RESOLUTION, *, camera_number: int = 0):
        Picamera2 = load_picamera2()
        self.description = f"Pi camera {camera_number} at {size[0]}x{size[1]}"
        self._camera = None
        try:
            camera = Picamera2(camera_number)
            self._camera = camera
            # "RGB888" is picamera2's name for 8-bit pixels stored blue, green, red: OpenCV's order.
            camera.configure(camera.create_still_configuration(main={"size": tuple(size), "format": "RGB888"}))
            if "AfMode" in camera.camera_controls:
                camera.set_controls({"AfMode": 2})  # continuous autofocus (libcamera AfModeContinuous)
            camera.start()
        except Exception as err:  # picamera2 raises several types when no camera answers
            self.close()
            raise CameraError(f"cannot start the Pi camera: {err} (is the ribbon seated? try 'rpicam-hello')") from None

    def capture(self) -> np.ndarray:
        try:
            frame = self._camera.capture_array("main")
        except Exception as err:
            raise CameraError(f"the Pi camera failed to capture: {err}") from None
        return checked_frame(frame, self.description)

    def close(self) -> None:
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
        import cv2

        if self._next >= len(self.paths):
            if not self.loop:
                raise CameraError(f"{self.description}: no more images (all {len(self.paths)} replayed)")
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        self.last_path = path
        try:
            data = np.fromfile(path, dtype=np.uint8)
        except OSError as err:
            raise CameraError(f"cannot read {path}: {err.strerror or err}") from None
        # imdecode rather than imread: no console warnings, and any file name works.
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if frame is None:
            raise CameraError(f"{path} is not a readable image")
        return checked_frame(frame, str(path))


SceneRenderer = Callable[..., np.ndarray]


def _vision_renderer() -> SceneRenderer:
    """``coyote_pi.vision.render_scene``, imported only when a synthetic camera first captures."""
    try:
        from coyote_pi.vision import render_scene
    except ImportError:
        try:
            from coyote_pi.vision.render import render_scene
        except ImportError as err:
            raise CameraError(f"the synthetic camera needs coyote_pi.vision.render_scene: {err}") from None
    return render_scene


class SyntheticCamera(Camera):
    """Renders the table as it is now: ``scene()`` gives the current scene, the renderer draws it.

    ``scene`` is a function returning the scripted table's current ``TableScene`` (the
    demo's players change it as they act). Each capture renders it at ``size`` with the
    seed ``seed + capture number`` (so noise differs between frames yet every run is
    identical) under ``conditions``. ``renderer`` replaces
    ``coyote_pi.vision.render_scene`` (same keyword arguments), e.g. in tests.
    """

    def __init__(
        self,
        scene: Callable[[], object],
        *,
        size: tuple[int, int] = FULL_RESOLUTION,
        seed: int = 0,
        conditions: object | None = None,
        renderer: SceneRenderer | None = None,
    ):
        self._scene = scene
        self._size = size
        self._seed = seed
        self._conditions = conditions
        self._renderer = renderer
        self.captures = 0
        self.description = f"synthetic table at {size[0]}x{size[1]}"

    def capture(self) -> np.ndarray:
        renderer = self._renderer or _vision_renderer()
        width, height = self._size
        frame = renderer(
            self._scene(), width=width, height=height, seed=self._seed + self.captures, conditions=self._conditions
        )
        self.captures += 1
        return checked_frame(frame, self.description)


FAULTS = ("error", "garbage")


class FailingCamera(Camera):
    """A camera with simulated faults, to exercise the controller's manual path.

    The first ``after`` captures come from ``inner`` (a working camera; required when
    ``after`` > 0); every later capture fails according to ``fault``:

    - ``"error"``: raises :class:`CameraError`, like an unplugged camera;
    - ``"garbage"``: returns random noise of ``size`` (or of the inner camera's last
      frame), like a corrupted transfer: no card can be read from it.
    """

    def __init__(
        self,
        fault: str = "error",
        *,
        after: int = 0,
        inner: Camera | None = None,
        size: tuple[int, int] = (640, 480),
        seed: int = 0,
    ):
        if fault not in FAULTS:
            raise ValueError(f"unknown camera fault {fault!r} (choose from {', '.join(FAULTS)})")
        if after and inner is None:
            raise ValueError("a FailingCamera that works for a while needs an inner camera")
        self.fault = fault
        self.after = after
        self.inner = inner
        self._shape = (size[1], size[0], 3)
        self._random = np.random.default_rng(seed)
        self.captures = 0
        self.description = f"failing camera ({fault} after {after} captures)"

    def capture(self) -> np.ndarray:
        self.captures += 1
        if self.captures <= self.after:
            frame = self.inner.capture()
            self._shape = frame.shape
            return frame
        if self.fault == "error":
            raise CameraError(f"simulated camera failure on capture {self.captures}")
        return self._random.integers(0, 256, size=self._shape, dtype=np.uint8)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()
