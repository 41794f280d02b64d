"""``coyote-pi markers``: write the printable sticker sheet (PDF) and, on request, PNGs.

    coyote-pi markers --out stickers/ [--paper a4|letter] [--scheme aruco|qr] [--png]

Print the PDF at 100 % ("actual size", not "fit to page") and check the 100 mm ruler
on each page before cutting.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coyote_pi.vision.markerset import SCHEMES, load_markers
from coyote_pi.vision.sheets import sticker_sheet, write_pngs


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, type=Path, help="directory to write into (created if needed)")
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size (default a4)")
    parser.add_argument("--scheme", choices=SCHEMES, default=None, help="marker scheme (default: the mapping file's)")
    parser.add_argument("--png", action="store_true", help="also write each marker as a PNG")


def run(args: argparse.Namespace) -> int:
    markers = load_markers(args.scheme)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        pdf, placed = sticker_sheet(markers, args.paper)
        path = args.out / f"coyote-markers-{markers.scheme}-{args.paper}.pdf"
        path.write_bytes(pdf)
        pages = max(p.page for p in placed)
        print(f"wrote {path} ({pages} pages, {len(placed)} markers; print at 100 %)")
        if args.png:
            pngs = write_pngs(markers, args.out / "png")
            print(f"wrote {len(pngs)} PNG files to {args.out / 'png'}")
    except OSError as error:
        print(f"coyote-pi markers: cannot write to {args.out}: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0
