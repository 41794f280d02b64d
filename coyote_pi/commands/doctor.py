"""``coyote-pi doctor``: print the Pi's checks (:mod:`coyote_pi.pi.doctor`), one line each.

Each line is ``PASS``, ``FAIL`` (with the fix) or ``SKIP`` (with why it could not be
checked here), then a summary. The exit status is 1 when a check failed, 2 for a bad
``--oled-address``, otherwise 0 (skips included).

``--report FILE`` writes the field report instead (:mod:`coyote_pi.pi.field_report`):
one file with what only the device can tell, to attach to a bug report; ``--sim``
writes it from the simulated table.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from coyote_pi.devices.config import DisplayConfig
from coyote_pi.devices.errors import DeviceConfigError
from coyote_pi.pi import field_report, install
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
    parser.add_argument(
        "--focus", action="store_true", help="focus the Pi camera on the table by autofocus and keep the result"
    )
    parser.add_argument("--speak", action="store_true",
                        help="play a short test phrase through [speech] device (even with [speech] enabled = false)")
    parser.add_argument("--report", type=Path, metavar="FILE",
                        help="write the field report for a bug report to FILE (no card of an open round in it)")
    parser.add_argument("--sim", action="store_true", help="with --report: from the simulated table")
    parser.add_argument("--records", type=Path, metavar="DIR",
                        help="with --report --sim: the game records whose open round forbids stills")
    parser.add_argument("--frames", type=int, default=3, metavar="N", help="with --report: stills to read (3)")
    parser.add_argument("--buttons", type=float, default=0.0, metavar="S",
                        help="with --report: listen to the buttons for S seconds (press each meanwhile)")


def run(args: argparse.Namespace, host: Host | None = None) -> int:
    """Print one line per check and a summary; 1 if a check failed. ``host`` is for tests."""
    if args.report is not None:
        return _report(args, host or Host())
    if args.sim:
        print("coyote-pi doctor: --sim goes with --report (the checks are the real device's)")
        return 2
    if args.oled_address is not None:
        try:
            DisplayConfig(address=args.oled_address).validate()
        except DeviceConfigError as err:
            print(f"coyote-pi doctor: --oled-address: {err}")
            return 2
    options = Options(
        config=args.config, pinmap=args.pinmap, oled_address=args.oled_address, calibration=args.calibration,
        focus=args.focus, speak=args.speak,
    )
    results = Doctor(host or Host(), options).checks()
    for result in results:
        print(result.line())
    failed = sum(result.status == FAIL for result in results)
    skipped = sum(result.status == SKIP for result in results)
    print(f"Summary: {len(results) - failed - skipped} pass, {failed} fail, {skipped} skip")
    return 1 if failed else 0


def _report(args: argparse.Namespace, host: Host) -> int:
    """Write the field report; 2 when its file cannot be written or the options are wrong."""
    if args.frames < 0 or args.buttons < 0:
        print("coyote-pi doctor: --frames and --buttons must be 0 or more")
        return 2
    if args.sim:
        sources = field_report.sim_sources(args.records or Path("/nonexistent"))
        settings = field_report.Settings(frames=args.frames, button_seconds=args.buttons or 0.5)
    else:
        sources = field_report.pi_sources(args.config, host)
        settings = field_report.Settings(frames=args.frames, button_seconds=args.buttons)
    text = field_report.FieldReport(sources, settings).text()
    try:
        args.report.write_text(text + "\n", encoding="utf-8")
    except OSError as err:
        print(f"coyote-pi doctor: cannot write {args.report}: {err.strerror or err}")
        return 2
    print(f"coyote-pi doctor: the field report is in {args.report}; attach it to the bug report")
    return 0
