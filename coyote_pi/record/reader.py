"""Reading a record: one reader of the format, and visitors that make something of it.

In the shape of python-chess's ``read_game`` with its ``BaseVisitor``/``GameBuilder``:
:class:`RecordReader` takes a record's stored lines one by one, checks each (its form,
its place in the hash chain, its time, its seal), replays its events through the rules
engine, and tells every :class:`RecordVisitor` what it read: the setup, each line, each
event (with the game as it stood before it), each verdict the engine produced, each
note, and the round still open at the end. Whoever needs a record's content writes a
visitor instead of another pass over its lines: :class:`GameBuilder` collects the
validated :class:`Record` (``coyote-pi replay``, the table's resume); the table's memory
(:mod:`coyote_pi.table.store`) and the web page's round history
(:mod:`coyote_pi.web.games`) are visitors too.

Sealed lines are held from a round's deal to its opening line, and their events are
visited only once the opening (or, on resume, the private vault) opens them: a visitor
never sees a card of a round still open, unless the reader is given the vault's openings.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from coyote_pi import json_text
from coyote_pi.cards import Deck
from coyote_pi.engine import events
from coyote_pi.engine.errors import IllegalAction
from coyote_pi.engine.game import OVER, Game, GameConfig, RoundResult
from coyote_pi.json_text import spelled
from coyote_pi.record.fingerprints import fingerprint
from coyote_pi.record.lines import (
    FORMAT,
    Line,
    LineKind,
    Opening,
    RecordError,
    SequenceError,
    canonical,
    check_chain,
    check_keys,
    check_photo_form,
    event_kind,
    excerpt,
    first_difference,
    load_line,
    parse_line,
    sha256_text,
    split_lines,
    unfinished,
)
from coyote_pi.record.seals import (
    SEALED,
    Vault,
    check_openings,
    check_sealed_form,
    commitment,
    is_sealed,
    private_openings,
)
from coyote_pi.record.versions import READABLE, VERSION, config_data, resolution_data


@dataclass(frozen=True)
class OpenRound:
    """A round still open at the end of a record: from ``first_line`` (its deal) on, ``lines``
    lines, of which ``sealed_lines`` (line numbers) are sealed. Their values are not in the
    file yet, so the rules check these lines once the round is opened."""

    first_line: int
    lines: int
    sealed_lines: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"first_line": self.first_line, "lines": self.lines, "sealed_lines": list(self.sealed_lines)}


class RecordVisitor:
    """Told what :class:`RecordReader` reads, in order; each method does nothing here, and
    a visitor overrides those it needs. ``game`` is the reader's game: read it, never
    change it (it is the rules' check of the lines still to come)."""

    def begin_record(self, setup: Line, game: Game) -> None:
        """The setup line (line 1), and the game it starts."""

    def visit_line(self, number: int, line: Line, digest: str) -> None:
        """Every line in file order, once it is checked (a sealed round's lines for their
        form until the opening line checks them by the rules), after the events and notes
        it let the reader visit. ``digest`` is the SHA-256 of its stored bytes."""

    def visit_event(self, number: int, line: Line, event: events.Event, game: Game) -> None:
        """An action or observation, in the order the rules apply them, with the game as
        it stood before it (a sealed event once its round is opened)."""

    def visit_verdict(self, number: int, result: RoundResult, game: Game) -> None:
        """A verdict the rules produced with the event of line ``number`` (its resolution
        line follows), with the game after it."""

    def visit_note(self, number: int, note: dict[str, object], game: Game) -> None:
        """A note line, in the rules' order (a note in a sealed round once it is opened)."""

    def end_record(self, open_round: OpenRound | None) -> None:
        """The end of the lines read; ``open_round``: the sealed round left out of the game."""


@dataclass
class Record:
    """A validated record: the game it replays to and its lines."""

    game: Game
    lines: list[Line] = field(default_factory=list)
    #: The SHA-256 of each stored line (what the next line's ``prev`` holds).
    digests: list[str] = field(default_factory=list)
    #: Events that were undone, with the line that took them back.
    undone: list[int] = field(default_factory=list)
    #: The round still open at the end of the record, if its lines could not be opened:
    #: the game above stops before it.
    open_round: OpenRound | None = None
    #: The openings of the round still open, when the private file opened it (resume).
    private_openings: list[Opening] = field(default_factory=list)

    @property
    def meta(self) -> dict[str, object]:
        return self.lines[0].get("meta", {}) if self.lines else {}

    @property
    def version(self) -> int:
        """The record's version (:mod:`coyote_pi.record.versions`), from its setup line."""
        return self.lines[0].get("version", VERSION)

    @property
    def last_hash(self) -> str:
        """The hash of the last line: any change to any line changes it."""
        return self.digests[-1]

    @property
    def fingerprint(self) -> str:
        """The short form of :attr:`last_hash` that the table shows at every verdict."""
        return fingerprint(self.last_hash)

    def line_of(self, noted: str) -> int | None:
        """The line (1-based) whose fingerprint or full hash is ``noted`` (normalized), if any."""
        for number, digest in enumerate(self.digests, start=1):
            if noted in (digest, fingerprint(digest)):
                return number
        return None


class GameBuilder(RecordVisitor):
    """Builds the :class:`Record` a reader validated: its game, lines and digests, the
    lines that undid a bid, and the round left open."""

    def __init__(self) -> None:
        self.record: Record | None = None

    def begin_record(self, setup: Line, game: Game) -> None:
        self.record = Record(game)

    def visit_line(self, number: int, line: Line, digest: str) -> None:
        record = self._record()
        record.lines.append(line)
        record.digests.append(digest)

    def visit_event(self, number: int, line: Line, event: events.Event, game: Game) -> None:
        if isinstance(event, events.Undo):
            self._record().undone.append(number)

    def end_record(self, open_round: OpenRound | None) -> None:
        self._record().open_round = open_round

    def _record(self) -> Record:
        if self.record is None:
            raise RuntimeError("a line before the setup line")  # the reader starts with begin_record
        return self.record


#: A line of a sealed round, held until its opening: its number, the line, and its event
#: parsed if it is not sealed (None for a sealed one and for a note).
_Held = tuple[int, Line, events.Event | None]


class RecordReader:
    """Takes a record's lines one by one (:meth:`take`), checking each and applying its
    event to :attr:`game`, and tells each visitor what it read (see :class:`RecordVisitor`).

    From a round's first sealed line (its deal) to its opening line, lines are checked
    for their form and held; the opening line opens the sealed ones, and the held lines
    are then applied in order (errors name their own line numbers).
    """

    def __init__(self, visitors: Sequence[RecordVisitor]) -> None:
        self.visitors = tuple(visitors)
        self._game: Game | None = None
        self.version = 0  #: the record's version, once its setup line is read
        self.last_digest: str | None = None
        self.lines = 0  # taken so far
        self.time = ""  # the latest time so far
        self.pending = 0  # resolutions the engine produced that the record has not shown yet
        self.completed_at = 0  # the line of the event that produced them
        #: The lines of the sealed round so far; None: no round is sealed.
        self.held: list[_Held] | None = None
        #: The vault's openings of the round still open, when :meth:`end` was given them.
        self.private_openings: list[Opening] = []

    @property
    def game(self) -> Game:
        if self._game is None:
            raise RecordError(1, "the setup line is incomplete (the record was cut short)")
        return self._game

    def take(self, number: int, raw: bytes) -> None:
        """Check the stored line ``number`` (1-based, without its newline) and apply it."""
        text, parsed = parse_line(number, raw)
        line = check_keys(number, parsed)
        check_chain(line, number, self.last_digest)
        if line["time"] < self.time:
            raise RecordError(number, f"its time {line['time']} is earlier than the line before it ({self.time})")
        kind = line["kind"]
        if number == 1:
            self._start(line)
        elif kind == LineKind.SETUP:
            raise RecordError(number, "a second setup line: records cannot be joined")
        elif kind == LineKind.OPENING:
            self._open(number, line.get("openings"))
        elif self.held is not None or (kind in (LineKind.ACTION, LineKind.OBSERVATION) and is_sealed(line["event"])):
            self._hold(number, line)
        else:
            self._apply(number, line)
        digest = sha256_text(text)
        for visitor in self.visitors:
            visitor.visit_line(number, line, digest)
        self.time, self.last_digest, self.lines = line["time"], digest, number

    def end(self, openings: list[Opening] | None = None) -> None:
        """The lines are all taken. A round still sealed is opened with the vault's
        ``openings`` (resume), or, without them, left out of the game."""
        open_round = None
        if self.held is not None:
            sealed = _sealed_lines(self.held)
            if openings is None:
                open_round = OpenRound(self.held[0][0], len(self.held), tuple(number for number, _ in sealed))
                self.held = None
            else:
                # The vault may hold the opening of a line whose write never finished.
                written = {line["seq"] for _, line in sealed}
                self.private_openings = [opening for opening in openings if opening["seq"] in written]
                self._replay_held(None, self.private_openings)
        for visitor in self.visitors:
            visitor.end_record(open_round)

    def open_round(self) -> OpenRound | None:
        """The sealed round the lines taken so far end in, if any (for a record still growing)."""
        if self.held is None:
            return None
        return OpenRound(self.held[0][0], len(self.held), tuple(number for number, _ in _sealed_lines(self.held)))

    def _start(self, line: Line) -> None:
        if line["kind"] != LineKind.SETUP:
            raise RecordError(1, "the first line must be the setup")
        if line.get("format") != FORMAT:
            raise RecordError(1, f"not a coyote-pi game record (format {spelled(line.get('format'))})")
        version = line.get("version")
        if type(version) is not int or version not in READABLE:  # neither 2.0 nor true for 2
            raise RecordError(1, f"record version {spelled(version)}; this coyote-pi reads versions "
                                 f"{' and '.join(map(str, READABLE))}")
        self.version = version
        try:
            config = GameConfig.from_dict(config_data(line.get("config"), version))
        except IllegalAction as error:
            raise RecordError(1, f"bad setup: {error}") from None
        self._game = Game(config)
        for visitor in self.visitors:
            visitor.begin_record(line, self._game)

    def _apply(self, number: int, line: Line, event: events.Event | None = None) -> None:
        kind = line["kind"]
        if kind in (LineKind.ACTION, LineKind.OBSERVATION):
            event = event if event is not None else _event_of(number, line, self.game.config.deck)
            if event is None:  # _hold takes every sealed line, _replay_held opens them
                raise RuntimeError(f"line {number} applied while it is sealed")
            self._event(number, line, event)
        elif kind == LineKind.RESOLUTION:
            self._resolution(number, line.get("result", {}))
        elif self.pending:
            raise RecordError(number, "a note between a challenge's last event and its resolution")
        elif self.game.phase == OVER:
            raise RecordError(number, "a note after the game is over: nothing follows the final resolution")
        else:
            for visitor in self.visitors:
                visitor.visit_note(number, line.get("note", {}), self.game)

    def _hold(self, number: int, line: Line) -> None:
        kind = line["kind"]
        if kind == LineKind.RESOLUTION:
            raise RecordError(number, "a resolution before the opening line of its round")
        if self.pending:  # what the engine resolved must be shown before anything else
            raise self._before_resolution(number)
        if self.held is None and self.game.phase == OVER:
            raise RecordError(number, f"a sealed {kind} after the game is over: nothing follows the final resolution")
        # Its form now (a sealed event's, until it is opened); the rules once the round is opened.
        event = _event_of(number, line, self.game.config.deck) if kind != LineKind.NOTE else None
        if isinstance(event, events.Correct) and self.held is not None:  # held lines are applied only at the opening
            raise RecordError(number, f"illegal action: a correction after the next round's deal (line "
                                      f"{self.held[0][0]}): a verdict is corrected only before the next deal")
        if self.held is None:
            self.held = []
        self.held.append((number, line, event))

    def _open(self, number: int, openings: object) -> None:
        if self.held is None:
            raise RecordError(number, "an opening line, but no round is sealed")
        self._replay_held(number, check_openings(number, openings))
        if not self.pending:
            raise RecordError(number, "an opening line while its round is still open: it comes right before the "
                                      "resolution that closes the round")

    def _replay_held(self, number: int | None, openings: list[Opening]) -> None:
        held, self.held = self.held or [], None
        sealed = _sealed_lines(held)
        seqs = [line["seq"] for _, line in sealed]
        if [opening["seq"] for opening in openings] != seqs:
            raise RecordError(number, f"the round's sealed lines are {', '.join(str(s + 1) for s in seqs)}, "
                                      f"but the opening opens {', '.join(str(o['seq'] + 1) for o in openings) or 'none'}")
        opened: dict[int, events.EventData] = {}
        for opening, (sealed_number, line) in zip(openings, sealed):
            event = line.get("event", {})
            if not isinstance(opening["event"], dict):
                raise RecordError(number, f"the opening of line {sealed_number} is not an event")
            if commitment(opening["event"], opening["salt"]) != event["commitment"]:
                raise RecordError(number, f"the opening of line {sealed_number} does not match its commitment "
                                          "(the sealed value or its opening was changed)")
            public = {key: value for key, value in event.items() if key != "commitment"}
            if any(opening["event"].get(k) != v for k, v in public.items()):
                raise RecordError(number, f"the opening of line {sealed_number} is not the {event['type']} "
                                          "event sealed there")
            opened[sealed_number] = opening["event"]
        for held_number, held_line, parsed in held:
            if held_number in opened:
                parsed = _event_of(held_number, held_line, self.game.config.deck, opened[held_number])
            self._apply(held_number, held_line, parsed)

    def _event(self, number: int, line: Line, event: events.Event) -> None:
        game = self.game
        if self.pending:
            raise self._before_resolution(number)
        for visitor in self.visitors:
            visitor.visit_event(number, line, event, game)
        before = len(game.results)
        try:
            game.apply(event)
        except IllegalAction as error:
            raise RecordError(number, f"illegal {event_kind(event)}: {error}") from None
        self.pending = len(game.results) - before
        self.completed_at = number
        for result in game.results[before:]:
            for visitor in self.visitors:
                visitor.visit_verdict(number, result, game)

    def _before_resolution(self, number: int) -> RecordError:
        return RecordError(number, f"an event before the resolution of the previous challenge, which line "
                                   f"{self.completed_at} completed (nothing was left to reveal or draw after it): "
                                   "its resolution comes next")

    def _resolution(self, number: int, recorded: dict[str, object]) -> None:
        if not self.pending:
            raise RecordError(number, "a resolution where no challenge was resolved")
        expected = resolution_data(self.game.results[-self.pending], self.version)
        # Compared as JSON text: 1 and true, or 6 and 6.0, are different evidence.
        wrong = [key for key in sorted(set(recorded) | set(expected))
                 if key not in recorded or key not in expected
                 or canonical(recorded[key]) != canonical(expected[key])]
        if wrong:
            first = wrong[0]
            texts = {who: canonical(source[first]) if first in source else None
                     for who, source in (("recorded", recorded), ("rules", expected))}
            at = first_difference(*(text or "" for text in texts.values()))
            shown = {who: "nothing" if text is None else excerpt(text, at) for who, text in texts.items()}
            raise RecordError(number, f"the recorded resolution differs from the rules' result in "
                                      f"{', '.join(map(repr, wrong))} ({first!r}: {shown['recorded']} recorded, "
                                      f"{shown['rules']} by the rules)")
        self.pending -= 1


def _sealed_lines(held: list[_Held]) -> list[tuple[int, Line]]:
    return [(number, line) for number, line, _ in held
            if line["kind"] != LineKind.NOTE and is_sealed(line.get("event"))]


def _event_of(number: int, line: Line, deck: Deck, opened: events.EventData | None = None) -> events.Event | None:
    """The event of an action or observation line (``opened``: its sealed event's opened
    value), its cards of ``deck`` (the one the setup names), once its form is right; None
    for a sealed event not opened yet."""
    kind = line["kind"]
    data = line.get("event")
    photo = line.get("photo")
    if photo is not None:
        check_photo_form(number, photo)
    if is_sealed(data) and opened is None:
        check_sealed_form(number, data if isinstance(data, dict) else {})
        return None
    try:
        event = events.from_dict(opened if opened is not None else data, deck)
    except IllegalAction as error:
        raise RecordError(number, f"illegal {kind}: {error}") from None
    name = events.type_name(event)
    if event_kind(event) != kind:
        raise RecordError(number, f"a {name} event is not an {kind}")
    if name in SEALED and opened is None:
        raise RecordError(number, f"a {name} event must be sealed while its round is open (its values hidden "
                                  "behind a commitment until the round's opening line)")
    if photo is not None and not isinstance(event, (events.Reveal, events.DrawReplacement)):
        raise RecordError(number, f"a {name} line has no photo: only a reveal or a draw keeps one")
    return event


# ------------------------------------------------------------------ reading a file


def read_bytes(path: Path) -> bytes:
    """A record file's bytes; RecordError when it cannot be read or is empty."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RecordError(None, f"cannot read {path}: {error.strerror or error}") from None
    if not data:
        raise RecordError(None, f"{path} is empty: no setup line")
    return data


def read_record(path: str | os.PathLike[str], *, allow_torn_tail: bool = False, private: bool = False,
                visitors: Iterable[RecordVisitor] = ()) -> Record:
    """Validate a record by replaying it; raise :class:`RecordError` on the first fault.

    Every line must be exactly what :class:`~coyote_pi.record.writer.RecordWriter` writes
    for it: its canonical JSON, chained to the line before, its time not earlier than the
    line before's, and legal under the rules. A line counts only with its newline: a last
    line without one was never finished (a write cut short), whether or not its JSON is
    complete.

    A round's sealed lines are held until its opening line: then every commitment must
    open to what was committed, and the round is replayed from the opened values. A round
    still open at the end stays out of the game (:attr:`Record.open_round`), unless
    ``private``: then the record's private round file (the vault, readable by the service
    only) opens it, as when the table resumes.

    ``allow_torn_tail`` accepts such an unfinished last line (it is left out: it was
    never acknowledged, so it never counted) and a missing resolution line after the
    last event (the resolution is recomputed); ``replay`` does not. ``visitors`` are told
    what is read, beside the :class:`GameBuilder` that makes the record.
    """
    path = Path(path)
    data = read_bytes(path)
    if data.startswith(codecs.BOM_UTF8):
        raise RecordError(1, "the file begins with a UTF-8 byte order mark (an editor added it): a record is "
                             "UTF-8 without one; remove those first three bytes (EF BB BF) and the line reads as written")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):  # else told as a cut last line
        raise RecordError(1, "not UTF-8 text: the file begins with the byte order mark of UTF-16 (or UTF-32), "
                             "so an editor saved it in another encoding")
    raw_lines, tail = split_lines(data)
    _may_begin_a_record(raw_lines[0] if raw_lines else None, tail)
    if not allow_torn_tail and (cut := unfinished_end(len(raw_lines), tail, 0)) is not None:
        raise cut  # before any line: the end of the file is told first
    if not raw_lines:
        raise RecordError(1, "the setup line is incomplete (the record was cut short)")
    builder = GameBuilder()
    reader = RecordReader([builder, *visitors])
    for number, raw in enumerate(raw_lines, start=1):
        try:
            reader.take(number, raw)
        except SequenceError as error:
            raise error.told(_seq_of(raw_lines[number]) if number < len(raw_lines) else None) from None
    reader.end(_vault_openings(path, reader) if private else None)
    if not allow_torn_tail and (unresolved := unfinished_end(len(raw_lines), b"", reader.pending)) is not None:
        raise unresolved
    return built_record(builder, reader)


def unfinished_end(lines: int, tail: bytes, pending: int) -> RecordError | None:
    """Why ``replay`` refuses a record whose ``lines`` complete lines replayed, ending in
    ``tail`` (the bytes after the last newline) with ``pending`` resolutions the rules
    produced and the record has not shown: a last line never finished, or a challenge
    without its resolution. None: it ends where a record may end."""
    if tail:
        return RecordError(lines + 1, unfinished(tail))
    if pending:
        return RecordError(lines, "the record ends before the resolution of its last challenge")
    return None


#: What is said of a file whose first line could not begin a game record.
NOT_A_RECORD = "this is not a game record (each line of one is a JSON object, the first its setup)"


def _may_begin_a_record(first: bytes | None, tail: bytes) -> None:
    """A file whose first line (None: it has no complete line) could not begin a record
    is said to be none, before any fault of a later line: random bytes were "line 13: the
    last line is incomplete". A setup line cut short still begins as a JSON object does."""
    if first is None:
        if not tail.startswith(b"{"):
            raise RecordError(1, NOT_A_RECORD)
        return
    try:
        load_line(1, first)
    except RecordError as error:
        raise RecordError(1, f"{error.reason}: {NOT_A_RECORD}") from None


