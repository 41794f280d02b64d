"""Start-up tuning of the C allocator, so a long-running table keeps a small footprint.

glibc's ``malloc`` serves a large block (a camera frame is 9 MB at 2304 x 1296) with
its own ``mmap`` and hands it back to the system when freed, but only up to a moving
threshold: each such block freed raises the threshold to its size, and from then on
blocks of that size come from the heap, where a freed frame often stays resident behind
smaller live allocations. Fixing the threshold (glibc then stops moving it) keeps every
frame-sized buffer a mapping of its own, returned as soon as it is freed.

Call :func:`tune_malloc` once, early in a long-running command. Elsewhere (macOS, musl)
it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util

#: glibc's ``mallopt`` parameter number for the mmap threshold (``<malloc.h>``).
M_MMAP_THRESHOLD = -3
#: Blocks from this size up (bytes) get their own mapping: glibc's initial default,
#: which it would otherwise raise as large blocks are freed.
MMAP_THRESHOLD_BYTES = 128 * 1024


def tune_malloc(libc: object | None = None) -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD_BYTES`; True if it was set.

    ``libc`` is the C library to tune (found automatically when None); False when there
    is no glibc ``mallopt`` or it refuses the setting.
    """
    if libc is None:
        name = ctypes.util.find_library("c")
        try:
            libc = ctypes.CDLL(name) if name else None
        except OSError:
            libc = None
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None or not hasattr(libc, "gnu_get_libc_version"):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES) == 1)
