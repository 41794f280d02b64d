"""Helpers for the web page's tests: a spectated game in temporary folders, the page served
on a free local port (in a thread), a small HTTP client that keeps its cookie, and a
listener that collects every server-sent event."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest
import uvicorn

from coyote_pi.engine.game import GameConfig
from coyote_pi.engine.views import open_round
from coyote_pi.sim.spectated import SpectatedGame
from coyote_pi.table.i18n import card_text
from coyote_pi.table.verdict_text import explanation_lines
from coyote_pi.web.app import Options, create_app
from coyote_pi.web.bulletin import Folders

PIN = "246810"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def served(folders: Folders, options: Options | None = None):
    """The page on 127.0.0.1 (a free port) in a thread: yields its port."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(folders, options), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the page did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


@dataclass
class Reply:
    status: int
    headers: dict
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


@dataclass
class Client:
    """A browser's requests as the page sees them: its cookie kept, its Origin sent."""

    port: int
    cookie: str | None = None
    origin: bool = True

    def request(self, method: str, path: str, form: dict | None = None, headers: dict | None = None) -> Reply:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        sent = dict(headers or {})
        if self.cookie:
            sent["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            if self.origin:
                sent.setdefault("Origin", f"http://127.0.0.1:{self.port}")
        connection.request(method, path, body, sent)
        response = connection.getresponse()
        reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        connection.close()
        if "set-cookie" in reply.headers:
            self.cookie = reply.headers["set-cookie"].split(";")[0]
        return reply

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, form: dict, **kwargs) -> Reply:
        return self.request("POST", path, form, **kwargs)

    def login(self, pin: str = PIN) -> Reply:
        return self.post("/login?next=/records", {"pin": pin})


@dataclass
class Events:
    """Every server-sent event of one stream, parsed (``channel``, JSON data), as it comes."""

    port: int
    path: str = "/events"
    cookie: str | None = None
    messages: list = field(default_factory=list)

    def start(self) -> Events:
        self._connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self._connection.request("GET", self.path, headers={"Cookie": self.cookie} if self.cookie else {})
        self._response = self._connection.getresponse()
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def _read(self) -> None:
        name, data = None, None
        try:
            for raw in self._response:
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    data = line[6:]
                elif not line and data is not None:
                    self.messages.append((name, json.loads(data)))
                    name, data = None, None
        except (OSError, ValueError, AttributeError, http.client.HTTPException):  # closed by the test
            return

    def wait_for(self, test, timeout: float = 5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [m for m in self.messages if test(m[1])]
            if found:
                return found[-1][1]
            time.sleep(0.02)
        raise AssertionError(f"no such event came; last: {self.messages[-1:] if self.messages else None}")

    def close(self) -> None:
        # Shut the socket first: the reading thread holds the response's lock in a read.
        with contextlib.suppress(OSError):
            self._connection.sock.shutdown(socket.SHUT_RDWR)
        self._connection.close()


def spectated(root: Path, players: int = 4, variant: str = "trickster", seed: int = 5, **kwargs) -> SpectatedGame:
    return SpectatedGame(root / "games", root / "public", GameConfig(players, variant), seed, **kwargs)


@pytest.fixture
def folders(tmp_path) -> Folders:
    return Folders.beside(tmp_path / "games")


#: A card as the HTML marks it: its value and the round it belongs to.
HTML_CARD = re.compile(r'data-card="([^"]*)"[^>]*?data-round="([^"]*)"')


def html_cards(html: str) -> list[tuple[str, int]]:
    """Every card an HTML page or fragment shows, with its round; a card without one fails."""
    assert html.count("data-card=") == len(HTML_CARD.findall(html)), "a card without its round"
    return [(card, int(round_number)) for card, round_number in HTML_CARD.findall(html)]


def json_cards(value, round_number: int | None = None) -> list[tuple[str, int | None]]:
    """Every card in a message's JSON with the round of the object that holds it: the
    page's ``{"card", "round"}`` items, and a verdict's ``seats``, ``centre``, ``extra``
    and ``replacement`` (``live.json``'s last result)."""
    found = []
    if isinstance(value, dict):
        here = value.get("round", round_number) if isinstance(value.get("round"), int) else round_number
        if isinstance(value.get("card"), str):
            found.append((value["card"], here))
        for key in ("centre", "extra", "replacement"):
            if isinstance(value.get(key), str):
                found.append((value[key], here))
        if isinstance(value.get("seats"), dict):
            found += [(card, here) for card in value["seats"].values() if isinstance(card, str)]
        for item in value.values():
            found += json_cards(item, here)
    elif isinstance(value, list):
        for item in value:
            found += json_cards(item, round_number)
    return found


def secret_sentences(game: SpectatedGame, texts) -> list[str]:
    """What the verdict would say about the open round's cards ("Seat 2: 7", "Centre: 10"),
    leaving out any sentence a closed round of this game said too (that one is public)."""
    said = {line for result in game.game.results for line in explanation_lines(texts, result)}
    sentences = []
    for item, card in game.open_cards().items():
        if item.startswith("seat:"):
            sentences.append(texts("expl.seat_card", seat=int(item[5:]), card=card_text(card)))
        elif item == "centre":
            sentences.append(texts("expl.centre", card=card_text(card)))
    return [sentence for sentence in sentences if sentence not in said]


def assert_no_open_card(game: SpectatedGame, *, html: str = "", message=None) -> int:
    """Neither ``html`` nor ``message`` shows a card of ``game``'s open round; returns how
    many cards of closed rounds they showed (so a test knows its check saw something)."""
    from coyote_pi.table.i18n import Translator

    open_round = open_round_number(game)
    cards = html_cards(html) + (json_cards(message) if message is not None else [])
    if open_round is not None:
        assert all(round_number is not None for _, round_number in cards), cards
        assert [c for c in cards if c[1] == open_round] == [], f"a card of the open round {open_round}"
        text = html + (json.dumps(message, ensure_ascii=False) if message is not None else "")
        for sentence in secret_sentences(game, Translator(game.language)):
            assert sentence not in text, sentence
    return len(cards)


def open_round_number(game: SpectatedGame) -> int | None:
    r = open_round(game.game)
    return r.number if r is not None else None