def _seq_of(raw: bytes) -> object:
    """The ``seq`` of a stored line, if it is a JSON object that has one."""
    try:
        line = json_text.loads(raw.decode("utf-8"), repeated_keys_checked=False)
    except ValueError:
        return None
    return line.get("seq") if isinstance(line, dict) else None


def replay_lines(lines: Iterable[Line], visitors: Sequence[RecordVisitor]) -> None:
    """Read again the lines of a record already read (a :attr:`Record.lines`), telling
    ``visitors``: for a use of a record that was not foreseen when it was read (the web
    page's round history, told only when a person asks for it)."""
    reader = RecordReader(visitors)
    for number, line in enumerate(lines, start=1):
        reader.take(number, canonical(line).encode("utf-8"))
    reader.end()


def _vault_openings(path: Path, reader: RecordReader) -> list[Opening] | None:
    """The vault's openings of the round the record ends in (None when it ends in none)."""
    if reader.held is None:
        return None
    openings = private_openings(path)
    if openings is None:
        raise vault_missing(path, reader.held[0][0])
    return openings


def vault_missing(path: Path, first_line: int) -> RecordError:
    """The error for a record that ends in a sealed round (from ``first_line``) whose
    private file is missing."""
    return RecordError(None, f"the record's last round (from line {first_line}) is sealed and "
                             f"{Vault(path).path(Vault.ROUND)}, which opens it, is missing: that round cannot "
                             "be resumed")


