"""The camera's side of a card wait: one reading at a time, read on a worker thread.

Reading a full-resolution still takes a few hundred milliseconds on a Pi. Done in the
controller's loop, every press during a read would wait; on the :class:`CameraWorker`'s
thread, the loop stays responsive and simply receives the reading as one more queue
item (a :class:`CameraResult`). Only one read is ever in flight, each read is asked
for explicitly, and the camera is idle between reads (every ``[table]
camera_interval`` seconds, and only while the flow waits for cards).

The controller opens a wait with :meth:`CameraReads.start` when a card wait begins
(``deal``, ``extra``, ``reveal``, ``draw``; during setup, ``stands`` counts the stands).
From then on the ``CAMERA`` timer of the :class:`~coyote_pi.table.deadlines.Deadlines`
says when to :meth:`~CameraReads.ask` for the next reading, and
:meth:`~CameraReads.take` feeds each result to the
:class:`~coyote_pi.table.camera_wait.CameraWait`, which tells when the cards are
settled. A result that arrives after the flow moved on (the wait it was asked for
is gone) is dropped.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeAlias

from coyote_pi.config import Pacing
from coyote_pi.engine import Game
from coyote_pi.table import camera_wait
from coyote_pi.table.deadlines import Deadlines, Timer
from coyote_pi.vision.reading import TableReading

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger(__name__)

#: The wait id of a frame read for the web page's camera view (no card wait has it).
PREVIEW = -1


#: A camera frame: the image (BGR, 8 bits) a camera captures and its reader reads. (The
#: simulation's perfect-reading doubles hand their reader the scene instead: whatever keeps
#: or measures a frame checks that it is an image.)
Frame: TypeAlias = "npt.NDArray[np.uint8]"


class Camera(Protocol):
    """What the table needs of a camera (:mod:`coyote_pi.devices.camera`): a frame on
    request, or a :class:`~coyote_pi.devices.errors.CameraError`. Opening and closing
    it belong to whoever built it."""

    def capture(self) -> Frame: ...


class Reader(Protocol):
    """What the table needs of the vision code (:class:`~coyote_pi.vision.reader.TableReader`):
    a frame read into a :class:`~coyote_pi.vision.reading.TableReading`."""

    def read(self, frame: Frame) -> TableReading: ...


@dataclass(frozen=True)
class CameraResult:
    """One camera read, as the worker reports it: a reading, or the error that stopped it."""

    wait: int  #: the wait it was asked for; a result for an older wait is dropped
    reading: TableReading | None
    error: str | None
    frame: Frame | None = None
    hung: bool = False  #: the error is a capture that overran its deadline

    @property
    def frame_size(self) -> tuple[int, int] | None:
        """The frame's (width, height); None without a frame, or when it is not an image
        (the scene camera double's frames are the scenes themselves)."""
        shape = getattr(self.frame, "shape", None)
        return None if shape is None else (shape[1], shape[0])


class ResultSink(Protocol):
    """Where the worker puts its results: the controller's queue (which takes its other items too)."""

    def put(self, item: CameraResult) -> None: ...


class CameraWorker:
    """Captures and reads one frame per request on its own thread; results go to ``out``."""

    def __init__(self, camera: Camera, reader: Reader, out: ResultSink) -> None:
        self.camera = camera
        self.reader = reader
        self._out = out
        self._requests: queue.Queue[int | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="camera reads", daemon=True)
        self._thread.start()

    def request(self, wait: int) -> None:
        self._requests.put(wait)

    def close(self) -> None:
        self._requests.put(None)
        self._thread.join()

    def _run(self) -> None:
        while (wait := self._requests.get()) is not None:
            # No frame stays referenced here between reads: a full-resolution still is 36 MB.
            self._out.put(self._read(wait))

    def _read(self, wait: int) -> CameraResult:
        from coyote_pi.devices.camera_guard import CameraHung
        from coyote_pi.devices.errors import CameraError

        try:
            frame = self.camera.capture()
            return CameraResult(wait, self.reader.read(frame), None, frame)
        except CameraError as error:
            return CameraResult(wait, None, str(error), hung=isinstance(error, CameraHung))
        except Exception as error:  # a reader bug must not kill the table: it counts as a failed read
            log.exception("reading the camera frame failed")
            return CameraResult(wait, None, f"{type(error).__name__}: {error}")


class CameraReads:
    """The open camera wait, if any, and the reads asked for it (see the module docstring).

    ``camera`` and ``reader`` may be None: no camera, so no wait is ever opened (the
    table is on the manual path everywhere). Results go to ``out``, the controller's queue.
    """

    def __init__(self, camera: Camera | None, reader: Reader | None, out: ResultSink, deadlines: Deadlines, clock: Callable[[], float],
                 pacing: Pacing) -> None:
        self._worker = CameraWorker(camera, reader, out) if camera is not None and reader is not None else None
        self._deadlines = deadlines
        self._clock = clock
        self.pacing = pacing
        #: The wait open now (None: the flow waits for no cards from the camera).
        self.wait: camera_wait.CameraWait | None = None
        self._wait_id = 0
        self._busy = False
        self._last_problems: tuple[dict[str, object], ...] = ()

    @property
    def present(self) -> bool:
        """There is a camera (it may still fail)."""
        return self._worker is not None

    @property
    def busy(self) -> bool:
        """A reading was asked for and has not been taken yet (it is on its way to the queue)."""
        return self._busy

    def start(self, name: camera_wait.Wait, game: Game | None) -> None:
        """Open the wait ``name`` for ``game``'s cards (``stands``, during setup: no game yet)."""
        look: Callable[[TableReading], camera_wait.Look]
        if name == camera_wait.Wait.STANDS:
            look, stable = _count_stands, 1
        elif game is None:
            raise RuntimeError(f"the camera wait {name!r} is for a game's cards, and there is no game")
        else:
            look, stable = _look_for(name, game), self.pacing.stable_reads
        self._wait_id += 1
        self.wait = camera_wait.CameraWait(name, look, stable)
        if not self._busy:  # else the next read waits for the one in flight
            self._deadlines.set(Timer.CAMERA, self._clock())  # the first read at once
        self._last_problems = ()

    def stop(self) -> None:
        """Close the open wait: no more reads are asked for it."""
        self.wait = None
        self._deadlines.cancel(Timer.CAMERA)

    def ask(self) -> None:
        """The ``CAMERA`` timer went off: ask the worker for a reading for the open wait."""
        if self._worker is None:  # the timer is only set for a table with a camera
            raise RuntimeError("a reading was asked of a table without a camera")
        self._busy = True
        self._worker.request(self._wait_id)

    def ask_preview(self) -> bool:
        """Ask for one frame for the web page's camera view (its result comes with the
        wait id :data:`PREVIEW`, which :meth:`take` drops); only when no wait is open and no
        read is in flight, so a game's reads never wait for it. False: not asked."""
        if self._worker is None or self._busy or self.wait is not None:
            return False
        self._busy = True
        self._worker.request(PREVIEW)
        return True

    def take(self, result: CameraResult) -> tuple[camera_wait.CameraWait, camera_wait.Settled | None] | None:
        """A reading arrived: the open wait it was asked for and what it settled (None: not
        yet), after feeding it; None when the wait it was asked for is gone."""
        self._busy = False
        if self.wait is not None:
            self._deadlines.set(Timer.CAMERA, self._clock() + self.pacing.camera_interval)
        if self.wait is None or result.wait != self._wait_id:
            return None
        return self.wait, self.wait.feed(result.reading, error=result.error is not None, hung=result.hung)

    def new_problems(self) -> tuple[dict[str, object], ...]:
        """The open wait's problems when they differ from the last ones looked at, else ()
        (the record keeps them once per change, not once per read)."""
        if self.wait is None:
            raise RuntimeError("the problems of a camera wait were asked with none open")
        problems = tuple(p.to_dict() for p in self.wait.problems)
        changed = problems if problems != self._last_problems else ()
        self._last_problems = problems
        return changed

    def close(self) -> None:
        """Stop the worker (the camera belongs to the caller)."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None


def _count_stands(reading: TableReading) -> camera_wait.Look:
    return camera_wait.Look(result=camera_wait.stands_seen(reading))


def _look_for(name: camera_wait.Wait, game: Game) -> Callable[[TableReading], camera_wait.Look]:
    """How the wait ``name`` judges a reading, for the cards ``game`` waits for now."""
    if name == camera_wait.Wait.DEAL:
        active = game.active_seats
        return lambda reading: camera_wait.look_deal(reading, active)
    if name == camera_wait.Wait.EXTRA:
        return camera_wait.look_extra
    if name == camera_wait.Wait.REVEAL:
        r = game.current_round
        extra = r.extra_used and r.extra is None
        unknown = tuple(s for s, c in sorted(r.seat_cards.items()) if c is None)
        return lambda reading: camera_wait.look_reveal(reading, extra=extra, seats=unknown)
    return camera_wait.look_draw
