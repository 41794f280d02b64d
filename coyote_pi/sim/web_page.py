"""The web page beside a simulated table: ``run --sim --web`` and ``demo --web``.

On the Pi the page is its own service (``coyote-pi-web.service``). Beside a simulated
table it is a child process, started with the table's folders and stopped with it::

    with WebPage(config.record_dir, *config.web_folders(), "127.0.0.1:8080", log_file) as page:
        print(f"the table's web page: {page.url}")
        rig.run()

The child is ``python -m coyote_pi web --records DIR --bulletin DIR --requests DIR
--listen HOST:PORT --simulated-table`` with this interpreter. It is stopped when the block ends (SIGTERM,
then SIGKILL after :data:`STOP_SECONDS`), and on Linux the kernel sends it SIGTERM
should this process die without that (``PR_SET_PDEATHSIG``): no page outlives its table.

Another program may hold the address already: :func:`address_taken` asks before a page
is started (the child would only fail in its log), and :meth:`WebPage.serving` says
whether the page still runs, so that the table shows no address that is not its page's.
"""

from __future__ import annotations

import ctypes
import errno
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

#: How long the page has to stop after SIGTERM before it is killed.
STOP_SECONDS = 5.0
#: Where ``--web`` without an address listens: this machine only.
DEFAULT_LISTEN = "127.0.0.1:8080"
#: prctl(2)'s option that sends the child a signal when its parent dies.
PR_SET_PDEATHSIG = 1


def page_command(records: Path, bulletin: Path, requests: Path, listen: str) -> list[str]:
    """The command line of the page for these folders (a simulated table's: no journal)."""
    return [sys.executable, "-m", "coyote_pi", "web", "--records", str(records), "--bulletin", str(bulletin),
            "--requests", str(requests), "--listen", listen, "--simulated-table"]


def address_taken(listen: str) -> bool:
    """Whether another program listens at ``listen`` ("HOST:PORT") now: a page started
    there could not bind it. Bound as the page binds (``SO_REUSEADDR``), then let go."""
    host, _, port = listen.rpartition(":")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (OSError, ValueError):
        return False  # an address this machine cannot resolve: the page's own error says so
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            return error.errno == errno.EADDRINUSE
    return False


def _die_with_parent() -> None:  # runs in the child, between fork and exec
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # not Linux: the with-block still stops it
        pass


class WebPage:
    """The page as a child process (see the module docstring). ``command`` replaces
    :func:`page_command`'s (tests); its output goes to ``log_file``."""

    def __init__(self, records: Path, bulletin: Path, requests: Path, listen: str, log_file: Path,
                 command: Sequence[str] | None = None) -> None:
        self.command = list(command) if command is not None else page_command(records, bulletin, requests, listen)
        self.url = f"http://{listen}/"
        self.log_file = log_file
        for folder in (bulletin, requests):
            folder.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> WebPage:
        self.log_file.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_file, "ab") as log:
            self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            preexec_fn=_die_with_parent)
        return self

    def serving(self) -> bool:
        """Whether the page was started and still runs (not stopped, not ended by itself)."""
        return self.process is not None and self.process.poll() is None

    def stop(self) -> int | None:
        """Stop the page (if it still runs). A page that had ended by itself with an error:
        its exit status, for the caller to tell with :attr:`log_file` (else None)."""
        process, self.process = self.process, None
        if process is None:
            return None
        if process.poll() not in (None, 0):
            return process.returncode
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        return None

    def __enter__(self) -> WebPage:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
