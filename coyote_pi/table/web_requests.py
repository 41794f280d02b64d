"""What the web page asks of the table: its requests folder (docs/web.md), untrusted input.

- ``preview.want`` (touched by the page while its setup page is open): between games,
  every :data:`PREVIEW_EVERY` seconds while the file is younger than :data:`WANT_SECONDS`,
  a camera frame becomes ``preview.jpg`` and ``preview.json`` in the bulletin folder.
  The frame is read by the controller's camera worker (one read at a time, never while
  a wait is open; while setup counts the stands, its frames serve: :meth:`CameraReads.ask_preview
  <coyote_pi.table.camera_reads.CameraReads.ask_preview>`); scaling, drawing and
  compressing it happen on this part's own thread, so the loop never waits for them.
  Every place a card can lie is blanked (:func:`coyote_pi.vision.annotate.setup_view`).
  When a game starts both files are deleted, and a frame still being drawn is dropped.
- ``doctor.want``: between games, the checks that can run inside the table (handed in
  by ``coyote-pi run``: the table does not know the Pi) go into ``doctor.json``.
- ``settings.toml``: settings the page proposes. Checked again here
  (:func:`~coyote_pi.config.with_page_settings`) and taken between games only,
  for the next game (a start seat counts from the next setup's questions); never during
  one. The file is deleted, and ``settings-result.json`` in the bulletin says whether
  they were taken. What is taken is kept over restarts and published for the page
  (:mod:`~coyote_pi.table.page_settings`).

The folder is looked at once a second, between games only.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coyote_pi.config import PAGE_SETTINGS_LIMIT, ConfigError, with_page_settings
from coyote_pi.contract import page as page_contract
from coyote_pi.table.bulletin import Bulletin, between_games, iso_time
from coyote_pi.table.camera_reads import PREVIEW, CameraResult, Frame
from coyote_pi.table.deadlines import Timer
from coyote_pi.table.page_settings import PageSettings
from coyote_pi.vision.framing import framing_problems
from coyote_pi.vision.reading import TableReading

if TYPE_CHECKING:
    from coyote_pi.table.web_table import WebTable

log = logging.getLogger(__name__)

#: A want file counts this long after it was touched (seconds).
WANT_SECONDS = 30.0
#: The least time between two previews (seconds).
PREVIEW_EVERY = 2.0
#: How often the folder is looked at between games (seconds).
POLL_SECONDS = 1.0
#: The preview's width at most (pixels).
PREVIEW_WIDTH = 1024

#: The checks of ``coyote-pi doctor`` that can run inside the table: each
#: ``{"name": ..., "ok": True | False | None, "detail": ...}`` (None: skipped).
DoctorChecks = Callable[[], list[dict[str, Any]]]


class WebRequests:
    """The requests folder of the ``table`` (see the module docstring)."""

    def __init__(self, table: WebTable, folder: Path, bulletin: Bulletin, doctor: DoctorChecks | None,
                 wall: Callable[[], float] = time.time) -> None:
        self.table = table
        self.folder = Path(folder)
        self.bulletin = bulletin
        self.doctor = doctor
        self.wall = wall
        self._last_preview: float | None = None  # on the controller's clock
        self._doctor_answered = 0.0  # the mtime of the doctor.want last answered
        # Drawing a frame and the doctor's checks run here, one at a time, off the loop.
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="web requests")
        self._lock = threading.Lock()
        self._previews_allowed = True  # False from a game's start: a frame still being drawn is dropped
        self.settings = PageSettings(table, bulletin)

    # -- the loop's side

    def poll(self) -> None:
        """Between games: answer what the page wants, and look again in a second."""
        table = self.table
        if not between_games(table):
            return
        table.deadlines.set(Timer.REQUESTS, table.clock() + POLL_SECONDS)
        self.take_settings()
        now = table.clock()
        if (self._wanted(page_contract.PREVIEW_WANT) is not None
                and (self._last_preview is None or now - self._last_preview >= PREVIEW_EVERY)
                and table.camera.ask_preview()):
            self._last_preview = now
        asked = self._wanted(page_contract.DOCTOR_WANT)
        if asked is not None and asked > self._doctor_answered and self.doctor is not None:
            self._doctor_answered = asked
            self._worker.submit(self._write_doctor, self.doctor)

    def on_camera(self, result: CameraResult) -> None:
        """A frame read for the preview (or, while setup counts the stands, one read for
        that, when a preview is due): draw it on this part's thread."""
        table = self.table
        if result.frame is None or result.reading is None or not between_games(table):
            return
        if result.wait != PREVIEW:
            now = table.clock()
            if self._wanted(page_contract.PREVIEW_WANT) is None or (self._last_preview is not None
                                                      and now - self._last_preview < PREVIEW_EVERY):
                return
            self._last_preview = now
        with self._lock:
            self._previews_allowed = True
        self._worker.submit(self._write_preview, result.frame, result.reading)

    def game_starts(self) -> None:
        """A game's record exists now: no camera view from here on (and none left behind)."""
        with self._lock:
            self._previews_allowed = False
            self.bulletin.remove(page_contract.PREVIEW)
            self.bulletin.remove(page_contract.PREVIEW_INFO)
        self.table.deadlines.cancel(Timer.REQUESTS)

    def between_games(self) -> None:
        """No game from now on (setup, or the game is over): look at the folder again."""
        self.table.deadlines.set(Timer.REQUESTS, self.table.clock())

    def restore_settings(self) -> None:
        """At the table's start: the settings taken from the page before, or why they are not."""
        problem = self.settings.restore()
        if problem is not None:
            self._settings_result(False, problem)

    def take_settings(self) -> None:
        """Between games: apply and keep the settings the page left, or say why not."""
        path = self.folder / page_contract.SETTINGS
        try:
            if not path.is_file():
                return
            if path.stat().st_size > PAGE_SETTINGS_LIMIT:
                raise ConfigError(f"{page_contract.SETTINGS}: larger than {PAGE_SETTINGS_LIMIT} bytes")
            text = path.read_text(encoding="utf-8")
            config = with_page_settings(self.table.config, text, source=page_contract.SETTINGS)
        except (OSError, UnicodeDecodeError, ConfigError) as error:
            reason = (str(error) if isinstance(error, ConfigError)
                      else f"{page_contract.SETTINGS}: cannot read it ({error})")
            log.warning("the web page's settings are refused: %s", reason)
            self._settings_result(False, reason)
        else:
            self.table.log("the web page's settings are taken for this game")
            self._settings_result(True, self.settings.take(config))
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            log.warning("cannot delete %s (%s): it will be read again", path, error)

    def close(self) -> None:
        self._worker.shutdown(wait=True)

    # -- helpers

    def _wanted(self, name: str) -> float | None:
        """When the page last touched ``name``, if within :data:`WANT_SECONDS`; else None."""
        try:
            touched = (self.folder / name).stat().st_mtime
        except OSError:
            return None
        return touched if self.wall() - touched <= WANT_SECONDS else None

    def _settings_result(self, ok: bool, error: str | None) -> None:
        answer = {"time": iso_time(), "ok": ok, "error": error}
        self.bulletin.write(page_contract.SETTINGS_RESULT, json.dumps(answer).encode())

    def _write_preview(self, frame: Frame, reading: TableReading) -> None:
        import cv2  # here: the table's other parts never need it for the page

        from coyote_pi.vision.annotate import setup_view

        try:
            image = setup_view(frame, reading, PREVIEW_WIDTH)
            ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
            markers = sum(sighting.kind in ("anchor", "slot") for sighting in reading.sightings)
            note = "; ".join(reading.warnings)
            info = {"time": iso_time(), "width": image.shape[1], "height": image.shape[0],
                    **_framing(reading, (frame.shape[1], frame.shape[0])), "markers": markers, "note": note}
        except Exception:  # a drawing bug costs the preview, never the table
            log.exception("the web page's camera view could not be drawn")
            return
        with self._lock:
            if self._previews_allowed and ok:
                self.bulletin.write(page_contract.PREVIEW, jpeg.tobytes())
                self.bulletin.write(page_contract.PREVIEW_INFO, json.dumps(info).encode())

    def _write_doctor(self, doctor: DoctorChecks) -> None:
        try:
            checks = doctor()
        except Exception as error:  # a check's bug is the answer, not the table's end
            log.exception("the doctor's checks failed")
            checks = [{"name": "doctor", "ok": False, "detail": f"{type(error).__name__}: {error}"}]
        self.bulletin.write(page_contract.DOCTOR, json.dumps({"time": iso_time(), "checks": checks}).encode())


def _framing(reading: TableReading, frame_size: tuple[int, int]) -> dict[str, Any]:
    """preview.json's ``stands`` (each seat, as text: "ok", "missing" or "edge") and
    ``framing`` (each seat with a problem: what is wrong, in words), by the rule of
    ``coyote-pi doctor`` (:func:`~coyote_pi.vision.framing.framing_problems`)."""
    problems = framing_problems(reading, frame_size)
    seats = sorted(set(reading.seats) | set(problems))
    return {"stands": {str(seat): problems[seat].kind if seat in problems else "ok" for seat in seats},
            "framing": {str(seat): problem.words for seat, problem in problems.items()}}
