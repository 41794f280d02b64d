"""The photos a record names: their form in a line, and the files checked against them.

A reveal or a draw settled by the camera keeps its frame's file name and SHA-256 in its
observation line (its form: :func:`~coyote_pi.record.lines.check_photo_form`). A photo is checked by its name and its SHA-256 only: its bytes are not
read as an image (a file with the recorded digest is the photo taken, whatever it holds).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from coyote_pi.record.lines import PHOTO_FILE
from coyote_pi.record.reader import Record

__all__ = ["PHOTO_FILE", "check_photos"]


def check_photos(record: Record, folder: str | os.PathLike[str]) -> tuple[int, list[str]]:
    """Check the photos the record names against the files in ``folder``: how many were
    checked, and what is wrong (a missing file, or one whose SHA-256 is not the recorded
    one), each with its line number. Photos of a round still open are not public yet. A
    ``folder`` that is not there is the one problem (not every photo missing from it)."""
    folder = Path(folder)
    if not folder.is_dir():
        return 0, [f"the photos folder {folder} {'is not a folder' if folder.exists() else 'does not exist'}"]
    open_from = record.open_round.first_line if record.open_round else len(record.lines) + 1
    checked, problems = 0, []
    for number, line in enumerate(record.lines[: open_from - 1], start=1):
        photo = line.get("photo")
        if photo is None:
            continue
        checked += 1
        try:
            digest = hashlib.sha256((folder / photo["file"]).read_bytes()).hexdigest()
        except FileNotFoundError:
            problems.append(f"line {number}: the photo {photo['file']} is missing from {folder}")
            continue
        except OSError as error:
            problems.append(f"line {number}: cannot read the photo {photo['file']}: {error.strerror or error}")
            continue
        if digest != photo["sha256"]:
            problems.append(f"line {number}: {photo['file']} is not the photo recorded (its SHA-256 is "
                            f"{digest[:16]}..., the record says {photo['sha256'][:16]}...): it was changed or replaced")
    return checked, problems
