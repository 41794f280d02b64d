"""Fixtures for every test folder: a picamera2 that is missing or installed but broken, a
disk that fails on demand, a small real disk."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: What the apt picamera2 raises on import next to a numpy of another ABI (its
#: simplejpeg is compiled against the release's numpy).
NUMPY_ABI_ERROR = "numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject"


@pytest.fixture
def broken_picamera2(tmp_path, monkeypatch) -> str:
    """``import picamera2`` raises ValueError, as on a Pi whose venv holds the wrong numpy."""
    package = tmp_path / "broken-site-packages" / "picamera2"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"raise ValueError({NUMPY_ABI_ERROR!r})\n")
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(package.parent))
    return NUMPY_ABI_ERROR


@pytest.fixture
def no_picamera2(monkeypatch) -> None:
    """``import picamera2`` finds nothing, even on a Pi that has it."""
    monkeypatch.setitem(sys.modules, "picamera2", None)



class FailingDisk:
    """Makes writes to the files of ``folder`` fail with ``error`` while :attr:`failing`.

    A failing write first takes part of its data (half of what is left, as a disk that
    fills up does) and then raises, so the file is left with part of a line: with
    everything but the newline, when the line is long enough. ``fsync`` fails the same
    way, and ``ftruncate`` too while :attr:`truncate_fails`.
    """

    def __init__(self, monkeypatch, folder: Path, error: int = errno.ENOSPC) -> None:
        self.folder = str(folder.resolve())
        self.error = error
        self.failing = False
        self.truncate_fails = False
        self.refused = 0
        real_write, real_fsync, real_truncate = os.write, os.fsync, os.ftruncate

        def write(fd, data):
            if self._hits(fd):
                if len(data) > 1:
                    return real_write(fd, bytes(data[: len(data) // 2 or 1]))
                self._raise()
            return real_write(fd, data)

        def fsync(fd):
            if self._hits(fd):
                self._raise()
            return real_fsync(fd)

        def ftruncate(fd, length):
            if self.truncate_fails and self._hits(fd):
                self._raise()
            return real_truncate(fd, length)

        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "ftruncate", ftruncate)

    def _hits(self, fd: int) -> bool:
        if not self.failing:
            return False
        try:
            return os.readlink(f"/proc/self/fd/{fd}").startswith(self.folder + os.sep)
        except OSError:
            return False

    def _raise(self):
        self.refused += 1
        raise OSError(self.error, os.strerror(self.error))


@pytest.fixture
def failing_disk(monkeypatch):
    """``failing_disk(folder, error=ENOSPC)``: a :class:`FailingDisk` for ``folder``, undone after the test."""
    return lambda folder, error=errno.ENOSPC: FailingDisk(monkeypatch, Path(folder), error)


@pytest.fixture
def tmpfs(tmp_path):
    """``tmpfs(options)``: a folder with a tmpfs mounted on it (``"size=64k"``, ``"ro,size=64k"``),
    unmounted after the test; the test is skipped where it may not mount one."""
    mounted = []

    def mount(options: str) -> Path:
        folder = tmp_path / f"tmpfs-{len(mounted)}"
        folder.mkdir()
        try:
            subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], check=True,
                           capture_output=True, timeout=20)
        except (OSError, subprocess.SubprocessError) as error:
            pytest.skip(f"cannot mount a tmpfs here: {error}")
        mounted.append(folder)
        return folder

    yield mount
    for folder in mounted:  # lazily if a file is still open there: a mount must never outlive the test
        if subprocess.run(["umount", str(folder)], check=False, capture_output=True, timeout=20).returncode:
            subprocess.run(["umount", "-l", str(folder)], check=False, capture_output=True, timeout=20)
