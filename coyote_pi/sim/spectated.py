"""A scripted game written as the table writes it for its web page: the record and the
bulletin's ``live.json``, one event at a time.

The web page (:mod:`coyote_pi.web`) reads only the records folder and the bulletin
folder (docs/web.md). The real simulated table (:func:`~coyote_pi.sim.rig.open_sim_rig`
with ``[web] enabled``) feeds the page in ``run --sim --web``, ``demo --web``, ``coyote-pi
bench web`` and the end-to-end tests (``tests/web/test_browser_table.py``,
``tests/web/test_table_contract.py``). This module exists beside it for the page's own
unit tests, which need what a running table does not give: a game that stands still
exactly where a test wants it (a bid made, a round open, a PIN published), at once, on
the test's thread, the same every time, with no controller, buttons or camera threads.
:class:`SpectatedGame` plays the scripted players of :mod:`coyote_pi.engine.players` at
a physical table (the cards are observed, so reveals have photos), writes each event to
the record exactly as the table does (sealed while its round is open), keeps the reveal
photo private until the round closes, and then publishes ``live.json`` with only public
information, in the fields the table's bulletin writes
(:mod:`coyote_pi.table.bulletin`; the contract test holds the two to the same reader).
It also knows the cards of the open round (:meth:`SpectatedGame.open_cards`), which the
page must never show.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from coyote_pi import cards
from coyote_pi.contract import page as page_contract
from coyote_pi.contract.records import photos_folder, record_file
from coyote_pi.engine import events
from coyote_pi.engine.game import DEAL, OVER, Game, GameConfig
from coyote_pi.engine.players import ScriptedPlayer, next_scripted_event
from coyote_pi.engine.views import open_round, public_view
from coyote_pi.files import write_atomically
from coyote_pi.record import Photo, RecordedGame, Vault, utc_now
from coyote_pi.table import stages
from coyote_pi.table.play_by_play import describe
from coyote_pi.table.web_access import pin_hash


class SpectatedGame:
    """A scripted game at a physical table, recorded in ``records`` and published in ``bulletin``.

    ``photo`` is the JPEG kept for every reveal (any bytes will do for the record; a
    real picture for screenshots). ``number`` names the record ``game-NNNN.jsonl``.
    ``virtual`` (seat -> level) marks seats as the table's own, as the table's setup line
    and ``live.json`` do; their moves stay scripted like the others'.
    """

    def __init__(self, records: Path, bulletin: Path, config: GameConfig, seed: int | str, *,
                 language: str = "en", photo: bytes = b"", number: int = 1,
                 virtual: dict[int, str] | None = None) -> None:
        self.records, self.bulletin = Path(records), Path(bulletin)
        self.records.mkdir(parents=True, exist_ok=True)
        self.bulletin.mkdir(parents=True, exist_ok=True)
        self.config, self.seed, self.language, self.photo = config, seed, language, photo
        self.path = self.records / record_file(number)
        self.virtual = {str(seat): level for seat, level in sorted((virtual or {}).items())}
        meta: dict[str, object] = {"source": "spectated", **({"virtual": self.virtual} if self.virtual else {})}
        self.table = RecordedGame.start(self.path, config, meta=meta)
        self.players = {seat: ScriptedPlayer() for seat in range(1, config.players + 1)}
        self.seq = -1
        self.started = utc_now()
        self.log: list[str] = []
        self.pin: dict[str, object] | None = None
        self.private_photos = Vault(self.path).folder / photos_folder(self.path).name
        self.publish()

    @property
    def game(self) -> Game:
        return self.table.game

    def step(self) -> events.Event | None:
        """Play the next event (record it, then publish the bulletin); None once the game is over."""
        event = next_scripted_event(self.game, self.players, self.seed, physical=True)
        if event is None:
            return None
        results = len(self.game.results)
        self.table.apply(event, photo=self._keep_photo() if isinstance(event, events.Reveal) else None)
        if len(self.game.results) > results:
            self._publish_photos()
        self.log = (self.log + [describe(event)])[-30:]
        self.publish()
        return event

    def play_until(self, done: Callable[[Game, events.Event], bool]) -> events.Event | None:
        """Step until ``done(game, event)`` holds for the event just played (or the game ends)."""
        while (event := self.step()) is not None:
            if done(self.game, event):
                return event
        return None

    def play_to_end(self) -> None:
        """Play on until the game is over."""
        while self.step() is not None:
            pass

    def open_cards(self) -> dict[str, str]:
        """The cards of the round in play, as the dealer dealt them: ``{"seat:1": "4",
        "centre": "10", "deck:1": ...}``; empty between rounds. The page must show none."""
        r = open_round(self.game)
        if r is None:
            return {}
        deck = cards.shuffled_deck(self.seed, r.number)
        seats = sorted(r.seat_cards)
        dealt = {f"seat:{seat}": card for seat, card in zip(seats, deck)}
        dealt["centre"] = deck[len(seats)]
        dealt.update({f"deck:{i}": card for i, card in enumerate(deck[len(seats) + 1:len(seats) + 3], start=1)})
        return dealt

    def set_pin(self, pin: str | None, minutes: float = 10) -> None:
        """Publish ``pin`` (salted and hashed, with an expiry) as the OLED's chord would; None removes it."""
        if pin is None:
            self.pin = None
        else:
            salt = os.urandom(16).hex()
            expires = datetime.now(UTC) + timedelta(minutes=minutes)
            self.pin = {"salt": salt, "sha256": pin_hash(pin, salt),
                        "expires": expires.isoformat(timespec="milliseconds").replace("+00:00", "Z")}
        self.publish()

    def publish(self) -> None:
        """Write ``live.json`` (public information only), one ``seq`` higher."""
        self.seq += 1
        game = self.game
        round_open = open_round(game) is not None
        stage = stages.Stage.VERDICT if game.phase == DEAL and game.results else stages.OF_PHASE[game.phase]
        live = {
            "version": 1, "seq": self.seq, "started": self.started, "time": utc_now(),
            "language": self.language, "players": self.config.players, "variant": self.config.variant,
            "game_file": self.path.name, "stage": stage, "round_open": round_open,
            "between_games": game.phase == OVER or (game.phase == DEAL and not game.results and game.round is None),
            "virtual": self.virtual, "public": public_view(game),
            "screen": {"title": stage, "big": str(game.turn or ""), "lines": self.log[-1:], "page": [1, 1]},
            "log": self.log, "camera": "ok",
            "web": {"url": "http://127.0.0.1/", "pin": self.pin},
        }
        write_atomically(self.bulletin / page_contract.LIVE, json.dumps(live, ensure_ascii=False).encode("utf-8"))

    def _keep_photo(self) -> Photo:
        name = f"round-{self.game.round_number:02d}-reveal.jpg"
        self.private_photos.mkdir(mode=0o700, parents=True, exist_ok=True)
        (self.private_photos / name).write_bytes(self.photo)
        return {"file": name, "sha256": hashlib.sha256(self.photo).hexdigest()}

    def _publish_photos(self) -> None:
        public = photos_folder(self.path)
        for photo in sorted(self.private_photos.glob("*.jpg")) if self.private_photos.is_dir() else ():
            public.mkdir(exist_ok=True)
            os.replace(photo, public / photo.name)
