"""The real table and the real page together, in a real browser: the simulated table
(real controller, mock GPIO pins pressed by the scripted players, the record, the
bulletin) plays a short game while the page is served and Debian's headless Chromium
watches it. What the page shows after the presses is what the table knew as it wrote
``live.json``; the PIN the OLED shows after the chord opens the setup page between
games, and the setup page refuses during a round; no message and no DOM ever holds a
card of the open round, as the simulated hands dealt them."""

from __future__ import annotations

import json
import re
import time

from selenium.webdriver.support.ui import WebDriverWait

from coyote_pi.engine import events
from coyote_pi.record import read_record
from coyote_pi.sim.rig import SimOptions
from coyote_pi.sim.table import SimPace
from coyote_pi.web.app import Options
from coyote_pi.web.bulletin import Folders
from coyote_pi.web.security import COOKIE
from coyote_pi.web.texts import Texts
from tests.table.conftest import running_table, sim_devices, table_config
from tests.web.conftest import Client, LiveWrites, ask_for_pin, assert_no_card_of, json_cards, needs_chromium, served

pytestmark = needs_chromium

URL = "http://table.test/"
#: Each seat thinks a little before its turn: every bid stays on the page long enough
#: for the test to look at it.
PACE = SimPace(think=0.4, hold=0.03, gap=0.025, retry=2.0)
#: One look at the browser's table page: the live.json write it shows, its DOM, whose
#: turn it says and the last bid of its list.
SNAPSHOT = """
    var live = document.getElementById('live'), turn = live.querySelector('[data-turn]'),
        bids = live.querySelectorAll('.bid-list li[data-bid]'), last = bids[bids.length - 1];
    return {seq: document.body.getAttribute('data-seq'), html: live.innerHTML,
            turn: turn ? Number(turn.getAttribute('data-turn')) : null,
            bid: last ? [Number(last.getAttribute('data-seat')), Number(last.getAttribute('data-bid'))] : null};"""


#: Whose turn, and each bid (seat, amount), as the table page's HTML marks them.
TURN = re.compile(r'data-turn="([0-9]+)"')
BIDS = re.compile(r'data-bid="([0-9]+)" data-seat="([0-9]+)"')


def bids_made(history) -> set[tuple[int, int, int]]:
    """Every bid of a game's ``history`` as ``(round, seat, amount)``."""
    made, round_number = set(), 0
    for event in history:
        round_number += isinstance(event, events.Deal)
        if isinstance(event, events.Bid):
            made.add((round_number, event.seat, event.amount))
    return made


