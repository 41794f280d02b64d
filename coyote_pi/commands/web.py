"""``coyote-pi web``: serve the table's web page (docs/web.md).

It reads the records folder and the bulletin the table writes, and writes only into the
requests folder and its own reviews folder (the reviews it made, kept over its
restarts); it loads nothing of the camera, the buttons, numpy or OpenCV. On the Pi it
runs as its own unit and user (systemd/coyote-pi-web.service); ``run --sim`` and
``demo`` start it beside the simulated table. Without ``--bulletin`` and ``--requests``
the folders are ``public/`` and ``requests/`` beside the records folder, as the
simulated table lays them out; without ``--reviews``, ``reviews/`` beside the requests.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coyote_pi.web.app import Options


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--records", required=True, type=Path, help="the table's record folder (read only)")
    parser.add_argument("--bulletin", type=Path, help="the folder the table publishes live.json in "
                                                     "(default: public/ beside the records folder)")
    parser.add_argument("--requests", type=Path, help="the folder the page leaves its requests in "
                                                     "(default: requests/ beside the records folder)")
    parser.add_argument("--reviews", type=Path, help="the page's own folder where it keeps the reviews it made "
                                                    "(default: reviews/ beside the requests folder)")
    parser.add_argument("--listen", default="127.0.0.1:8080", metavar="HOST:PORT",
                        help="address and port to serve on (default 127.0.0.1:8080; 0.0.0.0:80 on the Pi)")
    parser.add_argument("--config", type=Path, help="the table's configuration file (read only): its settings show "
                                                   "until the table has published those in force")
    parser.add_argument("--simulated-table", action="store_true",
                        help="the table is simulated (run --sim, demo --web start the page so): it has no journal, "
                             "so the setup page says the device's log is not available")
    parser.add_argument("--test-hook", action="store_true", help=argparse.SUPPRESS)


def page_options(args: argparse.Namespace) -> Options:
    """The page's :class:`~coyote_pi.web.app.Options` for these arguments."""
    from coyote_pi.web.app import Options
    from coyote_pi.web.setup import JOURNAL

    return Options(config_file=args.config, test_hook=args.test_hook,
                   log_command=None if args.simulated_table else JOURNAL)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from coyote_pi.web.app import create_app
    from coyote_pi.web.bulletin import Folders

    host, _, port = args.listen.rpartition(":")
    if not host or not port.isdigit():
        print(f"coyote-pi web: --listen wants HOST:PORT, not {args.listen!r}")
        return 2
    folders = Folders.beside(args.records, args.bulletin, args.requests, args.reviews)
    app = create_app(folders, page_options(args))
    print(f"coyote-pi web: http://{host}:{port}/ (records {folders.records}, bulletin {folders.bulletin})", flush=True)
    # Open event streams end within a second of a stop; the page keeps no state worth waiting for.
    uvicorn.run(app, host=host.strip("[]"), port=int(port), log_level="warning", access_log=False,
                timeout_graceful_shutdown=1, lifespan="on")
    return 0
