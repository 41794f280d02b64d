"""The photos that settled each reveal and ``?`` draw: the evidence beside the record.

When the camera settles a reveal or a draw, the controller keeps that frame as a JPEG
(:meth:`Photos.keep`), written and fsynced before the observation line that names it
with its SHA-256 (``{"file": "round-03-reveal.jpg", "sha256": ...}``). A reveal photo
shows the cards once they are face up, yet it is not public before its round is closed:
it waits in the record's private folder and moves to ``game-0001.photos/`` beside the
record when the round closes (:meth:`Photos.publish`). There ``coyote-pi replay FILE
--photos DIR`` checks it against the record. :func:`prune_photos` keeps the photos of
the newest games only; records are never removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numpy as np

from coyote_pi.contract.records import photos_folder
from coyote_pi.files import fsync_folder, write_all
from coyote_pi.record import Photo, Vault

#: JPEG quality of a kept frame: the stickers stay readable, a full-resolution still is a few MB.
JPEG_QUALITY = 90


class Photos:
    """The photos of the game recorded in ``record``."""

    def __init__(self, record: Path) -> None:
        self.public = photos_folder(record)
        self.private = Vault(record).folder / self.public.name

    def keep(self, round_number: int, what: str, frame: object) -> Photo | None:
        """Save ``frame`` (the image that settled the ``what`` wait, "reveal" or "draw") and
        return its name and SHA-256 for the observation line. None when the frame is no
        picture (the scene camera of the fast tests hands the scene itself)."""
        if not isinstance(frame, np.ndarray):
            return None
        import cv2

        encoded, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not encoded:
            raise OSError(f"the {what} photo of round {round_number} could not be encoded")
        name = f"round-{round_number:02d}-{what}.jpg"
        self.private.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.private / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            write_all(fd, data.tobytes())
        finally:
            os.close(fd)
        return {"file": name, "sha256": hashlib.sha256(data.tobytes()).hexdigest()}

    def discard(self, photo: Photo | None) -> None:
        """Forget a photo whose line was never written (the engine refused the reveal)."""
        if photo is not None:
            (self.private / photo["file"]).unlink(missing_ok=True)

    def publish(self) -> None:
        """The round is closed: its photos join the public folder beside the record."""
        if not self.private.is_dir():
            return
        waiting = sorted(self.private.iterdir())
        if not waiting:
            return
        self.public.mkdir(parents=True, exist_ok=True)
        for path in waiting:
            os.chmod(path, 0o640)  # as readable as the record
            os.replace(path, self.public / path.name)
        fsync_folder(self.public)


def prune_photos(records: list[Path], keep: int) -> list[Path]:
    """Remove the photo folders of all but the newest ``keep`` of ``records`` (oldest
    first); the records stay. Returns the folders removed."""
    removed = []
    for record in records[: max(0, len(records) - keep)]:
        folder = photos_folder(record)
        if folder.is_dir():
            shutil.rmtree(folder)
            removed.append(folder)
    return removed