def built_record(builder: GameBuilder, reader: RecordReader) -> Record:
    """The record ``builder`` made of what ``reader`` read, with the vault's openings it used."""
    record = builder.record
    if record is None:
        raise RecordError(1, "the setup line is incomplete (the record was cut short)")
    record.private_openings = reader.private_openings
    return record


class RecordFollower:
    """A record that grows while it is read (the web page follows the game being written):
    each :meth:`update` checks and applies only the complete lines added since the last,
    so following a game costs one line per line, not the whole file again.

    It checks exactly what :func:`read_record` with ``allow_torn_tail`` checks, and its
    :class:`Record` is the same: the round still open at the end is left out of the game
    (:attr:`Record.open_round`); :attr:`unfinished_end` is what :func:`read_record`
    without it (``replay``) refuses besides. A file that shrank or was replaced is read afresh.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._start()

    def _start(self) -> None:
        self._builder = GameBuilder()
        self._reader = RecordReader([self._builder])
        self._offset, self._inode = 0, -1
        #: Why ``replay`` refuses the file as it is now although its complete lines replay
        #: (:func:`unfinished_end`: a line still being written, a resolution not written yet).
        self.unfinished_end: RecordError | None = None

    def update(self) -> Record:
        """The record as it is now; :class:`RecordError` when a line does not replay."""
        with open(self.path, "rb") as file:
            stat = os.fstat(file.fileno())
            if stat.st_ino != self._inode or stat.st_size < self._offset:
                self._start()
                self._inode = stat.st_ino
            file.seek(self._offset)
            raw_lines, tail = split_lines(file.read())
        try:
            for raw in raw_lines:
                self._reader.take(self._reader.lines + 1, raw)
                self._offset += len(raw) + 1
        except RecordError:
            self._start()  # a half-taken line leaves the replay unusable: read afresh next time
            raise
        self.unfinished_end = unfinished_end(self._reader.lines, tail, self._reader.pending)
        record = built_record(self._builder, self._reader)
        record.open_round = self._reader.open_round()
        return record
