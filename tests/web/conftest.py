"""Helpers for the web page's tests: a spectated game in temporary folders, the page served
on a free local port (in a thread), a small HTTP client that keeps its cookie, a
listener that collects every server-sent event, the real table's ``live.json`` writes
with what the table knew at each, and a headless Chromium."""

from __future__ import annotations

import contextlib
import dataclasses
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

from coyote_pi import browser as chromium_browser
from coyote_pi.contract import page as page_contract
from coyote_pi.engine.game import BIDDING, GameConfig
from coyote_pi.engine.views import open_round
from coyote_pi.sim.spectated import SpectatedGame
from coyote_pi.table import bulletin as table_bulletin
from coyote_pi.web.app import Options, create_app
from coyote_pi.web.bulletin import Folders, read_live
from coyote_pi.words.translator import card_text
from coyote_pi.words.verdict import explanation_lines

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


def csrf_of(client: Client) -> str:
    """The session's CSRF token, as the setup page's forms carry it."""
    return re.search(r'name="csrf" value="([^"]+)"', client.get("/setup").text).group(1)


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


def secret_sentences(dealt: dict[str, str], results, texts) -> list[str]:
    """What the verdict would say about the ``dealt`` cards of the open round ("Seat 2: 7",
    "Centre: 10"), leaving out any sentence a closed round (``results``) said too (that one
    is public)."""
    said = {line for result in results for line in explanation_lines(texts, result)}
    sentences = []
    for item, card in dealt.items():
        if item.startswith("seat:"):
            sentences.append(texts("expl.seat_card", seat=int(item[5:]), card=card_text(card)))
        elif item == "centre":
            sentences.append(texts("expl.centre", card=card_text(card)))
    return [sentence for sentence in sentences if sentence not in said]


def assert_no_card_of(open_round: int | None, dealt: dict[str, str], results, language: str, *, html: str = "",
                      message=None) -> int:
    """Neither ``html`` nor ``message`` shows a card of the open round ``open_round`` (None:
    no round is open), whose cards were ``dealt`` (``{"seat:1": "4", "centre": "10", ...}``):
    every card shown is tagged with a round, none with the open one, and no sentence
    names a dealt card where it lies, unless a closed round (``results``) said it too.
    Returns how many cards of closed rounds they showed (so a test knows its check saw
    something)."""
    from coyote_pi.words.translator import Translator

    cards = html_cards(html) + (json_cards(message) if message is not None else [])
    if open_round is not None:
        assert all(round_number is not None for _, round_number in cards), cards
        assert [c for c in cards if c[1] == open_round] == [], f"a card of the open round {open_round}"
        text = html + (json.dumps(message, ensure_ascii=False) if message is not None else "")
        for sentence in secret_sentences(dealt, results, Translator(language)):
            assert sentence not in text, sentence
    return len(cards)


def assert_no_open_card(game: SpectatedGame, *, html: str = "", message=None) -> int:
    """:func:`assert_no_card_of` the spectated ``game``'s open round."""
    return assert_no_card_of(open_round_number(game), game.open_cards(), game.game.results, game.language,
                             html=html, message=message)


def open_round_number(game: SpectatedGame) -> int | None:
    r = open_round(game.game)
    return r.number if r is not None else None


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium, one per test module (a module using it skips without it)."""
    with chromium_browser.chromium() as driver:
        yield driver


needs_chromium = pytest.mark.skipif(chromium_browser.missing() is not None,
                                    reason=f"no browser: {chromium_browser.missing()}")


@dataclass(frozen=True)
class Written:
    """One ``live.json`` the real table wrote, and what the table knew as it wrote it."""

    document: dict
    #: The round open then (None: none), and its cards as the simulated hands dealt them.
    open_round: int | None
    dealt: dict
    #: The verdicts of the rounds closed by then.
    results: tuple
    turn: int | None
    last_bid: tuple[int, int] | None
    between_games: bool


class LiveWrites:
    """Every ``live.json`` a simulated table writes, by ``seq``, each with the truth of that
    moment (taken on the controller's thread, as it writes): ``running_table(...,
    before_start=writes.install)``."""

    def __init__(self, monkeypatch) -> None:
        self._monkeypatch = monkeypatch
        self.by_seq: dict[int, Written] = {}
        #: The newest write (set in one step: the table's thread adds while tests read).
        self.last: Written | None = None

    def install(self, rig) -> None:
        real_write = table_bulletin.write_atomically
        bulletin = rig.controller.web.bulletin
        real_facts = bulletin.facts
        truth: list[Written] = []

        def facts_told(facts):
            # What live.json says is the table as it stood when its facts were last told
            # (a write at the end of a gap may come in the middle of a later pass).
            truth[:] = [self._truth(rig)]
            real_facts(facts)

        def spying_write(path, data):
            if path.name == page_contract.LIVE:
                document = json.loads(data)
                self.by_seq[document["seq"]] = self.last = dataclasses.replace(truth[0], document=document)
            real_write(path, data)

        bulletin.facts = facts_told
        self._monkeypatch.setattr(table_bulletin, "write_atomically", spying_write)

    @staticmethod
    def _truth(rig) -> Written:
        controller = rig.controller
        game = controller.state.game
        r = None if game is None else open_round(game)
        dealt = {}
        if r is not None:
            seats = sorted(r.seat_cards)
            order = rig.sim.deck(r.number, len(seats))
            dealt = {f"seat:{seat}": card for seat, card in zip(seats, order)}
            dealt["centre"] = order[len(seats)]
            dealt.update({f"deck:{i}": card for i, card in enumerate(order[len(seats) + 1:len(seats) + 3], start=1)})
        return Written({}, None if r is None else r.number, dealt, tuple(game.results) if game else (),
                       game.turn if game is not None and game.phase == BIDDING else None,
                       tuple(r.bids[-1]) if r is not None and r.bids else None,
                       table_bulletin.between_games(controller))


def ask_for_pin(spy, fingers, seat: int, folders: Folders, url: str) -> tuple[str, dict]:
    """At "Who starts?", ``seat`` presses the chord (the page's address shows, ``url``) and
    ok: the PIN as the OLED shows it, and as ``live.json`` publishes it once the page can read it."""
    spy.wait_for(lambda p: p.setup == ("start", None))
    fingers.chord(seat)
    spy.wait_for_screen(lambda stage, s: s.qr == url)
    fingers.tap(seat, "ok")
    shown = spy.wait_for_screen(lambda stage, s: s.title == "Web page PIN").big
    deadline = time.monotonic() + 5
    while read_live(folders).pin is None and time.monotonic() < deadline:
        time.sleep(0.02)  # published with the pass's end, at most 50 ms later
    return shown, read_live(folders).pin
