"""``coyote-pi read``: read the cards in camera images.

    coyote-pi read IMAGE... [--json] [--annotate OUT.png] [--scheme aruco|qr] [--seats 1,2,3]

For each image it prints each seat's card, the centre slots, the Coyote card, cards it
saw but could not place, duplicates, unknown codes and warnings (``--json``: one JSON
object per line). A file that cannot be read (missing, not an image, empty, truncated,
too large) gets one line on stderr; the other files are still read, and the exit
status is 1. Grey, 16-bit and RGBA images are converted and read.

``--annotate OUT.png`` writes the frame with what was read drawn on it; with several
images each gets its own file, named after the image (``OUT-<image name>.png``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from coyote_pi.vision.markerset import SCHEMES

#: Files larger than this are refused before they are read (a 12-megapixel PNG is ~40 MB).
MAX_FILE_BYTES = 200 * 1024 * 1024
#: Images with more pixels than this are refused (the camera's full mode is 11.9 Mpx).
MAX_PIXELS = 50_000_000
#: Images smaller than this (either side) cannot show a table.
MIN_SIDE = 64


class ImageError(Exception):
    """An image file that cannot be read, with a message for the user."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="camera images (JPEG, PNG, ...)")
    parser.add_argument("--json", action="store_true", help="print one JSON object per image")
    parser.add_argument("--annotate", type=Path, metavar="OUT.png", help="write the image with the reading drawn on it")
    parser.add_argument("--scheme", choices=SCHEMES, default=None, help="marker scheme (default: the mapping file's)")
    parser.add_argument("--seats", type=_seat_list, default=None, metavar="1,2,3",
                        help="seats that should have a stand (a missing one is then reported)")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="OpenCV threads (default: OpenCV's own; 1 matches `bench vision`'s timings)")


def _seat_list(text: str) -> tuple[int, ...]:
    try:
        seats = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of seat numbers like 1,2,3") from None
    if not seats or any(not 1 <= s <= 6 for s in seats):
        raise argparse.ArgumentTypeError("seats are numbered 1 to 6")
    return seats


def _looks_truncated(data: bytes) -> bool:
    """JPEG and PNG files say where they end; a file cut short lacks that ending."""
    if data.startswith(b"\xff\xd8"):
        return b"\xff\xd9" not in data[-64:]
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return b"IEND" not in data[-32:]
    return False


def load_image(path: Path):
    """The image at ``path`` as a numpy array (as stored: grey, BGR or BGRA), or
    :class:`ImageError` saying in one line why it cannot be read."""
    import io

    import cv2
    import numpy as np
    from PIL import Image

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


def _annotate_path(out: Path, image: Path, several: bool) -> Path:
    if not several:
        return out
    return out.with_name(f"{out.stem}-{image.stem}{out.suffix or '.png'}")


def _report(path: Path, reading) -> str:
    from coyote_pi.vision.annotate import summary_lines

    lines = [f"{path}:"]
    for line in summary_lines(reading):
        lines.append(f"  {line}")
    details = [f"seat {s}: {r.detail}" for s, r in sorted(reading.seats.items()) if r.detail]
    details += [f"{n}: {r.detail}" for n, r in reading.slots.items() if r.detail]
    for line in details + reading.warnings:
        lines.append(f"  note: {line}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import cv2

    from coyote_pi.vision.annotate import annotate
    from coyote_pi.vision.reader import TableReader, as_bgr

    if args.threads is not None:
        cv2.setNumThreads(max(1, args.threads))
    reader = TableReader(args.scheme or _default_scheme(), seats=args.seats)
    failed = 0
    several = len(args.images) > 1
    for path in args.images:
        try:
            image = as_bgr(load_image(path))
        except (ImageError, ValueError) as error:  # ValueError: a pixel format no camera gives
            print(f"coyote-pi read: {path}: {error}", file=sys.stderr)
            failed += 1
            continue
        reading = reader.read(image)
        if args.json:
            data = reading.to_dict()
            del data["sightings"]
            print(json.dumps({"image": str(path), **data}))
        else:
            print(_report(path, reading))
        if args.annotate:
            out = _annotate_path(args.annotate, path, several)
            try:
                written = cv2.imwrite(str(out), annotate(image, reading))
            except cv2.error:
                written = False
            if not written:
                print(f"coyote-pi read: {path}: cannot write the annotated image to {out}", file=sys.stderr)
                failed += 1
    return 1 if failed else 0


def _default_scheme() -> str:
    from coyote_pi.vision.markerset import load_markers

    return load_markers().scheme
