"""``coyote-pi doctor``: print the Pi's checks (:mod:`coyote_pi.pi.doctor`), one line each.

Each line is ``PASS``, ``FAIL`` (with the fix) or ``SKIP`` (with why it could not be
checked here), then a summary. The exit status is 1 when a check failed, 2 for a bad
``--oled-address``, otherwise 0 (skips included).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from coyote_pi.devices.config import DisplayConfig
from coyote_pi.devices.errors import DeviceConfigError
from coyote_pi.pi import install
from coyote_pi.pi.doctor import FAIL, SKIP, Doctor, Host, Options


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--calibration", type=Path, metavar="PDF", help="write a printer scale check sheet (print at 100 %%, measure)"
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=Path(install.CONFIG),
        help=f"the configuration to check and use ({install.CONFIG})",
    )
    parser.add_argument(
        "--pinmap", type=Path, help="pin map to check (default: [buttons] pinmap, else the shipped one)"
    )
    parser.add_argument(
        "--oled-address", metavar="ADDR", help="the OLED's I2C address, e.g. 0x3C (default: from --config)"
    )


def run(args: argparse.Namespace, host: Host | None = None) -> int:
    """Print one line per check and a summary; 1 if a check failed. ``host`` is for tests."""
    if args.oled_address is not None:
        try:
            DisplayConfig(address=args.oled_address).validate()
        except DeviceConfigError as err:
            print(f"coyote-pi doctor: --oled-address: {err}")
            return 2
    options = Options(
        config=args.config, pinmap=args.pinmap, oled_address=args.oled_address, calibration=args.calibration
    )
    results = Doctor(host or Host(), options).checks()
    for result in results:
        print(result.line())
    failed = sum(result.status == FAIL for result in results)
    skipped = sum(result.status == SKIP for result in results)
    print(f"Summary: {len(results) - failed - skipped} pass, {failed} fail, {skipped} skip")
    return 1 if failed else 0
