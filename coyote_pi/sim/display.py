"""A simulated display fault: luma's in-memory panel on a glitching bus.

:class:`~coyote_pi.devices.display.TableDisplay` survives a bus that fails now and then;
:class:`FlakyDummy` is such a bus, failing on chosen calls, for the tests and for a
``[display]`` configured with ``fail_calls``.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Collection

from luma.core.device import dummy
from PIL import Image


class FlakyDummy(dummy):  # type: ignore[misc]  # luma ships no types
    """luma's dummy device with a glitching bus: :meth:`display` raises on chosen calls.

    ``failing_calls`` are 1-based numbers of ``display()`` calls that fail (or a
    function of the call number returning True to fail). The error is what smbus2 raises
    on a real I2C glitch (``OSError`` "Remote I/O error") unless ``error`` makes another.
    ``calls`` counts every ``display()``; ``image`` is the last image that got through.
    """

    def __init__(
        self,
        failing_calls: Collection[int] | Callable[[int], bool],
        *,
        width: int = 128,
        height: int = 64,
        rotate: int = 0,
        mode: str = "1",
        error: Callable[[], Exception] = lambda: OSError(errno.EREMOTEIO, "Remote I/O error"),
    ):
        super().__init__(width=width, height=height, rotate=rotate, mode=mode)
        self._fails = failing_calls if callable(failing_calls) else set(failing_calls).__contains__
        self._error = error
        self.calls = 0

    def display(self, image: Image.Image) -> None:
        self.calls += 1
        if self._fails(self.calls):
            raise self._error()
        super().display(image)
