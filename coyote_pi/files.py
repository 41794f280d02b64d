"""Replacing a file whole, so that a reader sees the old file or the new one, never half.

The table's bulletin, the page's settings and the page's settings requests are read by
another process at any moment; the record's private vault, the installer's system files
(the boot configuration among them) and the hotspot's key must survive a power cut
whole. Each is written beside itself and renamed over itself, by
:func:`write_atomically` alone.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path


def write_atomically(path: Path, data: bytes, *, durable: bool = False, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` whole: a reader sees the old file or the new one.

    The bulletin needs no fsync (it lives in a tmpfs, and a power cut ends its meaning
    anyway); a file that must outlive one (``durable``: the installer's boot
    configuration, the page's settings, the record's private vault) is flushed to the
    card before the rename, and the rename itself after it. With a ``mode`` the file has
    exactly that mode, whatever an older one had (the vault's seals and the hotspot's
    key are the table's alone); without, a replaced file keeps its mode and a new one
    gets 0666 less the umask. A write that fails leaves the old file and no temporary
    beside it."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600 if mode is not None else 0o666)
        try:
            if mode is not None:
                os.fchmod(fd, mode)  # not less the umask, and not an older temporary's mode
            write_all(fd, data, sync=durable)
        finally:
            os.close(fd)
        if mode is None:
            _keep_mode(path, temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    if durable:
        folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(folder)
        except OSError as err:
            if err.errno != errno.EINVAL:  # FAT (/boot/firmware) cannot sync a folder: nothing to flush
                raise
        finally:
            os.close(folder)


def _keep_mode(original: Path, replacement: Path) -> None:
    try:
        shutil.copymode(original, replacement)
    except FileNotFoundError:
        pass  # a new file: the mode it was created with
    except PermissionError:
        pass  # FAT (the boot partition) has no modes: its mount options decide them


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
