"""Priorities for journald: under systemd, errors are stored as errors, warnings as warnings.

systemd connects the service's standard error to the journal and names that stream in
``JOURNAL_STREAM``; the tests connect standard error to a file and name the file the same
way, then read the ``<N>`` prefixes journald would apply.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from coyote_pi.pi import install, journal


def journal_stream(path: Path) -> str:
    status = path.stat()
    return f"{status.st_dev}:{status.st_ino}"


def run_with_stderr_as_journal(tmp_path: Path, argv: list[str]) -> tuple[int, str]:
    """Run ``python argv`` with standard error going to a file that JOURNAL_STREAM names."""
    stderr = tmp_path / "journal-stream"
    stderr.touch()
    env = dict(os.environ, JOURNAL_STREAM=journal_stream(stderr))
    with stderr.open("w") as stream:
        result = subprocess.run([sys.executable, *argv], stderr=stream, stdout=subprocess.DEVNULL, env=env,
                                cwd=install.REPO, timeout=120)
    return result.returncode, stderr.read_text()


@pytest.mark.parametrize(
    ("level", "prefix"),
    [(logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6), (logging.DEBUG, 7), (25, 6)],
)
def test_logging_levels_map_to_syslog_priorities(level, prefix):
    assert journal.priority(level) == prefix


def test_only_the_stream_systemd_named_counts_as_the_journal(tmp_path, monkeypatch):
    named, other = tmp_path / "named", tmp_path / "other"
    named.touch()
    other.touch()
    with named.open("w") as named_stream, other.open("w") as other_stream:
        monkeypatch.setenv("JOURNAL_STREAM", journal_stream(named))
        assert journal.is_journal(named_stream)
        assert not journal.is_journal(other_stream)
        monkeypatch.setenv("JOURNAL_STREAM", "not:numbers")
        assert not journal.is_journal(named_stream)
        monkeypatch.delenv("JOURNAL_STREAM")
        assert not journal.is_journal(named_stream)


def test_a_bad_configuration_reaches_the_journal_as_an_error(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[display]\ndriver = "ssd9999"\n')

    status, stderr = run_with_stderr_as_journal(tmp_path, ["-m", "coyote_pi", "run", "--config", str(config)])

    assert status == 2
    assert stderr.startswith("<3>coyote-pi run: ") and stderr.count("\n") == 1 and "ssd9999" in stderr


def test_log_records_and_a_crash_carry_their_priority_on_every_line(tmp_path):
    script = (
        "import logging, threading\n"
        "from coyote_pi.pi import journal\n"
        "journal.configure_logging(logging.INFO)\n"
        "log = logging.getLogger('coyote_pi.test')\n"
        "log.info('resuming a game')\n"
        "log.warning('the OLED does not answer')\n"
        "thread = threading.Thread(target=lambda: 1 / 0)\n"
        "thread.start(); thread.join()\n"
        "raise RuntimeError('the main loop broke')\n"
    )
    status, stderr = run_with_stderr_as_journal(tmp_path, ["-c", script])

    assert status == 1
    lines = stderr.splitlines()
    assert lines[:2] == ["<6>resuming a game", "<4>the OLED does not answer"]
    crashes = lines[2:]
    assert all(line.startswith("<2>") for line in crashes), crashes  # tracebacks too: critical, line by line
    assert "<2>ZeroDivisionError: division by zero" in crashes and "<2>RuntimeError: the main loop broke" in crashes
