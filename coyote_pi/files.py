"""Replacing a file whole, so that a reader sees the old file or the new one, never half.

The table's bulletin, the page's settings and the page's settings requests are read by
another process at any moment: each is written beside itself and renamed over itself.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: Path, data: bytes, *, durable: bool = False, mode: int = 0o666) -> None:
    """Replace ``path`` with ``data`` whole: a reader sees the old file or the new one.
    The bulletin needs no fsync (it lives in a tmpfs, and a power cut ends its meaning
    anyway); a file that must outlive one (``durable``) is flushed to the card before the
    rename, and the rename itself after it. A new file gets ``mode`` less the umask (the
    hotspot's join file, which holds its password, is not for everyone). A write that
    fails leaves the old file and no temporary beside it."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            write_all(fd, data, sync=durable)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    if durable:
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def write_all(fd: int, data: bytes, *, sync: bool = True) -> None:
    """Write ``data`` to ``fd`` (a write may take only part of it: a disk filling up) and,
    unless told not to, fsync it."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    if sync:
        os.fsync(fd)


def fsync_folder(path: Path) -> None:
    """Make a folder's entries durable (a file created, renamed or removed in it), as far
    as the system allows: a folder that cannot be opened or synced is left as it is."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
