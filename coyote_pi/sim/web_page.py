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
"""

from __future__ import annotations

import ctypes
import signal
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
        self.process: subprocess.Popen | None = None

    def start(self) -> WebPage:
        self.log_file.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_file, "ab") as log:
            self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            preexec_fn=_die_with_parent)
        return self

    def stop(self) -> str | None:
        """Stop the page (if it still runs). A page that had ended by itself with an error
        is told: the line to print (else None)."""
        process, self.process = self.process, None
        if process is None:
            return None
        if process.poll() not in (None, 0):
            return f"the web page ended by itself (exit status {process.returncode}): see {self.log_file}"
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

    def __exit__(self, *exc_info) -> None:
        self.stop()
