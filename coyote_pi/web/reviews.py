"""The review of a game's closed rounds for the history pages (docs/review.md).

The review values moves with the strong level's numerics (numpy), which the page's process
never loads (docs/web.md): a child process computes it, ``coyote-pi review FILE --json
--so-far``, reading the record as the page does (the round still open is sealed in the
file, so it is never judged), and the page words its JSON (:mod:`coyote_pi.review.texts`).
:class:`~coyote_pi.web.games.Games` keeps it with the record's state it was made of, so a
game is reviewed again only when its record grew.

:class:`ReviewCache` keeps each review over the page's restarts, in the page's own folder
(never beside the record: the records folder is the table's, read only to the page),
under the SHA-256 of the record's bytes it was made from: a review is reused only for
exactly those bytes, so a game in progress is reviewed again once a line was added.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
from pathlib import Path

from coyote_pi.contract.records import GAME_NAME, RECORD_SUFFIX
from coyote_pi.files import write_atomically
from coyote_pi.json_text import JsonObject

#: A whole game's review takes at most 2 s on the device (``coyote-pi bench review``),
#: plus the child's start: past this the page shows the round without its review.
REVIEW_TIMEOUT = 30.0

#: A kept review's file: the record's name, ``game-0003.review.json``.
CACHE_SUFFIX = ".review.json"
#: The layout of a kept review; a file of another version is made again.
CACHE_VERSION = 1
#: At most this many reviews are kept (one per record); beyond it, the ones made longest
#: ago are deleted.
CACHE_ENTRIES = 100
#: A kept review larger than this is neither read nor written (a 60-decision game's is
#: about 40 KB): the folder holds at most ``CACHE_ENTRIES`` times this.
CACHE_FILE_LIMIT = 1024 * 1024


def review_of(path: Path) -> JsonObject | None:
    """The review of ``path``'s closed rounds as ``coyote-pi review --json`` prints it; None
    when the child fails (the page then shows the rounds without a review)."""
    try:
        done = subprocess.run([sys.executable, "-m", "coyote_pi", "review", str(path), "--json", "--so-far"],
                              capture_output=True, text=True, timeout=REVIEW_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    try:
        review = json.loads(done.stdout)
    except ValueError:
        return None
    return review if isinstance(review, dict) else None


class ReviewCache:
    """The reviews the page made, one file per record in ``folder`` (the page's own), each
    with the SHA-256 of the record bytes it was made from.

    A file that cannot be read, is not one this class wrote or belongs to other bytes is
    ignored, and replaced by the next review made. A folder that cannot be written costs
    only the time of making a review again after a restart (said once on stderr, the
    page's journal). Each write also deletes the reviews of records no longer in the
    records folder, and the oldest beyond :data:`CACHE_ENTRIES`.
    """

    def __init__(self, folder: Path, records: Path) -> None:
        self.folder, self.records = Path(folder), Path(records)
        self._lock = threading.Lock()  # the history pages' worker threads write here
        self._said_unwritable = False

    def review(self, game: str) -> JsonObject | None:
        """The review of ``game``'s record (``game-0003``) as it is now: the kept one when
        it was made from exactly these bytes, else a new one, kept; None when it cannot be made."""
        record = self.records / f"{game}{RECORD_SUFFIX}"
        digest = _digest(record)
        if digest is None:
            return None
        kept = self._read(game, digest)
        if kept is not None:
            return kept
        review = review_of(record)
        # Kept only when the child read these very bytes: the record did not grow meanwhile.
        if review is not None and _digest(record) == digest:
            self._write(game, digest, review)
        return review

    def path(self, game: str) -> Path:
        return self.folder / f"{game}{CACHE_SUFFIX}"

    def _read(self, game: str, digest: str) -> JsonObject | None:
        try:
            with open(self.path(game), "rb") as file:
                data = file.read(CACHE_FILE_LIMIT + 1)
            kept = json.loads(data) if len(data) <= CACHE_FILE_LIMIT else None
        except (OSError, ValueError):
            return None
        if not isinstance(kept, dict) or kept.get("version") != CACHE_VERSION:
            return None
        if kept.get("record") != f"{game}{RECORD_SUFFIX}" or kept.get("sha256") != digest:
            return None
        review = kept.get("review")
        return review if isinstance(review, dict) else None

    def _write(self, game: str, digest: str, review: JsonObject) -> None:
        entry = {"version": CACHE_VERSION, "record": f"{game}{RECORD_SUFFIX}", "sha256": digest, "review": review}
        data = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(data) > CACHE_FILE_LIMIT:
            return
        with self._lock:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                write_atomically(self.path(game), data)
                self._prune()
            except OSError as error:
                if not self._said_unwritable:
                    self._said_unwritable = True
                    print(f"coyote-pi web: cannot keep reviews in {self.folder} ({error}): "
                          "each is made again after a restart", file=sys.stderr, flush=True)

    def _prune(self) -> None:
        """Delete the reviews of records gone and a temporary file a killed write left,
        then the oldest reviews beyond :data:`CACHE_ENTRIES` (only files of this class's names)."""
        kept: list[tuple[int, Path]] = []
        for path in self.folder.iterdir():
            game, suffix = path.name.split(".", 1) if "." in path.name else (path.name, "")
            if not GAME_NAME.fullmatch(game) or suffix not in (CACHE_SUFFIX[1:], CACHE_SUFFIX[1:] + ".tmp"):
                continue
            if suffix == CACHE_SUFFIX[1:] and (self.records / f"{game}{RECORD_SUFFIX}").is_file():
                kept.append((path.stat().st_mtime_ns, path))
            else:
                path.unlink(missing_ok=True)
        for _, path in sorted(kept)[:-CACHE_ENTRIES]:
            path.unlink(missing_ok=True)


def _digest(path: Path) -> str | None:
    """The SHA-256 of the file's bytes; None when it cannot be read."""
    try:
        with open(path, "rb") as file:
            return hashlib.file_digest(file, "sha256").hexdigest()
    except OSError:
        return None
