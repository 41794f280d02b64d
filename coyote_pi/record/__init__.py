"""The game record: the arbiter's evidence, one JSON object per line (docs/game-record.md).

A package whose modules each hold one job of the format:

- :mod:`~coyote_pi.record.lines`: the line format, its canonical JSON and hash chain,
  and the checks of one stored line;
- :mod:`~coyote_pi.record.seals`: sealing a round's hidden values (commitments), and the
  private vault that keeps what opens them;
- :mod:`~coyote_pi.record.fingerprints`: the short form of the last hash the table shows,
  its QR code's text, and reading back what a person noted;
- :mod:`~coyote_pi.record.reader`: the one reader of the format, :class:`RecordReader`,
  which checks and replays a record line by line and tells visitors what it read
  (python-chess's ``BaseVisitor``/``GameBuilder`` shape): :func:`read_record`,
  :class:`RecordFollower` for a record still growing;
- :mod:`~coyote_pi.record.photos`: the photos a record names, checked against files;
- :mod:`~coyote_pi.record.salvage`: the longest beginning of a damaged record that
  replays, and its end set aside;
- :mod:`~coyote_pi.record.writer`: appending lines durably (:class:`RecordWriter`), and
  the same bytes in memory (:func:`encode_record`);
- :mod:`~coyote_pi.record.recorded`: :class:`RecordedGame`, a game whose every accepted
  event is on disk before it counts, resumed after a crash.

The names other parts of coyote-pi use are importable from the package itself.
"""

from coyote_pi.record.fingerprints import FINGERPRINT_CHARS, fingerprint, fingerprint_qr, normalize_fingerprint
from coyote_pi.record.lines import FORMAT, Line, LineKind, Photo, RecordError, is_record_time, utc_now
from coyote_pi.record.photos import PHOTO_FILE, check_photos
from coyote_pi.record.reader import (
    GameBuilder,
    OpenRound,
    Record,
    RecordFollower,
    RecordReader,
    RecordVisitor,
    read_record,
    replay_lines,
)
from coyote_pi.record.recorded import RecordedGame
from coyote_pi.record.salvage import Repair, Salvage, salvage_record
from coyote_pi.record.seals import SEALED, Seals, Vault, commitment, is_sealed, new_salt
from coyote_pi.record.versions import VERSION
from coyote_pi.record.writer import RecordGone, RecordWriter, encode_record

__all__ = [
    "FINGERPRINT_CHARS", "FORMAT", "PHOTO_FILE", "SEALED", "VERSION", "GameBuilder", "Line", "LineKind", "OpenRound",
    "Photo", "Record", "RecordError", "RecordFollower", "RecordGone", "RecordReader", "RecordVisitor", "RecordWriter",
    "RecordedGame", "Repair", "Salvage", "Seals", "Vault", "check_photos", "commitment", "encode_record",
    "fingerprint", "fingerprint_qr", "is_record_time", "is_sealed", "new_salt", "normalize_fingerprint",
    "read_record", "replay_lines", "salvage_record", "utc_now",
]
