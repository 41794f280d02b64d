"""The names in a records folder, and the folders beside it (docs/game-record.md, docs/web.md).

The table names its records by a sequence, not a date (a Pi without a clock battery
may boot in the past): ``game-0001.jsonl``, ``game-0002.jsonl``, ... Four digits at
least, more once the count outgrows them (six at most: a million games); the page takes
only names of this shape from a URL. A record's public photos lie beside it in
``game-0001.photos/``::

    >>> record_file(7)
    'game-0007.jsonl'
    >>> record_number("game-0007.jsonl"), record_number("game-7.jsonl"), record_number("notes.jsonl")
    (7, None, None)
    >>> photos_folder(Path("games/game-0007.jsonl"))
    PosixPath('games/game-0007.photos')
"""

from __future__ import annotations

import re
from pathlib import Path

#: A game's name (the record's file name without ``.jsonl``), as the page's URLs use it.
GAME_NAME = re.compile(r"game-([0-9]{4,6})")
#: The suffix of a record.
RECORD_SUFFIX = ".jsonl"
#: The suffix of a record's public photos folder.
PHOTOS_SUFFIX = ".photos"
#: Where the simulated table publishes for its page, and the page leaves its requests,
#: beside the records folder (a real table names its folders in ``[web]``).
BULLETIN_FOLDER, REQUESTS_FOLDER = "public", "requests"
#: Where the page keeps the reviews it made, beside its requests folder unless its
#: ``--reviews`` names another (on the Pi both are in the page's own state folder).
REVIEWS_FOLDER = "reviews"


def record_file(number: int) -> str:
    """The file name of the ``number``-th record of a folder."""
    return f"game-{number:04d}{RECORD_SUFFIX}"


def record_number(name: str) -> int | None:
    """The sequence number of a record's file ``name``; None: not a record's name."""
    stem, suffix = name[: -len(RECORD_SUFFIX)], name[-len(RECORD_SUFFIX):]
    match = GAME_NAME.fullmatch(stem) if suffix == RECORD_SUFFIX else None
    return None if match is None else int(match.group(1))


def is_record_file(name: str) -> bool:
    """``name`` is a record's file name (``game-0003.jsonl``)."""
    return record_number(name) is not None


def photos_folder(record: Path) -> Path:
    """Where the photos of ``record`` (``game-0001.jsonl``) go once public: ``game-0001.photos``."""
    return record.with_suffix(PHOTOS_SUFFIX)
