"""Camera images from files, refused in one line when they cannot be a camera frame.

:func:`load_image` reads a JPEG, PNG or any format OpenCV and Pillow know, as stored
(grey, BGR or BGRA), after checking what a damaged or wrong file would otherwise turn
into a crash or a long wait: missing, a folder, empty, too large a file or image
(a decompression bomb), too small to show a table, cut short. ``coyote-pi read`` uses it.
"""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

#: Files larger than this are refused before they are read (a 12-megapixel PNG is ~40 MB).
MAX_FILE_BYTES = 200 * 1024 * 1024
#: Images with more pixels than this are refused (the camera's full mode is 11.9 Mpx).
MAX_PIXELS = 50_000_000
#: Images smaller than this (either side) cannot show a table.
MIN_SIDE = 64


class ImageError(Exception):
    """An image file that cannot be read, with a message for the user."""


def _looks_truncated(data: bytes) -> bool:
    """JPEG and PNG files say where they end; a file cut short lacks that ending."""
    if data.startswith(b"\xff\xd8"):
        return b"\xff\xd9" not in data[-64:]
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return b"IEND" not in data[-32:]
    return False


def load_image(path: Path) -> np.ndarray:
    """The image at ``path`` as a numpy array (as stored: grey, BGR or BGRA), or
    :class:`ImageError` saying in one line why it cannot be read."""
    if not path.exists():
        raise ImageError("no such file")
    if path.is_dir():
        raise ImageError("is a directory, not an image")
    try:
        size = path.stat().st_size
        if size == 0:
            raise ImageError("empty file")
        if size > MAX_FILE_BYTES:
            raise ImageError(f"file is {size / 2**20:.0f} MB, larger than any camera image")
        data = path.read_bytes()
    except PermissionError:
        raise ImageError("permission denied") from None
    except OSError as error:
        raise ImageError(error.strerror or str(error)) from None
    try:
        with Image.open(io.BytesIO(data)) as probe:
            width, height = probe.size
    except Image.DecompressionBombError:
        raise ImageError("image is too large to be a camera frame") from None
    except Exception:
        raise ImageError("not an image (or not a format that can be read)") from None
    if width * height > MAX_PIXELS:
        raise ImageError(f"image is {width} x {height}, too large (the camera's largest is 4608 x 2592)")
    if min(width, height) < MIN_SIDE:
        raise ImageError(f"image is only {width} x {height} pixels")
    if _looks_truncated(data):
        raise ImageError("file is truncated (it ends before the image does)")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ImageError("image data cannot be decoded (damaged file?)")
    return image