def test_the_real_table_plays_while_the_page_follows_it_in_a_browser(tmp_path, browser, monkeypatch):
    config = table_config(tmp_path / "games", 2, "basic", start=None).with_web(enabled=True, url=URL)
    writes = LiveWrites(monkeypatch)
    folders = Folders.beside(tmp_path / "games")
    sim = SimOptions(seed=3, fingers="pins", camera="scene", pace=PACE)
    with running_table(config, sim, devices=sim_devices(), before_start=writes.install) as (rig, spy), \
            served(folders, Options(test_hook=True, log_command=None)) as port:
        base = f"http://127.0.0.1:{port}"
        fingers = rig.sim.fingers  # the scripted players' own fingers on the mock GPIO pins

        # Before the game, "Who starts?": the chord shows the page's address, ok a PIN.
        shown, published = ask_for_pin(spy, fingers, 2, folders, URL)
        assert published and shown not in json.dumps(writes.last.document)
        browser.get(base + "/setup")
        assert browser.current_url.startswith(base + "/login")
        browser.find_element("id", "pin").send_keys(shown)  # as the OLED shows it: "123 456"
        browser.find_element("css selector", "form.login button").click()
        # A click starts the form's request; the next page comes when the server answers
        # (later on a loaded machine), so wait for it rather than look at once.
        WebDriverWait(browser, 20).until(lambda b: b.current_url == base + "/setup")
        # A setting proposed in the browser's form is one the table takes for this game.
        keep = browser.find_element("name", "table.keep_photos_games")
        keep.clear()
        keep.send_keys("7")
        browser.find_element("css selector", "form.settings-form button").click()
        WebDriverWait(browser, 20).until(lambda b: b.find_elements("id", "settings-saved"))
        deadline = time.monotonic() + 10
        while rig.controller.config.keep_photos_games != 7 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert rig.controller.config.keep_photos_games == 7
        assert rig.controller.pacing == config.pacing  # nothing else it showed was proposed

        session = Client(port, cookie=f"{COOKIE}={browser.get_cookie(COOKIE)['value']}")
        fingers.tap(1, "minus")  # any other press takes the PIN down ...
        spy.wait_for_screen(lambda stage, s: s.title == "Who starts?")
        browser.get(base + "/")
        fingers.tap(1, "ok")  # ... and seat 1 starts; the scripted players play on

        checked, refusals = 0, []
        deadline = time.monotonic() + 45
        while not (writes.last.document["stage"] == "over"
                   and browser.execute_script("return document.body.getAttribute('data-seq')")
                   == str(writes.last.document["seq"])):
            assert time.monotonic() < deadline, "the game did not end in time"
            look = browser.execute_script(SNAPSHOT)
            if look["seq"] is None:
                continue
            truth = writes.by_seq[int(look["seq"])]
            closed = assert_no_card_of(truth.open_round, truth.dealt, truth.results, "en", html=look["html"])
            if truth.open_round is not None:
                assert closed == 0  # no verdict shows while a round is open
                assert look["bid"] == (list(truth.last_bid) if truth.last_bid else None)
            if truth.turn is not None:
                assert look["turn"] == truth.turn
            checked += 1
            if not refusals and truth.open_round is not None and truth.turn is not None:
                # The browser's session asks (from the side: the browser keeps watching).
                attempt = [session.get(path) for path in ("/setup", "/records/game-0001.zip")]
                if writes.last.open_round == truth.open_round:  # the round stayed open meanwhile
                    refusals = attempt

        # Setup is for between games (docs/web.md); a download waits for the round's verdict.
        said = [Texts("en")("refused.game_on"), Texts("en")("refused.round_open")]
        assert [(reply.status, words in reply.text) for reply, words in zip(refusals, said)] == [(409, True)] * 2
        assert rig.controller.game.winner is not None and checked > 20
        # The chord that asked for the PIN made no seat virtual: the scripted people played both.
        assert "virtual" not in read_record(rig.controller.state.recorded.path).meta

        # Every message the page's script put into the page, checked against the table's
        # truth as it wrote that live.json: whose turn, the last bid, no card of the open round.
        messages = [json.loads(m["data"]) for m in browser.execute_script("return window.coyoteMessages")]
        assert len(messages) > 20
        bids_seen = set()
        for message in messages:
            truth, html = writes.by_seq[message["seq"]], message["html"]
            assert message["state"]["round_open"] == (truth.open_round is not None)
            assert_no_card_of(truth.open_round, truth.dealt, truth.results, "en", html=html, message=message["state"])
            turn = TURN.search(html)
            last_bid = [(int(seat), int(amount)) for amount, seat in BIDS.findall(html)][-1:]
            assert (int(turn.group(1)) if turn else None) == truth.turn
            assert (last_bid[0] if last_bid else None) == truth.last_bid
            bids_seen.update((truth.open_round, *bid) for bid in last_bid)
        # Every bid of the game was the page's last bid after its press.
        assert bids_seen == bids_made(read_record(rig.controller.state.recorded.path).game.history)
        assert any(json_cards(message["state"]) for message in messages)  # verdicts showed their cards

        # Between games again: the session opens the setup page.
        browser.get(base + "/setup")
        assert browser.current_url == base + "/setup" and browser.find_elements("css selector", "form.settings-form")
