"""Sealing hidden values: commitments, the open round's seals, and the private vault.

Hidden cards stay hidden: a deal and a Trickster guess are *sealed* in the file, their
values replaced by a commitment (:func:`commitment`, a salted SHA-256), while their round
is open. The values and salts wait in a service-only file (:class:`Vault`, written
before the sealed line) and are written in the round's ``opening`` line, just before the
resolution that closes it. So the file can be shown at any moment, and still proves what
the camera saw: the reader (:mod:`coyote_pi.record.reader`) replays a sealed round once
it is opened, and checks that every commitment opens to what was committed.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import cast

from coyote_pi import json_text
from coyote_pi.engine import events
from coyote_pi.engine.events import EventType
from coyote_pi.files import fsync_folder, write_atomically
from coyote_pi.json_text import spelled
from coyote_pi.record.lines import HASH, Body, LineKind, Opening, RecordError, canonical, sha256_text

#: The events sealed while their round is open, and the keys that stay public in the
#: sealed form (beside ``commitment``): that a round was dealt, and that a seat guessed.
SEALED: dict[str, frozenset[str]] = {EventType.DEAL: frozenset({"type"}),
                                     EventType.GUESS: frozenset({"type", "seat"})}
_OPENING_KEYS = frozenset({"seq", "salt", "event"})
_SALT = re.compile(r"[0-9a-f]{32}")


def new_salt() -> str:
    """128 random bits from the operating system, as 32 lowercase hex digits."""
    return secrets.token_hex(16)


def commitment(event: events.EventData, salt: str) -> str:
    """The commitment to ``event`` (as :func:`coyote_pi.engine.events.to_dict` writes it):
    the SHA-256, in lowercase hex, of the canonical JSON of ``{"event": event, "salt": salt}``.

    The salt makes it hiding (without it, the few possible deals or guesses could simply
    be tried); SHA-256 makes it binding (no other event opens the same commitment).

    >>> commitment({"seat": 3, "type": "guess", "winner": 1}, "00" * 16)[:16]
    '52fced266ba429ea'
    """
    return sha256_text(canonical({"event": event, "salt": salt}))


def is_sealed(event: object) -> bool:
    """The event of a line is in its sealed form (its values wait for the round's opening)."""
    return isinstance(event, dict) and "commitment" in event


class Vault:
    """The service-only files of the record ``game-0001.jsonl``: ``private/game-0001.NAME.json``
    beside it (the folder mode 0700, each file 0600), each replaced whole and fsynced.

    ``round`` holds the open round's openings (what :class:`Seals` committed to, with the
    salts), for resuming that round after a power cut; ``setup`` what the device keeps
    to itself about the game (the virtual players' secret seed, the simulated table's seed
    and deal plan).
    """

    ROUND, SETUP = "round", "setup"

    def __init__(self, record: str | os.PathLike[str]) -> None:
        record = Path(record)
        self.folder = record.parent / "private"
        self.stem = record.stem

    def path(self, name: str) -> Path:
        return self.folder / f"{self.stem}.{name}.json"

    def write(self, name: str, data: dict[str, object]) -> None:
        if not self.folder.is_dir():
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            fsync_folder(self.folder.parent)
        write_atomically(self.path(name), (canonical(data) + "\n").encode("utf-8"), durable=True, mode=0o600)

    def read(self, name: str) -> dict[str, object] | None:
        """The file's JSON object; None when there is no such file (ValueError when it is
        not a JSON object)."""
        try:
            data = json_text.loads(self.path(name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        if not isinstance(data, dict):
            raise ValueError(f"{self.path(name)} does not hold a JSON object")
        return data

    def delete(self, name: str) -> None:
        try:
            self.path(name).unlink()
        except FileNotFoundError:
            return
        fsync_folder(self.folder)


class Seals:
    """The open round's commitments: for each sealed line, its ``seq``, salt and event.

    :meth:`seal` puts an event in its sealed form, after writing what opens it to the
    ``vault`` (None: kept in memory only, as :func:`~coyote_pi.record.writer.encode_record`
    does); :meth:`opening` is the line that opens them all; :meth:`close` forgets them
    once that line is written. ``salt`` gives each commitment its salt (:func:`new_salt`;
    tests pass fixed ones).
    """

    def __init__(self, vault: Vault | None, salt: Callable[[], str] = new_salt,
                 openings: Iterable[Opening] = ()) -> None:
        self.vault = vault
        self.salt = salt
        self.openings = list(openings)

    def seal(self, seq: int, event: events.EventData) -> events.EventData:
        """``event`` (for the line ``seq``) as the record shows it while the round is open."""
        salt = self.salt()
        if not _SALT.fullmatch(salt):
            raise ValueError(f"a salt is 32 lowercase hex digits, not {salt!r}")
        self.forget_from(seq)
        self.openings.append({"seq": seq, "salt": salt, "event": event})
        if self.vault is not None:
            self.vault.write(Vault.ROUND, {"openings": self.openings})
        public = SEALED[str(event["type"])]
        return {**{key: event[key] for key in public}, "commitment": commitment(event, salt)}

    def forget_from(self, seq: int) -> None:
        """Forget the openings of line ``seq`` on: a line that was never written (a failed
        write) leaves its seq to the next one, and must not be opened."""
        self.openings = [o for o in self.openings if o["seq"] < seq]

    def opening(self) -> Body | None:
        """The opening line's body, or None when nothing is sealed (a corrected verdict)."""
        return {"kind": LineKind.OPENING, "openings": self.openings} if self.openings else None

    def close(self) -> None:
        self.openings = []
        if self.vault is not None:
            self.vault.delete(Vault.ROUND)


def check_sealed_form(number: int, data: events.EventData) -> None:
    """A sealed event has its type's public keys and a commitment, typed right."""
    kind = data.get("type")
    public = SEALED.get(kind) if isinstance(kind, str) else None
    if public is None:
        raise RecordError(number, f"only {' and '.join(SEALED)} events are sealed, not {spelled(kind)}")
    if set(data) != public | {"commitment"}:
        raise RecordError(number, f"a sealed {kind} event has exactly the keys "
                                  f"{', '.join(sorted(public | {'commitment'}))}")
    sealed = data["commitment"]
    if not (isinstance(sealed, str) and HASH.fullmatch(sealed)):
        raise RecordError(number, "a commitment is a SHA-256 in lowercase hex")
    seat = data.get("seat")
    if "seat" in data and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise RecordError(number, f"a seat must be a whole number, not {spelled(seat)}")


def check_openings(number: int | None, openings: object) -> list[Opening]:
    """An opening line's list (or the vault's), once every entry has the right form."""
    if not isinstance(openings, list):
        raise RecordError(number, f"'openings' must be a list of what the round's sealed lines committed to, "
                                  f"not {spelled(openings)}")
    if not openings:
        raise RecordError(number, "'openings' is empty: it opens each of the round's sealed lines, and a round "
                                  "has at least its deal")
    for opening in openings:
        if not isinstance(opening, dict) or set(opening) != _OPENING_KEYS:
            raise RecordError(number, "each opening has exactly the keys event, salt and seq")
        if isinstance(opening["seq"], bool) or not isinstance(opening["seq"], int):
            raise RecordError(number, f"an opening's seq must be a whole number, not {spelled(opening['seq'])}")
        if not (isinstance(opening["salt"], str) and _SALT.fullmatch(opening["salt"])):
            raise RecordError(number, f"a salt is 32 lowercase hex digits, not {spelled(opening['salt'])}")
    return cast(list[Opening], openings)  # each entry checked above (its event when it is opened)


def private_openings(path: Path) -> list[Opening] | None:
    """The openings the vault of the record at ``path`` keeps for its open round; None when
    there is no such file (the round was closed, or never sealed anything). RecordError
    when the file is damaged."""
    vault = Vault(path)
    try:
        saved = vault.read(Vault.ROUND)
        return None if saved is None else check_openings(None, saved["openings"])
    except (ValueError, KeyError, TypeError, RecordError):
        raise RecordError(None, f"{vault.path(Vault.ROUND)}, which opens the record's last round, is damaged: "
                                "that round cannot be resumed") from None
