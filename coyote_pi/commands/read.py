"""``coyote-pi read``: read the cards in camera images.

    coyote-pi read IMAGE... [--json] [--annotate OUT.png] [--scheme aruco|qr] [--seats 1,2,3] [--threads N]

For each image it prints each seat's card, the centre slots, the Coyote card, cards it
saw but could not place, duplicates, unknown codes, warnings, and each stand that is
missing or too near the frame's edge to survive a bumped camera
(:mod:`coyote_pi.vision.framing`) (``--json``: one JSON object per line). A file that cannot be read (missing, not an image, empty, truncated,
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

import cv2

from coyote_pi.vision.annotate import annotate, summary_lines
from coyote_pi.vision.framing import FramingProblem, framing_advice, framing_problems
from coyote_pi.vision.image_file import ImageError, load_image
from coyote_pi.vision.markerset import SCHEMES, load_markers
from coyote_pi.vision.reader import TableReader, as_bgr
from coyote_pi.vision.reading import TableReading


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


def _annotate_path(out: Path, image: Path, several: bool) -> Path:
    if not several:
        return out
    return out.with_name(f"{out.stem}-{image.stem}{out.suffix or '.png'}")


def _report(path: Path, reading: TableReading, framing: dict[int, FramingProblem]) -> str:
    lines = [f"{path}:"]
    for line in summary_lines(reading):
        lines.append(f"  {line}")
    details = [f"seat {s}: {r.detail}" for s, r in sorted(reading.seats.items()) if r.detail]
    details += [f"{n}: {r.detail}" for n, r in reading.slots.items() if r.detail]
    for line in details + reading.warnings:
        lines.append(f"  note: {line}")
    lines += [f"  set-up: {line}" for line in framing_advice(framing)]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.threads is not None:
        cv2.setNumThreads(max(1, args.threads))
    reader = TableReader(args.scheme or load_markers().scheme, seats=args.seats)
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
        framing = framing_problems(reading, (image.shape[1], image.shape[0]), seats=args.seats)
        if args.json:
            data = reading.to_dict()
            del data["sightings"]
            print(json.dumps({"image": str(path), **data, "framing": {str(s): p.words for s, p in framing.items()}}))
        else:
            print(_report(path, reading, framing))
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

