"""The games kept on the device, read from their records: a summary of each, each round
told line by line with the odds every bid held, a printable transcript, an archive.

Only the records folder is read, and a record is public at any moment: the round still
open at its end is sealed, so it is left out here (it is told once its opening line
is written). Each record is read by the reader ``coyote-pi replay`` uses
(:class:`~coyote_pi.record.RecordFollower`, :func:`~coyote_pi.record.unfinished_end`),
so a game's state on the page is what ``replay`` says of the file as it is now
(:class:`GameState`): a game shown as won is one ``replay`` accepts as won, and the
command the records page offers passes. A record still being written may end in a line
not finished yet, or a challenge whose resolution is not written yet: the page shows it
as far as ``replay`` accepts it, in progress, as the table itself would resume it.

Records are cached by size and modification time: the page reads the current game's
record again only when a line was added.
"""

from __future__ import annotations

import re
import tempfile
import threading
import zipfile
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import IO

from coyote_pi.contract.records import PHOTOS_SUFFIX, RECORD_SUFFIX, is_record_file
from coyote_pi.engine import events
from coyote_pi.engine.events import EventType
from coyote_pi.engine.game import OVER, Game, RoundResult
from coyote_pi.engine.odds import bid_odds
from coyote_pi.engine.views import seat_view
from coyote_pi.json_text import JsonObject
from coyote_pi.record import (
    GameBuilder,
    Line,
    Record,
    RecordError,
    RecordFollower,
    RecordReader,
    RecordVisitor,
    read_record,
    replay_lines,
)
from coyote_pi.record.lines import canonical
from coyote_pi.review.texts import percent as chance_text
from coyote_pi.web.bulletin import Folders, virtual_seats
from coyote_pi.web.reviews import ReviewCache
from coyote_pi.words.transcript import describe_event
from coyote_pi.words.translator import ENGLISH
from coyote_pi.words.verdict import explanation_lines

#: A photo's file name as the record names it (the record checks the same shape).
PHOTO_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class GameState(StrEnum):
    """What a record is, as ``coyote-pi replay`` sees the file now and what can still
    happen to it (the table resumes only the newest record of its folder)."""

    FINISHED = "finished"  #: replay accepts it, and the game is over
    IN_PROGRESS = "in_progress"  #: the newest record, not over: the table writes it (or resumes it)
    #: Replay accepts it, but the game is not over and a newer game was started: it stays so.
    LEFT_UNFINISHED = "left_unfinished"
    #: Its end is not one replay accepts (a line never finished, a challenge without its
    #: resolution) and a newer game was started: it can never be finished.
    ENDED_EARLY = "ended_early"
    INVALID = "invalid"  #: a line does not replay


@dataclass(frozen=True)
class Summary:
    """One game, as the lists show it."""

    name: str  #: ``game-0003``
    state: GameState = GameState.INVALID
    lines: int = 0
    fingerprint: str = ""
    last_hash: str = ""
    players: int = 0
    variant: str = ""
    rounds: int = 0  #: closed rounds
    winner: int | None = None
    open_round: bool = False
    started: str = ""
    #: Why ``replay`` refuses the file as it is now, in its words (None: it accepts it).
    error: str | None = None
    #: Where a game that was left unfinished or ended early stops (its last line, or the
    #: line replay names).
    end_line: int | None = None
    #: The seats the table played itself (the setup line's ``meta.virtual``), (seat, level).
    virtual: tuple[tuple[int, str], ...] = ()

    @property
    def finished(self) -> bool:
        return self.state == GameState.FINISHED

    @property
    def checkable(self) -> bool:
        """``replay --expect`` accepts the file as it is now."""
        return self.error is None


@dataclass
class Step:
    """One line of a round: an event with its cards as read (closed rounds only) and, for
    a bid, the chance it held from what the bidder could see at that moment."""

    line: int
    time: str
    type: str
    event: events.Event  #: the line's event, sealed values opened (the page words it: web/views.py)
    seat: int | None = None
    amount: int | None = None
    odds: Fraction | None = None
    undone: bool = False
    #: The cards this line names, item -> card: ``seat:2``, ``centre``, ``extra``, ``draw``.
    cards: dict[str, str] = field(default_factory=dict)
    winner: int | None = None  #: a Trickster guess: the seat guessed
    confirmed_by: tuple[int, ...] = ()  #: a correction: the two seats that confirmed it
    photo: str | None = None


@dataclass
class RoundStory:
    """A closed round: its lines and its verdicts (a correction adds a second)."""

    number: int
    steps: list[Step] = field(default_factory=list)
    results: list[RoundResult] = field(default_factory=list)
    corrections: list[events.Correct] = field(default_factory=list)

    @property
    def photos(self) -> list[str]:
        return [step.photo for step in self.steps if step.photo]

    @property
    def challenger(self) -> int | None:
        return self.results[0].challenger if self.results else None



@dataclass
class Loaded:
    summary: Summary
    #: What the page shows of the record: as far as replay accepts it (None: not even its setup).
    record: Record | None
    stories: list[RoundStory] | None = None  #: told on first use (the odds take a moment)
    review: JsonObject | None = None  #: the closed rounds' review, on first use (web/reviews.py)


def summarize(name: str, record: Record, refusal: RecordError | None = None, *, newest: bool = True) -> Summary:
    """``record`` (what replay accepts of the file) as the lists show it; ``refusal``: why
    replay refuses the whole file (its end); ``newest``: no newer game is in the folder."""
    game = record.game
    config = game.config
    if refusal is None and game.phase == OVER:
        state, end_line = GameState.FINISHED, None
    elif newest:
        state, end_line = GameState.IN_PROGRESS, None
    elif refusal is None:
        state, end_line = GameState.LEFT_UNFINISHED, len(record.lines)
    else:
        state, end_line = GameState.ENDED_EARLY, refusal.line
    return Summary(name=name, state=state, lines=len(record.lines), fingerprint=record.fingerprint,
                   last_hash=record.last_hash, players=config.players, variant=config.variant,
                   rounds=len({r.round for r in game.results}), winner=game.winner,
                   open_round=record.open_round is not None, started=record.lines[0]["time"],
                   virtual=virtual_seats(record.meta.get("virtual")),
                   error=str(refusal) if refusal is not None else None, end_line=end_line)


def invalid_summary(name: str, path: Path, error: RecordError) -> Summary:
    """A record that does not replay: replay's own words for it, and what its setup line
    says when that line replays (a record that goes wrong further on is still a game of
    so many players)."""
    try:
        read_record(path)
    except RecordError as refused:  # replay's first fault, which may come before the follower's
        error = refused
    except OSError:
        pass
    setup = _setup_record(path)
    if setup is None:
        return Summary(name, error=str(error))
    config = setup.game.config
    return Summary(name, players=config.players, variant=config.variant, started=setup.lines[0]["time"],
                   virtual=virtual_seats(setup.meta.get("virtual")), error=str(error))


def _setup_record(path: Path) -> Record | None:
    """The record's first line alone, read as replay reads it; None when it does not replay."""
    try:
        with open(path, "rb") as file:
            first = file.readline(SETUP_LINE_LIMIT)
    except OSError:
        return None
    if not first.endswith(b"\n"):
        return None
    builder = GameBuilder()
    try:
        RecordReader([builder]).take(1, first[:-1])
    except RecordError:
        return None
    return builder.record


#: A setup line is a few hundred bytes; a longer first line is not read to find one.
SETUP_LINE_LIMIT = 64 * 1024


def resolved_part(record: Record) -> Record:
    """``record`` up to its last line that owes no resolution: what replay accepts of a
    record whose last challenge's resolution is not written (yet). Its round is then
    still open, sealed: no verdict the record does not hold is shown."""
    reader = RecordReader([])
    kept = 0
    for number, line in enumerate(record.lines, start=1):
        reader.take(number, canonical(line).encode("utf-8"))
        if not reader.pending:
            kept = number
    if kept == len(record.lines):
        return record
    builder = GameBuilder()
    replay_lines(record.lines[:kept], [builder])
    if builder.record is None:  # line 1, the setup, owes nothing: kept is at least 1
        raise RuntimeError("no setup line kept")
    return builder.record


def tell_rounds(record: Record) -> list[RoundStory]:
    """The record's closed rounds, as the record's reader replays them (sealed values
    opened, the round still open left out), with the odds of every bid from its bidder's view."""
    teller = RoundTeller()
    replay_lines(record.lines, [teller])
    return teller.stories


class RoundTeller(RecordVisitor):
    """Tells each closed round line by line as the record's reader visits its events."""

    def __init__(self) -> None:
        self.stories: list[RoundStory] = []

    def visit_event(self, number: int, line: Line, event: events.Event, game: Game) -> None:
        photo = line.get("photo")
        step = Step(line=number, time=line["time"], type=events.type_name(event), event=event,
                    seat=getattr(event, "seat", None), photo=photo["file"] if photo else None, cards=_cards_named(event))
        match event:
            case events.Deal():
                self.stories.append(RoundStory(game.round_number + 1))
            case events.Bid():
                step.amount = event.amount
                step.odds = bid_odds(seat_view(game, event.seat), event.amount)
            case events.Undo():
                undone = next(s for s in reversed(self.stories[-1].steps) if s.type == EventType.BID and not s.undone)
                undone.undone = True
            case events.Guess():
                step.winner = event.winner
            case events.Correct():
                step.confirmed_by = event.confirmed_by
                self.stories[-1].corrections.append(event)
        self.stories[-1].steps.append(step)

    def visit_verdict(self, number: int, result: RoundResult, game: Game) -> None:
        self.stories[-1].results.append(result)


def _cards_named(event: events.Event) -> dict[str, str]:
    if isinstance(event, events.Deal):
        cards = {f"seat:{seat}": card for seat, card in sorted(event.seats.items()) if card is not None}
        return cards | ({"centre": event.centre} if event.centre else {})
    if isinstance(event, events.Reveal):
        cards = {"centre": event.centre} | ({"extra": event.extra} if event.extra else {})
        return cards | {f"seat:{seat}": card for seat, card in sorted((event.seats or {}).items())}
    if isinstance(event, events.DrawReplacement):
        return {"draw": event.card}
    if isinstance(event, events.Correct):
        return {event.item: event.card}
    return {}


class Games:
    """The records folder, read on demand and cached by each file's size and time; a record
    that grows is followed line by line (:class:`~coyote_pi.record.RecordFollower`).
    ``reviews``: the page's own folder where the reviews are kept over restarts (default:
    beside the records folder, :meth:`Folders.beside`)."""

    def __init__(self, folder: Path, reviews: Path | None = None) -> None:
        self.folder = Path(folder)
        self.reviews = ReviewCache(reviews or Folders.beside(self.folder).reviews, self.folder)
        self._cache: dict[str, tuple[tuple[int, int, bool], Loaded]] = {}
        self._followers: dict[str, RecordFollower] = {}
        # The event loop's watch and the worker threads of the history pages both read.
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        """The games kept, newest first."""
        try:
            files = [path.name for path in self.folder.iterdir() if is_record_file(path.name)]
        except OSError:
            return []
        return sorted((name[: -len(".jsonl")] for name in files), reverse=True)

    def load(self, name: str, names: list[str] | None = None) -> Loaded | None:
        """The game ``name`` (``game-0003``), or None when there is no such record;
        ``names``: the games kept, when the caller has just listed them."""
        path = self.folder / f"{name}.jsonl"
        # Only the newest record can still be finished: the table resumes no other.
        newest = not any(other > name for other in (self.names() if names is None else names))
        with self._lock:
            try:
                stat = path.stat()
            except OSError:
                return None
            key = (stat.st_size, stat.st_mtime_ns, newest)
            cached = self._cache.get(name)
            if cached and cached[0] == key:
                return cached[1]
            follower = self._followers.setdefault(name, RecordFollower(path))
            try:
                record = follower.update()
            except (RecordError, OSError) as error:
                failure = error if isinstance(error, RecordError) else RecordError(None, f"cannot read it: {error}")
                loaded = Loaded(invalid_summary(name, path, failure), None)
            else:
                refusal = follower.unfinished_end
                if refusal is not None:  # a verdict not written yet is not shown
                    record = resolved_part(record)
                loaded = Loaded(summarize(name, record, refusal, newest=newest), record)
            self._cache[name] = (key, loaded)
            return loaded

    def stories(self, name: str) -> list[RoundStory] | None:
        loaded = self.load(name)
        if loaded is None or loaded.record is None:
            return None
        if loaded.stories is None:
            loaded.stories = tell_rounds(loaded.record)
        return loaded.stories

    def review(self, name: str) -> JsonObject | None:
        """The review of the game's closed rounds, of the record as it is now; None when
        it cannot be made."""
        loaded = self.load(name)
        if loaded is None or loaded.record is None:
            return None
        if loaded.review is None:
            loaded.review = self.reviews.review(name)
        return loaded.review

    def summaries(self) -> list[Summary]:
        names = self.names()
        return [loaded.summary for name in names if (loaded := self.load(name, names)) is not None]

    def photo(self, name: str, file: str) -> Path | None:
        """A public photo of ``name`` (only the records folder's ``game-NNNN.photos/`` holds them)."""
        if not PHOTO_FILE.fullmatch(file):
            return None
        path = self.folder / f"{name}{PHOTOS_SUFFIX}" / file
        return path if path.is_file() else None

    def check_arguments(self, summary: Summary) -> list[str]:
        """How to check a downloaded record against the fingerprint the table showed: the
        command, word by word, as it runs where the download was unzipped (the zip holds
        one folder named after the game, :meth:`archive`)."""
        folder = summary.name
        return ["coyote-pi", "replay", f"{folder}/{summary.name}{RECORD_SUFFIX}", "--expect", summary.fingerprint,
                "--photos", f"{folder}/{summary.name}{PHOTOS_SUFFIX}"]

    def check_command(self, summary: Summary) -> str:
        return " ".join(self.check_arguments(summary))

    def transcript(self, name: str) -> str | None:
        """A printable plain-text account of the game: every line of every closed round,
        the odds of each bid, each verdict, the fingerprint and how to check it."""
        loaded = self.load(name)
        if loaded is None:
            return None
        summary, record = loaded.summary, loaded.record
        if record is None:
            return (f"coyote-pi game record {name}.jsonl does not replay: {summary.error}\n"
                    f"The file is kept as it is; `coyote-pi replay {name}.jsonl` says the same.\n")
        out = [f"coyote-pi game record {name}.jsonl: {summary.players} players, {summary.variant}, "
               f"started {summary.started}",
               f"{summary.lines} lines, fingerprint {summary.fingerprint}",
               f"last hash {summary.last_hash}",
               f"check it where the download is unzipped: {self.check_command(summary)}" if summary.checkable
               else f"`coyote-pi replay {name}.jsonl` refuses the record as it is now: {summary.error}", ""]
        for story in self.stories(name) or ():
            out.append(f"Round {story.number}")
            for step in story.steps:
                odds = f"   (holds with {percent(step.odds)} from seat {step.seat}'s view)" if step.odds is not None else ""
                undone = "   (taken back)" if step.undone else ""
                photo = f"   [photo {step.photo}]" if step.photo else ""
                # The transcript speaks English (words/transcript.py), cards and all: its rounds
                # are closed.
                text = describe_event(step.event)
                out.append(f"  line {step.line:4}  {step.time[11:19]}  {text}{odds}{undone}{photo}")
            for result in story.results:
                out.append(f"  verdict of round {result.round}:")
                out += [f"    {line}" for line in explanation_lines(ENGLISH, result)]
            out.append("")
        if record.open_round is not None:
            out.append(f"Round in progress from line {record.open_round.first_line}: its cards are sealed until it ends.")
        if summary.finished:
            out.append(f"Seat {summary.winner} won the game.")
        elif summary.state == GameState.LEFT_UNFINISHED:
            out.append(f"Left unfinished at line {summary.end_line}: a newer game was started.")
        elif summary.state == GameState.ENDED_EARLY:
            out.append(f"Ended early at line {summary.end_line}: a newer game was started.")
        return "\n".join(out) + "\n"

    def archive(self, name: str) -> IO[bytes] | None:
        """A zip of the record, its public photos and its transcript, in a temporary file
        (photos can add up to megabytes: they are not held in memory), at its start."""
        loaded = self.load(name)
        if loaded is None:
            return None
        spooled = tempfile.TemporaryFile()  # noqa: SIM115 (handed to the caller, who closes it)
        with zipfile.ZipFile(spooled, "w") as archive:
            archive.write(self.folder / f"{name}.jsonl", f"{name}/{name}.jsonl", zipfile.ZIP_DEFLATED)
            photos = self.folder / f"{name}{PHOTOS_SUFFIX}"
            archive.mkdir(f"{name}/{name}{PHOTOS_SUFFIX}")  # even empty: the check command names it
            for photo in sorted(photos.iterdir()) if photos.is_dir() else ():
                if PHOTO_FILE.fullmatch(photo.name) and photo.is_file():
                    archive.write(photo, f"{name}/{name}{PHOTOS_SUFFIX}/{photo.name}", zipfile.ZIP_STORED)
            text = self.transcript(name)
            if text is not None:
                archive.writestr(f"{name}/{name}.txt", text.encode("utf-8"), zipfile.ZIP_DEFLATED)
        spooled.seek(0)
        return spooled


def percent(odds: Fraction) -> str:
    """``Fraction(2, 3)`` as ``67%`` (below 1% and above 99% shown as such, never a false 0 or 100)."""
    return chance_text(float(odds))



def photos_by_round(record: Record) -> dict[int, list[tuple[str, str]]]:
    """The photos each closed round's lines name (round number -> (file name, the line's
    event type: ``reveal`` or ``draw``))."""
    end = record.open_round.first_line - 1 if record.open_round else len(record.lines)
    photos: dict[int, list[tuple[str, str]]] = {}
    round_number = 0
    for line in record.lines[:end]:
        event = line.get("event") or {}
        if event.get("type") == EventType.DEAL:
            round_number += 1
        if photo := line.get("photo"):
            photos.setdefault(round_number, []).append((photo["file"], str(event.get("type"))))
    return photos
